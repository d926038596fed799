"""Building and updating the index: ``winnow index PATH...`` (sif's first stage).

Incremental, as sif's index is meant to be kept: a file whose size and mtime
match the stored ones is not read; a changed one is re-read and, if its
checksum also changed, re-fingerprinted; stored files under the given paths
that are gone, or are no longer regular files (now a link, a FIFO ...), are
dropped; one that could not be read this time keeps its old entry.  The index's
own files (database, log) are never indexed, wherever the walk meets them.  The whole
run is one transaction, so a crash at any moment leaves the old index or the
new one.

Reading and fingerprinting run in a process pool (``jobs``); all database
writes happen in the calling process.  Progress goes to an optional
:class:`winnow.parallel.Progress` callback, ``progress("index", bytes_done,
bytes_total)``; this module never prints.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from winnow.engine import fingerprint
from winnow.index.params import SIF_DEFAULT, IndexParams
from winnow.index.store import DocRow, FingerprintIndex, NewDocument
from winnow.model import Skipped
from winnow.parallel import Progress, WorkerPool, start_pool, submit
from winnow.sif.fingerprinting import (
    MAX_FINGERPRINT_BYTES,
    Outcome,
    Unchanged,
    process_batch,
)
from winnow.sources.walk import GONE, FileEntry, WalkPolicy, walk

Task = list[tuple[FileEntry, str | None]]

#: A worker task holds about this many bytes (or ``BATCH_FILES`` files).
BATCH_BYTES = 4 << 20
BATCH_FILES = 256


@dataclass
class BuildSummary:
    """What one index run did (the CLI prints it at the end)."""

    files_seen: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    checksum_only: int = 0
    bytes_read: int = 0
    bytes_total: int = 0
    seconds: float = 0.0
    skipped: list[Skipped] = field(default_factory=list)
    params: IndexParams | None = None

    @property
    def mb_per_s(self) -> float:
        """Throughput over the bytes of every file walked (end to end)."""
        return self.bytes_total / 1e6 / self.seconds if self.seconds > 0 else 0.0


def _batches(tasks: list[tuple[FileEntry, str | None]]) -> Iterator[Task]:
    batch: Task = []
    size = 0
    for task in tasks:
        batch.append(task)
        size += task[0].size
        if size >= BATCH_BYTES or len(batch) >= BATCH_FILES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def fingerprint_pool(jobs: int, *, fork: bool = True) -> WorkerPool:
    """A process pool for :func:`update_index`, started now.

    Create it *before* opening the index: the engine's kernels are compiled in
    this process first and the workers forked from it inherit them (no
    per-worker start-up), and no database thread exists yet to be forked.  If
    this process already runs other threads, or ``fork`` is false (an index is
    already open: its database threads, invisible to :mod:`threading`, would
    be forked mid-work), workers come from a fork server.  Workers die with
    this process, their memory is capped, and one that dies costs only its
    file; ``-j`` is capped (:func:`winnow.parallel.start_pool`).
    """
    fingerprint(np.zeros(64, dtype=np.uint8), SIF_DEFAULT)  # compile or load the kernels
    return start_pool(jobs, fork=fork, preload=["winnow.sif.fingerprinting"])


def _run_tasks(tasks: list[tuple[FileEntry, str | None]], params: IndexParams,
               pool: Executor | None, max_bytes: int) -> Iterator[tuple[Task, list[Outcome]]]:
    """Yield each batch with its outcomes, in completion order."""
    if pool is None:
        for batch in _batches(tasks):
            yield batch, process_batch(batch, params, max_bytes)
        return
    pending: dict[Future[list[Outcome]], Task] = {}
    for batch in _batches(tasks):
        pending[submit(pool, process_batch, batch, params, max_bytes)] = batch
        while len(pending) >= 8:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield from _settle(pool, pending.pop(future), future, params, max_bytes)
    for future in list(pending):
        yield from _settle(pool, pending.pop(future), future, params, max_bytes)


def _settle(pool: Executor, batch: Task, future: Future[list[Outcome]], params: IndexParams,
            max_bytes: int) -> Iterator[tuple[Task, list[Outcome]]]:
    """The outcomes of a finished batch; if its worker died, its files one by one
    in fresh processes, a file that kills its process alone skipped."""
    try:
        yield batch, future.result()
        return
    except BrokenProcessPool:
        if not isinstance(pool, WorkerPool):
            raise
    one = partial(_process_one, params=params, max_bytes=max_bytes)
    for task, outcome in zip(batch, pool.resilient_map(one, batch, 1, _lost), strict=True):
        yield [task], [outcome]


def _process_one(task: tuple[FileEntry, str | None], params: IndexParams,
                 max_bytes: int) -> Outcome:
    return process_batch([task], params, max_bytes)[0]


def _lost(task: tuple[FileEntry, str | None], reason: str) -> Outcome:
    return Skipped(task[0].path, reason)


def _under_any(path: str, prefixes: set[str]) -> bool:
    return path in prefixes or path.startswith(tuple(p.rstrip(os.sep) + os.sep
                                                     for p in prefixes))


#: Files of an index besides the database: its write-ahead log, a compaction's copy.
INDEX_SUFFIXES = ("", ".wal", ".compact", ".compact.wal")


def _is_index_file(path: str, index: FingerprintIndex) -> bool:
    """Whether ``path`` is the index itself (or its log): ``winnow index .`` with
    the index in ``.`` must not fingerprint the file it is writing."""
    name = os.path.basename(path)
    own = index.path.name
    if not any(name == own + suffix for suffix in INDEX_SUFFIXES):
        return False  # the cheap test first: resolving a path costs a call per component
    real = os.path.realpath(index.path)
    return os.path.realpath(path) in {real + suffix for suffix in INDEX_SUFFIXES}


def _unreadable(path: str, follow_links: bool, roots: Sequence[str]) -> bool:
    """Whether a skipped ``path`` keeps its stored entries: only a regular file or a
    folder that could not be read this time (a permission, an I/O error) does.
    A path that is now a link (not followed), a FIFO, a device ... is no longer
    a file of the index, nor is anything stored under it."""
    try:
        info = os.stat(path) if follow_links or path in roots else os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)


def _apply(index: FingerprintIndex, outcome: Outcome, stored: dict[str, DocRow],
           summary: BuildSummary, replaced: list[int]) -> None:
    if isinstance(outcome, Skipped):
        summary.skipped.append(outcome)
        return
    summary.bytes_read += outcome.size
    old = stored.get(outcome.path)
    if isinstance(outcome, Unchanged):
        if old is not None:
            index.set_mtime(old.id, outcome.mtime_ns)
        summary.unchanged += 1
        return
    assert isinstance(outcome, NewDocument)
    if outcome.frontend is None:  # too large: checksummed only
        summary.checksum_only += 1
    if old is not None:
        replaced.append(old.id)
        summary.updated += 1
    else:
        summary.added += 1
    index.add(outcome)


def update_index(
    index: FingerprintIndex, roots: Sequence[str | os.PathLike[str]],
    params: IndexParams | None = None, *, jobs: int = 1, executor: Executor | None = None,
    follow_links: bool = False, progress: Progress | None = None,
    max_file_bytes: int = MAX_FINGERPRINT_BYTES,
) -> BuildSummary:
    """Bring the index up to date with the files under ``roots``, in one transaction.

    ``params`` are checked against the stored ones (``None``: use what the
    index has, or the sif defaults for a new index).  Files are fingerprinted
    in ``executor`` if given (see :func:`fingerprint_pool`), else in a pool of
    ``jobs`` processes made for this call, else (``jobs=1``) here.  Files over
    ``max_file_bytes`` are checksummed but not fingerprinted (counted in
    ``summary.checksum_only``).
    """
    if executor is None and jobs > 1:
        with fingerprint_pool(jobs, fork=False) as pool:  # ``index`` is open already
            return update_index(index, roots, params, executor=pool,
                                follow_links=follow_links, progress=progress,
                                max_file_bytes=max_file_bytes)
    started = time.perf_counter()
    absolute = [os.path.abspath(os.fspath(root)) for root in roots]
    found = walk(absolute, WalkPolicy(links="always" if follow_links else "never"))
    found.files = [entry for entry in found.files if not _is_index_file(entry.path, index)]
    summary = BuildSummary(files_seen=len(found.files), skipped=list(found.skipped),
                           bytes_total=sum(entry.size for entry in found.files))
    with index.transaction():
        summary.params = params = index.resolve_params(params)
        stored = {row.path: row for row in index.documents(absolute)}
        tasks: list[tuple[FileEntry, str | None]] = []
        for entry in found.files:
            old = stored.get(entry.path)
            if old is not None and old.size == entry.size and old.mtime_ns == entry.mtime_ns:
                summary.unchanged += 1
                continue
            tasks.append((entry, old.checksum if old is not None else None))
        done = summary.bytes_total - sum(entry.size for entry, _ in tasks)
        replaced: list[int] = []
        for batch, outcomes in _run_tasks(tasks, params, executor, max_file_bytes):
            for outcome in outcomes:
                _apply(index, outcome, stored, summary, replaced)
            done += sum(entry.size for entry, _ in batch)
            if progress is not None:
                progress("index", done, summary.bytes_total)
        seen = {entry.path for entry in found.files}
        keep = {s.path for s in summary.skipped
                if s.reason not in GONE and _unreadable(s.path, follow_links, absolute)}
        gone = [row.id for path, row in stored.items()
                if path not in seen and not _under_any(path, keep)]
        summary.removed = len(gone)
        index.remove(replaced + gone)
    summary.seconds = time.perf_counter() - started
    return summary


def remove_paths(index: FingerprintIndex, paths: Sequence[str | os.PathLike[str]]) -> int:
    """``winnow index --remove``: drop the files at or under ``paths``; their number."""
    absolute = [os.path.abspath(os.fspath(p)) for p in paths]
    with index.transaction():
        rows = index.documents(absolute)
        index.remove([row.id for row in rows])
    return len(rows)
