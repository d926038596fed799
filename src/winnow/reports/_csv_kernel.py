"""Compiled writer of the CSV rows of pairs without passages (numba).

Every pair of a class is hundreds of thousands of rows; formatting them in
Python cost more than counting the pairs.  :func:`score_rows` writes the
rows' bytes into one buffer, the cells of the chosen columns in their order
(a layout): the name fields come pre-quoted (UTF-8), the fractions as
integers of millionths (exactly what ``f"{v:.6f}"`` prints:
:func:`fraction_micros`, see :func:`winnow.reports.csv.micros`).
"""

from __future__ import annotations

import math

import numpy as np

from winnow.compiled import jit

#: The two digits of 0 .. 99, one after the other.
_DIGIT_PAIRS = np.frombuffer(b"".join(b"%02d" % i for i in range(100)), dtype=np.uint8)

#: The kinds of cell the compiled writer writes (:func:`score_rows`'s ``layout``):
#: a name field, one of the seven fractions (``FRACTION + c``, ``c`` its row of
#: ``micro``), ``shared``, the pair's cluster, an empty cell (a passage column).
NAME_A, NAME_B, SHARED, CLUSTER, EMPTY, FRACTION = 0, 1, 2, 3, 4, 5

#: Bytes a cell of each kind needs at most, names aside: a fraction 4 + 1 + 6
#: characters, ``shared`` and the cluster at most 20 digits.
_CELL_BYTES = {SHARED: 20, CLUSTER: 20, EMPTY: 0}


def row_extra(layout: np.ndarray) -> int:
    """Bytes a row of ``layout`` needs besides its name fields: its cells, the
    commas between them and the newline."""
    kinds = layout.tolist()
    return sum(11 if kind >= FRACTION else _CELL_BYTES.get(kind, 0) for kind in kinds) \
        + len(kinds) + 2  # an empty row's quotes


@jit(nogil=True)
def fraction_micros(values, out, ties):  # type: ignore[no-untyped-def]
    """``out[i]``: ``values[i]`` in millionths, rounded as ``f"{v:.6f}"``
    prints it, except within 10^-6 of a half (their ``i`` listed in ``ties``,
    to be rounded by Python's formatting); returns how many ties, or ``-1``
    when a value is negative (``-0.0`` too), not finite or 1000 or more.
    ``v · 10^6`` is rounded in floating point: its error is below 10^-6 for
    ``0 <= v < 1000``, so only the fractions near a half are in doubt."""
    n_ties = 0
    for i in range(values.shape[0]):
        v = values[i]
        if not (v >= 0.0 and v < 1e3) or math.copysign(1.0, v) < 0.0:
            return -1
        scaled = v * 1e6
        whole = math.floor(scaled)
        fraction = scaled - whole
        out[i] = np.int64(whole) + (1 if fraction > 0.5 else 0)
        if abs(fraction - 0.5) <= 1e-6:
            ties[n_ties] = i
            n_ties += 1
    return n_ties


@jit(inline="always")
def _integer(out, at, value):  # type: ignore[no-untyped-def]
    """Write the non-negative ``value`` in decimal at ``at``; the new end."""
    if value < 10:
        out[at] = 48 + value
        return at + 1
    digits = 1
    rest = value // 10
    while rest > 0:
        digits += 1
        rest //= 10
    end = at + digits
    for j in range(end - 1, at - 1, -1):
        out[j] = 48 + value % 10
        value //= 10
    return end


@jit(inline="always")
def _fixed6(out, at, micro):  # type: ignore[no-untyped-def]
    """Write ``micro / 10^6`` with six decimals at ``at``; the new end."""
    at = _integer(out, at, micro // 1000000)
    out[at] = 46  # "."
    frac = micro % 1000000
    for j in range(5, 0, -2):  # two digits at a time, from the last
        pair = 2 * (frac % 100)
        out[at + j] = _DIGIT_PAIRS[pair]
        out[at + j + 1] = _DIGIT_PAIRS[pair + 1]
        frac //= 100
    return at + 7


@jit(nogil=True)  # formats a chunk while another thread writes the last one
def score_rows(out, names, offsets, a, b, micro, shared, cluster, layout):  # type: ignore[no-untyped-def]
    """Write the rows of the pairs ``a[i], b[i]`` into ``out``, one cell per
    entry of ``layout`` (:data:`NAME_A` ... :data:`FRACTION` ``+ c``), comma
    separated (a row of one empty cell as ``""``, as the CSV writer writes
    it); returns the bytes written.  ``micro[c, i]`` holds row ``i``'s
    fraction ``c`` (only the rows ``layout`` names are read); the cluster cell
    is the pair's cluster when both names are in the same one (``cluster[x] >=
    0``), else empty.  (The pairs' values come gathered: loads that miss the
    cache stall this loop, where a gather overlaps them.)"""
    at = 0
    for i in range(a.shape[0]):
        start = at
        for c in range(layout.shape[0]):
            if c > 0:
                out[at] = 44  # ","
                at += 1
            kind = layout[c]
            if kind >= FRACTION:
                at = _fixed6(out, at, micro[kind - FRACTION, i])
            elif kind <= NAME_B:  # NAME_A or NAME_B
                name = a[i] if kind == NAME_A else b[i]
                for j in range(offsets[name], offsets[name + 1]):
                    out[at] = names[j]
                    at += 1
            elif kind == SHARED:
                at = _integer(out, at, shared[i])
            elif kind == CLUSTER:
                same = cluster[a[i]]
                if same >= 0 and same == cluster[b[i]]:
                    at = _integer(out, at, same)
        if at == start:  # one empty cell: quoted, else the line would read as no row
            out[at] = 34
            out[at + 1] = 34
            at += 2
        out[at] = 10  # "\n"
        at += 1
    return at
