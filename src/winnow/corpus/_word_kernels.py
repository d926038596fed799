"""Compiled loops of dedup's word pass (numba, nopython mode,
:mod:`winnow.corpus.words`): each candidate record's words found, hashed,
paired and made a sorted set in one pass over the front-end's units
(:func:`word_pair_runs`), and the Jaccard of two such sets
(:func:`sorted_jaccard`).

The kernels call :func:`winnow.engine._kernels.sorted_distinct` and inline
:func:`winnow.frontends._text_kernels.word_hash_step`: numba's on-disk cache
(the JIT's, where the kernels compiled ahead of time are not used) does not
see a change in a function of another module that a cached kernel calls, so
after editing one of those, remove the cache's files (CONTRIBUTING.md; the
module compiled ahead of time is checked against every source it imports).

A record's set is small (about 100 word pairs for the 600-byte records of
``benchmarks/scale.py``), sorted by :func:`winnow.engine._kernels.sorted_distinct`
(buckets by top byte, then insertion).  Splitting, hashing and pairing in
one loop, with the word hash's one multiplication a byte-sized code point
(:func:`~winnow.frontends._text_kernels.word_hash_step`): the word pairs of
2,084 such records, the front-end included, in 18.7-21.4 ms, against
22.2-31.3 ms for the front-end's word splitter followed by a pairing pass
(compiled ahead of time, runs alternated)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit
from winnow.engine._kernels import SMALL, sorted_distinct
from winnow.frontends._text_kernels import FNV_BASIS, word_hash_step

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
Flags = npt.NDArray[np.bool_]


@jit()
def _continues_word(cp, high, high_word):  # type: ignore[no-untyped-def]
    """Whether code point ``cp`` (from 128 on) continues a word: ``high_word``
    of its place in the sorted ``high`` (binary search; a code point not
    there is none).  Called, not inlined: inlined, its loop slowed the ASCII
    path of :func:`word_pair_runs` three times over."""
    lo = 0
    hi = high.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if high[mid] < cp:
            lo = mid + 1
        else:
            hi = mid
    return bool(lo < high.shape[0] and high[lo] == cp and high_word[lo])


@jit(inline="always")
def _pair_hash(x, y):  # type: ignore[no-untyped-def]
    """The hash of the word pair ``(x, y)``: ``x * 0x9E3779B97F4A7C15 + y``
    mixed by two xor-shift-multiply steps."""
    value = x * np.uint64(0x9E3779B97F4A7C15) + y
    value ^= value >> np.uint64(31)
    value *= np.uint64(0xBF58476D1CE4E5B9)
    value ^= value >> np.uint64(29)
    return value


@jit(inline="always")
def _word_ends(out, filled, words, last, h):  # type: ignore[no-untyped-def]
    """A text's word of hash ``h`` ends: the pair it makes with the word
    before (``last``, when ``words`` came before it) written at
    ``out[filled]``.  Returns ``(filled, words, last)`` after it."""
    if words > 0:
        out[filled] = _pair_hash(last, h)
        filled += 1
    return filled, words + 1, h


@jit(inline="always")
def _text_ends(out, lo, filled, words, last, scratch, buckets):  # type: ignore[no-untyped-def]
    """A text's hashes ``out[lo:filled]`` (its one word's, ``last``, when it
    has one word) made a sorted set at ``out[lo:]``; returns its size."""
    if words == 1:
        out[filled] = last
        filled += 1
    return sorted_distinct(out, lo, filled, scratch, buckets)


@jit(nogil=True)
def word_pair_runs(cps: U32, starts: I64, ends: I64, ascii_word: Flags, high: U32,
                   high_word: Flags, offsets: I64, out: U64, counts: I64) -> int:
    """The distinct word-pair hashes of each text, sorted, one text after
    the other in ``out`` (room for one value a unit); ``counts[t]`` (zeros
    given): text ``t``'s.  ``cps``, ``starts``, ``ends``: the front-end's
    units of the texts joined, with their byte spans; ``offsets``: where
    each text starts.  A word is a run of word characters (``ascii_word``
    below 128, else :func:`_continues_word`) with nothing dropped between
    them; any other unit is a word of its own (a character of a script
    written without spaces).  A word's hash is FNV-1a of its code points'
    four bytes each; a text of one word has that word's hash, a longer one
    the hash of each two consecutive words (:func:`_pair_hash`).  Returns
    the hashes written.  Runs without the GIL."""
    n = cps.shape[0]
    texts = offsets.shape[0]
    scratch = np.empty(SMALL, dtype=np.uint64)
    buckets = np.empty(257, dtype=np.int64)
    filled = 0
    t = -1  # the text of the words read
    lo = 0  # where text t's hashes start in out
    words = 0  # text t's words finished
    last = np.uint64(0)  # the last of them
    h = FNV_BASIS  # the open word's hash so far
    open_word = False
    was_word = False
    for i in range(n):
        cp = cps[i]
        is_word = bool(ascii_word[cp]) if cp < 128 else _continues_word(cp, high, high_word)
        if i == 0 or starts[i] > ends[i - 1] or not is_word or not was_word:
            if open_word:  # the word before ends: it is text t's
                filled, words, last = _word_ends(out, filled, words, last, h)
            if t + 1 < texts and offsets[t + 1] <= starts[i]:  # a later text's word
                if t >= 0:
                    counts[t] = _text_ends(out, lo, filled, words, last, scratch, buckets)
                    filled = lo + counts[t]
                while t + 1 < texts and offsets[t + 1] <= starts[i]:
                    t += 1
                lo = filled
                words = 0
            h = FNV_BASIS
            open_word = True
        h = word_hash_step(h, cp)
        was_word = is_word
    if open_word:
        filled, words, last = _word_ends(out, filled, words, last, h)
    if t >= 0:
        counts[t] = _text_ends(out, lo, filled, words, last, scratch, buckets)
        filled = lo + counts[t]
    return filled


@jit(nogil=True)
def ascii_word_pairs(data: npt.NDArray[np.uint8], ascii_map: U32, offsets: I64, out: U64,
                     counts: I64) -> int:
    """:func:`word_pair_runs` of ASCII texts joined (``data``, text ``t``
    from byte ``offsets[t]``), straight from their bytes: a word is a run of
    bytes that ``ascii_map`` keeps (letters and digits; their units its
    values), any other byte is dropped and ends it, as the front-end and
    :func:`word_pair_runs` have it; ``ascii_map`` has 256 entries.  ``out``:
    room for one value a byte.  Returns the hashes written (none without a
    text).  Runs without the GIL."""
    n = data.shape[0]
    texts = offsets.shape[0]
    if texts == 0:
        return 0
    scratch = np.empty(SMALL, dtype=np.uint64)
    buckets = np.empty(257, dtype=np.int64)
    filled = 0
    t = 0
    lo = 0
    words = 0
    last = np.uint64(0)
    h = FNV_BASIS
    open_word = False
    for i in range(n):
        while t + 1 < texts and offsets[t + 1] <= i:  # text t ends
            if open_word:
                filled, words, last = _word_ends(out, filled, words, last, h)
                open_word = False
            counts[t] = _text_ends(out, lo, filled, words, last, scratch, buckets)
            filled = lo + counts[t]
            lo = filled
            words = 0
            t += 1
        unit = ascii_map[data[i]]
        if unit != 0:
            if not open_word:
                h = FNV_BASIS
                open_word = True
            h = word_hash_step(h, unit)
        elif open_word:
            filled, words, last = _word_ends(out, filled, words, last, h)
            open_word = False
    if open_word:
        filled, words, last = _word_ends(out, filled, words, last, h)
    if texts > 0:
        counts[t] = _text_ends(out, lo, filled, words, last, scratch, buckets)
        filled = lo + counts[t]
    return filled


@jit()
def sorted_jaccard(starts: I64, hashes: npt.NDArray[np.uint64], a: I64, b: I64,
                   out: npt.NDArray[np.float64]) -> None:
    """``out[i]``: Jaccard of the sorted distinct runs ``hashes[starts[a[i]]:
    starts[a[i] + 1]]`` and the same of ``b[i]`` (left as it was where
    either index is -1 or either run is empty)."""
    for i in range(a.shape[0]):
        x, y = a[i], b[i]
        if x < 0 or y < 0:
            continue
        p, p_end = starts[x], starts[x + 1]
        q, q_end = starts[y], starts[y + 1]
        size = (p_end - p) + (q_end - q)
        if p_end == p or q_end == q:
            continue
        shared = 0
        while p < p_end and q < q_end:
            if hashes[p] == hashes[q]:
                shared += 1
                p += 1
                q += 1
            elif hashes[p] < hashes[q]:
                p += 1
            else:
                q += 1
        out[i] = shared / (size - shared)
