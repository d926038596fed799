"""Compiled loops of the engine (numba, nopython mode).

Everything here works on numpy arrays and returns numpy arrays; the typed,
validated wrappers live in :mod:`winnow.engine.hashing` and
:mod:`winnow.engine.selection`.  Arithmetic is on ``uint64`` throughout, with
every constant cast explicitly: numba turns mixed signed/unsigned 64-bit
arithmetic into floats otherwise.
"""

from __future__ import annotations

import numpy as np

from winnow.compiled import jit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xFF51AFD7ED558CCD)
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)


@jit(inline="always")
def fmix64(x):  # type: ignore[no-untyped-def]
    """MurmurHash3's 64-bit finaliser: a bijection in which every input bit
    affects every output bit (avalanche)."""
    x ^= x >> _S33
    x *= _M1
    x ^= x >> _S33
    x *= _M2
    x ^= x >> _S33
    return x


@jit(inline="always")
def unit_digit(u, key):  # type: ignore[no-untyped-def]
    """The base-b digit of one code unit: a seeded, pseudo-random 64-bit value."""
    return fmix64((np.uint64(u) + _GOLDEN) ^ key)


#: Units below this get their digit from a table made once per call
#: (:func:`digit_table`): the text front-ends' units are code points, nearly all
#: of them ASCII, and a lookup is a third of the time of the two hashes a roll
#: needs (code front-ends' units are 32-bit token hashes: they compute theirs).
TABLE_UNITS = 256


@jit(inline="always")
def digit_table(key):  # type: ignore[no-untyped-def]
    """:func:`unit_digit` of every unit below :data:`TABLE_UNITS`."""
    table = np.empty(TABLE_UNITS, dtype=np.uint64)
    for u in range(TABLE_UNITS):
        table[u] = unit_digit(np.uint32(u), key)
    return table


@jit(inline="always")
def digit(u, key, table):  # type: ignore[no-untyped-def]
    """:func:`unit_digit` of ``u``, from ``table`` (:func:`digit_table`) when it holds it."""
    if u < TABLE_UNITS:
        return table[u]
    return unit_digit(u, key)


@jit(inline="always")
def _first_state(units, k, key, base, table):  # type: ignore[no-untyped-def]
    """``b^k`` and the state ``H'`` of the first k-gram (needs ``len(units) >= k``)."""
    bk = np.uint64(1)
    for _ in range(k):
        bk *= base
    h = np.uint64(0)
    for i in range(k):
        h = (h + digit(units[i], key, table)) * base
    return bk, h


@jit(inline="always")
def _hash_block(units, k, key, bk, base, table, h, start, stop, out, offset):  # type: ignore[no-untyped-def]
    """The hashes of k-grams ``start .. stop - 1`` (``start >= 1``; ``h``: the
    state of k-gram ``start - 1``) into ``out[p - offset]``: each state rolled
    from the one before (section 2.2), then :func:`fmix64`.  Returns the state
    of the last one."""
    for p in range(start, stop):
        leaving = digit(units[p - 1], key, table) * bk
        h = ((h - leaving) + digit(units[p + k - 1], key, table)) * base
        out[p - offset] = fmix64(h ^ key)
    return h


@jit(inline="always")
def hash_into(units, k, key, base, table, out):  # type: ignore[no-untyped-def]
    """The hash of every k-gram of ``units`` (at least ``k`` of them) into
    ``out[:m]``, ``m = len(units) - k + 1``, in O(n) with the improved
    Karp-Rabin form:

    ``H'(c_1..c_k) = c_1 b^k + c_2 b^(k-1) + ... + c_k b  (mod 2^64)`` and
    ``H'(c_2..c_(k+1)) = ((H'(c_1..c_k) - c_1 b^k) + c_(k+1)) * b``
    (paper section 2.2), followed by :func:`fmix64` on the output.  Returns ``m``.
    """
    m = units.shape[0] - k + 1
    bk, h = _first_state(units, k, key, base, table)
    out[0] = fmix64(h ^ key)
    _hash_block(units, k, key, bk, base, table, h, 1, m, out, 0)
    return m


