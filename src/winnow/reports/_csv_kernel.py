"""Compiled writer of the CSV rows of pairs without passages (numba).

Every pair of a class is hundreds of thousands of rows; formatting them in
Python cost more than counting the pairs.  :func:`score_rows` writes the
rows' bytes into one buffer: the name fields come pre-quoted (UTF-8), the
seven fractions as integers of millionths (exactly what ``f"{v:.6f}"``
prints, see :func:`winnow.reports.csv.micros`).
"""

from __future__ import annotations

from winnow.compiled import jit

#: Bytes a row needs besides its two name fields: seven fractions of at most
#: 4 + 1 + 6 characters, ``shared`` and the cluster (at most 20 digits
#: each), 16 commas and the newline.
ROW_EXTRA = 7 * 11 + 2 * 20 + 17


@jit(inline="always")
def _integer(out, at, value):  # type: ignore[no-untyped-def]
    """Write the non-negative ``value`` in decimal at ``at``; the new end."""
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
    for j in range(at + 6, at, -1):
        out[j] = 48 + frac % 10
        frac //= 10
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
    the bytes written.  ``micro[i]`` holds the row's seven fractions in that
    order, ``cluster[i] < 0`` an empty cell."""
    at = 0
    for i in range(a.shape[0]):
        for name in (a[i], b[i]):
            for j in range(offsets[name], offsets[name + 1]):
                out[at] = names[j]
                at += 1
            out[at] = 44
            at += 1
        at = _fixed6(out, at, micro[i, 0])
        at = _commas(out, at, 5)
        at = _integer(out, at, shared[i])
        for c in range(1, 6):
            out[at] = 44
            at = _fixed6(out, at + 1, micro[i, c])
        at = _commas(out, at, 3)
        if cluster[i] >= 0:
            at = _integer(out, at, cluster[i])
        out[at] = 44
        at = _fixed6(out, at + 1, micro[i, 6])
        out[at] = 10
        at += 1
    return at
