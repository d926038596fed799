"""Stage 4 of ``dedup --passages``: one shard's verified runs become passage rows.

A record's runs are of two kinds: those where the record holds the *later*
occurrence (a copy of an earlier passage, here or in an earlier record) and
those where it holds the *earlier* one.  The tokens covered by copies form
the removed stretches; the tokens covered only by earlier occurrences form
the kept first occurrences.  Each stretch becomes one row, in bytes of the
record's text: its first occurrence's record (the earliest partner of the
runs that cover it; the record itself for a first occurrence), and its
occurrences (the fewest places any of its seeds' fingerprints occur: the
passage's own occurrences unless every fingerprint of it also occurs
elsewhere).
"""

from __future__ import annotations

import glob
import os

import numpy as np
import numpy.typing as npt

from winnow.corpus import passage_store as store
from winnow.corpus.passage_stages import Plan

I64 = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


def stretches(mask: Bools) -> list[tuple[int, int]]:
    """The ``[start, end)`` runs of ``True`` in ``mask``."""
    if not mask.any():
        return []
    padded = np.concatenate([[False], mask, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[0::2].tolist(), edges[1::2].tolist(), strict=True))


def _rows_of(doc: int, runs: npt.NDArray[np.void], length: int, min_piece: int
             ) -> list[tuple[int, int, int, int, bool]]:
    """``(start, end, occurrences, first_doc, kept)`` in tokens, by start."""
    copies = runs[runs["copy"]]
    firsts = runs[~runs["copy"]]
    copied = np.zeros(length, dtype=np.bool_)
    for start, end in zip(copies["start"].tolist(), copies["end"].tolist(), strict=True):
        copied[start:end] = True
    original = np.zeros(length, dtype=np.bool_)
    for start, end in zip(firsts["start"].tolist(), firsts["end"].tolist(), strict=True):
        original[start:end] = True
    original &= ~copied
    rows = []
    for mask, group, kept in ((copied, copies, False), (original, firsts, True)):
        for start, end in stretches(mask):
            if kept and end - start < min_piece:
                continue  # what is left of a first occurrence beside a copy
            inside = group[(group["start"] < end) & (group["end"] > start)]
            occurrences = int(inside["size"].max())
            if kept:
                first = doc
            else:
                order = np.lexsort((inside["other_start"], inside["other"]))
                first = int(inside["other"][order[0]])
            rows.append((start, end, occurrences, first, kept))
    rows.sort()
    return rows


def spans_shard(job: tuple[Plan, int]) -> tuple[int, int]:
    """Stage 4 on one shard: its passage rows (``spans/sNNNNNN.npy``).
    Returns the rows and the bytes ``--keep first`` removes."""
    plan, index = job
    files = sorted(glob.glob(os.path.join(plan.workdir, "runs", store.shard_name(index),
                                          "*.npy")))
    runs = (np.concatenate([np.load(f) for f in files]) if files
            else np.zeros(0, store.RUN_DTYPE))
    runs = runs[np.argsort(runs["doc"], kind="stable")]
    tokens = store.open_tokens(plan.tokens(index))
    out: list[tuple[int, int, int, int, int, bool]] = []
    removed = 0
    docs, cuts = np.unique(runs["doc"], return_index=True)
    bounds = np.append(cuts, runs.shape[0])
    for i, doc in enumerate(docs.tolist()):
        lo, hi = tokens.ranges(np.array([doc], dtype=np.int64))
        base = int(lo[0])
        for start, end, occurrences, first, kept in _rows_of(
                doc, runs[bounds[i]:bounds[i + 1]], int(hi[0]) - base, plan.config.k):
            b0, b1 = int(tokens.bstart[base + start]), int(tokens.bend[base + end - 1])
            out.append((doc, b0, b1, occurrences, first, kept))
            removed += 0 if kept else b1 - b0
    spans = np.array(out, dtype=store.SPAN_DTYPE)
    store.save(os.path.join(plan.workdir, "spans", f"{store.shard_name(index)}.npy"), spans)
    return len(out), removed


__all__ = ["spans_shard", "stretches"]
