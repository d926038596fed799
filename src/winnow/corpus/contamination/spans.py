"""The evaluation items' index and the spans one corpus record shares with them.

:class:`ItemTable` holds every item's tokens end to end (``owner``: the item
of each token; ``first``/``last``: each item's ``[first, last)``) and the
hashes of *every* k-gram of every item, sorted, with their positions
(window 1: evaluation sets are small, a few bytes per token).  A corpus
record's tokens are winnowed with window ``w = t - k + 1``
(:func:`winnow.engine.fingerprint`, robust winnowing), so every run of at
least ``t`` tokens that a record shares with an item contains one of the
record's fingerprints, and that fingerprint is one of the item's k-grams:
every such run is found (winnowing paper, section 3), and runs of ``k`` to
``t - 1`` tokens are found when a fingerprint falls in them.

:func:`record_spans` looks the record's fingerprints up and extends each hit
over the two token streams to the exact extent of the equal run (hashes are
candidates only: every token of a span is compared), then on across small
edits: past at most ``gap`` differing tokens on each side, as long as
:data:`RESUME` equal tokens follow
(:func:`winnow.corpus.contamination._kernels.extend_spans`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.corpus.contamination._kernels import RECENT, extend_spans, merge_spans
from winnow.engine import fingerprint, kgram_hashes

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

#: Equal tokens that must follow a gap for a span to go on across it (fewer
#: where the item ends sooner): one common word after an edit is not enough.
RESUME = 3
#: Hits (item position, record position) expanded at a time: a record that
#: matches a repetitive item thousands of times is scanned in blocks, within
#: bounded memory (about 100 bytes a hit).
HIT_BLOCK = 1 << 20
#: Columns of a span row, as :func:`record_spans` returns them.
SPAN_COLUMNS = ("item", "p0", "p1", "q0", "q1", "matched")


@dataclass(frozen=True)
class ItemTable:
    """The items' tokens and k-gram index (see the module docstring).
    Positions ``p`` are indices into ``tokens``."""

    tokens: U64
    owner: I64
    first: I64
    last: I64
    keys: U64
    where: I64

    @property
    def items(self) -> int:
        return int(self.first.shape[0])


def item_table(items: Sequence[U64], config: WinnowConfig) -> ItemTable:
    """The table of the items' token ids, in order."""
    sizes = np.array([t.shape[0] for t in items], dtype=np.int64)
    last = np.cumsum(sizes)
    first = last - sizes
    tokens = (np.concatenate(items) if items else np.zeros(0, np.uint64)).astype(np.uint64)
    owner = np.repeat(np.arange(sizes.shape[0], dtype=np.int64), sizes)
    hashes: list[U64] = []
    where: list[I64] = []
    for start, ids in zip(first.tolist(), items, strict=True):
        if ids.shape[0] >= config.k:
            found = kgram_hashes(ids, config.k, seed=config.seed)
            hashes.append(found)
            where.append(np.arange(start, start + found.shape[0], dtype=np.int64))
    if not hashes:
        return ItemTable(tokens, owner, first, last, np.zeros(0, np.uint64),
                         np.zeros(0, np.int64))
    all_hashes, all_where = np.concatenate(hashes), np.concatenate(where)
    order = np.argsort(all_hashes, kind="stable")
    return ItemTable(tokens, owner, first, last, all_hashes[order], all_where[order])


def _matching(table: ItemTable, hashes: U64, positions: I64) -> tuple[I64, I64, I64]:
    """The record positions of the fingerprints found in the table, where each
    one's group of equal k-gram hashes starts in ``table.keys``, and its size."""
    empty = np.zeros(0, dtype=np.int64)
    if table.keys.shape[0] == 0:
        return empty, empty, empty
    lo = np.searchsorted(table.keys, hashes, side="left")
    equal = table.keys[np.minimum(lo, table.keys.shape[0] - 1)] == hashes
    if not equal.any():  # most records: one search, no match
        return empty, empty, empty
    hashes, lo = hashes[equal], lo[equal]
    counts = np.searchsorted(table.keys, hashes, side="right") - lo
    return positions[equal].astype(np.int64), lo.astype(np.int64), counts.astype(np.int64)


def _expand(table: ItemTable, positions: I64, lo: I64, counts: I64) -> tuple[I64, I64]:
    hq = np.repeat(positions, counts)
    starts = np.repeat(lo - np.cumsum(counts) + counts, counts)
    hp = table.where[starts + np.arange(hq.shape[0])]
    return hp, hq


def hits(table: ItemTable, hashes: U64, positions: I64) -> tuple[I64, I64]:
    """``(item position, record position)`` of every k-gram of the table equal
    to one of the record's fingerprints."""
    return _expand(table, *_matching(table, hashes, positions))


def record_spans(table: ItemTable, record: U64, config: WinnowConfig, gap: int,
                 min_tokens: int) -> I64:
    """The spans the record shares with the items, rows of :data:`SPAN_COLUMNS`
    (``p``: item positions, ``q``: record token indices; ``matched``: the
    equal tokens inside the span), in item order.  Hits are expanded
    :data:`HIT_BLOCK` at a time (fingerprints in record order, so the blocks
    keep the order the extension needs)."""
    width = len(SPAN_COLUMNS)
    none = np.zeros((0, width), dtype=np.int64)
    if record.shape[0] < config.k or table.keys.shape[0] == 0:
        return none
    prints = fingerprint(record, config)
    positions, lo, counts = _matching(table, prints["hash"], prints["pos"])
    parts: list[I64] = []
    recent = none
    ends = np.cumsum(counts)
    start = 0
    while start < positions.shape[0]:
        base = int(ends[start - 1]) if start else 0
        stop = max(start + 1, int(np.searchsorted(ends, base + HIT_BLOCK, side="right")))
        hp, hq = _expand(table, positions[start:stop], lo[start:stop], counts[start:stop])
        order = np.lexsort((hp, hq))
        out = np.empty((recent.shape[0] + hp.shape[0], width), dtype=np.int64)
        out[:recent.shape[0]] = recent
        n = int(extend_spans(table.tokens, table.owner, table.first, table.last, record,
                             hp[order], hq[order], config.k, gap, RESUME, out,
                             recent.shape[0]))
        parts.append(out[recent.shape[0]:n].copy())
        recent = out[max(0, n - RECENT):n].copy()
        start = stop
    spans = np.concatenate(parts) if parts else none
    if spans.shape[0] == 0:
        return none
    spans = spans[np.lexsort((spans[:, 3], spans[:, 1], spans[:, 0]))]
    m = int(merge_spans(spans, min_tokens, spans))
    return spans[:m]


__all__ = ["HIT_BLOCK", "RESUME", "SPAN_COLUMNS", "ItemTable", "hits", "item_table",
           "record_spans"]
