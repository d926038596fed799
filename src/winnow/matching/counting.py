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
objects), reusable by any index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.matching import _kernels

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


def group_bounds(sorted_hashes: U64) -> tuple[I64, I64]:
    """Start index and size of each run of equal hashes in a sorted array."""
    n = sorted_hashes.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(sorted_hashes[1:] != sorted_hashes[:-1]) + 1
    starts = np.concatenate([np.zeros(1, dtype=np.int64), change.astype(np.int64)])
    sizes = np.diff(np.concatenate([starts, np.array([n], dtype=np.int64)]))
    return starts, sizes


def resolve_cap(max_occurrences: float, n_owners: int) -> int:
    """The ``-m`` cap as a count: an integer ``N >= 1`` as is, a fraction
    ``0 < f < 1`` as ``ceil(f * n_owners)`` (at least 2, so pairs survive);
    ``0`` means no cap."""
    if max_occurrences == 0:
        return max(n_owners, 2)
    if 0 < max_occurrences < 1:
        return max(2, math.ceil(max_occurrences * n_owners))
    return int(max_occurrences)


#: Weights are multiples of ``2^-WEIGHT_BITS``: below ``2^(53 - WEIGHT_BITS)``
#: every sum of them is exact in float64, so it is the same in any order
#: (the sharded engine adds a pair's weights partition by partition).
WEIGHT_BITS = 24


def idf_weights(df: I64, n_owners: int) -> F64:
    """Smoothed inverse document frequency ``1 + ln((1 + N) / (1 + df))``,
    rounded to a multiple of ``2^-24`` (:data:`WEIGHT_BITS`).

    compare50's idea of weighting rare shared fragments more; the smoothing
    keeps every weight positive (with ``N = 2`` a plain ``ln(N / df)`` would
    give every shared fingerprint weight 0).  The rounding (at most 3e-8)
    makes sums of weights exact, hence independent of their order, as long
    as they stay below ``2^29`` (16 million fingerprints of weight 32).
    """
    exact = 1.0 + np.log((1.0 + n_owners) / (1.0 + df.astype(np.float64)))
    scale = float(1 << WEIGHT_BITS)
    rounded: F64 = np.round(exact * scale) / scale
    return rounded


@dataclass(frozen=True)
class SharedCounts:
    """Per pair of owners ``a < b`` that share at least one kept fingerprint:
    ``shared`` distinct hashes, the sum of their ``weight`` and of their ``df``.
    Pairs come grouped by ``a`` (ascending), in a deterministic order."""

    a: I64
    b: I64
    shared: I64
    weight: F64
    df_sum: F64


#: Pairs generated from shared hashes (``Σ_h C(df(h), 2)``) beyond which only
#: the rarer hashes create pairs (see :func:`count_shared`).  It bounds the
#: time (a few nanoseconds per generated pair) and the distinct pairs, 40 bytes
#: each: at worst 2^26 of them, 2.7 GB.  20,000 real files with ``-m 50``
#: generate 51 million, so they are counted exactly.
PAIR_BUDGET = 1 << 26

#: Hashes in at most this many owners always create pairs, whatever the
#: budget, so a group of up to this many copies of one original is always
#: found (MOSS's default ``-m``).
RARE_FLOOR = 10


def rare_limit(sizes: I64, budget: int) -> int:
    """The largest group size ``R`` such that the groups of at most ``R``
    owners generate no more than ``budget`` pairs in all (every size when
    they all fit)."""
    d, count = np.unique(sizes[sizes >= 2], return_counts=True)
    if d.shape[0] == 0:
        return 2
    generated = np.cumsum(count * (d * (d - 1) // 2))
    if generated[-1] <= budget:
        return int(d[-1])
    fitting = d[generated <= budget]
    return int(fitting[-1]) if fitting.shape[0] else 2


def count_shared(
    hashes: U64, owners: I64, n_owners: int, *, weights: F64 | None = None,
    excluded_owner_pairs: Bools | None = None,
) -> SharedCounts:
    """Count, for every pair of owners, the distinct hashes they share.

    ``hashes``/``owners`` are distinct rows sorted by hash then owner (see
    :func:`distinct_postings`), already stripped of capped and base hashes.
    ``weights`` gives each row's hash weight (equal within a hash group).
    ``excluded_owner_pairs`` marks owners whose pairs with *each other* are
    never counted (archives of earlier years); pairs within one owner never
    arise because rows are distinct.  The pairs are summed row by row by a
    compiled loop (:func:`winnow.matching._kernels.pair_sums`), twice: once
    to count them, once to fill arrays of that size, so memory is the
    distinct pairs, never the pairs generated.

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
    groups = np.repeat(np.arange(starts.shape[0], dtype=np.int64), sizes)
    owners = owners.astype(np.int64, copy=False)
    pairing = np.repeat((sizes >= 2) & (sizes <= limit), sizes)  # rows that make pairs
    owner_ptr, owner_groups = _kernels.owner_csr(owners[pairing], groups[pairing], n_owners)
    del groups, pairing
    archive = (np.zeros(n_owners, dtype=bool) if excluded_owner_pairs is None
               else excluded_owner_pairs.astype(bool))
    args = (n_owners, owner_ptr, owner_groups, np.append(starts, hashes.shape[0]).astype(np.int64),
            owners, row_weight[starts].astype(np.float64), archive)
    n = _kernels.pair_sums(*args, False, *_pair_arrays(0))
    a, b, shared, weight, df_sum = _pair_arrays(n)
    _kernels.pair_sums(*args, True, a, b, shared, weight, df_sum)
    del owner_groups
    counts = SharedCounts(a, b, shared, weight, df_sum)  # by a, then b as first met
    if limit < int(sizes.max(initial=0)):
        _add_common(counts, hashes, owners, row_weight, starts, sizes, limit, n_owners)
    return counts


def _pair_arrays(n: int) -> tuple[I64, I64, I64, F64, F64]:
    """Zeroed ``(a, b, shared, weight, df_sum)`` for ``n`` pairs."""
    return (np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros(n, np.float64), np.zeros(n, np.float64))


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
