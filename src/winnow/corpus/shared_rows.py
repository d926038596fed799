"""Fingerprint rows handed from forked workers to the in-memory count through shared memory.

The in-memory count (:meth:`winnow.corpus.pairs.CorpusPostings.gather`)
fingerprints every input shard on worker processes and needs all their
hashes, 8 bytes a row, in one process.  Sent back through the pool's pipe,
each shard's hashes were copied four times (pickled by the worker, read
from the pipe, unpickled, copied into the gathered array), every copy on
fresh pages: at 100,000 records of ``benchmarks/scale.py`` 28,000 page
faults and 0.13 s of the parent's CPU, and the transient copies sat at the
run's memory peak.

Instead the parent maps one anonymous shared region (:func:`shared_rows`)
before the workers fork, gives each plain JSON Lines shard a slot of it
(:data:`SLOT_DENSITY` times the rows its bytes should give,
:func:`slot_rows`), and each worker writes its shard's hashes straight into
its slot (:func:`slot_postings`); only the records, counts and digests go
through the pipe.  The parent then puts the rows in parts reading each
record's rows where they are (:func:`gathered`), giving the region's pages
back behind the rows read (:func:`give_back`), so that the region and the
rows in parts are never both whole (at 1,000,000 records of
``benchmarks/scale.py``, 300 MiB less at the run's peak).
A shard without a slot (compressed, Parquet, a folder), one whose hashes
overflow it, a worker that was not forked from the parent (spawned: it
cannot see the region), or a region that cannot be mapped falls back on
the pipe, and the rows are then gathered by copying, as before.
"""

from __future__ import annotations

import itertools
import mmap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.corpus.fingerprints import ShardJob, shard_postings
from winnow.parallel import drop_pages

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

#: A slot holds this many times the rows winnowing's density predicts for
#: its shard's bytes, ``2 / (w + 1)`` of them (section 3): the JSON around
#: the texts makes the real rows fewer (3.9 million predicted 5.4).
SLOT_DENSITY = 2

#: The regions mapped in this process, by number, while their blocks last
#: (:func:`shared_rows`): a worker forked inside a block sees its region
#: here too.  Each task names its own, so two runs in two threads of one
#: process never write into each other's.
_REGIONS: dict[int, U64] = {}
_NUMBERS = itertools.count(1)


@dataclass(frozen=True)
class SlotJob:
    """A shard to fingerprint, and its slot of the shared region numbered
    ``region``: ``capacity`` rows from row ``start`` (0: none)."""

    job: ShardJob
    start: int
    capacity: int
    region: int = 0


def slot_rows(job: ShardJob, config: WinnowConfig) -> int:
    """The rows of ``job``'s slot: :data:`SLOT_DENSITY` times winnowing's
    density of its bytes for a plain JSON Lines shard, 0 (no slot) for others."""
    shard = job.shard
    if shard.kind != "jsonl" or shard.stop < 0:
        return 0
    return (shard.stop - shard.start) * 2 * SLOT_DENSITY // (config.w + 1) + 64


@contextmanager
def shared_rows(rows: int) -> Iterator[tuple[int, U64 | None]]:
    """An anonymous shared mapping of ``rows`` rows and its number (for
    :attr:`SlotJob.region`), seen by the workers forked inside the block
    (``(0, None)``: none could be mapped).  Its pages are given back once
    the block is left and every view of it is gone."""
    try:
        region = mmap.mmap(-1, rows * 8) if rows > 0 else None
    except (OSError, ValueError, OverflowError):
        region = None
    if region is None:
        yield 0, None
        return
    number = next(_NUMBERS)
    _REGIONS[number] = np.frombuffer(region, dtype=np.uint64)
    try:
        yield number, _REGIONS[number]
    finally:
        del _REGIONS[number]


def slot_postings(task: SlotJob) -> tuple[U64 | int, I64, I64, U64]:
    """:func:`~winnow.corpus.fingerprints.shard_postings` of the task's shard,
    the hashes written into its slot of the shared region (given back as
    their number) where it has one that holds them; else sent as an array."""
    rows = _REGIONS.get(task.region) if task.region else None
    slot = None if rows is None or not task.capacity else \
        rows[task.start:task.start + task.capacity]
    hashes, docs, counts, digests = shard_postings(task.job, slot)
    return hashes, docs, counts, digests


def gathered(region: U64 | None, tasks: Sequence[SlotJob], results: Sequence[U64 | int],
             counts: Sequence[I64]) -> tuple[U64, I64]:
    """Every shard's hashes, and where each record's start (``counts``: per
    shard, the hashes of each of its records in turn): read in place from
    their slots of ``region``, or, when any shard's came as an array, all
    copied into one array, shard after shard."""
    sizes = np.concatenate(counts) if counts else np.zeros(0, dtype=np.int64)
    if region is None or not all(isinstance(r, int) for r in results):
        parts = [r if not isinstance(r, int) else _slot(region, t, r)
                 for t, r in zip(tasks, results, strict=True)]
        hashes = np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)
        return hashes, np.cumsum(sizes) - sizes
    shard_of = np.repeat(np.arange(len(tasks)), [c.shape[0] for c in counts])
    within = np.cumsum(sizes) - sizes  # rows before each record, all shards in turn
    shard_rows = np.array([int(c.sum()) for c in counts], dtype=np.int64)
    before = np.cumsum(shard_rows) - shard_rows  # rows before each shard
    slot = np.array([t.start for t in tasks], dtype=np.int64)
    return region, within - before[shard_of] + slot[shard_of]


def give_back(region: U64, start: int, stop: int) -> None:
    """Give the system back the pages that rows ``start:stop`` of ``region`` (as
    :func:`shared_rows` gives it) fill whole: they are no longer read, and
    read as zeros afterwards.  Nothing where the system cannot (no
    ``MADV_REMOVE``) or ``region`` is not such a mapping."""
    base = region.base
    buffer = base.obj if isinstance(base, memoryview) else base
    if isinstance(buffer, mmap.mmap):
        drop_pages(region, start, stop, shared=True)


def _slot(region: U64 | None, task: SlotJob, n: int) -> U64:
    assert region is not None  # a shard's rows came as a number: through its slot
    return region[task.start:task.start + n]


__all__ = ["SLOT_DENSITY", "SlotJob", "gathered", "give_back", "shared_rows", "slot_postings",
           "slot_rows"]
