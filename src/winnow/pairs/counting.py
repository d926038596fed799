"""Counting shared fingerprints per pair of owners without enumerating all pairs.

This is the first pass of MOSS as the winnowing paper describes it (Schleimer,
Wilkerson, Aiken 2003, section 5.2): build an index of every fingerprint, then
for each fingerprint shared by several documents emit the pairs of documents
that share it.  Here the "index" is a sort: the ``(hash, owner)`` rows of all
owners (submissions) are sorted by hash, equal hashes form contiguous groups,
and a group of ``d`` owners contributes its ``d (d - 1) / 2`` pairs, summed
per pair by a compiled loop over the owners (a sparse product ``A Aᵀ`` of the
owner x hash incidence matrix).  Pairs
are therefore only materialised for owners that really share something, and
the frequency cap (MOSS ``-m``) bounds ``d``, so the work is
``O(U log U + Σ_h C(df(h), 2))`` for ``U`` distinct ``(hash, owner)`` rows.

Everything is plain functions over numpy arrays (no per-fingerprint Python
objects), reusable by any index: compare's table
(:class:`winnow.matching.table.MemoryTable`) and the postings that the
pair-counting stage's in-memory engine gathers (:func:`count_postings`)
count with them, and so does each partition of the sharded engines
(:mod:`winnow.sharded.pairs`).
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from winnow.compiled import uninterrupted
from winnow.pairs import _kernels
from winnow.pairs.memory import MemorySums
from winnow.parallel import usable_cores
from winnow.tables import SharedCounts, idf_weights

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


def distinct_postings(hashes: U64, owners: I64) -> tuple[U64, I64]:
    """The distinct ``(hash, owner)`` rows, sorted by hash then owner."""
    if hashes.shape[0] == 0:
        return hashes.astype(np.uint64), owners.astype(np.int64)
    order = np.lexsort((owners, hashes))
    h = hashes[order]
    o = owners[order]
    keep = np.ones(h.shape[0], dtype=bool)
    keep[1:] = (h[1:] != h[:-1]) | (o[1:] != o[:-1])
    return h[keep], o[keep].astype(np.int64)


def repeated(hashes: U64) -> tuple[Bools, int]:
    """``(rows whose hash is in another row too, distinct hashes)``: one pass
    over a hash table (:func:`winnow.pairs._kernels.repeated_rows`, 12
    bytes a slot, about 1.5-3 slots a row) instead of a sort of every row.
    4 million rows: 0.34 s, against 1.37 s by sorting."""
    n = hashes.shape[0]
    if n == 0:
        return np.zeros(0, dtype=bool), 0
    slots = 1 << max(4, (n + n // 2).bit_length())
    with uninterrupted():  # two values come back (winnow.compiled.uninterrupted)
        mask, distinct = _kernels.repeated_rows(np.ascontiguousarray(hashes, dtype=np.uint64),
                                                slots)
    return mask, int(distinct)


def group_bounds(sorted_hashes: U64) -> tuple[I64, I64]:
    """Start index and size of each run of equal hashes in a sorted array."""
    n = sorted_hashes.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(sorted_hashes[1:] != sorted_hashes[:-1]) + 1
    starts = np.concatenate([np.zeros(1, dtype=np.int64), change.astype(np.int64)])
    sizes = np.diff(np.concatenate([starts, np.array([n], dtype=np.int64)]))
    return starts, sizes


#: The default ``-m`` (``max_occurrences=None``): a fingerprint counts while at
#: most this share of the submissions hold it ...
DEFAULT_SHARE = 0.4
#: ... or at most this many, whichever is larger (MOSS's default count), so
#: that a small class loses nothing its members share with a few others ...
DEFAULT_FLOOR = 10
#: ... but never more than this many: a fragment in ``d`` submissions adds
#: ``d (d - 1) / 2`` pair counts, and batches far larger than a class (5,000
#: files: 63 s at a cap of 2,000, 22 s at 200; docs/accuracy.md) would pay
#: for it.  What the cap leaves out is listed (:mod:`winnow.matching.common`).
DEFAULT_CEILING = 200


def resolve_cap(max_occurrences: float | None, n_owners: int) -> int:
    """The ``-m`` cap as a count: an integer ``N >= 1`` as is, a fraction
    ``0 < f < 1`` as ``ceil(f * n_owners)`` (at least 2, so pairs survive);
    ``0`` means no cap; ``None`` the default,
    ``max(DEFAULT_FLOOR, min(DEFAULT_CEILING, ceil(DEFAULT_SHARE * n_owners)))``:
    in a class of up to 600, never below a third of it, so a solution a
    third of the class shares still counts as evidence."""
    if max_occurrences is None:
        return max(DEFAULT_FLOOR, min(DEFAULT_CEILING, math.ceil(DEFAULT_SHARE * n_owners)))
    if max_occurrences == 0:
        return max(n_owners, 2)
    if 0 < max_occurrences < 1:
        return max(2, math.ceil(max_occurrences * n_owners))
    return int(max_occurrences)


#: Pairs generated from shared hashes (``Σ_h C(df(h), 2)``) beyond which only
#: the rarer hashes create pairs (see :func:`count_shared`).  It bounds the
#: time (a few nanoseconds per generated pair) and the distinct pairs, 40 bytes
#: each: at worst 2^26 of them, 2.7 GB.  20,000 real files with ``-m 50``
#: generate 51 million, so they are counted exactly.
PAIR_BUDGET = 1 << 26

#: Pairs the counting arrays hold at the first try (40 bytes each): when the
#: pairs may be more (their bound: the pairs generated, and all pairs of
#: owners), they are counted first and filled in a second pass.
FIRST_PAIRS = 1 << 21

#: Hashes in at most this many owners always create pairs, whatever the
#: budget, so a group of up to this many copies of one original is always
#: found (MOSS's default ``-m``).
RARE_FLOOR = 10


def rare_limit(sizes: I64, budget: int) -> int:
    """The largest group size ``R`` such that the groups of at most ``R``
    owners generate no more than ``budget`` pairs in all (every size when
    they all fit)."""
    count = np.bincount(sizes)  # sizes are owners per hash: a short histogram
    d = np.flatnonzero(count)
    d = d[d >= 2]
    if d.shape[0] == 0:
        return 2
    generated = np.cumsum(count[d] * (d * (d - 1) // 2))
    if generated[-1] <= budget:
        return int(d[-1])
    fitting = d[generated <= budget]
    return int(fitting[-1]) if fitting.shape[0] else 2


def count_shared(
    hashes: U64, owners: I64, n_owners: int, *, weights: F64 | None = None,
    excluded_owner_pairs: Bools | None = None,
) -> SharedCounts:
    """Count, for every pair of owners, the distinct hashes they share.

    ``hashes``/``owners`` are distinct rows sorted by hash then owner (a
    hash's owners strictly ascending: ``ValueError`` otherwise), already
    stripped of capped and base hashes.
    ``weights`` gives each row's hash weight (equal within a hash group).
    ``excluded_owner_pairs`` marks owners whose pairs with *each other* are
    never counted (archives of earlier years); pairs within one owner never
    arise because rows are distinct.  The pairs are summed row by row by a
    compiled loop (:func:`winnow.pairs._kernels.pair_sums`) into arrays
    of :data:`FIRST_PAIRS` pairs at most, again into arrays of the exact size
    when they were too short, so memory is the distinct pairs, never the
    pairs generated.

    Exact for every pair while the groups generate at most
    :data:`PAIR_BUDGET` pairs.  Beyond (a huge batch without a ``-m`` cap),
    only the groups of at most ``R`` owners (:func:`rare_limit`, never below
    :data:`RARE_FLOOR`) create pairs; the hashes of larger groups are then added, exactly, to those
    candidate pairs only, by intersecting each pair's sorted lists of common
    hashes.  A pair that shares nothing but very common hashes is then left
    out: its work would be quadratic and its evidence is nil.
    """
    starts, sizes = group_bounds(hashes)
    row_weight = np.ones(hashes.shape[0]) if weights is None else weights
    limit = max(RARE_FLOOR, rare_limit(sizes, PAIR_BUDGET))
    owners = owners.astype(np.int64, copy=False)
    with uninterrupted():  # several arrays come back (winnow.compiled.uninterrupted)
        owner_ptr, owner_groups, owner_rows, later = _kernels.owner_plan(
            owners, starts, sizes, int(limit), int(n_owners))
    archive = (np.zeros(n_owners, dtype=bool) if excluded_owner_pairs is None
               else excluded_owner_pairs.astype(bool))
    args = (owner_ptr, owner_groups, owner_rows,
            np.append(starts, hashes.shape[0]).astype(np.int64),
            owners, row_weight[starts].astype(np.float64), archive)
    counts = SharedCounts(*_sum_pairs(n_owners, args, later))  # by a, then b as first met
    del args, owner_groups, owner_rows
    if limit < int(sizes.max(initial=0)):
        _add_common(counts, hashes, owners, row_weight, starts, sizes, limit, n_owners)
    return counts


PairArrays = tuple[I64, I64, I64, F64, F64]

#: Pair incidences (each pair counted once per hash its owners share) from
#: which two threads sum the pairs, each a range of owners: the compiled loop
#: runs without the GIL, and below this the thread costs more than it saves.
SPLIT_WORK = 1 << 20


def _sum_pairs(n_owners: int, args: tuple[Any, ...], later: F64) -> PairArrays:
    """The pairs summed by :func:`_kernels.pair_sums`, owner by owner, in
    arrays of their exact size: by one call, or with much work and two
    usable cores, by two threads on the owners before and after the point
    that halves the work, their pairs put one after the other (the same
    arrays in the same order)."""
    work = np.cumsum(later)
    total = float(work[-1]) if work.shape[0] else 0.0
    if total < SPLIT_WORK or usable_cores() < 2:
        return _first(*_sum_range(n_owners, 0, n_owners, total, args))
    middle = int(np.searchsorted(work, total / 2)) + 1
    ranges = [(0, middle, float(work[middle - 1])),
              (middle, n_owners, total - float(work[middle - 1]))]
    with ThreadPoolExecutor(2, thread_name_prefix="winnow-pairs") as pool:
        parts = list(pool.map(lambda r: _sum_range(n_owners, r[0], r[1], r[2], args), ranges))
    (first, n_first), (second, n_second) = parts  # one copy out, as _first makes
    return tuple(np.concatenate([x[:n_first], y[:n_second]])  # type: ignore[return-value]
                 for x, y in zip(first, second, strict=True))


def _sum_range(n_owners: int, first: int, last: int, incidences: float,
               args: tuple[Any, ...]) -> tuple[PairArrays, int]:
    """The pairs of owners ``first .. last - 1`` (at most ``incidences``):
    arrays holding them first, and how many."""
    bound = min(int(incidences), (last - first) * n_owners)
    arrays = _pair_arrays(min(bound, FIRST_PAIRS))
    n = _kernels.pair_sums(n_owners, first, last, *args, *arrays)
    if n > arrays[0].shape[0]:  # more pairs than the first try held: again, exactly
        arrays = _pair_arrays(n)
        _kernels.pair_sums(n_owners, first, last, *args, *arrays)
    return arrays, n


def _pair_arrays(n: int) -> PairArrays:
    """Zeroed ``(a, b, shared, weight, df_sum)`` for ``n`` pairs."""
    return (np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros(n, np.float64), np.zeros(n, np.float64))


def _first(arrays: PairArrays, n: int) -> PairArrays:
    """The first ``n`` pairs of ``arrays``, copied out when they hold more."""
    if arrays[0].shape[0] == n:
        return arrays
    a, b, shared, weight, df_sum = arrays
    return a[:n].copy(), b[:n].copy(), shared[:n].copy(), weight[:n].copy(), df_sum[:n].copy()


def _add_common(
    counts: SharedCounts, hashes: U64, owners: I64, row_weight: F64, starts: I64,
    sizes: I64, limit: int, n_owners: int,
) -> None:
    """Add the hashes of groups larger than ``limit`` to the candidate pairs."""
    row_size = np.repeat(sizes, sizes)
    common = row_size > limit
    c_owner = owners[common]
    order = np.lexsort((hashes[common], c_owner))  # by owner, then hash
    c_hash = hashes[common][order]
    c_weight = row_weight[common][order].astype(np.float64)
    c_df = row_size[common][order].astype(np.float64)
    bounds = np.searchsorted(c_owner[order], np.arange(n_owners + 1)).astype(np.int64)
    _kernels.add_common(counts.a, counts.b, bounds, c_hash, c_weight, c_df,
                        counts.shared, counts.weight, counts.df_sum)


def pair_order(a: I64, b: I64, documents: int) -> I64:
    """``np.lexsort((b, a))`` of distinct pairs of owners below ``documents``:
    a stable sort of one key ``a * documents + b``, which finds the runs
    :func:`count_shared` leaves (pairs by ``a``): 868,000 pairs of
    ``benchmarks/scale.py``'s 100,000 records in 0.02 s, ``np.lexsort`` 0.27 s."""
    if documents >= 1 << 31:  # the key would overflow
        return np.lexsort((b, a))
    return np.argsort(a * documents + b, kind="stable")


def count_postings(hashes: U64, owners: I64, documents: int, cap: int, *,
                   base: U64 | None = None, archive: Bools | None = None) -> MemorySums:
    """The in-memory engine's count of gathered postings
    (:meth:`winnow.pairs.Postings.in_memory`): distinct ``(hash, owner)`` rows
    in any order, owners ``0 .. documents - 1``.  Only the rows of hashes in
    more than one owner are sorted (:func:`repeated` finds them); a hash in
    one owner counts in its size with the IDF weight of ``df = 1``, as the
    sharded engines count it.  The cap drops hashes in more than ``cap``
    owners, and :func:`count_shared` sums the pairs, returned in ``(a, b)``
    order.  Hashes of ``base`` count in the sizes and weights but are never
    shared; owners marked in ``archive`` are never paired with each other."""
    postings = hashes.shape[0]
    multi, distinct = repeated(hashes)
    alone = np.bincount(owners[~multi], minlength=documents).astype(np.int64)
    h, o = distinct_postings(hashes[multi], owners[multi])
    del multi
    starts, group = group_bounds(h)
    capped = h[starts[group > cap]].astype(np.uint64)
    kept = np.repeat(group <= cap, group)
    h, o = h[kept], o[kept]
    weights = np.repeat(idf_weights(group, documents), group)[kept]
    del kept
    sizes = alone + np.bincount(o, minlength=documents).astype(np.int64)
    single = float(idf_weights(np.ones(1, dtype=np.int64), documents)[0])
    weight_totals = (alone * single + np.bincount(o, weights=weights, minlength=documents)
                     ).astype(np.float64)
    if base is not None and base.shape[0]:
        share = ~np.isin(h, base)
        h, o, weights = h[share], o[share], weights[share]
    counts = count_shared(h, o, documents, weights=weights, excluded_owner_pairs=archive)
    order = pair_order(counts.a, counts.b, documents)
    counts = SharedCounts(counts.a[order], counts.b[order], counts.shared[order],
                          counts.weight[order], counts.df_sum[order])
    stats = {"documents": documents, "fingerprints": postings, "kept": int(sizes.sum()),
             "ignored_common": int(capped.shape[0]), "distinct_hashes": distinct,
             "pairs_sharing": len(counts)}
    return MemorySums(sizes, weight_totals, counts, capped, stats)
