"""The corpus's records as the pair-counting stage's postings (:mod:`winnow.pairs`).

In memory, every input shard is fingerprinted on worker processes
(:func:`~winnow.corpus.fingerprints.shard_postings`), the gathered rows put
in parts by the low bits of their hashes, the hashes of several records
found a part at a time (:func:`~winnow.corpus.groups.shared_groups`) and
only those counted, keeping only the pairs the client can use
(:func:`count_kept`; all of
them: :func:`count_groups`): fastest for small corpora, memory proportional to
the corpus's fingerprints (12 bytes each); the process maps its large arrays apart
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
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from functools import partial

import numpy as np
import numpy.typing as npt

from winnow.compiled import uninterrupted
from winnow.corpus import _kernels
from winnow.corpus.fingerprints import (
    ShardJob,
    fingerprint_shard,
    load_kernels,
    records_by_part,
)
from winnow.corpus.groups import Groups, hash_ordered, part_bits, shared_groups, two_threads
from winnow.corpus.shared_rows import (
    SlotJob,
    gathered,
    give_back,
    shared_rows,
    slot_postings,
    slot_rows,
)
from winnow.pairs import Layout, PairFilter, PairSums, Postings, Shards
from winnow.pairs.counting import (
    PAIR_BUDGET,
    RARE_FLOOR,
    count_shared,
    pair_order,
    rare_limit,
)
from winnow.pairs.memory import MemorySums
from winnow.parallel import (
    Progress,
    make_pool,
    map_large_allocations,
    parallel_map,
    release_memory,
    reusing_freed_memory,
)
from winnow.tables import WEIGHT_BITS, SharedCounts, idf_weights

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


#: :attr:`~winnow.pairs.model.Postings.row_bytes` of the records' postings
#: counted in memory with a pair filter (:func:`count_kept`), per row that
#: :func:`winnow.corpus.dedup.estimated_rows` counts: ``benchmarks/scale.py``'s
#: 1,000,000 records (54.5 million rows estimated, 39 million found) peaked
#: at 647-663 MiB, 12.5-12.8 bytes a row; twice that leaves room for a
#: corpus whose records share more of their fingerprints (its groups and
#: pairs are larger).  ``auto`` keeps them in memory up to 100 million rows.
KEPT_ROW_BYTES = 24


class CorpusPostings(Postings):
    """The records of ``jobs`` (``records`` in all, about ``rows`` fingerprint
    rows), fingerprinted on ``workers`` processes (``0``: every core) when
    counted in memory; ``keep`` the pairs the caller can use
    (:class:`~winnow.corpus.clusters.LinkFilter` for dedup): with it the
    count in memory takes :data:`KEPT_ROW_BYTES` a row at its peak."""

    def __init__(self, jobs: Sequence[ShardJob], records: int, rows: int, workers: int = 0,
                 keep: PairFilter | None = None) -> None:
        self.jobs = jobs
        self.documents = records
        self.rows = rows
        self.workers = workers
        self.keep = keep
        if keep is not None:
            self.row_bytes = KEPT_ROW_BYTES

    def in_memory(self, cap: int, progress: Progress | None) -> PairSums:
        map_large_allocations()  # freed arrays go back to the system at once
        hashes, owners, digests, bounds = self.gather(progress)
        if progress is not None:  # counting has no steps to show: its start and end
            progress("pairs", 0, 1)
        groups = shared_groups(hashes, owners, self.documents, cap, bounds,
                               by_hash=self.keep is None, consume=True)
        del hashes, owners  # given back as grouped: never read again
        sums = None if self.keep is None else count_kept(groups, self.keep, digests)
        if sums is None:
            sums = count_groups(groups, digests)
        del groups
        release_memory()
        if progress is not None:
            progress("pairs", 1, 1)
        return sums

    def shards(self, layout: Layout) -> Shards:
        return Shards(self.jobs, fingerprint_shard)

    def gather(self, progress: Progress | None) -> tuple[U64, npt.NDArray[np.integer], U64,
                                                       I64]:
        """Every record's fingerprints: ``(hash, record)`` rows, the digest of
        each record's set (:func:`~winnow.corpus.fingerprints.set_digests`), and
        where the rows of each part are (``bounds[0, part]``: the rows in parts
        by the low bits of their hashes,
        :func:`~winnow.corpus.fingerprints.records_by_part`).

        Each shard's hashes are written by its worker into its slot of a
        shared region (:mod:`winnow.corpus.shared_rows`; pages never written
        are never mapped), its records and their counts sent beside; the
        rows are put in parts from their slots, and their owners written,
        once the workers are gone, so that no owner array is held while
        they run; the slots' pages are given back as they are read
        (:func:`~winnow.corpus.shared_rows.give_back`)."""
        config = self.jobs[0].config if self.jobs else None
        capacity = [0 if config is None else slot_rows(job, config) for job in self.jobs]
        starts = np.cumsum([0, *capacity[:-1]]).tolist() if capacity else []
        docs, counts, found = [], [], []
        digests = np.zeros(self.documents, dtype=np.uint64)
        done = 0
        with shared_rows(sum(capacity)) as (number, region):  # before the workers fork
            tasks = [SlotJob(job, int(at), size, number)
                     for job, at, size in zip(self.jobs, starts, capacity, strict=True)]
            pool = make_pool(self.workers, len(self.jobs))
            if pool is not None and config is not None:
                load_kernels(config)  # shared by the forked workers
            try:
                with reusing_freed_memory() if pool is None else nullcontext():
                    results = parallel_map(slot_postings, tasks, stage="records",
                                           progress=None, executor=pool)
                    for job, (h, d, c, sets) in zip(self.jobs, results, strict=True):
                        found.append(h)
                        docs.append(d)
                        counts.append(c)
                        digests[d] = sets
                        done += job.records
                        if progress is not None:
                            progress("records", done, self.documents)
            finally:
                if pool is not None:
                    pool.shutdown()
            hashes, firsts = gathered(region, tasks, found, counts)
            read = partial(give_back, region) if hashes is region else None
        del found, region
        if not docs:
            return (np.zeros(0, np.uint64), np.zeros(0, np.int64), digests,
                    np.zeros((1, 2), np.int64))
        in_parts, owners, parts = records_by_part(hashes, np.concatenate(docs),
                                                 np.concatenate(counts),
                                                 part_bits(self.rows), firsts, read)
        del hashes, firsts, read  # the region unmapped
        bounds = np.zeros((1, parts.shape[0] + 1), dtype=np.int64)
        np.cumsum(parts, out=bounds[0, 1:])
        return in_parts, owners, digests, bounds


def count_records(hashes: U64, owners: npt.NDArray[np.integer], documents: int, cap: int,
                  digests: U64 | None = None, bounds: I64 | None = None) -> MemorySums:
    """What :func:`winnow.pairs.counting.count_postings` gives for distinct
    ``(hash, record)`` rows (a test checks it), without sorting them: the
    hashes in several rows are found and grouped (:func:`shared_groups`), and
    only those groups (16 % of the rows of ``benchmarks/scale.py``'s corpus)
    are counted (:func:`count_groups`).  ``bounds``: as :func:`shared_groups`."""
    return count_groups(shared_groups(hashes, owners, documents, cap, bounds), digests)


def count_groups(groups: Groups, digests: U64 | None = None) -> MemorySums:
    """The pair sums of :func:`shared_groups`' rows (``by_hash``)
    (:func:`~winnow.pairs.counting.count_shared`), with every record's
    size and weight total."""
    groups = hash_ordered(groups)
    documents = groups.kept.shape[0]
    weights = idf_weights(groups.df, documents)
    single = float(idf_weights(np.ones(1, dtype=np.int64), documents)[0])
    weight_totals = (np.bincount(groups.owners, weights=weights, minlength=documents)
                     .astype(np.float64) + groups.alone * single)
    counts = count_shared(groups.hashes, groups.owners, documents, weights=weights)
    del weights
    ordered = pair_order(counts.a, counts.b, documents)
    counts = SharedCounts(counts.a[ordered], counts.b[ordered], counts.shared[ordered],
                          counts.weight[ordered], counts.df_sum[ordered])
    stats = {"documents": documents, "fingerprints": groups.rows,
             "kept": int(groups.kept.sum()), "ignored_common": groups.capped.shape[0],
             "distinct_hashes": groups.distinct, "pairs_sharing": len(counts)}
    return MemorySums(groups.kept, weight_totals, counts, groups.capped, stats, digests)


#: Pairs :func:`count_kept` writes into a block (40 bytes each): before it
#: filters them, or kept ones where the filter is compiled.
BLOCK_PAIRS = 1 << 16


def count_kept(groups: Groups, keep: PairFilter, digests: U64 | None = None
               ) -> MemorySums | None:
    """:func:`count_groups` less the pairs ``keep`` rejects (an engine may
    leave them out, :class:`~winnow.pairs.PairFilter`): the pairs summed
    into blocks of :data:`BLOCK_PAIRS`, in ``(a, b)`` order, by one compiled
    loop (:func:`winnow.corpus._kernels.pair_block`), filtered as they are
    written where ``keep`` has a compiled rule, else a block at a time, so
    the pairs ``keep`` rejects (98 % of those of ``benchmarks/scale.py``'s
    corpus) are never gathered, sorted or copied (:func:`_owner_pairs`).
    Sizes, weights, capped hashes and statistics are :func:`count_groups`'.
    ``None`` where :func:`~winnow.pairs.counting.count_shared` would
    treat the largest groups apart (their pairs past its pair budget, and
    the groups larger than :data:`~winnow.pairs.counting.RARE_FLOOR`):
    the caller counts them all that way."""
    sizes = groups.sizes
    if max(RARE_FLOOR, rare_limit(sizes, PAIR_BUDGET)) < int(sizes.max(initial=0)):
        return None
    documents = groups.kept.shape[0]
    weights = idf_weights(sizes, documents)  # each group's: its hash's df is its size
    single = float(idf_weights(np.ones(1, dtype=np.int64), documents)[0])
    weight_totals = (np.bincount(groups.owners, weights=np.repeat(weights, sizes),
                                 minlength=documents).astype(np.float64)
                     + groups.alone * single)
    group_ptr = np.zeros(sizes.shape[0] + 1, dtype=np.int64)
    np.cumsum(sizes, out=group_ptr[1:])
    scale = float(1 << WEIGHT_BITS)  # weights are whole multiples of 2^-24: summed
    group_weight = (weights * scale).astype(np.int64)  # as integers
    del weights
    a, b, shared, weight, df_sum, met = _kept_pairs(groups, group_ptr, group_weight, keep)
    counts = SharedCounts(a, b, shared, weight / scale, df_sum.astype(np.float64))
    stats = {"documents": documents, "fingerprints": groups.rows,
             "kept": int(groups.kept.sum()), "ignored_common": groups.capped.shape[0],
             "distinct_hashes": groups.distinct, "pairs_sharing": met}
    return MemorySums(groups.kept, weight_totals, counts, groups.capped, stats, digests)


def _kept_pairs(groups: Groups, group_ptr: I64, group_weight: I64, keep: PairFilter
                ) -> tuple[I64, I64, I64, I64, I64, int]:
    """The pairs of ``groups`` that ``keep`` accepts, ``(a, b, shared, weight,
    df_sum)`` in ``(a, b)`` order (weights in units of ``2^-24``), and how many
    pairs share a group in all.  From :data:`~winnow.corpus.groups.SPLIT_ROWS`
    pair incidences on,
    with two usable cores, two threads each sum the owners before and after
    the one that halves the work (the compiled loop runs without the GIL),
    each with its scratch rows, and their pairs are put one after the other:
    the same arrays in the same order."""
    documents = groups.kept.shape[0]
    owner_ptr = np.zeros(documents + 1, dtype=np.int64)
    groups_of = np.empty(groups.owners.shape[0], dtype=np.int64)
    next_row = np.empty(groups.owners.shape[0], dtype=np.int64)
    later = np.zeros(documents, dtype=np.int64)
    _kernels.owner_groups(group_ptr, groups.owners, documents, owner_ptr, groups_of, next_row,
                          later)
    work = np.cumsum(later)
    del later
    total = int(work[-1]) if documents else 0
    middle = int(np.searchsorted(work, total // 2)) + 1 if two_threads(total) else documents
    del work
    args = (groups_of, next_row, group_ptr, groups.owners, group_weight)
    if middle >= documents:
        parts, met = _owner_pairs(0, owner_ptr, args, keep, groups.kept)
    else:
        ranges = [(0, owner_ptr[:middle + 1]), (middle, owner_ptr)]
        with ThreadPoolExecutor(2, thread_name_prefix="winnow-pairs") as pool:
            (parts, met), (more, more_met) = pool.map(
                lambda r: _owner_pairs(r[0], r[1], args, keep, groups.kept), ranges)
        parts += more
        met += more_met
    kept = [np.concatenate([p[i] for p in parts]) if parts else np.zeros(0, np.int64)
            for i in range(5)]
    return kept[0], kept[1], kept[2], kept[3], kept[4], met


def _owner_pairs(first: int, owner_ptr: I64, args: tuple[I64, ...], keep: PairFilter,
                 sizes: I64) -> tuple[list[tuple[I64, ...]], int]:
    """The pairs of owners ``first`` to ``owner_ptr.shape[0] - 2`` that
    ``keep`` accepts, summed a block at a time by
    :func:`winnow.corpus._kernels.pair_block`, in blocks, and how many pairs
    those owners share in all.  A filter with a compiled ``rule``
    (:attr:`winnow.corpus.clusters.LinkFilter.rule`) is applied by the
    kernel as it writes the pairs (1,000,000 records of
    ``benchmarks/scale.py``: 27 million pairs met, 136,000 kept); any other
    is called on each block.  The scratch rows (``row[b]``: 32 bytes a
    record) are this call's own; only those of the owners after ``first``
    are ever written, so only their pages are mapped."""
    documents = sizes.shape[0]
    row = np.empty((documents, 4), dtype=np.int64)
    row[first:] = -1
    touched = np.empty(documents, dtype=np.int64)
    rule: tuple[float, float, int] | None = getattr(keep, "rule", None)
    compiled = (rule is not None, *(rule or (0.0, 0.0, 0)))
    block = _pair_block(BLOCK_PAIRS)
    parts: list[tuple[I64, ...]] = []
    met = 0
    a = first
    last = owner_ptr.shape[0] - 1
    while a < last:
        with uninterrupted():  # several values come back (winnow.compiled.uninterrupted)
            a_next, n, seen = _kernels.pair_block(a, owner_ptr, *args, row, touched, sizes,
                                                  *compiled, *block)
        if n < 0:  # one record's pairs fill more than a block
            block = _pair_block(-n)
            continue
        met += seen
        first_n = tuple(x[:n] for x in block)
        if rule is not None:
            parts.append(tuple(x.copy() for x in first_n))
        else:
            taken = keep(first_n[0], first_n[1], first_n[2], sizes)
            parts.append(tuple(x[taken] for x in first_n))
        a = a_next
    return parts, met


def _pair_block(n: int) -> tuple[I64, I64, I64, I64, I64]:
    """``(a, b, shared, weight, df_sum)`` arrays for ``n`` pairs (weights in
    units of ``2^-24``)."""
    return tuple(np.empty(n, np.int64) for _ in range(5))  # type: ignore[return-value]


def in_records(progress: Progress, records: int) -> Progress:
    """``progress`` with a sharded engine's ``prints`` stage (input shards
    done) told as ``records`` (the records of the shards done, in proportion)."""

    def told(stage: str, done: int, total: int) -> None:
        if stage == "prints":
            progress("records", records * done // max(total, 1), records)
        else:
            progress(stage, done, total)

    return told


__all__ = ["BLOCK_PAIRS", "KEPT_ROW_BYTES", "CorpusPostings", "count_groups", "count_kept",
           "count_records", "in_records"]
