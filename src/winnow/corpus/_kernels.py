"""Compiled loops of dedup (numba, nopython mode): the clustering pass (typed
wrapper :func:`winnow.corpus.clusters.link_pairs`), the in-memory count's
groups a part of the rows at a time (:func:`winnow.corpus.groups.shared_groups`)
and its kept pairs (:func:`winnow.corpus.pairs.count_kept`), the candidate
filter (:func:`winnow.corpus.clusters.candidates`) and the rows put in parts
(:mod:`winnow.corpus.fingerprints`).  The word pass's loops are in
:mod:`winnow.corpus._word_kernels`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit
from winnow.engine._kernels import insertion_sort

I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]


@jit()
def find(parent: I64, x: int) -> int:
    """The root of ``x`` (path halving)."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@jit()
def link(parent: I64, a: I64, b: I64, resemblance: F32, containment: F32,
         best_resemblance: F32, best_containment: F32, best_other: I64) -> int:
    """Union the pairs ``(a[i], b[i])`` (the smaller root becomes the root) and
    keep, per record, its strongest pair: highest containment, then highest
    resemblance, then the lowest other record.  Returns the unions made."""
    unions = 0
    for i in range(a.shape[0]):
        x, y = a[i], b[i]
        rx, ry = find(parent, x), find(parent, y)
        if rx != ry:
            if rx < ry:
                parent[ry] = rx
            else:
                parent[rx] = ry
            unions += 1
        for me, other in ((x, y), (y, x)):
            c, r = containment[i], resemblance[i]
            if (c > best_containment[me]
                    or (c == best_containment[me] and r > best_resemblance[me])
                    or (c == best_containment[me] and r == best_resemblance[me]
                        and other < best_other[me])):
                best_containment[me] = c
                best_resemblance[me] = r
                best_other[me] = other
    return unions


@jit()
def roots(parent: I64) -> I64:
    """Every record's root."""
    out = np.empty(parent.shape[0], dtype=np.int64)
    for x in range(parent.shape[0]):
        out[x] = find(parent, x)
    return out



@jit(nogil=True)  # two threads group two ranges of parts (groups.shared_groups)
def shared_groups(hashes: npt.NDArray[np.uint64], owners: npt.NDArray[np.integer],
                  bounds: I64, cap: int, rows: I64, group_hash: npt.NDArray[np.uint64],
                  group_size: I64, kept: I64, alone: I64,
                  capped: npt.NDArray[np.uint64]) -> tuple[int, int, int, int]:
    """The hashes of several rows, grouped, one part of the rows at a time
    (part ``p``: the runs ``bounds[s, p]:bounds[s, p + 1]`` of every shard
    ``s``, rows of one part sharing the low bits of their hashes), each part
    in one pass over a hash table small enough to stay in the cache.

    Fills, for every hash in 2 to ``cap`` rows, ``group_hash[g]``, its rows'
    number ``group_size[g]`` and their owners, ascending, in ``rows``, group
    after group;
    per owner, ``kept[o]`` its rows whose hash is in at most ``cap`` rows and
    ``alone[o]`` those whose hash is in no other row; ``capped``: the hashes
    in more than ``cap`` rows.  Rows are distinct ``(hash, owner)`` pairs.
    Returns ``(groups, grouped rows, capped hashes, distinct hashes)``."""
    shards = bounds.shape[0]
    parts = bounds.shape[1] - 1
    largest = 1
    for p in range(parts):
        m = 0
        for s in range(shards):
            m += bounds[s, p + 1] - bounds[s, p]
        largest = max(largest, m)
    size, log = 16, 4
    while size < 2 * largest:
        size *= 2
        log += 1
    slot_group = np.empty(size, dtype=np.int64)
    part_hash = np.empty(largest, dtype=np.uint64)
    part_count = np.empty(largest, dtype=np.int64)
    part_out = np.empty(largest, dtype=np.int64)
    row_group = np.empty(largest, dtype=np.int64)
    mix = np.uint64(0x9E3779B97F4A7C15)
    groups = 0
    filled = 0
    n_capped = 0
    distinct = 0
    for p in range(parts):
        m = 0
        for s in range(shards):
            m += bounds[s, p + 1] - bounds[s, p]
        if m == 0:
            continue
        table, log = 16, 4
        while table < 2 * m:
            table *= 2
            log += 1
        shift = np.uint64(64 - log)
        mask = table - 1
        slot_group[:table] = -1
        local = 0
        r = 0
        for s in range(shards):
            for i in range(bounds[s, p], bounds[s, p + 1]):
                h = hashes[i]
                at = np.int64((h * mix) >> shift)
                while True:
                    g = slot_group[at]
                    if g < 0:
                        slot_group[at] = local
                        part_hash[local] = h
                        part_count[local] = 1
                        row_group[r] = local
                        local += 1
                        break
                    if part_hash[g] == h:
                        part_count[g] += 1
                        row_group[r] = g
                        break
                    at = (at + 1) & mask
                r += 1
        distinct += local
        for g in range(local):  # where each group's rows go: -1 for none
            c = part_count[g]
            if c == 1:
                part_out[g] = -1
            elif c > cap:
                part_out[g] = -1
                capped[n_capped] = part_hash[g]
                n_capped += 1
            else:
                group_hash[groups] = part_hash[g]
                group_size[groups] = c
                part_out[g] = filled
                filled += c
                groups += 1
        r = 0
        for s in range(shards):
            for i in range(bounds[s, p], bounds[s, p + 1]):
                g = row_group[r]
                c = part_count[g]
                if c == 1:
                    alone[owners[i]] += 1
                if c <= cap:
                    kept[owners[i]] += 1
                if part_out[g] >= 0:
                    rows[part_out[g]] = owners[i]
                    part_out[g] += 1
                r += 1
    start = 0
    for g in range(groups):  # owners ascending within each group
        insertion_sort(rows, start, start + group_size[g])
        start += group_size[g]
    return groups, filled, n_capped, distinct


