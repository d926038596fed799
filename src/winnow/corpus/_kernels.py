"""Compiled loops of the clustering pass (numba, nopython mode); the typed
wrapper is :func:`winnow.corpus.clusters.link_pairs`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit

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


@jit()
def sorted_jaccard(starts: I64, hashes: npt.NDArray[np.uint64], a: I64, b: I64,
                   out: npt.NDArray[np.float64]) -> None:
    """``out[i]``: Jaccard of the sorted distinct runs ``hashes[starts[a[i]]:
    starts[a[i] + 1]]`` and the same of ``b[i]`` (left as it was where
    either index is -1 or either run is empty)."""
    for i in range(a.shape[0]):
        x, y = a[i], b[i]
        if x < 0 or y < 0:
            continue
        p, p_end = starts[x], starts[x + 1]
        q, q_end = starts[y], starts[y + 1]
        size = (p_end - p) + (q_end - q)
        if p_end == p or q_end == q:
            continue
        shared = 0
        while p < p_end and q < q_end:
            if hashes[p] == hashes[q]:
                shared += 1
                p += 1
                q += 1
            elif hashes[p] < hashes[q]:
                p += 1
            else:
                q += 1
        out[i] = shared / (size - shared)


@jit()
def distinct_runs(values: npt.NDArray[np.uint64], owner: I64, counts: I64) -> int:
    """Sort each run of ``values`` with one ``owner`` (owners ascending) and
    drop its repeats, compacting the runs to the front of ``values``;
    ``counts[o]``: the distinct values of owner ``o``.  Returns their total."""
    n = values.shape[0]
    out = 0
    i = 0
    while i < n:
        j = i
        while j < n and owner[j] == owner[i]:
            j += 1
        run = np.sort(values[i:j])
        kept = 0
        for x in range(run.shape[0]):
            if x == 0 or run[x] != run[x - 1]:
                values[out + kept] = run[x]
                kept += 1
        counts[owner[i]] = kept
        out += kept
        i = j
    return out
