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


#: Group pairs generated per batch; bounds the temporary memory of counting.
BATCH_PAIRS = 1 << 22


def _aggregate(keys: I64, shared: I64, weight: F64, df_sum: F64
               ) -> tuple[I64, I64, F64, F64]:
    """Sum ``shared``, ``weight`` and ``df_sum`` over equal ``keys``."""
    unique, inverse = np.unique(keys, return_inverse=True)
    n = unique.shape[0]
    return (
        unique.astype(np.int64),
        np.bincount(inverse, weights=shared, minlength=n).astype(np.int64),
        np.bincount(inverse, weights=weight, minlength=n).astype(np.float64),
        np.bincount(inverse, weights=df_sum, minlength=n).astype(np.float64),
    )


def _group_pairs(
    owners: I64, group_starts: I64, d: int, row_weight: F64, n_owners: int,
    excluded_owner_pairs: Bools | None,
) -> tuple[I64, I64, F64, F64]:
    """The aggregated pairs of the groups of ``d`` owners starting at ``group_starts``."""
    members = owners[group_starts[:, None] + np.arange(d)]
    left, right = np.triu_indices(d, 1)
    a = members[:, left].ravel()
    b = members[:, right].ravel()
    w = np.repeat(row_weight[group_starts], left.shape[0])
    if excluded_owner_pairs is not None:
        keep = ~(excluded_owner_pairs[a] & excluded_owner_pairs[b])
        a, b, w = a[keep], b[keep], w[keep]
    keys = a * np.int64(n_owners) + b
    ones = np.ones(keys.shape[0], dtype=np.int64)
    return _aggregate(keys, ones, w, np.full(keys.shape[0], float(d)))


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
    arise because rows are distinct.  Groups are expanded into pairs in
    batches of about :data:`BATCH_PAIRS`, each summed before the next, so the
    temporary memory stays bounded however many pairs share something.
    """
    starts, sizes = group_bounds(hashes)
    row_weight = np.ones(hashes.shape[0]) if weights is None else weights
    parts: list[tuple[I64, I64, F64, F64]] = []
    for d in np.unique(sizes[sizes >= 2]).tolist():
        group_starts = starts[sizes == d]
        per_batch = max(1, BATCH_PAIRS // (d * (d - 1) // 2))
        for lo in range(0, group_starts.shape[0], per_batch):
            parts.append(_group_pairs(owners, group_starts[lo:lo + per_batch], d,
                                      row_weight, n_owners, excluded_owner_pairs))
    if not parts:
        empty_i = np.zeros(0, dtype=np.int64)
        empty_f = np.zeros(0, dtype=np.float64)
        return SharedCounts(empty_i, empty_i, empty_i, empty_f, empty_f)
    if len(parts) == 1:
        keys, shared, weight, df_sum = parts[0]
    else:
        keys, shared, weight, df_sum = _aggregate(
            *(np.concatenate([part[i] for part in parts]) for i in range(4)))
    return SharedCounts(keys // n_owners, keys % n_owners, shared, weight, df_sum)
