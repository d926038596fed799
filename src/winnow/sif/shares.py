"""Similar-enough pairs of indexed files and their shares (Manber 1994, section 4).

What groups (:mod:`winnow.sif.groups`) and interesting sets
(:mod:`winnow.sif.interesting`) both read: the pairs of documents that share
fingerprints, and each pair's share ``100 · shared / |F(ref)|`` in both
directions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.index.store import DocRow

IntArray = npt.NDArray[np.int64]


@dataclass
class Pairs:
    """Similar-enough pairs among ``docs``: ``share[i, j]`` in percent of ``i``."""

    docs: list[DocRow]
    a: IntArray
    b: IntArray
    shared: IntArray


def directed_shares(pairs: Pairs) -> tuple[IntArray, IntArray, npt.NDArray[np.float64]]:
    """Both directions of every pair: ``(ref, other, 100·shared/|F(ref)|)``."""
    distinct = np.array([row.n_distinct for row in pairs.docs], dtype=np.float64)
    ref = np.concatenate([pairs.a, pairs.b])
    other = np.concatenate([pairs.b, pairs.a])
    shared = np.concatenate([pairs.shared, pairs.shared]).astype(np.float64)
    return ref, other, 100.0 * shared / distinct[ref]


def share_lookup(pairs: Pairs) -> Callable[[int, list[int]], list[float]]:
    """``share_of(r, others)``: ``100·shared/min(|F(r)|, |F(o)|)`` for each other
    ``o`` (0 if unpaired): the share of the smaller file, the measure that joins
    the members of an interesting set (:mod:`winnow.sif.interesting`)."""
    ref, other, share = directed_shares(pairs)
    n = max(len(pairs.docs), 1)
    # both directions of a pair hold the same key once ordered; keep the larger share
    keys = np.minimum(ref, other) * n + np.maximum(ref, other)
    order = np.lexsort((-share, keys))
    keys, values = keys[order], share[order]
    first = np.r_[True, keys[1:] != keys[:-1]] if keys.size else np.zeros(0, dtype=bool)
    keys, values = keys[first], values[first]

    def share_of(r: int, others: list[int]) -> list[float]:
        if keys.size == 0 or not others:
            return [0.0] * len(others)
        o = np.asarray(others, dtype=np.int64)
        wanted = np.minimum(r, o) * n + np.maximum(r, o)
        at = np.minimum(np.searchsorted(keys, wanted), keys.size - 1)
        found: list[float] = np.where(keys[at] == wanted, values[at], 0.0).tolist()
        return found

    return share_of
