"""Compiled loops of dedup's word pass (numba, nopython mode,
:mod:`winnow.corpus.words`): each candidate record's word pairs hashed and
made a sorted set (:func:`word_pair_runs`), and the Jaccard of two such
sets (:func:`sorted_jaccard`).  One module: numba's cache does not see a
change in a kernel of another file that a cached kernel calls.

A record's set is small (about 100 word pairs for the 600-byte records of
``benchmarks/scale.py``): numba's ``ndarray.sort`` took about 25 ns a value
on such runs (4.6 ms for the 180,000 word pairs of a shard's candidates,
of a 22 ms word pass).  :func:`sorted_distinct` sorts a run by its values'
top byte first (one counting pass) and then by insertion within each of
the 256 buckets: 1.2 ms, the same values out."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit
from winnow.engine._kernels import insertion_sort

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

#: Runs of at most this many values are sorted by buckets and insertion
#: (a few per bucket); longer ones by ``np.sort`` (insertion's cost grows
#: with the square of a bucket).
SMALL = 1024


@jit()
def sorted_distinct(values: U64, lo: int, hi: int, scratch: U64, buckets: I64) -> int:
    """Sort ``values[lo:hi]`` and keep each value once, at ``values[lo:lo +
    kept]``; returns ``kept``.  ``scratch``: :data:`SMALL` values at least;
    ``buckets``: 257 counters (both overwritten)."""
    n = hi - lo
    kept = 0
    if n > SMALL:
        values[lo:hi].sort()
        for i in range(lo, hi):
            if kept == 0 or values[i] != values[lo + kept - 1]:
                values[lo + kept] = values[i]
                kept += 1
        return kept
    top = np.uint64(56)
    buckets[:] = 0
    for i in range(lo, hi):
        buckets[np.int64(values[i] >> top) + 1] += 1
    for b in range(256):
        buckets[b + 1] += buckets[b]
    for i in range(lo, hi):
        at = np.int64(values[i] >> top)
        scratch[buckets[at]] = values[i]
        buckets[at] += 1
    insertion_sort(scratch, 0, n)  # within a bucket: the buckets are in order already
    for i in range(n):
        if kept == 0 or scratch[i] != values[lo + kept - 1]:
            values[lo + kept] = scratch[i]
            kept += 1
    return kept


@jit()
def word_pair_runs(words: npt.NDArray[np.uint64], starts: I64, offsets: I64,
                   out: npt.NDArray[np.uint64], counts: I64) -> int:
    """The distinct word-pair hashes of each text, sorted, one text after
    the other in ``out``; ``counts[t]``: text ``t``'s.  ``words``: the hashes
    of the texts' words in turn, ``starts`` where each word starts (a byte
    offset into the joined texts), ``offsets`` where each text starts.  A
    text of one word has that word's hash; a pair ``(x, y)`` is hashed by
    ``z = x * 0x9E3779B97F4A7C15 + y`` mixed by two xor-shift-multiply
    steps.  Returns the hashes written."""
    n = words.shape[0]
    texts = offsets.shape[0]
    scratch = np.empty(SMALL, dtype=np.uint64)
    buckets = np.empty(257, dtype=np.int64)
    filled = 0
    i = 0
    t = 0
    while i < n:
        while t + 1 < texts and offsets[t + 1] <= starts[i]:
            t += 1
        j = i  # words i .. j are text t's
        while j + 1 < n and (t + 1 >= texts or starts[j + 1] < offsets[t + 1]):
            j += 1
        lo = filled
        if j == i:
            out[filled] = words[i]
            filled += 1
        for k in range(i, j):
            value = words[k] * np.uint64(0x9E3779B97F4A7C15) + words[k + 1]
            value ^= value >> np.uint64(31)
            value *= np.uint64(0xBF58476D1CE4E5B9)
            value ^= value >> np.uint64(29)
            out[filled] = value
            filled += 1
        kept = sorted_distinct(out, lo, filled, scratch, buckets)
        counts[t] = kept
        filled = lo + kept
        i = j + 1
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
