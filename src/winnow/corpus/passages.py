"""Repeated passages of a text corpus (``winnow dedup --passages``).

Every passage of at least ``min_tokens`` words (as the text front-end counts
them) that occurs in more than one record, or twice in one, found through
winnowing and extended to its exact extent over the normalised words:

* **Candidates.**  Each record's words are hashed as k-grams of ``k`` words
  and winnowed with window ``w = t - k + 1`` (``t = min_tokens`` by default):
  winnowing's guarantee says that every run of at least ``t`` words two
  places share holds a fingerprint selected in both.  The fingerprints'
  ``(hash, record, position)`` postings go to hash partitions in the working
  folder; a hash's occurrences meet in its partition and are paired
  (seeds): every two of them when they are few, else each later one with
  the earliest ones.
* **Verification.**  Each seed is compared word by word, ids and normalised
  characters, and extended both ways; across a mismatch of at most ``gap``
  words on either side when ``resume`` words then match, so a repeat with a
  few edited words is one passage.  A run shorter than ``min_tokens`` on
  either side is dropped: nothing is trusted from hashes.
* **Rows.**  Each record's later occurrences (copies) and first occurrences
  become rows ``id, start, end, occurrences, first_id, kept`` (byte offsets
  into the record's text field, UTF-8).

The stages (:mod:`winnow.corpus.passage_stages`) are tasks over the working
folder on ``jobs`` worker processes or any other ``mapper`` (Ray); every
task's memory is bounded by its shard or partition, not by the corpus
(docs/dedup.md).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from winnow.config import DEFAULT_SEED, WinnowConfig
from winnow.corpus import passage_store as store
from winnow.corpus.passage_spans import spans_shard
from winnow.corpus.passage_stages import Plan, extend_shard, index_shard, seed_partition
from winnow.corpus.readers import BadRecord, Fields, Record, Shard, plan_shards, read_shard
from winnow.errors import InputError, InvalidConfig
from winnow.parallel import Mapper, Progress, make_pool, parallel_map

#: A passage is reported from this many words (Lee et al. 2022 remove
#: repeated substrings of 50 tokens and more).
DEFAULT_MIN_TOKENS = 50
#: Words per k-gram: 6-word sequences rarely recur by chance in prose, and an
#: edited repeat keeps many of them.
DEFAULT_PASSAGE_K = 6
#: A mismatch of at most this many words on each side is joined ...
DEFAULT_GAP = 3
#: ... when this many words match after it.
DEFAULT_RESUME = 4
#: Postings per hash partition when the partitions are chosen from the input
#: size (a seeds task holds about 40 bytes a posting).
PARTITION_ROWS = 1 << 20
#: Bytes of text per word, to estimate postings from the input's size.
BYTES_PER_WORD = 6


@dataclass(frozen=True)
class PassageSettings:
    """What a run does: ``min_tokens`` the shortest passage (words); ``k`` the
    words per k-gram, ``t`` the guarantee (default ``min_tokens``); ``gap``
    and ``resume`` the joining of edited repeats (``gap`` 0: exact repeats
    only); ``workdir`` the working folder (default: a temporary one, removed);
    ``partitions`` the hash partitions (default from the input size);
    ``jobs`` worker processes (0: every core)."""

    fields: Fields = field(default_factory=Fields)
    min_tokens: int = DEFAULT_MIN_TOKENS
    k: int = DEFAULT_PASSAGE_K
    t: int | None = None
    gap: int = DEFAULT_GAP
    resume: int = DEFAULT_RESUME
    seed: int = DEFAULT_SEED
    workdir: str | None = None
    partitions: int | None = None
    jobs: int = 0

    def __post_init__(self) -> None:
        problems = []
        for name, low in (("min_tokens", 1), ("k", 1), ("gap", 0), ("resume", 1),
                          ("jobs", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or value < low:
                problems.append(f"{name} must be an integer >= {low}, got {value!r}")
        if self.partitions is not None and not 1 <= self.partitions <= 4096:
            problems.append(f"partitions must be in 1..4096, got {self.partitions!r}")
        if not problems and self.k > self.min_tokens:
            problems.append(f"k ({self.k} words) must be at most min_tokens ({self.min_tokens})")
        if not problems and self.t is not None and not self.k <= self.t <= self.min_tokens:
            problems.append(f"t must be in k..min_tokens ({self.k}..{self.min_tokens}), "
                            f"got {self.t}")
        if problems:
            raise InvalidConfig(problems)

    @property
    def config(self) -> WinnowConfig:
        """Robust winnowing of ``k``-word k-grams, guarantee ``t`` words."""
        return WinnowConfig(self.k, self.t or self.min_tokens, "robust", self.seed)


@dataclass(frozen=True)
class PassageRow:
    """One stretch of a record: a repeat (``kept`` false: it copies a passage
    first found in ``first_id``) or a first occurrence (``kept``)."""

    id: str
    start: int
    end: int
    occurrences: int
    first_id: str
    kept: bool


@dataclass
class PassageRun:
    """A finished run: its shards, its working folder and what it counted."""

    settings: PassageSettings
    plan: Plan
    shards: list[Shard]
    problems: list[InputError]
    bad: list[BadRecord]
    records: int = 0
    text_bytes: int = 0
    rows: int = 0
    removed_bytes: int = 0

    def rows_of_shard(self, index: int) -> np.ndarray:
        return store.load(os.path.join(self.plan.workdir, "spans",
                                       f"{store.shard_name(index)}.npy"), store.SPAN_DTYPE)

    def name(self, doc: int) -> str:
        shard = int(self.plan.shard_of(np.array([doc], dtype=np.int64))[0])
        folder = self.plan.tokens(shard)
        return store.shard_names(folder)[_tokens(folder).record(doc)]

    def passages(self) -> Iterator[PassageRow]:
        """Every row, by input order of records, then start."""
        for index in range(len(self.shards)):
            folder = self.plan.tokens(index)
            names = store.shard_names(folder)
            tokens = _tokens(folder)
            for doc, start, end, occurrences, first, kept in self.rows_of_shard(index).tolist():
                yield PassageRow(names[tokens.record(doc)], start, end, occurrences,
                                 self.name(first), bool(kept))


@lru_cache(maxsize=64)
def _tokens(folder: str) -> store.ShardTokens:
    return store.open_tokens(folder)


def _partitions(paths: list[str], settings: PassageSettings) -> int:
    if settings.partitions is not None:
        return settings.partitions
    size = sum(os.path.getsize(p) for p in paths if os.path.isfile(p))
    w = settings.config.t - settings.k + 1
    rows = size // BYTES_PER_WORD * 2 // (w + 1)
    return max(1, min(4096, -(-rows // PARTITION_ROWS)))


@contextmanager
def find_passages(paths: list[str], settings: PassageSettings,
                  progress: Progress | None = None,
                  mapper: Mapper | None = None) -> Iterator[PassageRun]:
    """Find the repeated passages of the records of ``paths``; the run's rows
    are read inside the ``with`` block (a temporary working folder goes at
    its end).  ``progress(stage, done, total)`` follows the stages
    ``records`` (records indexed), ``seeds``, ``extend`` and ``spans``; the
    tasks run through ``mapper`` (default: ``settings.jobs`` processes here)."""
    shards, problems = plan_shards(paths, settings.fields)
    temporary = None if settings.workdir else tempfile.mkdtemp(prefix="winnow-passages-")
    workdir = os.path.abspath(settings.workdir or temporary or "")
    plan = Plan(workdir, tuple(s.first for s in shards), _partitions(paths, settings),
                settings.fields, settings.config, settings.min_tokens, settings.gap,
                settings.resume)
    try:
        run = PassageRun(settings, plan, shards, problems, [])
        _run_stages(run, progress, mapper or _local(settings.jobs))
        yield run
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)


# A mapper (winnow.parallel.Mapper) runs the stages' tasks elsewhere: they talk
# only through the working folder, which every worker must see.


def _local(jobs: int) -> Mapper:
    """The tasks on ``jobs`` worker processes of this machine (0: every core)."""
    def mapper(func: Callable[[Any], Any], items: list[Any], stage: str,
               progress: Progress | None) -> list[Any]:
        pool = make_pool(jobs, len(items))
        try:
            return list(parallel_map(func, items, stage=stage, progress=progress,
                                     executor=pool))
        finally:
            if pool is not None:
                pool.shutdown()
    return mapper


def _run_stages(run: PassageRun, progress: Progress | None, mapper: Mapper) -> None:
    plan, shards = run.plan, run.shards
    total = sum(s.count for s in shards)
    ends = np.cumsum([s.count for s in shards])

    def records(stage: str, done: int, tasks: int) -> None:  # shards done, told as records
        if progress is not None and done:
            progress("records", int(ends[done - 1]) if done <= len(ends) else total, total)

    indexed = mapper(index_shard, [(plan, i, s) for i, s in enumerate(shards)], "records",
                     records)
    for found in indexed:
        run.records += found.records
        run.text_bytes += found.text_bytes
        run.bad += [BadRecord(-1, path, line, reason) for path, line, reason in found.bad]
    mapper(seed_partition, [(plan, p) for p in range(plan.partitions)], "seeds", progress)
    shard_jobs = [(plan, i) for i in range(len(shards))]
    mapper(extend_shard, shard_jobs, "extend", progress)
    for rows, removed in mapper(spans_shard, shard_jobs, "spans", progress):
        run.rows += rows
        run.removed_bytes += removed


#: ``sink(shard, item, text)``: one slot's record (or bad record) and its text
#: with every repeat cut (``None``: unchanged; ``""``: nothing left).
Sink = Callable[[Shard, Record | BadRecord, str | None], None]


def keep_first(run: PassageRun, sink: Sink) -> int:
    """Read the inputs again and hand every slot to ``sink`` with its repeats
    cut (first occurrences kept).  Returns the records left empty."""
    emptied = 0
    for index, shard in enumerate(run.shards):
        spans = run.rows_of_shard(index)
        spans = spans[~spans["kept"]]
        docs = spans["doc"]
        for item in read_shard(shard, run.settings.fields):
            if isinstance(item, BadRecord):
                sink(shard, item, None)
                continue
            lo, hi = np.searchsorted(docs, item.doc), np.searchsorted(docs, item.doc, "right")
            if lo == hi:
                sink(shard, item, None)
                continue
            text = cut(item.text, spans["start"][lo:hi].tolist(), spans["end"][lo:hi].tolist())
            emptied += not text.strip()
            sink(shard, item, text if text.strip() else "")
    return emptied


def cut(text: str, starts: list[int], ends: list[int]) -> str:
    """``text`` less the byte ranges ``[starts[i], ends[i])`` of its UTF-8."""
    data = text.encode("utf-8")
    pieces, at = [], 0
    for start, end in sorted(zip(starts, ends, strict=True)):
        pieces.append(data[at:max(at, start)])
        at = max(at, end)
    pieces.append(data[at:])
    return b"".join(pieces).decode("utf-8")


__all__ = ["DEFAULT_MIN_TOKENS", "Mapper", "PassageRow", "PassageRun", "PassageSettings", "Sink",
           "cut", "find_passages", "keep_first"]
