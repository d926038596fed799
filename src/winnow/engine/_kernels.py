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


@jit(inline="always")
def start_hash(units, k, key, base):  # type: ignore[no-untyped-def]
    """``b^k`` and the state ``H'`` of the first k-gram (needs ``len(units) >= k``)."""
    bk = np.uint64(1)
    for _ in range(k):
        bk *= base
    h = np.uint64(0)
    for i in range(k):
        h = (h + unit_digit(units[i], key)) * base
    return bk, h


@jit(inline="always")
def roll(h, leaving, entering, key, bk, base):  # type: ignore[no-untyped-def]
    """The state of the next k-gram: drop ``leaving``, append ``entering`` (section 2.2)."""
    return ((h - unit_digit(leaving, key) * bk) + unit_digit(entering, key)) * base


@jit()
def rolling_hashes(units, k, key, base):  # type: ignore[no-untyped-def]
    """Hash every k-gram of ``units`` in O(n) with the improved Karp-Rabin form.

    ``H'(c_1..c_k) = c_1 b^k + c_2 b^(k-1) + ... + c_k b  (mod 2^64)`` and
    ``H'(c_2..c_(k+1)) = ((H'(c_1..c_k) - c_1 b^k) + c_(k+1)) * b``
    (paper section 2.2), followed by :func:`fmix64` on the output.
    """
    n = units.shape[0]
    m = n - k + 1
    if m <= 0:
        return np.empty(0, dtype=np.uint64)
    out = np.empty(m, dtype=np.uint64)
    bk, h = start_hash(units, k, key, base)
    out[0] = fmix64(h ^ key)
    for i in range(1, m):
        h = roll(h, units[i - 1], units[i + k - 1], key, bk, base)
        out[i] = fmix64(h ^ key)
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


@jit()
def winnow_fused(units, k, key, base, w, robust):  # type: ignore[no-untyped-def]
    """Hash and (robust) winnow in one pass, keeping only the last ``w`` hashes.

    The same hash as :func:`rolling_hashes` and the same selection as
    :func:`winnow_positions` (tests check both), without the array of all
    k-gram hashes (:func:`winnow_into`).  Returns the selected hashes and
    positions.
    """
    n = units.shape[0]
    m = n - k + 1
    if m <= 0:
        return np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.int64)
    out_hash = np.empty(m, dtype=np.uint64)
    out_pos = np.empty(m, dtype=np.int64)
    ring = np.empty(min(w, m), dtype=np.uint64)
    count = winnow_into(units, k, key, base, w, robust, ring, out_hash, out_pos, 0)
    return out_hash[:count].copy(), out_pos[:count].copy()


@jit()
def winnow_into(units, k, key, base, w, robust, ring, out_hash, out_pos, at):  # type: ignore[no-untyped-def]
    """:func:`winnow_fused`'s selection of ``units`` (at least ``k`` of them)
    written into ``out_hash[at:]``, and the positions into ``out_pos[at:]``
    unless ``out_pos`` is empty; ``ring``: scratch of at least ``min(w,
    units - k + 1)`` hashes.  Returns how many were selected (at most
    ``units - k + 1``).  The paper's Figure 5 loop over a circular buffer,
    with the authors' errata (buffer primed with the first ``w`` real
    hashes, backward scan from ``r - 1``)."""
    n = units.shape[0]
    m = n - k + 1
    if w > m:
        w = m
    positions = out_pos.shape[0] > 0
    bk, h = start_hash(units, k, key, base)
    ring[0] = fmix64(h ^ key)
    for i in range(1, w):
        h = roll(h, units[i - 1], units[i + k - 1], key, bk, base)
        ring[i] = fmix64(h ^ key)
    r = w - 1
    mi = w - 1
    for j in range(w - 2, -1, -1):
        if ring[j] < ring[mi]:
            mi = j
    out_hash[at] = ring[mi]
    if positions:
        out_pos[at] = mi
    count = 1
    for i in range(w, m):
        h = roll(h, units[i - 1], units[i + k - 1], key, bk, base)
        r += 1
        if r == w:
            r = 0
        value = fmix64(h ^ key)
        ring[r] = value
        if mi == r:  # the previous minimum just left the window: rescan right to left
            best = r
            j = w - 1 if r == 0 else r - 1
            while j != r:
                if ring[j] < ring[best]:
                    best = j
                j = w - 1 if j == 0 else j - 1
            mi = best
            out_hash[at + count] = ring[mi]
            if positions:
                out_pos[at + count] = i - (r - mi if r >= mi else r - mi + w)
            count += 1
        elif value < ring[mi] or (not robust and value == ring[mi]):
            mi = r
            out_hash[at + count] = value
            if positions:
                out_pos[at + count] = i
            count += 1
    return count


@jit()
def winnow_distinct(units, bounds, k, key, base, w, robust):  # type: ignore[no-untyped-def]
    """:func:`winnow_fused` on every document ``units[bounds[d]:bounds[d + 1]]``
    of a batch, keeping each document's *distinct* selected hashes, sorted.

    Returns the hashes of all documents one after the other and how many each
    has: one compiled call for a batch of thousands of short records, where a
    call per record costs more in Python than the hashing itself.  Each
    record's hashes are selected straight into the output
    (:func:`winnow_into`), then sorted and their repeats dropped in place:
    no array is made per record.
    """
    documents = bounds.shape[0] - 1
    out = np.empty(max(units.shape[0], 1), dtype=np.uint64)
    counts = np.zeros(max(documents, 0), dtype=np.int64)
    ring = np.empty(max(w, 1), dtype=np.uint64)
    no_positions = np.empty(0, dtype=np.int64)
    filled = 0
    for d in range(documents):
        lo = bounds[d]
        hi = bounds[d + 1]
        if hi - lo < k:
            continue
        selected = winnow_into(units[lo:hi], k, key, base, w, robust, ring, out,
                               no_positions, filled)
        mine = out[filled:filled + selected]
        mine.sort()
        n = 1
        for i in range(1, selected):
            if mine[i] != mine[n - 1]:
                mine[n] = mine[i]
                n += 1
        counts[d] = n
        filled += n
    return out[:filled].copy(), counts
