"""Compiled loops of the text front-end (numba, nopython mode).

They scan UTF-8 bytes in place, decoding each character as they go: ASCII
through a 128-entry table, other characters through a dense per-code-point
table that Python fills the first time a code point is met (NFKC and case
folding need ``unicodedata``).  An invalid byte is one character that maps to
nothing.

Table entries (``int64``, 0 = not yet known): bit 0 *known*; bit 1 *mark* (a
combining mark, or a character canonical composition can merge into the one
before it); bit 2 *composes* (the latter alone); bits 3-10 the number of
units (one character's NFKC and case folding give at most 18); bits 11- where
the units start in the flat expansion array.

The fill kernel is resumable: it stops and reports why (a code point it does
not know yet, a combining sequence that needs normalising as a whole, or an
output array that is full) and Python resumes it with the state it left.
"""

from __future__ import annotations

import numpy as np

from winnow.compiled import jit

KNOWN, MARK, COMPOSES = 1, 2, 4
#: The most marks normalised together: a longer run is cut into sequences of
#: at most this many (Unicode's stream-safe text format, UAX #15), so that
#: normalisation, quadratic in a run's length, stays linear in the text.
MAX_MARKS = 30
LEN_SHIFT, START_SHIFT = 3, 11
#: Why :func:`fill_units` returned.
DONE, UNKNOWN, CLUSTER, FULL = 0, 1, 2, 3


@jit(inline="always")
def _decode(buf, i, n):  # type: ignore[no-untyped-def]
    """(code point or -1 for an invalid byte, byte length) of the character at ``i``.

    Exactly the sequences a strict UTF-8 decoder accepts: no overlong forms,
    no surrogates (``ED A0..BF``), nothing above U+10FFFF (``F4 90..``), so
    every code point returned indexes the tables.
    """
    b0 = np.int64(buf[i])
    if b0 < 0x80:
        return b0, 1
    if 0xC2 <= b0 <= 0xDF and i + 1 < n and (buf[i + 1] & 0xC0) == 0x80:
        return ((b0 & 0x1F) << 6) | (np.int64(buf[i + 1]) & 0x3F), 2
    if 0xE0 <= b0 <= 0xEF and i + 2 < n and (buf[i + 1] & 0xC0) == 0x80 \
            and (buf[i + 2] & 0xC0) == 0x80 and not (b0 == 0xE0 and buf[i + 1] < 0xA0) \
            and not (b0 == 0xED and buf[i + 1] >= 0xA0):
        return (((b0 & 0x0F) << 12) | ((np.int64(buf[i + 1]) & 0x3F) << 6)
                | (np.int64(buf[i + 2]) & 0x3F)), 3
    if 0xF0 <= b0 <= 0xF4 and i + 3 < n and (buf[i + 1] & 0xC0) == 0x80 \
            and (buf[i + 2] & 0xC0) == 0x80 and (buf[i + 3] & 0xC0) == 0x80 \
            and not (b0 == 0xF0 and buf[i + 1] < 0x90) and not (b0 == 0xF4 and buf[i + 1] >= 0x90):
        return (((b0 & 0x07) << 18) | ((np.int64(buf[i + 1]) & 0x3F) << 12)
                | ((np.int64(buf[i + 2]) & 0x3F) << 6) | (np.int64(buf[i + 3]) & 0x3F)), 4
    return -1, 1


@jit()
def unknown_codepoints(buf, start, table, seen, out):  # type: ignore[no-untyped-def]
    """Write the distinct non-ASCII code points from ``start`` on that ``table``
    does not know into ``out`` (``seen``, one flag per code point, lists each
    once); stop when ``out`` is full.  Returns how many were written."""
    n = buf.shape[0]
    m = 0
    i = start
    while i < n and m < out.shape[0]:
        if buf[i] < 0x80:
            i += 1
            continue
        cp, length = _decode(buf, i, n)
        if cp >= 0 and table[cp] == 0 and not seen[cp]:
            seen[cp] = True
            out[m] = cp
            m += 1
        i += length
    return m


