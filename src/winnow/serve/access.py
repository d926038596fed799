"""Who may read what: per-user secrets, the admin secret, the ``--users`` list.

A secret is 128 random bits, shown once when it is issued (``winnow serve
--issue-secret USER``) and kept only as its SHA-256 in ``DATA/secrets.json``
(a random secret needs no slow hash: it cannot be guessed from its digest).
Issuing a new secret for a user replaces the old one; ``--revoke-secret``
removes it.  The admin's secret is kept under the reserved name
:data:`ADMIN` (``--issue-secret winnow-admin``).

HTTP requests prove who they are with Basic authentication (user id and
secret; a browser asks for them) or ``Authorization: Bearer USER:SECRET``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
import tempfile
from pathlib import Path

#: The user name of the server's administrator (refused as a MOSS user id).
ADMIN = "winnow-admin"
SECRETS_FILE = "secrets.json"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def read_users(path: Path) -> frozenset[str]:
    """The user ids of a ``--users`` file: one per line; ``#`` starts a comment,
    at the start of a line or after an id."""
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        user = line.split("#", 1)[0].strip()
        if user:
            out.add(user)
    return frozenset(out)


class Secrets:
    """The secrets' digests of one data folder."""

    def __init__(self, data: str | os.PathLike[str]) -> None:
        self.path = Path(data) / SECRETS_FILE
        self.digests: dict[str, str] = {}
        self.stamp: tuple[int, int] | None = None
        self.reload()

    def reload(self) -> None:
        """Read the file again if it changed (a secret issued while the server runs)."""
        try:
            info = self.path.stat()
        except OSError:
            return
        if (info.st_mtime_ns, info.st_ino) != self.stamp:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            self.digests = {str(k): str(v) for k, v in loaded.items()}
            self.stamp = (info.st_mtime_ns, info.st_ino)

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".secrets-", dir=self.path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(self.digests, out, indent=1, sort_keys=True)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)

    def issue(self, user: str) -> str:
        """A new secret for ``user`` (the old one stops working)."""
        secret = secrets.token_urlsafe(16)
        self.digests[user] = _digest(secret)
        self._write()
        return secret

    def revoke(self, user: str) -> bool:
        found = self.digests.pop(user, None) is not None
        self._write()
        return found

    def check(self, user: str, secret: str) -> bool:
        """Whether ``secret`` is ``user``'s (in constant time); a secret that does not
        match makes the file be read again if it changed."""
        if self._matches(user, secret):
            return True
        self.reload()
        return self._matches(user, secret)

    def _matches(self, user: str, secret: str) -> bool:
        expected = self.digests.get(user)
        same = hmac.compare_digest(_digest(secret), expected or "!" * 64)
        return same and expected is not None

    def has(self, user: str) -> bool:
        return user in self.digests


def credentials(header: str | None) -> tuple[str, str] | None:
    """(user, secret) from an ``Authorization`` header, ``None`` if it has none."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() == "basic":
        try:
            value = base64.b64decode(value, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return None
    elif scheme.lower() != "bearer":
        return None
    user, colon, secret = value.partition(":")
    return (user, secret) if colon and user and secret else None
