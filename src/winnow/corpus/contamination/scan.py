"""The contamination scan: which evaluation items occur in a corpus, and how much of each.

:func:`scan` reads the items (JSON Lines, Parquet or folders of text files,
through :mod:`winnow.corpus.readers`), indexes their tokens in memory
(:func:`~winnow.corpus.contamination.spans.item_table`), streams the corpus
one shard at a time on worker processes (:mod:`winnow.parallel`), each
record tokenised, winnowed and its spans shared with the items found and
verified (:func:`~winnow.corpus.contamination.spans.record_spans`), and
tallies per item: the longest span, the share of its tokens inside spans,
the records that hold any, and the first few locations.  Memory: the items'
table, one shard per worker, and per item its tally (no corpus text is kept).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.corpus.contamination.options import ContaminationSettings
from winnow.corpus.contamination.spans import ItemTable, item_table, record_spans
from winnow.corpus.contamination.tokens import tokens
from winnow.corpus.readers import BadRecord, Fields, Record, Shard, plan_shards, read_shard
from winnow.errors import InputError
from winnow.parallel import Mapper, Progress, make_pool, parallel_map

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]

#: Columns of the span rows a shard's scan returns.
FOUND_COLUMNS = ("item", "doc", "p0", "p1", "matched", "start", "end")


@dataclass(frozen=True)
class Location:
    """A span of an item in a corpus record: the record's name and the span's
    ``[start, end)`` in bytes of the record's text (UTF-8)."""

    id: str
    start: int
    end: int


@dataclass(frozen=True)
class ItemRow:
    """One evaluation item's findings: its ``tokens``, the ``longest`` span
    found (tokens of the item, edits inside the span included), ``coverage``
    (the share of its tokens inside spans), the corpus ``records`` that hold
    a span, and the first ``locations`` in corpus order."""

    id: str
    tokens: int
    longest: int
    coverage: float
    records: int
    locations: tuple[Location, ...]


@dataclass
class ContaminationRun:
    """A finished scan: one row per item (by coverage, then longest, then
    input order), the corpus records and text bytes read, the bad records
    (items and corpus) and the inputs that could not be opened."""

    settings: ContaminationSettings
    rows: list[ItemRow]
    records: int = 0
    text_bytes: int = 0
    bad: int = 0
    seconds: float = 0.0
    problems: list[InputError] = field(default_factory=list)

    @property
    def found(self) -> int:
        """Items with at least one span in the corpus."""
        return sum(1 for row in self.rows if row.records)


@dataclass(frozen=True)
class CorpusJob:
    """One shard of the corpus and what a worker needs to scan it."""

    shard: Shard
    fields: Fields
    table: ItemTable
    config: WinnowConfig
    gap: int
    min_tokens: int


@dataclass(frozen=True)
class ShardFindings:
    """What one shard gave: span rows (:data:`FOUND_COLUMNS`), the names of
    the records that hold them, its bad records, usable records and text bytes."""

    spans: I64
    names: dict[int, str]
    bad: list[BadRecord]
    records: int = 0
    text_bytes: int = 0


def scan_shard(job: CorpusJob) -> ShardFindings:
    """Every span the shard's records share with the items (a module-level
    function: it runs in worker processes)."""
    found: list[I64] = []
    names: dict[int, str] = {}
    bad: list[BadRecord] = []
    records = size = 0
    for record in read_shard(job.shard, job.fields):
        if isinstance(record, BadRecord):
            bad.append(BadRecord(record.doc, record.path, record.line, record.reason))
            continue
        utf8 = record.text.encode("utf-8")
        records += 1
        size += len(utf8)
        toks = tokens(utf8)
        spans = record_spans(job.table, toks.ids, job.config, job.gap, job.min_tokens)
        if spans.shape[0]:
            names[record.doc] = record.id
            rows = np.empty((spans.shape[0], len(FOUND_COLUMNS)), dtype=np.int64)
            rows[:, 0], rows[:, 1] = spans[:, 0], record.doc
            rows[:, 2], rows[:, 3], rows[:, 4] = spans[:, 1], spans[:, 2], spans[:, 5]
            rows[:, 5], rows[:, 6] = toks.starts[spans[:, 3]], toks.ends[spans[:, 4] - 1]
            found.append(rows)
    spans_all = (np.concatenate(found) if found
                 else np.zeros((0, len(FOUND_COLUMNS)), dtype=np.int64))
    return ShardFindings(spans_all, names, bad, records, size)