@jit()
def find_clusters(buf, table, out):  # type: ignore[no-untyped-def]
    """Combining sequences that normalisation may change as a whole.

    A sequence is a character followed by a run of *mark* characters, kept
    when the run holds one that *composes* (``e`` + U+0301 is ``é`` under
    NFKC).  Writes ``[start, end)`` byte ranges into ``out`` (n x 2) while it
    has room; returns how many there are.  Every code point must be known.
    """
    n = buf.shape[0]
    m = 0
    prev = -1
    i = 0
    while i < n:
        if buf[i] < 0x80:
            prev = i
            i += 1
            continue
        cp, length = _decode(buf, i, n)
        if cp < 0:
            prev = -1
            i += 1
            continue
        if table[cp] & MARK == 0:
            prev = i
            i += length
            continue
        q = i + length
        start = prev if prev >= 0 else i
        composes = table[cp] & COMPOSES
        marks = 1
        while q < n and buf[q] >= 0x80:
            cp2, length2 = _decode(buf, q, n)
            if cp2 < 0 or table[cp2] & MARK == 0:
                break
            if marks == MAX_MARKS:  # a long run: cut it (stream-safe, UAX #15)
                if composes:
                    if m < out.shape[0]:
                        out[m, 0], out[m, 1] = start, q
                    m += 1
                start, composes, marks = q, 0, 0
            composes |= table[cp2] & COMPOSES
            marks += 1
            q += length2
        if composes:
            if m < out.shape[0]:
                out[m, 0], out[m, 1] = start, q
            m += 1
        prev = -1
        i = q
    return m


@jit(inline="always")
def _ascii_run(buf, i, j, stop, ascii_map, units, starts, ends):  # type: ignore[no-untyped-def]
    """Map ASCII bytes from ``i`` up to ``stop`` or the first non-ASCII byte.

    Branch-free keep/drop: each byte is written at ``j``, which advances only
    when the byte is kept (which bytes are dropped is data-dependent and would
    mispredict).  Eight bytes at a time while they are all ASCII.
    """
    while i + 8 <= stop:
        if (buf[i] | buf[i + 1] | buf[i + 2] | buf[i + 3] | buf[i + 4] | buf[i + 5]
                | buf[i + 6] | buf[i + 7]) >= 0x80:
            break
        for k in range(8):
            v = ascii_map[buf[i + k]]
            units[j] = v
            starts[j] = i + k
            ends[j] = i + k + 1
            j += v != 0
        i += 8
    while i < stop:
        b = buf[i]
        if b >= 0x80:
            break
        v = ascii_map[b]
        units[j] = v
        starts[j] = i
        ends[j] = i + 1
        j += v != 0
        i += 1
    return i, j


@jit(inline="always")
def _emit(values, first, last, start, end, j, units, starts, ends):  # type: ignore[no-untyped-def]
    """Write ``values[first:last]`` from unit ``j`` on, each spanning ``[start, end)``."""
    for e in range(first, last):
        units[j] = values[e]
        starts[j] = start
        ends[j] = end
        j += 1
    return j