@jit()
def scatter_parts(hashes: npt.NDArray[np.uint64], owners: npt.NDArray[np.integer], bits: int,
                  out_hashes: npt.NDArray[np.uint64], out_owners: npt.NDArray[np.integer],
                  counts: I64) -> None:
    """Rows ``(hashes, owners)`` into ``out_hashes``/``out_owners`` in parts by
    the low ``bits`` bits of their hashes, in their order within a part (a
    counting sort); ``counts[p]``: the rows of part ``p``."""
    low = np.uint64((1 << bits) - 1)
    n = hashes.shape[0]
    for i in range(n):
        counts[np.int64(hashes[i] & low)] += 1
    fill = np.cumsum(counts) - counts
    for i in range(n):
        p = np.int64(hashes[i] & low)
        out_hashes[fill[p]] = hashes[i]
        out_owners[fill[p]] = owners[i]
        fill[p] += 1



@jit(nogil=True)  # two threads, each half of the records (fingerprints.records_by_part)
def record_parts(hashes: npt.NDArray[np.uint64], counts: I64, firsts: I64, bits: int,
                 part_counts: I64) -> None:
    """``part_counts[p]`` plus the rows of part ``p`` (the low ``bits`` bits of
    their hashes) among rows given record by record: record ``r`` owns the
    ``counts[r]`` hashes from ``hashes[firsts[r]]`` on."""
    low = np.uint64((1 << bits) - 1)
    for r in range(counts.shape[0]):
        for i in range(firsts[r], firsts[r] + counts[r]):
            part_counts[np.int64(hashes[i] & low)] += 1


@jit(nogil=True)  # two threads, each half of the records (fingerprints.records_by_part)
def scatter_records(hashes: npt.NDArray[np.uint64], docs: I64, counts: I64, firsts: I64,
                    bits: int, out_hashes: npt.NDArray[np.uint64],
                    out_owners: npt.NDArray[np.integer], fill: I64) -> None:
    """:func:`scatter_parts` of rows given record by record: record ``docs[r]``
    owns the ``counts[r]`` hashes from ``hashes[firsts[r]]`` on (no array of
    owners is made); each row goes to ``fill[p]`` of its part ``p``, which
    moves on: the records' rows in turn make the output, whether the
    records come in one call or in several."""
    low = np.uint64((1 << bits) - 1)
    for r in range(docs.shape[0]):
        doc = docs[r]
        for i in range(firsts[r], firsts[r] + counts[r]):
            p = np.int64(hashes[i] & low)
            out_hashes[fill[p]] = hashes[i]
            out_owners[fill[p]] = doc
            fill[p] += 1


@jit()
def owner_groups(group_ptr: I64, group_owner: npt.NDArray[np.integer], owners: int,
                 owner_ptr: I64, out_group: I64, out_next: I64, later: I64) -> None:
    """The groups of each owner, ascending: ``out_group[owner_ptr[o]:owner_ptr[o +
    1]]`` for owner ``o``, and in ``out_next`` the row after the owner's own
    in each (a counting sort of the rows ``group_owner``, group ``g``'s rows
    ``group_ptr[g]:group_ptr[g + 1]``); ``owner_ptr`` (``owners + 1`` zeros)
    is filled, and ``later[o]`` (``owners`` zeros): the rows after owner
    ``o``'s own in its groups, summed (the work of :func:`pair_block` on it)."""
    for i in range(group_owner.shape[0]):
        owner_ptr[group_owner[i] + 1] += 1
    for o in range(owners):
        owner_ptr[o + 1] += owner_ptr[o]
    fill = owner_ptr[:owners].copy()
    for g in range(group_ptr.shape[0] - 1):
        for i in range(group_ptr[g], group_ptr[g + 1]):
            o = group_owner[i]
            out_group[fill[o]] = g
            out_next[fill[o]] = i + 1
            later[o] += group_ptr[g + 1] - i - 1
            fill[o] += 1


