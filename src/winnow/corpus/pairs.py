"""The corpus's records as the pair-counting stage's postings (:mod:`winnow.pairs`).

In memory, every input shard is fingerprinted on worker processes
(:func:`~winnow.corpus.fingerprints.shard_postings`) and the postings
counted in one pass (:func:`winnow.matching.counting.count_postings`):
fastest for small corpora, memory proportional to the corpus's fingerprints
(16 bytes each, and the counter's hash table: 12 bytes a slot, 1.5 to 3
slots a fingerprint); the process maps its large arrays apart
(:func:`winnow.parallel.map_large_allocations`, a setting of the C
allocator that stays with the calling process), so that each is given back
to the system when freed.  A sharded engine
(:mod:`winnow.sharded`) fingerprints the same shards in its own tasks
(:func:`~winnow.corpus.fingerprints.fingerprint_shard`), writes the
postings to hash-partitioned sorted Parquet shards and counts one partition
at a time, so its memory does not grow with the corpus.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from winnow.corpus.fingerprints import (
    ShardJob,
    fingerprint_shard,
    load_kernels,
    shard_postings,
)
from winnow.matching.counting import count_postings, repeated
from winnow.pairs import Layout, PairFilter, PairSums, Postings, Shards
from winnow.parallel import (
    Progress,
    make_pool,
    map_large_allocations,
    parallel_map,
    release_memory,
    reusing_freed_memory,
)
from winnow.tables import idf_weights

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


class CorpusPostings(Postings):
    """The records of ``jobs`` (``records`` in all, about ``rows`` fingerprint
    rows), fingerprinted on ``workers`` processes (``0``: every core) when
    counted in memory; ``keep`` the pairs the caller can use
    (:class:`~winnow.corpus.clusters.LinkFilter` for dedup)."""

    def __init__(self, jobs: Sequence[ShardJob], records: int, rows: int, workers: int = 0,
                 keep: PairFilter | None = None) -> None:
        self.jobs = jobs
        self.documents = records
        self.rows = rows
        self.workers = workers
        self.keep = keep

    def in_memory(self, cap: int, progress: Progress | None) -> PairSums:
        map_large_allocations()  # freed arrays go back to the system at once
        hashes, owners, digests = self.gather(progress)
        if progress is not None:  # counting has no steps to show: its start and end
            progress("pairs", 0, 1)
        postings = hashes.shape[0]
        multi, distinct = shared_rows(hashes)
        shared_owners = owners[multi]  # distinct rows, shared hashes only
        alone = (np.bincount(owners, minlength=self.documents)
                 - np.bincount(shared_owners, minlength=self.documents)).astype(np.int64)
        del owners
        hashes = hashes[multi]
        del multi
        sums = count_postings(hashes, shared_owners, self.documents, cap)
        del shared_owners
        del hashes
        single = float(idf_weights(np.ones(1, dtype=np.int64), self.documents)[0])
        sizes = sums.sizes + alone
        sums = replace(sums, sizes=sizes, weight_totals=sums.weight_totals + alone * single,
                       digests=digests,
                       stats={**sums.stats, "fingerprints": postings, "kept": int(sizes.sum()),
                              "distinct_hashes": distinct})
        release_memory()
        if progress is not None:
            progress("pairs", 1, 1)
        return sums

    def shards(self, layout: Layout) -> Shards:
        return Shards(self.jobs, fingerprint_shard)

    def gather(self, progress: Progress | None) -> tuple[U64, I64, U64]:
        """Every record's fingerprints: ``(hash, record)`` rows, and the digest
        of each record's set (:func:`~winnow.corpus.fingerprints.set_digests`)."""
        pool = make_pool(self.workers, len(self.jobs))
        if pool is not None and self.jobs:
            load_kernels(self.jobs[0].config)  # shared by the forked workers
        hashes, docs, counts = [], [], []
        digests = np.zeros(self.documents, dtype=np.uint64)
        done = 0
        try:
            with reusing_freed_memory() if pool is None else nullcontext():
                results = parallel_map(shard_postings, self.jobs, stage="records",
                                       progress=None, executor=pool)
                for job, (h, d, c, sets) in zip(self.jobs, results, strict=True):
                    hashes.append(h)
                    docs.append(d)
                    counts.append(c)
                    digests[d] = sets
                    done += job.records
                    if progress is not None:
                        progress("records", done, self.documents)
        finally:
            if pool is not None:
                pool.shutdown()
        if not hashes:
            return np.zeros(0, np.uint64), np.zeros(0, np.int64), digests
        all_hashes = np.concatenate(hashes)
        del hashes  # each shard's arrays freed before the owners are made
        all_owners = np.repeat(np.concatenate(docs), np.concatenate(counts))
        return all_hashes, all_owners, digests


#: :func:`shared_rows` looks at one part of the hashes at a time: those whose
#: low ``HASH_BITS`` bits are the same (the top bits of winnowing's hashes are
#: not evenly spread).
HASH_BITS = 2


def shared_rows(hashes: U64) -> tuple[npt.NDArray[np.bool_], int]:
    """``(rows whose hash is in another row too, distinct hashes)``, as
    :func:`winnow.matching.counting.repeated` gives them, a quarter of the
    hashes at a time (:data:`HASH_BITS`): its hash table (12
    bytes a slot, 1.5-3 slots a row: 96 MiB for the 3.9 million rows of
    100,000 records) is then a quarter as large.  Most rows of a corpus
    (84 % there) hold a hash of one record alone: they count in its size but
    pair nothing, so the counter is given the others only."""
    mask = np.zeros(hashes.shape[0], dtype=bool)
    low = np.ascontiguousarray(hashes).view(np.uint8)[0 if np.little_endian else 7::8]
    part = low & np.uint8((1 << HASH_BITS) - 1)  # a byte a row, not a copy of the hashes
    distinct = 0
    for p in range(1 << HASH_BITS):
        rows = np.flatnonzero(part == p)
        found, count = repeated(hashes[rows])
        mask[rows] = found
        distinct += count
    return mask, distinct


def in_records(progress: Progress, records: int) -> Progress:
    """``progress`` with a sharded engine's ``prints`` stage (input shards
    done) told as ``records`` (the records of the shards done, in proportion)."""

    def told(stage: str, done: int, total: int) -> None:
        if stage == "prints":
            progress("records", records * done // max(total, 1), records)
        else:
            progress(stage, done, total)

    return told


__all__ = ["HASH_BITS", "CorpusPostings", "in_records", "shared_rows"]
