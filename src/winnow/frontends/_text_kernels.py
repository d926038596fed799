"""Compiled loops of the text front-end (numba, nopython mode).

They scan UTF-8 bytes once per pass, decoding each character in place:
ASCII through a 128-entry table, other characters through a per-code-point
expansion table built in Python (NFKC and case folding need ``unicodedata``).
An invalid byte counts as one character that maps to nothing.
"""

from __future__ import annotations

import numpy as np

from winnow.compiled import jit


@jit(inline="always")
def _decode(buf, i, n):  # type: ignore[no-untyped-def]
    """(code point or -1 for an invalid byte, byte length) of the character at ``i``."""
    b0 = np.int64(buf[i])
    if b0 < 0x80:
        return b0, 1
    if 0xC2 <= b0 <= 0xDF and i + 1 < n and (buf[i + 1] & 0xC0) == 0x80:
        return ((b0 & 0x1F) << 6) | (np.int64(buf[i + 1]) & 0x3F), 2
    if 0xE0 <= b0 <= 0xEF and i + 2 < n and (buf[i + 1] & 0xC0) == 0x80 \
            and (buf[i + 2] & 0xC0) == 0x80:
        return (((b0 & 0x0F) << 12) | ((np.int64(buf[i + 1]) & 0x3F) << 6)
                | (np.int64(buf[i + 2]) & 0x3F)), 3
    if 0xF0 <= b0 <= 0xF4 and i + 3 < n and (buf[i + 1] & 0xC0) == 0x80 \
            and (buf[i + 2] & 0xC0) == 0x80 and (buf[i + 3] & 0xC0) == 0x80:
        return (((b0 & 0x07) << 18) | ((np.int64(buf[i + 1]) & 0x3F) << 12)
                | ((np.int64(buf[i + 2]) & 0x3F) << 6) | (np.int64(buf[i + 3]) & 0x3F)), 4
    return -1, 1


@jit()
def high_codepoints(buf, out):  # type: ignore[no-untyped-def]
    """Write the code point of every non-ASCII character into ``out`` (if it is
    long enough) and return how many there are."""
    n = buf.shape[0]
    m = 0
    i = 0
    while i < n:
        if buf[i] < 0x80:
            i += 1
            continue
        cp, length = _decode(buf, i, n)
        if cp >= 0:
            if m < out.shape[0]:
                out[m] = cp
            m += 1
        i += length
    return m


@jit(inline="always")
def _find(sorted_cps, cp):  # type: ignore[no-untyped-def]
    """Index of ``cp`` in the sorted array (it is always there)."""
    lo = 0
    hi = sorted_cps.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if sorted_cps[mid] < cp:
            lo = mid + 1
        else:
            hi = mid
    return lo


@jit()
def count_units(buf, ascii_map, distinct, exp_offset):  # type: ignore[no-untyped-def]
    """How many units :func:`fill_units` will write."""
    n = buf.shape[0]
    total = 0
    i = 0
    while i < n:
        b = buf[i]
        if b < 0x80:
            if ascii_map[b] != 0:
                total += 1
            i += 1
            continue
        cp, length = _decode(buf, i, n)
        if cp >= 0:
            k = _find(distinct, cp)
            total += exp_offset[k + 1] - exp_offset[k]
        i += length
    return total


@jit()
def fill_units(buf, ascii_map, distinct, exp_offset, exp_flat,  # type: ignore[no-untyped-def]
               units, starts, ends):
    """Write each kept unit with the byte span of the character it came from."""
    n = buf.shape[0]
    capacity = units.shape[0]
    j = 0
    i = 0
    while i < n:
        b = buf[i]
        if b < 0x80:
            v = ascii_map[b]
            if j < capacity:
                # Branch-free keep/drop: write always, advance only if kept
                # (which bytes are dropped is data-dependent and mispredicts).
                units[j] = v
                starts[j] = i
                ends[j] = i + 1
            j += v != 0
            i += 1
            continue
        cp, length = _decode(buf, i, n)
        if cp >= 0:
            k = _find(distinct, cp)
            for e in range(exp_offset[k], exp_offset[k + 1]):
                units[j] = exp_flat[e]
                starts[j] = i
                ends[j] = i + length
                j += 1
        i += length
    return j


@jit()
def word_bounds(cps, starts, ends, wordchar, bounds, hashes):  # type: ignore[no-untyped-def]
    """Split units into words: a new word starts after a gap in the source (a
    dropped character) or at a non-word unit (kept punctuation or space, each
    its own word).  Writes each word's first unit index and FNV-1a hash of its
    code points; returns the word count."""
    n = cps.shape[0]
    w = -1
    for i in range(n):
        new = i == 0 or starts[i] > ends[i - 1] or not wordchar[i] or not wordchar[i - 1]
        if new:
            w += 1
            bounds[w] = i
            hashes[w] = np.uint64(0xCBF29CE484222325)
        h = hashes[w]
        c = np.uint64(cps[i])
        for _ in range(4):
            h = (h ^ (c & np.uint64(0xFF))) * np.uint64(0x100000001B3)
            c = c >> np.uint64(8)
        hashes[w] = h
    return w + 1