class _Tally:
    """Per item: the longest span, the coverage (a difference array over the
    items' tokens), the records, the first locations."""

    def __init__(self, table: ItemTable, locations: int) -> None:
        self.table = table
        self.longest = np.zeros(table.items, dtype=np.int64)
        self.records = np.zeros(table.items, dtype=np.int64)
        self.diff = np.zeros(table.tokens.shape[0] + 1, dtype=np.int64)
        self.locations: list[list[Location]] = [[] for _ in range(table.items)]
        self.limit = locations

    def add(self, found: ShardFindings) -> None:
        spans = found.spans
        if spans.shape[0] == 0:
            return
        item, doc, p0, p1 = spans[:, 0], spans[:, 1], spans[:, 2], spans[:, 3]
        np.maximum.at(self.longest, item, p1 - p0)
        np.add.at(self.diff, p0, 1)
        np.add.at(self.diff, p1, -1)
        pairs = np.unique(item * (int(doc.max()) + 1) + doc)
        np.add.at(self.records, pairs // (int(doc.max()) + 1), 1)
        if self.limit:
            for row in spans[np.lexsort((spans[:, 5], doc))].tolist():
                places = self.locations[row[0]]
                if len(places) < self.limit:
                    places.append(Location(found.names[row[1]], row[5], row[6]))

    def rows(self, names: Sequence[str]) -> list[ItemRow]:
        covered = np.concatenate([[0], np.cumsum(np.cumsum(self.diff)[:-1] > 0)])
        first, last = self.table.first, self.table.last
        inside = covered[last] - covered[first]
        sizes = last - first
        out = []
        for i, name in enumerate(names):
            share = float(inside[i]) / float(sizes[i]) if sizes[i] else 0.0
            out.append(ItemRow(name, int(sizes[i]), int(self.longest[i]), round(share, 4),
                               int(self.records[i]), tuple(self.locations[i])))
        order = sorted(range(len(out)), key=lambda i: (-out[i].coverage, -out[i].longest, i))
        return [out[i] for i in order]


def read_items(paths: Sequence[str], fields: Fields,
               on_bad: Callable[[BadRecord], None]) -> tuple[list[str], list[U64],
                                                             list[InputError]]:
    """The items' names and token ids, every bad item to ``on_bad``."""
    shards, problems = plan_shards(paths, fields)
    names: list[str] = []
    ids: list[U64] = []
    for shard in shards:
        for record in read_shard(shard, fields):
            if isinstance(record, Record):
                names.append(record.id)
                ids.append(tokens(record.text.encode("utf-8")).ids)
            else:
                on_bad(record)
    return names, ids, problems


def shard_bytes(shard: Shard, rows: dict[str, int]) -> int:
    """About how many bytes of its input a shard is (for progress): its byte
    range, a compressed file's size, a Parquet file's size shared by rows, a
    folder's files."""
    try:
        if shard.kind == "text":
            return sum(os.path.getsize(os.path.join(shard.path, f)) for f in shard.files)
        if shard.kind == "parquet":
            return os.path.getsize(shard.path) * shard.count // max(1, rows[shard.path])
        if shard.stop >= 0:
            return shard.stop - shard.start
        return os.path.getsize(shard.path)
    except OSError:
        return 0


def scan(eval_paths: Sequence[str], corpus_paths: Sequence[str],
         settings: ContaminationSettings | None = None, *,
         progress: Progress | None = None,
         on_bad: Callable[[BadRecord], None] | None = None,
         mapper: Mapper | None = None) -> ContaminationRun:
    """Scan the corpus at ``corpus_paths`` for the evaluation items at
    ``eval_paths`` (JSON Lines, plain or compressed; Parquet; folders of text
    files).  Bad items and records go to ``on_bad`` (items first, then the
    corpus in input order) and are counted; ``progress("corpus", bytes,
    total)`` follows the corpus's input bytes.  The shards are scanned on
    ``settings.jobs`` worker processes of this machine, or by ``mapper`` (a
    Ray cluster's tasks: every machine must read the corpus at its paths)."""
    chosen = settings or ContaminationSettings()
    started = time.perf_counter()
    bad: list[BadRecord] = []

    def note(record: BadRecord) -> None:
        bad.append(record)
        if on_bad is not None:
            on_bad(record)

    names, ids, problems = read_items(eval_paths, chosen.eval_fields, note)
    table = item_table(ids, chosen.config)
    shards, more = plan_shards(corpus_paths, chosen.corpus_fields)
    jobs = [CorpusJob(s, chosen.corpus_fields, table, chosen.config, chosen.gap,
                      chosen.min_tokens) for s in shards]
    run = ContaminationRun(chosen, [], problems=problems + more)
    tally = _Tally(table, chosen.locations)
    rows: dict[str, int] = {}
    for shard in shards:
        rows[shard.path] = rows.get(shard.path, 0) + shard.count
    sizes = [shard_bytes(s, rows) for s in shards]
    total, done = sum(sizes), 0
    ends = np.cumsum([0, *sizes]).tolist()

    def shards_done(stage: str, finished: int, _tasks: int) -> None:  # a mapper's progress
        if progress is not None:  # shards finish in any order: about this many bytes
            progress(stage, int(ends[finished]), total)

    pool = make_pool(chosen.jobs, len(jobs)) if mapper is None else None
    try:
        results = (mapper(scan_shard, jobs, "corpus", shards_done) if mapper is not None
                   else parallel_map(scan_shard, jobs, stage="corpus", progress=None,
                                     executor=pool, lost=_lost))
        for size, found in zip(sizes, results, strict=True):
            tally.add(found)
            for record in found.bad:
                note(record)
            run.records += found.records
            run.text_bytes += found.text_bytes
            done += size
            if progress is not None and mapper is None:
                progress("corpus", done, total)
    finally:
        if pool is not None:
            pool.shutdown()
    run.rows = tally.rows(names)
    run.bad = len(bad)
    run.seconds = time.perf_counter() - started
    return run


def _lost(job: CorpusJob, reason: str) -> ShardFindings:
    """A shard whose worker died even alone: named as one bad record."""
    where = BadRecord(job.shard.first, job.shard.path, job.shard.line, reason)
    return ShardFindings(np.zeros((0, len(FOUND_COLUMNS)), dtype=np.int64), {}, [where])


__all__ = ["FOUND_COLUMNS", "ContaminationRun", "CorpusJob", "ItemRow", "Location",
           "ShardFindings", "read_items", "scan", "scan_shard", "shard_bytes"]
