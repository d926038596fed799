"""Similar-enough pairs of indexed files and their shares (Manber 1994, section 4).

What groups (:mod:`winnow.sif.groups`) and interesting sets
(:mod:`winnow.sif.interesting`) both read: the pairs of documents that share
fingerprints, and each pair's share ``shared / |F(ref)|`` in both directions, a
fraction from 0 to 1 like every share of the library.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.errors import InvalidConfig
from winnow.index.store import DocRow

IntArray = npt.NDArray[np.int64]


def is_fraction(value: object) -> bool:
    """``0 <= value <= 1`` for a real number (not a bool; NaN never)."""
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and 0.0 <= value <= 1.0)


def fraction_problem(name: str, value: object) -> str | None:
    """Why ``value`` is not a fraction from 0 to 1 (``None`` if it is), naming the
    fraction a percentage such as ``50`` probably meant."""
    if is_fraction(value):
        return None
    hint = ""
    if isinstance(value, int | float) and not isinstance(value, bool) and 1 < value <= 100:
        hint = f"; did you mean {value / 100:g} ({value:g}%)?"
    return f"{name} must be a fraction from 0 to 1, got {value!r}{hint}"


def check_threshold(threshold: object) -> None:
    """Raise :class:`~winnow.errors.InvalidConfig` unless ``threshold`` is a fraction."""
    problem = fraction_problem("threshold", threshold)
    if problem:
        raise InvalidConfig([problem])


@dataclass
class Pairs:
    """Similar-enough pairs among ``docs``: ``share[i, j]`` a fraction of ``i``'s fingerprints."""

    docs: list[DocRow]
    a: IntArray
    b: IntArray
    shared: IntArray


def directed_shares(pairs: Pairs) -> tuple[IntArray, IntArray, npt.NDArray[np.float64]]:
    """Both directions of every pair: ``(ref, other, shared/|F(ref)|)``."""
    distinct = np.array([row.n_distinct for row in pairs.docs], dtype=np.float64)
    ref = np.concatenate([pairs.a, pairs.b])
    other = np.concatenate([pairs.b, pairs.a])
    shared = np.concatenate([pairs.shared, pairs.shared]).astype(np.float64)
    return ref, other, shared / distinct[ref]


def share_lookup(pairs: Pairs) -> Callable[[int, list[int]], list[float]]:
    """``share_of(r, others)``: ``shared/min(|F(r)|, |F(o)|)`` for each other
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
