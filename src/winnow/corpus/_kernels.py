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
