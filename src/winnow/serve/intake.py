"""Receiving one job's files, from the MOSS protocol or the upload page, within limits.

Every file is streamed to ``files/NNNNNN`` of its job as it arrives (never held
whole in memory) and counted against the :class:`Limits`; the first file, byte
or count over a limit refuses the whole job (:class:`JobRefused`, whose message is
sent to the client).  The name a client gives a file is only shown: it is
cleaned (:func:`clean_name`) and kept in the job's state, never used as a path.
"""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from winnow.errors import JobRefused
from winnow.fileio import printable
from winnow.serve.store import Job, JobStore, StoredFile

MAX_NAME = 255


@dataclass(frozen=True)
class Limits:
    """What one job may send."""

    max_file_bytes: int = 4 << 20
    max_files: int = 5000
    max_job_bytes: int = 256 << 20


def clean_name(raw: str, fallback: str) -> str:
    """A client's file name made safe to show and to split into folders.

    Backslashes become ``/``; control characters are dropped; empty, ``.`` and
    ``..`` parts are dropped (so ``../../etc/passwd`` shows as ``etc/passwd``);
    the result is at most :data:`MAX_NAME` characters; ``fallback`` if nothing is left.
    """
    text = printable(raw).replace("\\", "/")
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    parts = [part.strip() for part in text.split("/")]
    kept = [part for part in parts if part not in ("", ".", "..")]
    name = "/".join(kept)[-MAX_NAME:].lstrip("/")
    return name or fallback


class Intake:
    """The files of one new job, checked against ``limits`` as they arrive."""

    def __init__(self, store: JobStore, limits: Limits, user: str, **options: Any) -> None:
        self.store = store
        self.limits = limits
        self.job: Job = store.create(user, **options)

    def check_next(self, size: int | None = None) -> None:
        """Refuse one more file (of ``size`` bytes, when known) if it breaks a limit."""
        limits = self.limits
        if len(self.job.files) >= limits.max_files:
            raise JobRefused(f"too many files: the limit is {limits.max_files} files per job")
        if size is not None:
            self._check_size(size, self.job.total_bytes + size)

    def _check_size(self, size: int, total: int) -> None:
        if size > self.limits.max_file_bytes:
            raise JobRefused(f"file over the size limit of {self.limits.max_file_bytes} bytes")
        if total > self.limits.max_job_bytes:
            raise JobRefused(f"job over the limit of {self.limits.max_job_bytes} bytes in all")

    async def add(self, moss_id: int, name: str, chunks: AsyncIterator[bytes]) -> None:
        """Store the next file, read from ``chunks``; :class:`JobRefused` if over a limit."""
        self.check_next()
        index = len(self.job.files)
        shown = clean_name(name, f"file-{index + 1}")
        before = self.job.total_bytes
        size = 0
        with open(self.store.file_path(self.job, index), "wb") as out:
            async for chunk in chunks:
                size += len(chunk)
                self._check_size(size, before + size)
                out.write(chunk)
        self.job.files.append(StoredFile(moss_id, shown, size))

    def fail(self, reason: str) -> None:
        """The upload broke off or was refused: drop its files, keep the reason."""
        self.store.drop_files(self.job)
        self.store.finish(self.job, "failed", reason)
