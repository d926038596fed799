"""The four stages of ``dedup --passages``, as picklable tasks over the working
folder (:mod:`winnow.corpus.passage_store`), so they run on worker processes.

1. **index** (one task per input shard): every record's words (the text
   front-end), stored as token streams; its winnowed fingerprints over word
   k-grams, ``(hash, doc, pos)``, written by hash partition.
2. **seeds** (one task per hash partition): a hash's occurrences are all in
   its partition; each occurrence is paired with every earlier one when the
   hash has at most :data:`ALL_PAIRS` occurrences, else with the
   :data:`FIRSTS` earliest (linear in the occurrences: no cap is needed,
   boilerplate repeated a million times is found too).
3. **extend** (one task per input shard, the later occurrence's): each seed's
   k-grams are compared token by token (ids and normalised characters, so a
   hash collision is dropped) and the match extended both ways, across
   mismatches of at most ``gap`` words when ``resume`` words then match
   (near-verbatim repeats joined); runs of at least ``min_tokens`` words on
   both sides are kept, written for both records' shards.
4. **spans** (one task per input shard): each record's runs become rows:
   the stretches that copy an earlier occurrence (removed by ``--keep first``)
   and the first occurrences (kept), in bytes of the record's text.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.corpus import _passage_kernels as kernels
from winnow.corpus import passage_store as store
from winnow.corpus.readers import BadRecord, Fields, Shard, read_shard
from winnow.engine import fingerprint

I64 = npt.NDArray[np.int64]

#: A fingerprint held by at most this many places pairs every two of them ...
ALL_PAIRS = 32
#: ... and beyond, each later occurrence is paired with this many of the
#: earliest ones (linear in the occurrences: boilerplate repeated a million
#: times costs a million seeds, each a copy of the first occurrences).
FIRSTS = 8


@dataclass(frozen=True)
class Plan:
    """What every task of a run knows: the folder, the shards' first record
    numbers, the parameters."""

    workdir: str
    firsts: tuple[int, ...]
    partitions: int
    fields: Fields
    config: WinnowConfig
    min_tokens: int
    gap: int
    resume: int

    def shard_of(self, docs: I64) -> I64:
        return np.searchsorted(np.array(self.firsts, dtype=np.int64), docs, side="right") - 1

    def tokens(self, shard: int) -> str:
        return os.path.join(self.workdir, "tokens", store.shard_name(shard))


@dataclass(frozen=True)
class IndexDone:
    """What a stage-1 task found: records, their text bytes, bad records."""

    records: int
    text_bytes: int
    rows: int
    bad: tuple[tuple[str, int, str], ...]


def index_shard(job: tuple[Plan, int, Shard]) -> IndexDone:
    """Stage 1 on one input shard."""
    plan, index, shard = job
    prints = []
    bad: list[tuple[str, int, str]] = []
    text_bytes = records = 0
    k = plan.config.k
    writer = store.TokenWriter(plan.tokens(index))
    for item in read_shard(shard, plan.fields):
        if isinstance(item, BadRecord):
            bad.append((item.path, item.line, item.reason))
            continue
        tokens = store.tokenize(item.text)
        text_bytes += len(item.text.encode("utf-8"))
        records += 1
        writer.add(item.doc, item.id, tokens)
        if tokens.ids.shape[0] >= k:
            found = fingerprint(tokens.ids, plan.config)
            rows = np.empty(found.shape[0], dtype=store.PRINT_DTYPE)
            rows["hash"], rows["doc"], rows["pos"] = found["hash"], item.doc, found["pos"]
            prints.append(rows)
    writer.close()
    every = np.concatenate(prints) if prints else np.zeros(0, store.PRINT_DTYPE)
    part = store.partition_of(every["hash"], plan.partitions)
    for p in np.unique(part).tolist():
        store.save(os.path.join(plan.workdir, "prints", store.part_name(p),
                                f"{store.shard_name(index)}.npy"), every[part == p])
    return IndexDone(records, text_bytes, int(every.shape[0]), tuple(bad))


#: Seeds a stage-2 task makes at once (40 bytes each): a partition whose
#: hashes make more is seeded in slices of whole hash groups.
SEED_SLICE = 1 << 20


def seed_partition(job: tuple[Plan, int]) -> int:
    """Stage 2 on one hash partition: the seeds, by the shard of their later
    occurrence, in slices of at most about :data:`SEED_SLICE`.  Returns the
    seeds written."""
    plan, p = job
    files = sorted(glob.glob(os.path.join(plan.workdir, "prints", store.part_name(p), "*.npy")))
    rows = np.concatenate([np.load(f) for f in files]) if files else np.zeros(
        0, store.PRINT_DTYPE)
    if rows.shape[0] < 2:
        return 0
    rows = rows[np.lexsort((rows["pos"], rows["doc"], rows["hash"]))]
    hashes = rows["hash"]
    starts = np.flatnonzero(np.concatenate([[True], hashes[1:] != hashes[:-1]]))
    sizes = np.diff(np.append(starts, hashes.shape[0]))
    wide = np.minimum(sizes, FIRSTS)
    made = np.where(sizes <= ALL_PAIRS, sizes * (sizes - 1) // 2,
                    wide * (wide - 1) // 2 + FIRSTS * (sizes - wide))
    slice_of = np.cumsum(made) // SEED_SLICE
    cuts = np.flatnonzero(np.diff(slice_of)) + 1
    written = 0
    for chunk, (g0, g1) in enumerate(zip(np.append(0, cuts).tolist(),
                                         np.append(cuts, starts.shape[0]).tolist(),
                                         strict=True)):
        hi = int(starts[g1]) if g1 < starts.shape[0] else rows.shape[0]
        seeds = _seeds(rows[int(starts[g0]):hi])
        owner = plan.shard_of(seeds["doc"])
        for s in np.unique(owner).tolist():
            store.save(os.path.join(plan.workdir, "seeds", store.shard_name(s),
                                    f"{store.part_name(p)}-{chunk:04d}.npy"), seeds[owner == s])
        written += int(seeds.shape[0])
    return written


def _seeds(rows: npt.NDArray[np.void]) -> npt.NDArray[np.void]:
    """The seeds of postings sorted by ``(hash, doc, pos)``, whole hash groups."""
    hashes = rows["hash"]
    starts = np.flatnonzero(np.concatenate([[True], hashes[1:] != hashes[:-1]]))
    sizes = np.diff(np.append(starts, hashes.shape[0]))
    group_start = np.repeat(starts, sizes)
    rank = np.arange(hashes.shape[0]) - group_start
    size = np.repeat(sizes, sizes)
    partners = np.where(size <= ALL_PAIRS, rank, np.minimum(rank, FIRSTS))
    later = np.repeat(np.arange(hashes.shape[0]), partners)
    offset = np.arange(later.shape[0]) - np.repeat(np.cumsum(partners) - partners, partners)
    earlier = group_start[later] + offset
    seeds = np.empty(later.shape[0], dtype=store.SEED_DTYPE)
    seeds["doc"], seeds["pos"] = rows["doc"][later], rows["pos"][later]
    seeds["first_doc"], seeds["first_pos"] = rows["doc"][earlier], rows["pos"][earlier]
    seeds["size"] = size[later]
    return seeds


def extend_shard(job: tuple[Plan, int]) -> int:
    """Stage 3 on the seeds of one shard's records, one seed file at a time:
    verified runs, written for both sides' shards.  Returns the runs kept."""
    plan, index = job
    files = sorted(glob.glob(os.path.join(plan.workdir, "seeds", store.shard_name(index),
                                          "*.npy")))
    if not files:
        return 0
    own = store.open_tokens(plan.tokens(index))
    runs = []
    for name in files:
        seeds = np.load(name)
        other_shard = plan.shard_of(seeds["first_doc"])
        for s in np.unique(other_shard).tolist():
            chosen = seeds[other_shard == s]
            chosen = chosen[np.lexsort((chosen["pos"], chosen["first_pos"] - chosen["pos"],
                                        chosen["first_doc"], chosen["doc"]))]
            other = own if s == index else store.open_tokens(plan.tokens(s))
            runs.append(np.unique(_extend(plan, own, other, chosen)))
        del seeds
    found = np.unique(np.concatenate(runs))  # the seeds of one passage find it once each
    both = np.concatenate([found, _mirror(found)])
    owner = plan.shard_of(both["doc"])
    for s in np.unique(owner).tolist():
        store.save(os.path.join(plan.workdir, "runs", store.shard_name(s),
                                f"{store.shard_name(index)}.npy"), both[owner == s])
    return int(found.shape[0])


