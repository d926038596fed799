"""Stable pseudonyms for ``--anonymize``: a keyed hash of each name.

``student-1a2b3c`` is the first hex digits of ``HMAC-SHA256(key, name)``, so the same
name gets the same pseudonym in every report made with the same key, and nobody
without the key can recover a name by hashing a class roster.  The key is, in order:
the ``key`` argument, the environment variable ``WINNOW_ANONYMIZE_KEY``, or a random
key created once in ``$XDG_CONFIG_HOME/winnow/anonymize.key`` (default
``~/.config/winnow/anonymize.key``).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import posixpath
import secrets
from collections.abc import Iterable
from pathlib import Path

from winnow.errors import ReportError

KEY_ENV = "WINNOW_ANONYMIZE_KEY"
#: Hex digits of a pseudonym; more are used where two names would collide.
DIGITS = 6


def key_file() -> Path:
    """Where the per-user pseudonym key lives."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(Path.home(), ".config")
    return Path(base) / "winnow" / "anonymize.key"


def default_key() -> bytes:
    """The key from ``WINNOW_ANONYMIZE_KEY``, else the per-user key file (created once)."""
    env = os.environ.get(KEY_ENV)
    if env:
        return env.encode("utf-8")
    path = key_file()
    try:
        if path.exists():
            return path.read_bytes().strip()
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_hex(32).encode("ascii")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key + b"\n")
        return key
    except OSError as exc:
        raise ReportError(
            str(path), f"cannot read or create the pseudonym key ({exc.strerror}); "
            f"set {KEY_ENV} instead"
        ) from exc


def _digest(key: bytes, kind: str, name: str) -> str:
    return hmac.new(key, f"{kind}\0{name}".encode(), hashlib.sha256).hexdigest()


class Pseudonyms:
    """Maps submission names and file paths to pseudonyms, without collisions.

    Submissions become ``student-XXXXXX``; a file keeps only its extension:
    ``file-XXXX.py`` (its path inside the submission may name the student too).
    """

    def __init__(self, submissions: Iterable[str], key: bytes | None = None) -> None:
        self._key = default_key() if key is None else key
        self._subs = self._assign("submission", "student-", sorted(set(submissions)), DIGITS)
        self._files: dict[tuple[str, str], str] = {}

    def _assign(self, kind: str, prefix: str, names: list[str], digits: int) -> dict[str, str]:
        digests = {name: _digest(self._key, kind, name) for name in names}
        while True:
            short = {name: prefix + d[:digits] for name, d in digests.items()}
            if len(set(short.values())) == len(short) or digits >= 64:
                return short
            digits += 2

    def submission(self, name: str) -> str:
        """The pseudonym of a submission given to the constructor."""
        return self._subs[name]

    def file(self, submission: str, path: str, siblings: Iterable[str]) -> str:
        """The pseudonym of ``path`` among the files ``siblings`` of ``submission``."""
        if (submission, path) not in self._files:
            names = sorted(set(siblings) | {path})
            short = self._assign("file", "file-", names, 4)
            for name, pseudo in short.items():
                ext = posixpath.splitext(name)[1]
                safe_ext = ext if ext[1:].isalnum() and len(ext) <= 8 else ""
                self._files[(submission, name)] = pseudo + safe_ext
        return self._files[(submission, path)]
