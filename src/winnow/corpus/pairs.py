"""The corpus's records as the pair-counting stage's postings (:mod:`winnow.pairs`).

In memory, every input shard is fingerprinted on worker processes
(:func:`~winnow.corpus.fingerprints.shard_postings`) and the postings
counted in one pass (:func:`winnow.matching.counting.count_postings`):
fastest for small corpora, memory proportional to the corpus's fingerprints
(16 bytes each, and the counter's hash table: 12 bytes a slot, 1.5 to 3
slots a fingerprint); the process maps its large arrays apart
(:func:`winnow.parallel.map_large_allocations`), so that each is given back
to the system when freed.  A sharded engine
(:mod:`winnow.sharded`) fingerprints the same shards in its own tasks
(:func:`~winnow.corpus.fingerprints.fingerprint_shard`), writes the
postings to hash-partitioned sorted Parquet shards and counts one partition
at a time, so its memory does not grow with the corpus.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from winnow.corpus.fingerprints import ShardJob, fingerprint_shard, shard_postings
from winnow.matching.counting import count_postings
from winnow.pairs import Layout, PairFilter, PairSums, Postings, Shards
from winnow.parallel import (
    Progress,
    make_pool,
    map_large_allocations,
    parallel_map,
    release_memory,
)

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
        sums = replace(count_postings(hashes, owners, self.documents, cap),  # distinct rows
                       digests=digests)
        del hashes, owners
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
        hashes, docs, counts = [], [], []
        digests = np.zeros(self.documents, dtype=np.uint64)
        done = 0
        try:
            results = parallel_map(shard_postings, self.jobs, stage="records", progress=None,
                                   executor=pool)
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


def in_records(progress: Progress, records: int) -> Progress:
    """``progress`` with a sharded engine's ``prints`` stage (input shards
    done) told as ``records`` (the records of the shards done, in proportion)."""

    def told(stage: str, done: int, total: int) -> None:
        if stage == "prints":
            progress("records", records * done // max(total, 1), records)
        else:
            progress(stage, done, total)

    return told


__all__ = ["CorpusPostings", "in_records"]
