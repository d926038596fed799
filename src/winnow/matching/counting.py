"""Counting shared fingerprints per pair of owners without enumerating all pairs.

This is the first pass of MOSS as the winnowing paper describes it (Schleimer,
Wilkerson, Aiken 2003, section 5.2): build an index of every fingerprint, then
for each fingerprint shared by several documents emit the pairs of documents
that share it.  Here the "index" is a sort: the ``(hash, owner)`` rows of all
owners (submissions) are sorted by hash, equal hashes form contiguous groups,
and a group of ``d`` owners contributes its ``d (d - 1) / 2`` pairs.  Pairs
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


def idf_weights(df: I64, n_owners: int) -> F64:
    """Smoothed inverse document frequency ``1 + ln((1 + N) / (1 + df))``.

    compare50's idea of weighting rare shared fragments more; the smoothing
    keeps every weight positive (with ``N = 2`` a plain ``ln(N / df)`` would
    give every shared fingerprint weight 0).
    """
    return 1.0 + np.log((1.0 + n_owners) / (1.0 + df.astype(np.float64)))


@dataclass(frozen=True)
class SharedCounts:
    """Per pair of owners ``a < b`` that share at least one kept fingerprint:
    ``shared`` distinct hashes, the sum of their ``weight`` and of their ``df``."""

    a: I64
    b: I64
    shared: I64
    weight: F64
    df_sum: F64


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
    arise because rows are distinct.
    """
    starts, sizes = group_bounds(hashes)
    row_weight = np.ones(hashes.shape[0]) if weights is None else weights
    keys: list[I64] = []
    wsum: list[F64] = []
    dsum: list[F64] = []
    for d in np.unique(sizes[sizes >= 2]).tolist():
        group_starts = starts[sizes == d]
        members = owners[group_starts[:, None] + np.arange(d)]
        left, right = np.triu_indices(d, 1)
        a = members[:, left].ravel()
        b = members[:, right].ravel()
        per_group = left.shape[0]
        w = np.repeat(row_weight[group_starts], per_group)
        if excluded_owner_pairs is not None:
            keep = ~(excluded_owner_pairs[a] & excluded_owner_pairs[b])
            a, b, w = a[keep], b[keep], w[keep]
        keys.append(a * np.int64(n_owners) + b)
        wsum.append(w)
        dsum.append(np.full(a.shape[0], float(d)))
    if not keys:
        empty_i = np.zeros(0, dtype=np.int64)
        empty_f = np.zeros(0, dtype=np.float64)
        return SharedCounts(empty_i, empty_i, empty_i, empty_f, empty_f)
    all_keys = np.concatenate(keys)
    unique, inverse = np.unique(all_keys, return_inverse=True)
    shared = np.bincount(inverse, minlength=unique.shape[0]).astype(np.int64)
    weight = np.bincount(
        inverse, weights=np.concatenate(wsum), minlength=unique.shape[0]
    ).astype(np.float64)
    df_sum = np.bincount(
        inverse, weights=np.concatenate(dsum), minlength=unique.shape[0]
    ).astype(np.float64)
    return SharedCounts(
        (unique // n_owners).astype(np.int64), (unique % n_owners).astype(np.int64),
        shared, weight, df_sum,
    )
