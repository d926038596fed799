"""Receiving one job's files, from the MOSS protocol or the upload page, within limits.

Every file is streamed to ``files/NNNNNN`` of its job as it arrives (never held
whole in memory) and counted against the :class:`Limits`; the first file, byte
or count over a limit refuses the whole job (:class:`JobRefused`, whose message is
sent to the client).  The name a client gives a file is only shown: it is
cleaned (:func:`clean_name`) and kept in the job's state, never used as a path.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import time
import unicodedata
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from winnow.errors import ArchiveRefused, JobRefused
from winnow.fileio import printable
from winnow.serve.jobs import DISK_FULL_UPLOAD as DISK_FULL
from winnow.serve.jobs import disk_full
from winnow.serve.store import Job, JobStore, StoredFile
from winnow.sources.archives import ArchiveLimits, read_archive

MAX_NAME = 255
T = TypeVar("T")
#: Bytes of a file gathered before each write (in a thread).
WRITE_EVERY = 1 << 20


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


def _create(path: Path) -> BinaryIO:
    return open(path, "wb")


async def _disk(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in a thread; a failure of the disk refuses the job
    (:data:`DISK_FULL` when it is full)."""
    try:
        return await asyncio.to_thread(function, *args)
    except OSError as error:
        raise JobRefused(DISK_FULL if disk_full(error) else
                         f"the server could not store the file ({error.strerror})") from None


class Intake:
    """The files of one new job, checked against ``limits`` as they arrive.

    Made with :meth:`open`; every write to the disk happens in a thread, so a
    slow or full disk never stops the event loop.  A full disk refuses the job
    (:data:`DISK_FULL`)."""

    def __init__(self, store: JobStore, limits: Limits, job: Job) -> None:
        self.store = store
        self.limits = limits
        self.job = job

    @classmethod
    async def open(cls, store: JobStore, limits: Limits, user: str, **options: Any) -> Intake:
        job = store.prepare(user, **options)
        try:
            await _disk(store.materialize, job)
        except JobRefused:
            await asyncio.to_thread(shutil.rmtree, store.root / job.id, True)
            raise
        store.open(job)
        return cls(store, limits, job)

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
        """Store the next file, read from ``chunks``; :class:`JobRefused` if over a limit
        or the disk is full."""
        self.check_next()
        index = len(self.job.files)
        shown = clean_name(name, f"file-{index + 1}")
        before = self.job.total_bytes
        size = 0
        buffer = bytearray()
        path = self.store.file_path(self.job, index)
        out: BinaryIO | None = None  # opened once the file outgrows the buffer
        try:
            async for chunk in chunks:
                size += len(chunk)
                self._check_size(size, before + size)
                buffer += chunk
                if len(buffer) >= WRITE_EVERY:
                    if out is None:
                        out = await _disk(_create, path)
                    await _disk(out.write, bytes(buffer))
                    buffer.clear()
            if out is None:  # a small file: one trip to a thread
                await _disk(path.write_bytes, bytes(buffer))
            elif buffer:
                await _disk(out.write, bytes(buffer))
        finally:
            if out is not None:
                await _disk(out.close)
        self.job.files.append(StoredFile(moss_id, shown, size))

    async def add_archive(self, name: str, chunks: AsyncIterator[bytes]) -> None:
        """Store every file of a zip or tar archive (read from ``chunks``) as a
        file of the job, within the job's limits; the archive itself is not kept."""
        path = self.store.folder(self.job.id) / "upload.archive"
        size, limit = 0, self.limits.max_job_bytes
        try:
            out = await _disk(open, path, "wb")
            try:
                async for chunk in chunks:
                    size += len(chunk)
                    if size > limit:
                        raise JobRefused(f"archive over the limit of {limit} bytes")
                    await _disk(out.write, chunk)
            finally:
                await _disk(out.close)
            self.job.files += await _disk(self._unpack, path, name)
        finally:
            await asyncio.to_thread(path.unlink, True)

    def _unpack(self, path: Path, name: str) -> list[StoredFile]:
        limits = self.limits
        budget = ArchiveLimits(max_members=limits.max_files,
                               max_member_bytes=limits.max_file_bytes,
                               max_total_bytes=limits.max_job_bytes)
        try:
            members, _ = read_archive(str(path), budget)
        except ArchiveRefused as refusal:
            raise JobRefused(f"{clean_name(name, 'the archive')}: {refusal}") from None
        out: list[StoredFile] = []
        first = len(self.job.files)
        for index, member in enumerate(members, first):
            if index >= limits.max_files:
                raise JobRefused(f"too many files: the limit is {limits.max_files} "
                                 "files per job")
            self._check_size(len(member.data), self.job.total_bytes + len(member.data)
                             + sum(f.size for f in out))
            self.store.file_path(self.job, index).write_bytes(member.data)
            out.append(StoredFile(index + 1, clean_name(member.path, f"file-{index + 1}"),
                                  len(member.data)))
        return out

    async def fail(self, reason: str) -> None:
        """The upload broke off or was refused: drop its files, keep the reason."""
        self.job.status, self.job.reason, self.job.finished = "failed", reason, time.time()
        await asyncio.to_thread(self.store.drop_files, self.job)
        with contextlib.suppress(OSError):  # a full disk: the state stays in memory
            await self.store.save_async(self.job)