@jit()
def rolling_hashes(units, k, key, base):  # type: ignore[no-untyped-def]
    """Hash every k-gram of ``units`` (:func:`hash_into`)."""
    m = units.shape[0] - k + 1
    if m <= 0:
        return np.empty(0, dtype=np.uint64)
    out = np.empty(m, dtype=np.uint64)
    hash_into(units, k, key, base, digit_table(key), out)
    return out


@jit()
def winnow_positions(hashes, w, robust):  # type: ignore[no-untyped-def]
    """Positions selected by (robust) winnowing, in order, each once.

    The loop of the paper's Figure 5 (with the authors' errata): the minimum of
    the previous window is kept while it stays inside the window, so each step
    costs one comparison; only when it falls out is the window rescanned, right
    to left so that the rightmost minimum wins.  ``robust`` replaces the ``<=``
    of the incremental step with ``<``: a new hash equal to the current minimum
    does not displace it (Definition 3).  A sequence shorter than ``w`` is one
    window.
    """
    n = hashes.shape[0]
    out = np.empty(n, dtype=np.int64)
    if n == 0:
        return out[:0]
    if w > n:
        w = n
    count = 0
    mi = -1
    for end in range(w - 1, n):
        start = end - w + 1
        if mi < start:
            mi = end
            for j in range(end - 1, start - 1, -1):
                if hashes[j] < hashes[mi]:
                    mi = j
            out[count] = mi
            count += 1
        else:
            h = hashes[end]
            if h < hashes[mi] or (not robust and h == hashes[mi]):
                mi = end
                out[count] = mi
                count += 1
    return out[:count]


@jit()
def mod_p_positions(hashes, p):  # type: ignore[no-untyped-def]
    """Positions whose hash is 0 mod p (Manber's selection, section 2.3)."""
    n = hashes.shape[0]
    out = np.empty(n, dtype=np.int64)
    up = np.uint64(p)
    zero = np.uint64(0)
    count = 0
    for i in range(n):
        if hashes[i] % up == zero:
            out[count] = i
            count += 1
    return out[:count]


@jit()
def safe_mod_p_positions(hashes, w, p):  # type: ignore[no-untyped-def]
    """Positions that are not Ugly (Safe 0 mod p, section 3.1.2).

    Good: the hash is 0 mod p.  Bad: it and the w-1 hashes to its left are all
    not Good (so it needs ``i >= w - 1``).  Everything else is Ugly.
    """
    n = hashes.shape[0]
    out = np.empty(n, dtype=np.int64)
    up = np.uint64(p)
    zero = np.uint64(0)
    count = 0
    last_good = -1
    for i in range(n):
        if hashes[i] % up == zero:
            last_good = i
            out[count] = i
            count += 1
        elif i >= w - 1 and last_good < i - w + 1:
            out[count] = i
            count += 1
    return out[:count]


@jit()
def sif_positions(hashes, bits, k):  # type: ignore[no-untyped-def]
    """Manber's hash-based selection: hashes whose low ``bits`` bits are zero,
    never two overlapping k-grams (after a selection, skip to its end)."""
    n = hashes.shape[0]
    out = np.empty(n, dtype=np.int64)
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    zero = np.uint64(0)
    count = 0
    i = 0
    while i < n:
        if hashes[i] & mask == zero:
            out[count] = i
            count += 1
            i += k
        else:
            i += 1
    return out[:count]


#: How many k-gram hashes :func:`winnow_into` computes ahead of its selection
#: at a time (its scratch holds them and the window before them).
HASH_BLOCK = 4096


@jit()
def winnow_fused(units, k, key, base, w, robust):  # type: ignore[no-untyped-def]
    """Hash and (robust) winnow in one call (:func:`winnow_into`).

    The same hash as :func:`rolling_hashes` and the same selection as
    :func:`winnow_positions` (tests check both), without the array of all
    k-gram hashes.  Returns the selected hashes and positions.
    """
    n = units.shape[0]
    m = n - k + 1
    if m <= 0:
        return np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.int64)
    out_hash = np.empty(m, dtype=np.uint64)
    out_pos = np.empty(m, dtype=np.int64)
    scratch = np.empty(min(m, HASH_BLOCK + min(w, m)), dtype=np.uint64)  # w may be huge
    count = winnow_into(units, k, key, base, w, robust, digit_table(key), scratch, out_hash,
                        out_pos, 0)
    return out_hash[:count].copy(), out_pos[:count].copy()


