"""Compiled loops of ``dedup --passages``: seed extension over token streams
(numba, nopython mode); the typed wrapper is
:func:`winnow.corpus.passage_stages.extend_shard`.

A token stream is three arrays: ``ids`` (the text front-end's 32-bit word
ids), ``off`` (each token's start in ``norm``, one more entry than tokens)
and ``norm`` (the normalised characters, UTF-8).  Two tokens are equal when
their ids are equal *and* their normalised characters are: a collision of ids
never extends a passage.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
U8 = npt.NDArray[np.uint8]


@jit()
def same(ids_a: U32, off_a: I64, norm_a: U8, i: int,
         ids_b: U32, off_b: I64, norm_b: U8, j: int) -> bool:
    """Whether token ``i`` of stream a and token ``j`` of stream b are equal."""
    if ids_a[i] != ids_b[j]:
        return False
    la = off_a[i + 1] - off_a[i]
    if la != off_b[j + 1] - off_b[j]:
        return False
    sa, sb = off_a[i], off_b[j]
    x = 0
    while x < la and norm_a[sa + x] == norm_b[sb + x]:
        x += 1
    return bool(x == la)


@jit()
def _matches(ids_a: U32, off_a: I64, norm_a: U8, lo_a: int, hi_a: int, i: int,
             ids_b: U32, off_b: I64, norm_b: U8, lo_b: int, hi_b: int, j: int,
             n: int, step: int) -> bool:
    """Whether ``n`` tokens match from ``i`` and ``j`` going by ``step`` (+1/-1)
    inside ``[lo, hi)`` on each side."""
    for x in range(n):
        p, q = i + step * x, j + step * x
        if p < lo_a or p >= hi_a or q < lo_b or q >= hi_b:
            return False
        if not same(ids_a, off_a, norm_a, p, ids_b, off_b, norm_b, q):
            return False
    return True


@jit()
def _walk(ids_a: U32, off_a: I64, norm_a: U8, lo_a: int, hi_a: int, i: int,
          ids_b: U32, off_b: I64, norm_b: U8, lo_b: int, hi_b: int, j: int,
          step: int, gap: int, resume: int, out: I64) -> None:
    """Extend from ``(i, j)`` (the first tokens to compare) by ``step``:
    exact matches, and across a mismatch of at most ``gap`` tokens on each side
    when ``resume`` tokens then match.  ``out`` gets the last matched token
    on each side plus ``step`` (the run's bound) and the tokens matched."""
    matched = 0
    last_i, last_j = i, j
    while True:
        while (lo_a <= i < hi_a and lo_b <= j < hi_b
               and same(ids_a, off_a, norm_a, i, ids_b, off_b, norm_b, j)):
            i += step
            j += step
            matched += 1
        last_i, last_j = i, j
        jumped = False
        if gap > 0:
            for total in range(1, 2 * gap + 1):
                for da in range(max(0, total - gap), min(gap, total) + 1):
                    db = total - da
                    if _matches(ids_a, off_a, norm_a, lo_a, hi_a, i + step * da,
                                ids_b, off_b, norm_b, lo_b, hi_b, j + step * db,
                                resume, step):
                        i += step * da
                        j += step * db
                        jumped = True
                        break
                if jumped:
                    break
        if not jumped:
            break
    out[0] = last_i
    out[1] = last_j
    out[2] = matched


@jit()
def extend_seeds(ids_a: U32, off_a: I64, norm_a: U8, lo_a: I64, hi_a: I64, pa: I64,
                 ids_b: U32, off_b: I64, norm_b: U8, lo_b: I64, hi_b: I64, pb: I64,
                 k: int, gap: int, resume: int, same_record: npt.NDArray[np.bool_],
                 result: I64) -> None:
    """Extend every seed ``s``: the k-gram at token ``pa[s]`` of stream a (its
    record's tokens ``[lo_a[s], hi_a[s])``) against ``pb[s]`` of stream b.

    ``result[s]`` gets ``(start_a, end_a, start_b, end_b, matched)``, or
    ``-1`` in ``start_a`` when the seed's k-grams differ (a hash collision).
    Within one record (``same_record[s]``; b the earlier copy) the copies are
    clipped so that they do not overlap.
    """
    out = np.zeros(3, dtype=np.int64)
    for s in range(pa.shape[0]):
        a, b = pa[s], pb[s]
        if not _matches(ids_a, off_a, norm_a, lo_a[s], hi_a[s], a,
                        ids_b, off_b, norm_b, lo_b[s], hi_b[s], b, k, 1):
            result[s, 0] = -1
            continue
        _walk(ids_a, off_a, norm_a, lo_a[s], hi_a[s], a + k,
              ids_b, off_b, norm_b, lo_b[s], hi_b[s], b + k, 1, gap, resume, out)
        end_a, end_b, right = out[0], out[1], out[2]
        _walk(ids_a, off_a, norm_a, lo_a[s], hi_a[s], a - 1,
              ids_b, off_b, norm_b, lo_b[s], hi_b[s], b - 1, -1, gap, resume, out)
        start_a, start_b, left = out[0] + 1, out[1] + 1, out[2]
        if same_record[s] and end_b > start_a:  # overlapping copies of a periodic text
            end_b = start_a
        result[s, 0] = start_a
        result[s, 1] = end_a
        result[s, 2] = start_b
        result[s, 3] = end_b
        result[s, 4] = k + right + left
