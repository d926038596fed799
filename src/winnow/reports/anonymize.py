"""Stable pseudonyms for ``--anonymize``: a keyed hash of each name.

``student-1a2b3c`` is the first hex digits of ``HMAC-SHA256(key, name)``, so the same
name gets the same pseudonym in every report made with the same key, and nobody
without the key can recover a name by hashing a class roster.  The key is, in order:
the ``key`` argument, the environment variable ``WINNOW_ANONYMIZE_KEY``, or a random
key created once in ``$XDG_CONFIG_HOME/winnow/anonymize.key`` (default
``~/.config/winnow/anonymize.key``).

:func:`anonymize_result` gives a result whose names are all pseudonyms (for the
table, CSV and JSON outputs); :func:`write_key` writes the pseudonym key, the only
place where pseudonyms and names meet, as a CSV file of its own.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import hmac
import os
import posixpath
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from winnow.errors import ReportError

if TYPE_CHECKING:  # loaded where a result is anonymized: ``winnow dedup``'s CSV
    # writer uses spreadsheet_safe, and the model's package loads the comparison
    from winnow.matching.model import ComparisonResult, PairResult, Region

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


def pseudonyms_of(result: ComparisonResult, key: bytes | None = None) -> Pseudonyms:
    """The pseudonyms of every name in ``result`` (the same for the same names and key)."""
    names = {s.name for s in result.submissions} | {n for p in result.pairs for n in (p.a, p.b)}
    names |= {m for c in result.clusters for m in c.members}
    return Pseudonyms(names, key)


def known_files(result: ComparisonResult) -> dict[str, list[str]]:
    """Submission -> every file path it is known by (submitted, shown or in a passage)."""
    files = {s.name: [f.path for f in s.files] for s in result.submissions}
    for sub, path in result.documents:
        files.setdefault(sub, []).append(path)
    for pair in result.pairs:
        for passage in pair.passages:
            files.setdefault(pair.a, []).append(passage.a.file)
            files.setdefault(pair.b, []).append(passage.b.file)
    return {sub: sorted(set(paths)) for sub, paths in files.items()}


def anonymize_result(result: ComparisonResult, pseudo: Pseudonyms) -> ComparisonResult:
    """``result`` with every submission and file name replaced by its pseudonym.

    Input problems keep only whether they skipped something: their paths and reasons
    could name people.
    """
    from winnow.matching.model import Issue, Passage

    siblings = known_files(result)

    def file(sub: str, path: str) -> str:
        return pseudo.file(sub, path, siblings.get(sub, [path]))

    def region(sub: str, r: Region) -> Region:
        return dataclasses.replace(r, file=file(sub, r.file))

    def pair(p: PairResult) -> PairResult:
        passages = tuple(Passage(q.index, region(p.a, q.a), region(p.b, q.b), q.length,
                                 q.fingerprints,
                                 tuple((region(p.a, a), region(p.b, b)) for a, b in q.gaps))
                         for q in p.passages)
        return dataclasses.replace(p, a=pseudo.submission(p.a), b=pseudo.submission(p.b),
                                   passages=passages)

    return dataclasses.replace(
        result,
        submissions=tuple(dataclasses.replace(
            s, name=pseudo.submission(s.name),
            files=tuple(dataclasses.replace(f, path=file(s.name, f.path)) for f in s.files))
            for s in result.submissions),
        pairs=tuple(pair(p) for p in result.pairs),
        clusters=tuple(dataclasses.replace(
            c, members=tuple(sorted(pseudo.submission(m) for m in c.members)))
            for c in result.clusters),
        issues=tuple(Issue("(hidden by --anonymize)", "skipped" if i.skipped else "note",
                           i.skipped) for i in result.issues),
        documents={(pseudo.submission(s), file(s, f)): doc
                   for (s, f), doc in result.documents.items()},
        shared_code=tuple(dataclasses.replace(
            c, submissions=tuple(pseudo.submission(n) for n in c.submissions),
            region=region(c.submissions[0], c.region)) for c in result.shared_code),
    )


def key_rows(result: ComparisonResult, pseudo: Pseudonyms) -> list[tuple[str, str, str]]:
    """``(pseudonym, submission, file)`` for every submission (file empty) and file."""
    siblings = known_files(result)
    rows = []
    for sub in sorted(siblings):
        rows.append((pseudo.submission(sub), sub, ""))
        rows += [(pseudo.file(sub, path, siblings[sub]), sub, path) for path in siblings[sub]]
    return rows


def spreadsheet_safe(cell: str) -> str:
    """``cell`` made inert for spreadsheets: text starting like a formula gets a ``'``."""
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


def write_key(path: str | os.PathLike[str], rows: Iterable[tuple[str, str, str]]) -> None:
    """Write the pseudonym key as CSV (``pseudonym,submission,file``), readable by its
    owner only (it names the people the pseudonyms hide)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(("pseudonym", "submission", "file"))
            writer.writerows(tuple(spreadsheet_safe(c) for c in row) for row in rows)
    except OSError as exc:
        raise ReportError(os.fspath(path), f"cannot write the pseudonym key ({exc.strerror})") \
            from exc
