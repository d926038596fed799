"""Code many submissions share: what the ``-m`` cap would hide, shown instead.

A fingerprint held by at least :func:`many_threshold` submissions (a quarter
of the class, and at least 3), outside the starter code, is *shared by many*:
a solution posted on the web or produced by the same AI prompt, or starter
code nobody declared.  Such fingerprints are grouped by the set of
submissions holding them (one group: one piece of code those submissions
have in common), and each group of at least :data:`MIN_FINGERPRINTS` is
located in the first of its submissions: the longest stretch of the file
where its fingerprints lie at most ``k`` units apart.  The report lists
each, with how many submissions have it and which; ``--common-as-base``
turns them all into starter code.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from winnow.matching.batch import Batch
from winnow.matching.model import Issue, Region, SharedCode
from winnow.matching.prints import load_document, prints_with_lengths
from winnow.matching.table import FingerprintTable
from winnow.model import Document, Skipped, Span

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

#: Shared by many: in at least this share of the submissions ...
MANY_SHARE = 0.25
#: ... and at least this many.
MANY_FLOOR = 3
#: A group of fewer fingerprints is not listed (a chance match of a line).
MIN_FINGERPRINTS = 3
#: At most this many pieces are listed, the largest (submissions × fingerprints) first.
MAX_LISTED = 20


def many_threshold(n_submissions: int) -> int:
    """How many submissions must hold a fingerprint for it to be shared by many."""
    return max(MANY_FLOOR, math.ceil(MANY_SHARE * n_submissions))


def _groups(hashes: U64, owners: I64) -> list[tuple[tuple[int, ...], U64]]:
    """``(owners, hashes)`` per set of owners holding the same fingerprints,
    largest ``owners × fingerprints`` first; postings sorted by hash."""
    if hashes.shape[0] == 0:
        return []
    starts = np.flatnonzero(np.concatenate([[True], hashes[1:] != hashes[:-1]]))
    by_set: dict[tuple[int, ...], list[int]] = {}
    bounds = np.append(starts, hashes.shape[0]).tolist()
    for at, end in pairwise(bounds):
        by_set.setdefault(tuple(sorted(owners[at:end].tolist())), []).append(at)
    groups = [(key, hashes[np.array(rows)]) for key, rows in by_set.items()
              if len(rows) >= MIN_FINGERPRINTS]
    groups.sort(key=lambda g: (-len(g[0]) * g[1].shape[0], -len(g[0]), g[0]))
    return groups[:MAX_LISTED]


def _locate(doc: Document, hashes: U64, batch: Batch) -> tuple[Span, int] | None:
    """The longest stretch of ``doc`` holding ``hashes`` (their k-grams at most
    ``k`` units apart) and how many of them it holds."""
    config, literal = batch.config_of(doc.frontend)
    prints, lengths, _ = prints_with_lengths(doc, config, literal)
    hit = np.isin(prints["hash"], hashes)
    if not hit.any():
        return None
    pos = prints["pos"][hit].astype(np.int64)
    end = pos + lengths[hit]
    found = prints["hash"][hit]
    order = np.argsort(pos, kind="stable")
    pos, end, found = pos[order], np.maximum.accumulate(end[order]), found[order]
    breaks = np.flatnonzero(pos[1:] > end[:-1] + config.k) + 1
    first = np.concatenate([[0], breaks])
    last = np.concatenate([breaks, [pos.shape[0]]])
    sizes = [int(end[b - 1] - pos[a]) for a, b in zip(first.tolist(), last.tolist(), strict=True)]
    best = int(np.argmax(sizes))
    a, b = int(first[best]), int(last[best])
    return Span(int(pos[a]), int(end[b - 1])), int(np.unique(found[a:b]).shape[0])


def shared_code(
    batch: Batch, table: FingerprintTable, excluded: U64, names: Sequence[str],
) -> tuple[tuple[SharedCode, ...], dict[tuple[str, str], Document]]:
    """The pieces of code many submissions share, and the documents showing them."""
    listed: list[SharedCode] = []
    documents: dict[tuple[str, str], Document] = {}
    for owners, hashes in _groups(table.many_hashes, table.many_owners):
        holder = owners[0]
        for i in np.flatnonzero(batch.owner == holder).tolist():
            if batch.prints[i] is None:
                continue
            doc = load_document(batch.files[i])
            if isinstance(doc, Skipped):
                batch.issues.append(Issue(doc.path, f"{doc.reason} (on second read)"))
                continue
            found = _locate(doc, hashes, batch)
            if found is None:
                continue
            span, count = found
            byte_span = doc.stream.byte_span(span)
            region = Region(batch.files[i].path, span, byte_span, doc.lines_of(byte_span))
            documents[(names[holder], batch.files[i].path)] = doc
            ignored = bool(np.isin(hashes, excluded).any())
            listed.append(SharedCode(len(listed), tuple(names[o] for o in owners),
                                     region, count, ignored, batch.many_is_base))
            break
    return tuple(listed), documents