@jit(inline="always")
def winnow_into(units, k, key, base, w, robust, table, scratch, out_hash, out_pos, at):  # type: ignore[no-untyped-def]
    """:func:`winnow_fused`'s selection of ``units`` (at least ``k`` of them)
    written into ``out_hash[at:]``, and the positions into ``out_pos[at:]``
    unless ``out_pos`` is empty; ``table``: :func:`digit_table`; ``scratch``:
    room for ``min(m, HASH_BLOCK + w)`` hashes (``m = units - k + 1`` k-grams).
    Returns how many were selected (at most ``m``).

    The hashes are computed a block of :data:`HASH_BLOCK` at a time, then
    selected: the rolling hash's chain of multiplications runs without
    waiting on the selection's branches.  The selection is the paper's Figure
    5 loop with the authors' errata (first window: its rightmost minimum):
    a window whose selected hash has just left it takes its rightmost minimum
    (the minimum found first, then its last position), otherwise a new hash
    is selected when it is smaller than the selected one (robust), or no
    larger (plain winnowing)."""
    m = units.shape[0] - k + 1
    if w > m:
        w = m
    positions = out_pos.shape[0] > 0
    bk, h = _first_state(units, k, key, base, table)
    scratch[0] = fmix64(h ^ key)
    offset = 0  # scratch[j] is the hash of k-gram offset + j
    end = min(m, scratch.shape[0])  # k-grams hashed so far
    h = _hash_block(units, k, key, bk, base, table, h, 1, end, scratch, offset)
    mi = w - 1
    for j in range(w - 2, -1, -1):
        if scratch[j] < scratch[mi]:
            mi = j
    out_hash[at] = scratch[mi]
    if positions:
        out_pos[at] = mi
    count = 1
    for i in range(w, m):
        if i == end:  # the next block, after the window that ends at i - 1
            for j in range(w):
                scratch[j] = scratch[i - w - offset + j]
            offset = i - w
            end = min(m, offset + scratch.shape[0])
            h = _hash_block(units, k, key, bk, base, table, h, i, end, scratch, offset)
        value = scratch[i - offset]
        if mi == i - w:  # the selected hash just left the window
            low = value
            for j in range(i - w + 1 - offset, i - offset):
                other = scratch[j]
                low = other if other < low else low
            mi = i
            while scratch[mi - offset] != low:
                mi -= 1
        elif value < scratch[mi - offset] or (not robust and value == scratch[mi - offset]):
            mi = i
        else:
            continue
        out_hash[at + count] = scratch[mi - offset]
        if positions:
            out_pos[at + count] = mi
        count += 1
    return count


@jit(inline="always")
def insertion_sort(values, lo, hi):  # type: ignore[no-untyped-def]
    """Sort ``values[lo:hi]`` in place by insertion (for a few values: a
    group, a bucket; no allocation, no call)."""
    for j in range(lo + 1, hi):
        value = values[j]
        k = j - 1
        while k >= lo and values[k] > value:
            values[k + 1] = values[k]
            k -= 1
        values[k + 1] = value


#: Runs of at most this many values are sorted by :func:`sorted_distinct`'s
#: buckets and insertion (a few values a bucket); longer ones by numba's
#: sort (insertion's cost grows with the square of a bucket).
SMALL = 1024


@jit()
def sorted_distinct(values, lo, hi, scratch, buckets):  # type: ignore[no-untyped-def]
    """Sort ``values[lo:hi]`` (``uint64``) and keep each value once, at
    ``values[lo:lo + kept]``; returns ``kept``.  ``scratch``: :data:`SMALL`
    values at least; ``buckets``: 257 counters (both overwritten).

    Made for the short runs of hashes that a record gives (a few dozen to a
    few hundred, spread evenly over 64 bits): one counting pass puts them in
    256 buckets by their top byte, then insertion sorts each bucket's few
    values.  numba's ``ndarray.sort`` took about 25 ns a value on such runs,
    this about 7."""
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