def _extend(plan: Plan, own: store.ShardTokens, other: store.ShardTokens,
            seeds: npt.NDArray[np.void]) -> npt.NDArray[np.void]:
    """The runs of ``seeds`` (later occurrence in ``own``, earlier in ``other``)
    long enough on both sides, as the later side's rows."""
    lo_a, hi_a = own.ranges(seeds["doc"])
    lo_b, hi_b = other.ranges(seeds["first_doc"])
    result = np.zeros((seeds.shape[0], 5), dtype=np.int64)
    kernels.extend_seeds(own.ids, own.off, own.norm, lo_a, hi_a, lo_a + seeds["pos"],
                         other.ids, other.off, other.norm, lo_b, hi_b,
                         lo_b + seeds["first_pos"], plan.config.k, plan.gap, plan.resume,
                         seeds["doc"] == seeds["first_doc"], result)
    keep = ((result[:, 0] >= 0) & (result[:, 1] - result[:, 0] >= plan.min_tokens)
            & (result[:, 3] - result[:, 2] >= plan.min_tokens))
    result, seeds, lo_a, lo_b = result[keep], seeds[keep], lo_a[keep], lo_b[keep]
    runs = np.empty(result.shape[0], dtype=store.RUN_DTYPE)
    runs["doc"], runs["other"] = seeds["doc"], seeds["first_doc"]
    runs["start"], runs["end"] = result[:, 0] - lo_a, result[:, 1] - lo_a
    runs["other_start"] = result[:, 2] - lo_b
    runs["copy"] = True
    runs["matched"] = result[:, 4]
    runs["size"] = seeds["size"]
    runs["other_end"] = result[:, 3] - lo_b
    return runs


def _mirror(runs: npt.NDArray[np.void]) -> npt.NDArray[np.void]:
    """The earlier side of each run, as its own row (``copy`` false)."""
    out = runs.copy()
    out["doc"], out["other"] = runs["other"], runs["doc"]
    out["start"], out["end"] = runs["other_start"], runs["other_end"]
    out["other_start"], out["other_end"] = runs["start"], runs["end"]
    out["copy"] = False
    return out
