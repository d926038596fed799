"""Compiled writer of the CSV rows of pairs without passages (numba).

Every pair of a class is hundreds of thousands of rows; formatting them in
Python cost more than counting the pairs.  :func:`score_rows` writes the
rows' bytes into one buffer: the name fields come pre-quoted (UTF-8), the
seven fractions as integers of millionths (exactly what ``f"{v:.6f}"``
prints: :func:`fraction_micros`, see :func:`winnow.reports.csv.micros`).
"""

from __future__ import annotations

import math

import numpy as np

from winnow.compiled import jit

#: The two digits of 0 .. 99, one after the other.
_DIGIT_PAIRS = np.frombuffer(b"".join(b"%02d" % i for i in range(100)), dtype=np.uint8)

#: Bytes a row needs besides its two name fields: seven fractions of at most
#: 4 + 1 + 6 characters, ``shared`` and the cluster (at most 20 digits
#: each), 16 commas and the newline.
ROW_EXTRA = 7 * 11 + 2 * 20 + 17


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


@jit(inline="always")
def _commas(out, at, n):  # type: ignore[no-untyped-def]
    for j in range(n):
        out[at + j] = 44
    return at + n


@jit(nogil=True)  # formats a chunk while another thread writes the last one
def score_rows(out, names, offsets, a, b, micro, shared, cluster):  # type: ignore[no-untyped-def]
    """Write the rows ``file_a,file_b,similarity,,,,,shared,containment_a,
    containment_b,jaccard,weighted,rarity,,,cluster,score`` into ``out``; returns
    the bytes written.  ``micro[c, i]`` holds row ``i``'s seven fractions in
    that order; the cluster cell is the pair's cluster when both names are
    in the same one (``cluster[x] >= 0``), else empty.  (The pairs' values
    come gathered: loads that miss the cache stall this loop, where a
    gather overlaps them.)"""
    at = 0
    for i in range(a.shape[0]):
        for name in (a[i], b[i]):
            for j in range(offsets[name], offsets[name + 1]):
                out[at] = names[j]
                at += 1
            out[at] = 44
            at += 1
        at = _fixed6(out, at, micro[0, i])
        at = _commas(out, at, 5)
        at = _integer(out, at, shared[i])
        for c in range(1, 6):
            out[at] = 44
            at = _fixed6(out, at + 1, micro[c, i])
        at = _commas(out, at, 3)
        same = cluster[a[i]]
        if same >= 0 and same == cluster[b[i]]:
            at = _integer(out, at, same)
        out[at] = 44
        at = _fixed6(out, at + 1, micro[6, i])
        out[at] = 10
        at += 1
    return at