@jit(inline="always")
def window_minima_into(units, k, key, base, w, table, hashes, suffix, out, at):  # type: ignore[no-untyped-def]
    """The minimum of every window of ``w`` consecutive k-gram hashes of
    ``units`` (at least ``k`` of them; a shorter sequence is one window),
    window after window, a run of equal minima written once, into
    ``out[at:]``; returns how many were written.  ``table``:
    :func:`digit_table`; ``hashes`` and ``suffix``: scratch of the same
    size, more than ``min(w, k-grams)``.

    Van Herk's and Gil & Werman's method, without a branch on the hashes:
    the hashes are cut into blocks of ``w``; a window starting at ``i``
    spans the end of one block and the start of the next, so its minimum is
    the smaller of the minimum from ``i`` to its block's end (``suffix[i]``,
    one backward pass) and the minimum from the next block's start to the
    window's end (kept as the forward pass goes).  The hashes are computed
    as :func:`hash_into` does, as many windows at a time as the scratch
    holds, the last ``w - 1`` kept for the next ones."""
    m = units.shape[0] - k + 1
    if w > m:
        w = m
    windows = m - w + 1
    bk, h = _first_state(units, k, key, base, table)
    hashes[0] = fmix64(h ^ key)
    have = 1  # hashes[:have] are those of k-grams offset .. offset + have - 1
    offset = 0
    count = 0
    previous = np.uint64(0)
    chunk = hashes.shape[0] - w + 1  # windows a pass
    done = 0
    while done < windows:
        starts = min(chunk, windows - done)
        need = starts + w - 1
        h = _hash_block(units, k, key, bk, base, table, h, offset + have, offset + need,
                        hashes, offset)
        for block in range(0, need, w):
            last = min(block + w, need) - 1
            low = hashes[last]
            suffix[last] = low
            for j in range(last - 1, block - 1, -1):
                value = hashes[j]
                low = value if value < low else low
                suffix[j] = low
        low = hashes[0]
        left = w  # hashes left in the forward pass's block
        for j in range(need):
            value = hashes[j]
            if left == 0:
                left = w
                low = value
            low = value if value < low else low
            left -= 1
            i = j - w + 1
            if i >= 0:
                smallest = suffix[i]
                smallest = smallest if smallest < low else low
                out[at + count] = smallest
                count += int((smallest != previous) | (count == 0))
                previous = smallest
        for j in range(w - 1):
            hashes[j] = hashes[starts + j]
        offset += starts
        have = w - 1
        done += starts
    return count


@jit()
def winnow_distinct(units, bounds, k, key, base, w):  # type: ignore[no-untyped-def]
    """The distinct hashes that winnowing selects in every document
    ``units[bounds[d]:bounds[d + 1]]`` of a batch, each document's sorted.

    Returns the hashes of all documents one after the other and how many each
    has: one compiled call for a batch of thousands of short records, where a
    call per record costs more in Python than the hashing itself.  Every
    window's selected hash is its minimum, under robust winnowing's tie rule
    as under the plain one (they differ in which *position* of an equal hash
    they select, and so in how often they select it), and every selection is
    some window's: the set is that of the windows' minima
    (:func:`window_minima_into`), found without the selection's branches,
    then sorted and its repeats dropped in place (:func:`sorted_distinct`):
    no array is made per record.  A 256 KiB batch of ``benchmarks/scale.py``'s
    records (459 records, 210,901 units), compiled ahead of time, runs
    alternated: 8.0-8.3 ns a unit, against 8.9-9.5 for :func:`winnow_into`'s
    selection sorted by insertion."""
    documents = bounds.shape[0] - 1
    out = np.empty(max(units.shape[0], 1), dtype=np.uint64)
    counts = np.zeros(max(documents, 0), dtype=np.int64)
    size = HASH_BLOCK + min(max(w, 1), units.shape[0] + 1)
    hashes = np.empty(size, dtype=np.uint64)
    suffix = np.empty(size, dtype=np.uint64)
    table = digit_table(key)
    scratch = np.empty(SMALL, dtype=np.uint64)
    buckets = np.empty(257, dtype=np.int64)
    filled = 0
    for d in range(documents):
        lo = bounds[d]
        hi = bounds[d + 1]
        if hi - lo < k:
            continue
        found = window_minima_into(units[lo:hi], k, key, base, w, table, hashes, suffix, out,
                                   filled)
        kept = sorted_distinct(out, filled, filled + found, scratch, buckets)
        counts[d] = kept
        filled += kept
    return out[:filled].copy(), counts
