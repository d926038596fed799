"""Compiled loops of the pair counting (numba, nopython mode).

The typed wrappers are in :mod:`winnow.pairs.counting`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit

I64 = npt.NDArray[np.int64]


@jit()
def add_common(
    pair_a: I64, pair_b: I64, bounds: I64, hashes: npt.NDArray[np.uint64],
    weights: npt.NDArray[np.float64], dfs: npt.NDArray[np.float64],
    shared: I64, weight: npt.NDArray[np.float64], df_sum: npt.NDArray[np.float64],
) -> None:
    """For each pair, add the hashes owners ``a`` and ``b`` both hold among
    their common rows (``hashes[bounds[x]:bounds[x + 1]]``, sorted), with their
    weights and document frequencies, to ``shared``, ``weight``, ``df_sum``."""
    for i in range(pair_a.shape[0]):
        x, x_end = bounds[pair_a[i]], bounds[pair_a[i] + 1]
        y, y_end = bounds[pair_b[i]], bounds[pair_b[i] + 1]
        while x < x_end and y < y_end:
            if hashes[x] < hashes[y]:
                x += 1
            elif hashes[y] < hashes[x]:
                y += 1
            else:
                shared[i] += 1
                weight[i] += weights[x]
                df_sum[i] += dfs[x]
                x += 1
                y += 1


@jit()
def owner_plan(
    owners: I64, starts: I64, sizes: I64, limit: int, n_owners: int,
) -> tuple[I64, I64, I64, npt.NDArray[np.float64]]:
    """Per owner, where it stands in the groups that make pairs (sizes 2 to
    ``limit``): ``(ptr, groups, rows, later)``, owner ``x``'s groups being
    ``groups[ptr[x]:ptr[x + 1]]`` in group order, ``rows`` its row in each,
    and ``later[x]`` the members after it in them all (the pairs
    :func:`pair_sums` meets for it).  Two passes over the rows (a counting
    sort by owner).  A group's owners must ascend, each once (``pair_sums``
    pairs an owner with the rows after it): ``ValueError`` otherwise."""
    ptr = np.zeros(n_owners + 1, dtype=np.int64)
    later = np.zeros(n_owners, dtype=np.float64)
    for g in range(starts.shape[0]):
        size = sizes[g]
        if size < 2 or size > limit:
            continue
        end = starts[g] + size
        for r in range(starts[g], end):
            if r > starts[g] and owners[r] <= owners[r - 1]:
                raise ValueError("the owners of a hash must be distinct and ascending")
            ptr[owners[r] + 1] += 1
            later[owners[r]] += end - r - 1
    for x in range(n_owners):
        ptr[x + 1] += ptr[x]
    at = ptr[:-1].copy()
    groups = np.empty(ptr[n_owners], dtype=np.int64)
    rows = np.empty(ptr[n_owners], dtype=np.int64)
    for g in range(starts.shape[0]):
        size = sizes[g]
        if size < 2 or size > limit:
            continue
        for r in range(starts[g], starts[g] + size):
            x = owners[r]
            groups[at[x]] = g
            rows[at[x]] = r
            at[x] += 1
    return ptr, groups, rows, later


@jit(nogil=True)  # two threads sum two ranges of owners (counting.count_shared)
def pair_sums(
    n_owners: int, first: int, last: int, owner_ptr: I64, owner_groups: I64, owner_rows: I64,
    group_ptr: I64, group_owner: I64, group_weight: npt.NDArray[np.float64],
    archive: npt.NDArray[np.bool_],
    out_a: I64, out_b: I64, shared: I64, weight: npt.NDArray[np.float64],
    df_sum: npt.NDArray[np.float64],
) -> int:
    """Per pair of owners ``a < b`` with ``first <= a < last``, the groups
    (hashes) they share, summed into ``(out_a, out_b, shared, weight,
    df_sum)`` by ``a``; returns the number of pairs.

    Row by row like a sparse product ``A Aᵀ`` (Gustavson): for owner ``a``,
    every group it is in (``owner_groups[owner_ptr[a]:owner_ptr[a + 1]]``,
    ``a`` at row ``owner_rows[j]`` of it; :func:`owner_plan`) adds to each
    later member ``b`` (the rows after it up to ``group_ptr[g + 1]``: a
    group's owners ascend) in a scratch row indexed by ``b`` (so no pair is sorted or
    hashed, and the sums stay in cache); then the row's pairs are copied out
    in the order their ``b`` was first met.  The outputs are written only
    while every pair fits in them: when the returned count exceeds their
    length, call again with outputs of that size.  Pairs of two ``archive``
    owners are skipped.
    """
    capacity = out_a.shape[0]
    mark = np.full(n_owners, -1, dtype=np.int64)
    touched = np.empty(n_owners, dtype=np.int64)
    row_shared = np.zeros(n_owners, dtype=np.int64)
    row_weight = np.zeros(n_owners, dtype=np.float64)
    row_df = np.zeros(n_owners, dtype=np.float64)
    count = 0
    for a in range(first, last):
        both_archive = archive[a]
        met = 0
        for j in range(owner_ptr[a], owner_ptr[a + 1]):
            g = owner_groups[j]
            lo = group_ptr[g]
            hi = group_ptr[g + 1]
            w = group_weight[g]
            for m in range(owner_rows[j] + 1, hi):
                b = group_owner[m]
                if both_archive and archive[b]:
                    continue
                if mark[b] != a:
                    mark[b] = a
                    touched[met] = b
                    met += 1
                    row_shared[b] = 0
                    row_weight[b] = 0.0
                    row_df[b] = 0.0
                row_shared[b] += 1
                row_weight[b] += w
                row_df[b] += hi - lo
        if count + met <= capacity:
            for t in range(met):
                b = touched[t]
                out_a[count + t] = a
                out_b[count + t] = b
                shared[count + t] = row_shared[b]
                weight[count + t] = row_weight[b]
                df_sum[count + t] = row_df[b]
        else:
            capacity = 0  # no longer fits: count only
        count += met
    return count


@jit()
def repeated_rows(hashes, slots):  # type: ignore[no-untyped-def]
    """Which rows hold a hash that another row holds too, and how many
    distinct hashes there are, in two passes over an open-addressing table
    of ``slots`` entries (a power of two, 1.5 to 3 a row): where a
    sort of every row would cost ``O(n log n)`` to find the few hashes in
    more than one row."""
    n = hashes.shape[0]
    mask = np.uint64(slots - 1)
    keys = np.zeros(slots, dtype=np.uint64)
    counts = np.zeros(slots, dtype=np.int32)  # 0: empty slot
    distinct = 0
    for i in range(n):
        h = hashes[i]
        s = (h * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(17) & mask
        while counts[s] != 0 and keys[s] != h:
            s = (s + np.uint64(1)) & mask
        if counts[s] == 0:
            keys[s] = h
            distinct += 1
        if counts[s] < 2:
            counts[s] += 1
    out = np.empty(n, dtype=np.bool_)
    for i in range(n):
        h = hashes[i]
        s = (h * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(17) & mask
        while keys[s] != h:
            s = (s + np.uint64(1)) & mask
        out[i] = counts[s] >= 2
    return out, distinct
