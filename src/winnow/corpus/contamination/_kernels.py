"""Compiled loops of the contamination scan (numba, nopython mode): the
extension of fingerprint hits into verified near-verbatim spans, and the
merging of spans found twice.  Typed wrapper:
:func:`winnow.corpus.contamination.spans.record_spans`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]

#: Spans of the current record checked for a hit they already hold.
RECENT = 64


@jit()
def _equal(items: U64, p: int, record: U64, q: int, n: int) -> bool:
    for i in range(n):  # noqa: SIM110 - a loop numba compiles (no generator)
        if items[p + i] != record[q + i]:
            return False
    return True


@jit()
def _resume_right(items: U64, hi: int, record: U64, p1: int, q1: int, gap: int,
                  resume: int) -> tuple[int, int]:
    """Where equal tokens start again after ``(p1, q1)``: skip ``a`` item and
    ``b`` record tokens (each at most ``gap``, fewest in all first), then
    ``resume`` equal tokens (fewer where the item ends sooner); ``(-1, -1)``: none."""
    nr = record.shape[0]
    for s in range(1, 2 * gap + 1):
        for a in range(max(0, s - gap), min(s, gap) + 1):
            b = s - a
            p, q = p1 + a, q1 + b
            need = min(resume, hi - p)
            if need >= 1 and q + need <= nr and _equal(items, p, record, q, need):
                return p, q
    return -1, -1


@jit()
def _resume_left(items: U64, lo: int, record: U64, p0: int, q0: int, gap: int,
                 resume: int) -> tuple[int, int]:
    """The mirror of :func:`_resume_right`: the end of equal tokens before ``(p0, q0)``."""
    for s in range(1, 2 * gap + 1):
        for a in range(max(0, s - gap), min(s, gap) + 1):
            b = s - a
            p, q = p0 - a, q0 - b
            need = min(resume, p - lo)
            if need >= 1 and q - need >= 0 and _equal(items, p - need, record, q - need, need):
                return p, q
    return -1, -1


@jit()
def extend_spans(items: U64, owner: I64, first: I64, last: I64, record: U64,
                 hp: I64, hq: I64, k: int, gap: int, resume: int, out: I64,
                 found: int) -> int:
    """Extend each hit ``(hp[i], hq[i])`` (item position, record position;
    sorted by ``hq``) to a span: the run of equal tokens around it (at least
    ``k``, else the hit was a hash collision and is dropped), continued on
    each side across gaps of at most ``gap`` tokens as long as
    ``resume`` equal tokens follow.  A hit inside a recent span (one of the
    rows of ``out`` before it, the first ``found`` given by the caller) is
    skipped.  Writes rows ``item, p0, p1, q0, q1, matched`` (``matched``: the
    equal tokens) after the first ``found``; returns the rows now in ``out``."""
    nr = record.shape[0]
    for i in range(hp.shape[0]):
        p, q = hp[i], hq[i]
        item = owner[p]
        seen = False
        for j in range(found - 1, max(-1, found - 1 - RECENT), -1):
            if (out[j, 0] == item and out[j, 1] <= p < out[j, 2]
                    and out[j, 3] <= q < out[j, 4]):
                seen = True
                break
        if seen:
            continue
        lo, hi = first[item], last[item]
        p0, q0 = p, q
        while p0 > lo and q0 > 0 and items[p0 - 1] == record[q0 - 1]:
            p0 -= 1
            q0 -= 1
        p1, q1 = p, q
        while p1 < hi and q1 < nr and items[p1] == record[q1]:
            p1 += 1
            q1 += 1
        if p1 - p0 < k:
            continue
        matched = p1 - p0
        while p1 < hi:
            a, b = _resume_right(items, hi, record, p1, q1, gap, resume)
            if a < 0:
                break
            p1, q1 = a, b
            while p1 < hi and q1 < nr and items[p1] == record[q1]:
                p1 += 1
                q1 += 1
                matched += 1
        while p0 > lo:
            a, b = _resume_left(items, lo, record, p0, q0, gap, resume)
            if a < 0:
                break
            p0, q0 = a, b
            while p0 > lo and q0 > 0 and items[p0 - 1] == record[q0 - 1]:
                p0 -= 1
                q0 -= 1
                matched += 1
        out[found, 0] = item
        out[found, 1] = p0
        out[found, 2] = p1
        out[found, 3] = q0
        out[found, 4] = q1
        out[found, 5] = matched
        found += 1
    return found


@jit()
def merge_spans(spans: I64, min_tokens: int, out: I64) -> int:
    """Merge spans (rows ``item, p0, p1, q0, q1, matched`` sorted by item, then
    ``p0``) that overlap in both the item and the record into their union
    (``matched``: the larger count, a lower bound), and write those with at
    least ``min_tokens`` equal tokens; returns their count."""
    n = spans.shape[0]
    kept = np.empty((n, 6), dtype=np.int64)
    made = 0
    start = 0
    for i in range(n):
        if made and kept[made - 1, 0] != spans[i, 0]:
            start = made
        merged = False
        for j in range(made - 1, max(start, made - RECENT) - 1, -1):
            if (spans[i, 1] < kept[j, 2] and kept[j, 1] < spans[i, 2]
                    and spans[i, 3] < kept[j, 4] and kept[j, 3] < spans[i, 4]):
                kept[j, 1] = min(kept[j, 1], spans[i, 1])
                kept[j, 2] = max(kept[j, 2], spans[i, 2])
                kept[j, 3] = min(kept[j, 3], spans[i, 3])
                kept[j, 4] = max(kept[j, 4], spans[i, 4])
                kept[j, 5] = max(kept[j, 5], spans[i, 5])
                merged = True
                break
        if not merged:
            kept[made, :] = spans[i, :]
            made += 1
    found = 0
    for j in range(made):
        if kept[j, 5] >= min_tokens:
            out[found, :] = kept[j, :]
            found += 1
    return found