@jit()
def fill_units(buf, state, ascii_map, table, flat, clusters, cflat,  # type: ignore[no-untyped-def]
               units, starts, ends):
    """Write each kept unit with the byte span of the character it came from.

    ``state`` is ``[i, j, c, cp]``: the byte to read next, the unit to write
    next, the next entry of ``clusters`` (rows ``start, end, first, stop``: a
    combining sequence and its units ``cflat[first:stop]``).  Runs until the
    input ends (``DONE``) or it meets an unknown code point (``UNKNOWN``), a
    composing mark outside every listed sequence (``CLUSTER``) or too little
    room (``FULL``); ``state`` then says where to resume (and ``cp`` which
    code point was unknown).  Room: the kernel
    keeps ``j + (bytes left) <= len(units)``, so ASCII never needs a check.
    """
    n = buf.shape[0]
    capacity = units.shape[0]
    i, j, c = state[0], state[1], state[2]
    status = DONE
    while i < n:
        stop = clusters[c, 0] if c < clusters.shape[0] else n
        if i == stop:
            end, first, last = clusters[c, 1], clusters[c, 2], clusters[c, 3]
            if j + (last - first) + (n - end) > capacity:
                status = FULL
                break
            j = _emit(cflat, first, last, i, end, j, units, starts, ends)
            i = end
            c += 1
            continue
        i, j = _ascii_run(buf, i, j, stop, ascii_map, units, starts, ends)
        if i >= stop:
            continue
        cp, length = _decode(buf, i, n)
        if cp < 0:
            i += 1
            continue
        entry = table[cp]
        if entry & KNOWN == 0:
            state[3] = cp
            status = UNKNOWN
            break
        if entry & COMPOSES:
            status = CLUSTER
            break
        size = (entry >> LEN_SHIFT) & 0xFF
        if j + size + (n - i - length) > capacity:
            status = FULL
            break
        first = entry >> START_SHIFT
        j = _emit(flat, first, first + size, i, i + length, j, units, starts, ends)
        i += length
    state[0], state[1], state[2] = i, j, c
    return status


@jit()
def ascii_fill(data, ascii_map, offsets, units, bounds):  # type: ignore[no-untyped-def]
    """The units of ASCII bytes ``data`` (``ascii_map`` of each, 256 entries,
    those that map to 0 dropped) into ``units``, and in ``bounds[t]`` how many come
    before byte ``offsets[t]`` (ascending), ``bounds[-1]`` all of them, which
    are returned.  What :func:`fill_units` gives ASCII text, without the
    byte spans: no byte of ASCII text is invalid or combines, so each maps
    alone; the output is written whatever the byte and kept only for a unit
    (no branch on the text)."""
    texts = offsets.shape[0]
    j = 0
    t = 0
    for i in range(data.shape[0]):
        while t < texts and offsets[t] <= i:
            bounds[t] = j
            t += 1
        unit = ascii_map[data[i]]
        units[j] = unit
        j += int(unit != 0)
    while t < texts:
        bounds[t] = j
        t += 1
    bounds[texts] = j
    return j


#: FNV-1a's 64-bit offset basis and prime, and the prime to the 4th power:
#: a code point below 256 is one byte and three zero bytes, whose steps
#: ``h = (h ^ 0) * prime`` make one multiplication by it.
FNV_BASIS = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)
FNV_PRIME_4 = np.uint64(0x100000001B3 ** 4 % 2 ** 64)


@jit(inline="always")
def word_hash_step(h, cp):  # type: ignore[no-untyped-def]
    """The FNV-1a hash ``h`` of a word's code points so far, continued by the
    four bytes of ``cp`` (little-endian); one multiplication where ``cp < 256``."""
    c = np.uint64(cp)
    if c < np.uint64(256):
        return (h ^ c) * FNV_PRIME_4
    for _ in range(4):
        h = (h ^ (c & np.uint64(0xFF))) * FNV_PRIME
        c = c >> np.uint64(8)
    return h


@jit()
def word_bounds(cps, starts, ends, wordchar, bounds, hashes):  # type: ignore[no-untyped-def]
    """Split units into words: a new word starts after a gap in the source (a
    dropped character) or at a non-word unit (kept punctuation or space, each
    its own word).  Writes each word's first unit index and FNV-1a hash of its
    code points (:func:`word_hash_step`); returns the word count."""
    n = cps.shape[0]
    w = -1
    for i in range(n):
        new = i == 0 or starts[i] > ends[i - 1] or not wordchar[i] or not wordchar[i - 1]
        if new:
            w += 1
            bounds[w] = i
            hashes[w] = FNV_BASIS
        hashes[w] = word_hash_step(hashes[w], cps[i])
    return w + 1