@jit(nogil=True)  # two threads sum two ranges of owners (pairs.count_kept)
def pair_block(first: int, owner_ptr: I64, groups_of: I64, next_row: I64, group_ptr: I64,
               group_owner: npt.NDArray[np.integer], group_weight: I64, row: I64,
               touched: I64, sizes: I64, filtered: bool, candidate: float,
               containment: float, min_fingerprints: int, out_a: I64, out_b: I64,
               shared: I64, weight: I64, df_sum: I64) -> tuple[int, int, int]:
    """The pairs ``a < b`` of owners ``a = first, first + 1, ...`` that share
    a group, as many whole owners' pairs as ``out_a`` holds, by ``a`` then
    ``b``: the groups (hashes) each pair shares, the sum of their
    ``group_weight`` and of their sizes (``df_sum``).  Owner ``a``'s groups
    and the rows after its own in each (:func:`owner_groups`; the rows of a
    group are in owner order) give its later members ``b``, whose sums
    gather in a scratch row per owner (``row[b]``: the owner ``a`` it was
    last met with (-1 at first), shared, df_sum, weight: one cache line),
    ``touched`` the ``b`` met, sorted (by insertion when they are a few
    dozen, as they mostly are; else by a comparison sort).  ``filtered``:
    only the candidate pairs are written (:func:`is_candidate` with the
    owners' ``sizes`` and the three bounds).  Returns ``(next owner, pairs
    written, pairs met)``; ``next owner == first`` with ``-pairs`` written:
    owner ``first`` alone meets more pairs than ``out_a`` holds."""
    owners = owner_ptr.shape[0] - 1
    capacity = out_a.shape[0]
    count = 0
    seen = 0
    a = first
    while a < owners:
        met = 0
        for j in range(owner_ptr[a], owner_ptr[a + 1]):
            g = groups_of[j]
            hi = group_ptr[g + 1]
            size = hi - group_ptr[g]
            w = group_weight[g]
            for m in range(next_row[j], hi):
                b = group_owner[m]
                if row[b, 0] != a:
                    row[b, 0] = a
                    row[b, 1] = 0
                    row[b, 2] = 0
                    row[b, 3] = 0
                    touched[met] = b
                    met += 1
                row[b, 1] += 1
                row[b, 2] += size
                row[b, 3] += w
        if count + met > capacity:
            for t in range(met):  # owner a again in the next call
                row[touched[t], 0] = -1
            return a, count if a > first else -met, seen
        seen += met
        if met > 32:  # a record paired with many: a comparison sort, not quadratic
            touched[:met].sort()
        else:
            insertion_sort(touched, 0, met)
        for t in range(met):
            b = touched[t]
            if filtered and not is_candidate(row[b, 1], sizes[a], sizes[b], candidate,
                                             containment, min_fingerprints):
                continue
            out_a[count] = a
            out_b[count] = b
            shared[count] = row[b, 1]
            df_sum[count] = row[b, 2]
            weight[count] = row[b, 3]
            count += 1
        a += 1
    return a, count, seen


@jit(nogil=True)
def is_candidate(shared: int, size_a: int, size_b: int, candidate: float, containment: float,
                 min_fingerprints: int) -> bool:
    """Whether a pair sharing ``shared`` fingerprints is a candidate: its
    fingerprint resemblance ``shared / (|A| + |B| - shared)`` reaches
    ``candidate``, or its containment ``shared / min(|A|, |B|)`` reaches
    ``containment`` with the smaller record at least ``min_fingerprints``
    (a quotient with a divisor of 0 is 0), as
    :func:`winnow.corpus.clusters.candidates`' arrays compute it."""
    union = size_a + size_b - shared
    smaller = min(size_a, size_b)
    resemblance = shared / union if union > 0 else 0.0
    contained = shared / smaller if smaller > 0 else 0.0
    return resemblance >= candidate or (contained >= containment
                                        and smaller >= min_fingerprints)


@jit(nogil=True)  # called by pairs.count_kept's two threads
def candidate_mask(a: I64, b: I64, shared: I64, sizes: I64, candidate: float,
                   containment: float, min_fingerprints: int,
                   out: npt.NDArray[np.bool_]) -> None:
    """``out[i]``: pair ``(a[i], b[i])`` is a candidate: its fingerprint
    resemblance ``shared / (|A| + |B| - shared)`` reaches ``candidate``, or
    its containment ``shared / min(|A|, |B|)`` reaches ``containment`` with
    the smaller record at least ``min_fingerprints`` (a quotient with a
    divisor of 0 is 0), as :func:`winnow.corpus.clusters.candidates`' arrays
    compute it, in one pass."""
    for i in range(a.shape[0]):
        out[i] = is_candidate(shared[i], sizes[a[i]], sizes[b[i]], candidate, containment,
                              min_fingerprints)
