"""Compiled loops over the fingerprints inside one passage (numba).

A passage of a pair is a span ``[start, end)`` of units in each of its two
files; what the report says of it (the shared fingerprints it holds, how far
its ends may be trimmed, the literal channel's tokens inside it) reads the
fingerprints whose k-gram lies wholly in the span.  A file's fingerprints are
also kept in order of position (:attr:`winnow.matching.pairs.FileInfo.by_position`),
so those are one slice, filtered by their ends.  The typed wrappers are in
:mod:`winnow.matching.pairs` and :mod:`winnow.matching.shares`; each is one
call per passage and side instead of a handful of array operations.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]


@jit()
def position_order(positions: I64) -> I64:
    """``np.argsort(positions, kind="stable")`` of non-negative unit positions,
    by a counting sort: two passes over them and one over the units."""
    n = positions.shape[0]
    top = 0
    for i in range(n):
        top = max(top, positions[i] + 1)
    starts = np.zeros(top + 1, dtype=np.int64)
    for i in range(n):
        starts[positions[i] + 1] += 1
    for p in range(top):
        starts[p + 1] += starts[p]
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        order[starts[positions[i]]] = i
        starts[positions[i]] += 1
    return order


@jit()
def span_rows(by_position: I64, sorted_positions: I64, ends: I64, start: int, end: int) -> I64:
    """The rows of the fingerprints whose k-gram lies in ``[start, end)``, in
    order of position: those starting in the span that end in it too."""
    first = np.searchsorted(sorted_positions, start)
    last = max(first, np.searchsorted(sorted_positions, end))  # an empty span: no rows
    rows = np.empty(last - first, dtype=np.int64)
    n = 0
    for j in range(first, last):
        row = by_position[j]
        if ends[row] <= end:
            rows[n] = row
            n += 1
    return rows[:n]


@jit()
def shared_hashes(
    a_hashes: U64, a_by_position: I64, a_sorted_positions: I64, a_ends: I64, sa: int, ea: int,
    b_hashes: U64, b_by_position: I64, b_sorted_positions: I64, b_ends: I64, sb: int, eb: int,
) -> U64:
    """The distinct hashes, sorted, with a fingerprint in ``[sa, ea)`` of
    file ``a`` and one in ``[sb, eb)`` of file ``b``: both sides' hashes
    sorted, then merged."""
    first = np.sort(a_hashes[span_rows(a_by_position, a_sorted_positions, a_ends, sa, ea)])
    second = np.sort(b_hashes[span_rows(b_by_position, b_sorted_positions, b_ends, sb, eb)])
    out = np.empty(min(first.shape[0], second.shape[0]), dtype=np.uint64)
    n = 0
    i = 0
    j = 0
    while i < first.shape[0] and j < second.shape[0]:
        if first[i] < second[j]:
            i += 1
        elif first[i] > second[j]:
            j += 1
        else:
            if n == 0 or out[n - 1] != first[i]:
                out[n] = first[i]
                n += 1
            i += 1
            j += 1
    return out[:n]


@jit()
def _holds(sorted_values: U64, value: np.uint64) -> bool:
    at = np.searchsorted(sorted_values, value)
    found: bool = at < sorted_values.shape[0] and sorted_values[at] == value
    return found


@jit()
def shared_extent(
    hashes: U64, by_position: I64, sorted_positions: I64, ends: I64, positions: I64, start: int,
    end: int, shared: U64,
) -> tuple[int, int]:
    """The first start and the last end of the fingerprints in ``[start,
    end)`` whose hash is in ``shared`` (sorted); ``(end, start)`` when none is."""
    lowest = end
    highest = start
    for row in span_rows(by_position, sorted_positions, ends, start, end):
        if _holds(shared, hashes[row]):
            lowest = min(lowest, positions[row])
            highest = max(highest, ends[row])
    return lowest, highest


@jit()
def literal_units(
    hashes: U64, by_position: I64, sorted_positions: I64, ends: I64, literal: npt.NDArray[np.bool_],
    positions: I64, start: int, end: int, shared: U64,
) -> int:
    """Units inside the union of the k-grams in ``[start, end)`` of the
    literal channel whose hash is in ``shared`` (sorted).  The k-grams come
    in order of position, so the union is one sweep."""
    total = 0
    reach = start
    for row in span_rows(by_position, sorted_positions, ends, start, end):
        if not literal[row] or not _holds(shared, hashes[row]):
            continue
        if ends[row] > reach:
            total += ends[row] - max(positions[row], reach)
            reach = ends[row]
    return total
