"""Compiled loops of the pair table's sort and grouping and of the passages
pass (numba, nopython mode).

The typed wrappers are :func:`winnow.matching.table.group_words` and
:func:`winnow.matching.passages.maximal_runs`; the pair sums' loops are in
:mod:`winnow.pairs._kernels`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit

I64 = npt.NDArray[np.int64]


@jit()
def extend_seeds(
    units: I64, free: npt.NDArray[np.bool_], kgrams: I64, bounds: I64, fa: I64, pa: I64,
    fb: I64, pb: I64, min_length: int,
) -> tuple[I64, I64, I64, I64, I64, I64]:
    """Maximal equal runs through seeds sorted by (fa, fb, pb - pa, pa).

    File ``f``'s units are ``units[bounds[f]:bounds[f + 1]]``; a run never
    holds a whole k-gram (``kgrams[f]`` units) starting at a unit of ``a``
    whose ``free`` is false (base code).  A seed inside
    the previous run on the same diagonal is absorbed (its count goes to that
    run); a seed whose own units differ (a hash collision) starts nothing; a
    run shorter than ``min_length`` is dropped.  Returns the runs'
    (fa, fb, start in a, start in b, length, seeds).
    """
    n = fa.shape[0]
    out = np.empty((6, n), dtype=np.int64)
    count = 0
    last_fa, last_fb, last_diag, last_end = -1, -1, 0, -1
    for i in range(n):
        a, b, p, q = fa[i], fb[i], pa[i], pb[i]
        if count > 0 and a == last_fa and b == last_fb and q - p == last_diag and p < last_end:
            out[5, count - 1] += 1
            continue
        a0, b0 = bounds[a], bounds[b]
        k = kgrams[a]
        size_a, size_b = bounds[a + 1] - a0, bounds[b + 1] - b0
        forward = 0
        while (p + forward < size_a and q + forward < size_b
               and units[a0 + p + forward] == units[b0 + q + forward]
               and (forward + 1 < k or free[a0 + p + forward + 1 - k])):
            forward += 1
        if forward == 0:  # the seed's own units differ: a hash collision, no run
            continue
        back = 0
        while (back < p and back < q and units[a0 + p - back - 1] == units[b0 + q - back - 1]
               and (back + 1 + forward < k or free[a0 + p - back - 1])):
            back += 1
        if back + forward < min_length:
            continue
        out[0, count], out[1, count] = a, b
        out[2, count], out[3, count] = p - back, q - back
        out[4, count], out[5, count] = back + forward, 1
        count += 1
        last_fa, last_fb, last_diag, last_end = a, b, q - p, p + forward
    return out[0, :count], out[1, :count], out[2, :count], out[3, :count], \
        out[4, :count], out[5, :count]


@jit()
def claim_runs(
    claimed: npt.NDArray[np.bool_], start_a: I64, start_b: I64, length: I64, min_length: int,
) -> tuple[I64, I64]:
    """Runs taken one-to-one, in the given order (longest first).

    Run ``i`` covers ``claimed[start_a[i]:start_a[i] + length[i]]`` on one
    side and the same length from ``start_b[i]`` on the other (offsets into
    one array holding every file's units).  Each run keeps the first longest
    stretch where neither side is claimed yet, and claims it, unless that
    stretch is shorter than ``min(min_length, length[i])``.  Returns, per
    run, the stretch's offset into the run and its length (``-1``: dropped).
    """
    n = length.shape[0]
    offset = np.full(n, -1, dtype=np.int64)
    kept = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        a, b, size = start_a[i], start_b[i], length[i]
        best_start, best_length, current = 0, 0, 0
        for j in range(size):
            if claimed[a + j] or claimed[b + j]:
                current = 0
                continue
            current += 1
            if current > best_length:
                best_length, best_start = current, j - current + 1
        if best_length < min(min_length, size):
            continue
        for j in range(best_start, best_start + best_length):
            claimed[a + j] = True
        for j in range(best_start, best_start + best_length):
            claimed[b + j] = True
        offset[i], kept[i] = best_start, best_length
    return offset, kept


@jit(inline="always")
def _bucket_starts(hashes):  # type: ignore[no-untyped-def]
    """The bucket of each hash (its high bits: about ``n / 8`` buckets) and
    where each bucket starts among the rows sorted by bucket."""
    n = hashes.shape[0]
    bits = 1
    while (8 << bits) < n and bits < 24:
        bits += 1
    shift = np.uint64(64 - bits)
    starts = np.zeros((1 << bits) + 1, dtype=np.int64)
    for i in range(n):
        starts[np.int64(hashes[i] >> shift) + 1] += 1
    for b in range(1 << bits):
        starts[b + 1] += starts[b]
    return shift, starts


@jit(inline="always")
def _sort_buckets(keys, values, starts):  # type: ignore[no-untyped-def]
    """Sort each bucket ``keys[starts[b]:starts[b + 1]]`` by key, stably, its
    ``values`` along: by insertion when small, which is the rule for hashes
    spread over the 64 bits, by a merge sort when hashes crowd into a bucket."""
    for b in range(starts.shape[0] - 1):
        lo = starts[b]
        hi = starts[b + 1]
        if hi - lo <= 32:
            for j in range(lo + 1, hi):
                key = keys[j]
                value = values[j]
                at = j
                while at > lo and keys[at - 1] > key:
                    keys[at] = keys[at - 1]
                    values[at] = values[at - 1]
                    at -= 1
                keys[at] = key
                values[at] = value
        else:
            perm = np.argsort(keys[lo:hi], kind="mergesort")
            moved = values[lo:hi][perm]
            sorted_keys = keys[lo:hi][perm]
            values[lo:hi] = moved
            keys[lo:hi] = sorted_keys


@jit()
def hash_sorted(hashes: npt.NDArray[np.uint64], values: npt.NDArray[np.integer]
                ) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.integer]]:
    """The hashes sorted stably, by buckets, and ``values`` in the same order.

    The rows are dealt into about ``n / 8`` buckets by their hash's high bits
    (in row order, so each bucket is in row order), each with its value, and
    each bucket is sorted by hash, stably (:func:`_sort_buckets`).  Two passes
    over the rows instead of a comparison sort of them.  With the row numbers
    as values, the order is ``np.argsort(hashes, kind="stable")``; with the
    columns a caller needs packed into one word, no gather follows.
    """
    n = hashes.shape[0]
    shift, starts = _bucket_starts(hashes)
    fill = starts[:-1].copy()
    carried = np.empty(n, dtype=values.dtype)
    keys = np.empty(n, dtype=np.uint64)
    for i in range(n):
        slot = np.int64(hashes[i] >> shift)
        carried[fill[slot]] = values[i]
        keys[fill[slot]] = hashes[i]
        fill[slot] += 1
    _sort_buckets(keys, carried, starts)
    return keys, carried


@jit()
def group_rows(
    hashes: npt.NDArray[np.uint64], rows: npt.NDArray[np.uint32], file_owner: I64, cap: int,
    many: int, many_is_base: bool,
) -> tuple[int, npt.NDArray[np.uint64], I64, I64, npt.NDArray[np.bool_], int,
           npt.NDArray[np.uint64], I64, int, npt.NDArray[np.uint64], I64, int]:
    """Every grouping of rows sorted by hash, then owner, in one pass.

    Row ``r`` is ``(hashes[r], file rows[r] >> 1)``, outside the base code
    when ``rows[r] & 1``; a file's owner is ``file_owner[file]``.  A hash's
    document frequency ``df`` is its distinct owners.  Returns the number of
    kept postings (distinct ``(hash, owner)`` of hashes with ``df <= cap``)
    and, per posting, its hash, owner, ``df`` and whether any of its rows is
    outside the base code (``own``; with ``many_is_base`` and ``many >= 2``,
    never for ``df >= many``); the number of hashes past the cap and those
    hashes; the kept rows per file; the number of the postings of hashes at
    least ``many >= 2`` owners hold with some posting outside the base code,
    capped ones included, and their hashes and owners; and the number of
    distinct hashes.  The output arrays are as long as the input and only
    their first entries written (the rest is never touched, so costs no
    memory).
    """
    n = hashes.shape[0]
    post_hash = np.empty(n, dtype=np.uint64)
    post_owner = np.empty(n, dtype=np.int64)
    post_df = np.empty(n, dtype=np.int64)
    post_own = np.empty(n, dtype=np.bool_)
    capped = np.empty(n, dtype=np.uint64)
    many_hash = np.empty(n, dtype=np.uint64)
    many_owner = np.empty(n, dtype=np.int64)
    file_prints = np.zeros(file_owner.shape[0], dtype=np.int64)
    kept = 0
    n_capped = 0
    n_many = 0
    distinct = 0
    start = 0
    while start < n:
        value = hashes[start]
        end = start + 1
        while end < n and hashes[end] == value:
            end += 1
        distinct += 1
        df = 1
        any_own = (rows[start] & 1) != 0
        last = file_owner[rows[start] >> 1]
        for r in range(start + 1, end):
            owner = file_owner[rows[r] >> 1]
            if owner != last:
                df += 1
                last = owner
            any_own |= (rows[r] & 1) != 0
        if df <= cap:
            r = start
            while r < end:
                first = file_owner[rows[r] >> 1]
                posting_own = False
                while r < end and file_owner[rows[r] >> 1] == first:
                    posting_own |= (rows[r] & 1) != 0
                    file_prints[rows[r] >> 1] += 1
                    r += 1
                post_hash[kept] = value
                post_owner[kept] = first
                post_df[kept] = df
                post_own[kept] = posting_own and not (many_is_base and 2 <= many <= df)
                kept += 1
        else:
            capped[n_capped] = value
            n_capped += 1
        if many >= 2 and df >= many and any_own:
            for r in range(start, end):
                owner = file_owner[rows[r] >> 1]
                if r == start or owner != file_owner[rows[r - 1] >> 1]:
                    many_hash[n_many] = value
                    many_owner[n_many] = owner
                    n_many += 1
        start = end
    return (kept, post_hash, post_owner, post_df, post_own, n_capped, capped, file_prints,
            n_many, many_hash, many_owner, distinct)
