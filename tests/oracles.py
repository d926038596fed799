"""Plain, obviously correct implementations of each selection definition.

Kept apart from the library on purpose: the compiled kernels are checked
against these on thousands of inputs.  Quadratic, for small inputs only.
"""

from __future__ import annotations

from collections.abc import Sequence


def winnow(h: Sequence[int], w: int) -> list[int]:
    """Definition 1: rightmost minimum of each window; each position once."""
    n = len(h)
    w = min(w, n)
    out: list[int] = []
    for s in range(n - w + 1) if n else ():
        window = h[s : s + w]
        low = min(window)
        pos = s + max(i for i, x in enumerate(window) if x == low)
        if pos not in out:
            out.append(pos)
    return out


def robust(h: Sequence[int], w: int) -> list[int]:
    """Definition 3: minimum of each window; on ties keep the previous
    window's choice when it is still there, else the rightmost minimum."""
    n = len(h)
    w = min(w, n)
    out: list[int] = []
    prev = -1
    for s in range(n - w + 1) if n else ():
        window = h[s : s + w]
        low = min(window)
        if prev >= s and h[prev] == low:
            pos = prev
        else:
            pos = s + max(i for i, x in enumerate(window) if x == low)
        if pos not in out:
            out.append(pos)
        prev = pos
    return out


def mod_p(h: Sequence[int], p: int) -> list[int]:
    return [i for i, x in enumerate(h) if x % p == 0]


def safe_mod_p(h: Sequence[int], w: int, p: int) -> list[int]:
    def good(i: int) -> bool:
        return h[i] % p == 0

    def bad(i: int) -> bool:
        return i >= w - 1 and not any(good(j) for j in range(i - w + 1, i + 1))

    return [i for i in range(len(h)) if good(i) or bad(i)]


def sif(h: Sequence[int], bits: int, k: int) -> list[int]:
    out: list[int] = []
    i = 0
    while i < len(h):
        if h[i] % (1 << bits) == 0:
            out.append(i)
            i += k
        else:
            i += 1
    return out


def bottom_n(h: Sequence[int], n: int) -> list[int]:
    smallest = sorted(set(h))[:n]
    return sorted(list(h).index(v) for v in smallest)
