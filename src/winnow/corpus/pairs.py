"""Shared fingerprints per pair of records: in memory, or through the sharded engine.

Both give an object with ``sizes`` (distinct fingerprints per record, those
dropped by the cap left out, as in ``compare``'s scores) that
iterates over ``(a, b, shared)`` blocks of int64 arrays, pairs ``a < b`` in
``(a, b)`` order, each pair once, counting only fingerprints in at most
``cap`` records (MOSS ``-m``).

The in-memory engine is :func:`winnow.matching.counting.count_shared` over
every record's postings at once: fastest for small corpora, memory
proportional to the corpus's fingerprints (about 24 bytes each, twice while
sorting).  The sharded engine (:mod:`winnow.sharded`) writes the postings to
hash-partitioned sorted Parquet shards and counts one partition at a time,
so its memory does not grow with the corpus.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from winnow.corpus.fingerprints import ShardJob, shard_postings
from winnow.matching.counting import count_shared, distinct_postings, group_bounds
from winnow.parallel import Progress, make_pool, parallel_map

I64 = npt.NDArray[np.int64]
#: Pairs per block handed to the clustering.
BLOCK = 1 << 20


class PairSource(Protocol):
    """What the clustering reads: sizes, then the pairs block by block."""

    @property
    def sizes(self) -> I64: ...

    def __iter__(self) -> Iterator[tuple[I64, I64, I64]]: ...


@dataclass(frozen=True)
class MemoryPairs:
    """Pairs held in memory, sorted by ``(a, b)``."""

    sizes: I64
    a: I64
    b: I64
    shared: I64

    def __iter__(self) -> Iterator[tuple[I64, I64, I64]]:
        for start in range(0, self.a.shape[0], BLOCK):
            stop = start + BLOCK
            yield self.a[start:stop], self.b[start:stop], self.shared[start:stop]


def count_in_memory(jobs: Sequence[ShardJob], records: int, cap: int, *, workers: int = 0,
                    progress: Progress | None = None) -> MemoryPairs:
    """Fingerprint every shard (on ``workers`` processes) and count the pairs."""
    pool = make_pool(workers, len(jobs))
    hashes, owners = [], []
    done = 0
    try:
        results = parallel_map(shard_postings, jobs, stage="records", progress=None,
                               executor=pool)
        for job, (h, o) in zip(jobs, results, strict=True):
            hashes.append(h)
            owners.append(o)
            done += job.records
            if progress is not None:
                progress("records", done, records)
    finally:
        if pool is not None:
            pool.shutdown()
    if progress is not None:  # counting has no steps to show: its start and end
        progress("pairs", 0, 1)
    all_hashes = np.concatenate(hashes) if hashes else np.zeros(0, np.uint64)
    all_owners = np.concatenate(owners) if owners else np.zeros(0, np.int64)
    del hashes, owners
    h, o = distinct_postings(all_hashes, all_owners)
    del all_hashes, all_owners
    _, group = group_bounds(h)
    kept = np.repeat(group <= cap, group)
    sizes = np.bincount(o[kept], minlength=records).astype(np.int64)
    counts = count_shared(h[kept], o[kept], records)
    order = np.lexsort((counts.b, counts.a))
    if progress is not None:
        progress("pairs", 1, 1)
    return MemoryPairs(sizes, counts.a[order], counts.b[order], counts.shared[order])


__all__ = ["BLOCK", "MemoryPairs", "PairSource", "count_in_memory"]
