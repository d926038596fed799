"""De-duplication of a text corpus: near-duplicate and contained records, clustered.

:func:`find_duplicates` runs the pipeline: the inputs are cut into shards
(:mod:`winnow.corpus.readers`), every record is fingerprinted and the shared
fingerprints of each pair counted (the pair-counting stage,
:mod:`winnow.pairs`, on the records' postings, :mod:`winnow.corpus.pairs`),
and the linked pairs clustered (:mod:`winnow.corpus.clusters`).
:func:`read_back` then reads the inputs once more, in order: it names every
bad record, gives one :class:`DuplicateRow` per clustered record, and hands
each slot's fate (kept or not) to an optional sink that writes the
de-duplicated corpus.  No step holds the corpus's texts in memory.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.corpus.clusters import (
    Clusters,
    LinkFilter,
    Thresholds,
    cluster_pairs,
    gather_candidates,
    identical_sets,
)
from winnow.corpus.fingerprints import ShardJob
from winnow.corpus.options import DedupSettings
from winnow.corpus.pairs import KEPT_ROW_BYTES, CorpusPostings, in_records
from winnow.corpus.readers import (
    COMPRESSED,
    BadRecord,
    Record,
    Shard,
    plan_shards,
    read_shard,
    record_ids,
)
from winnow.corpus.words import resemblances, word_pair_sets
from winnow.errors import InputError
from winnow.pairs import EngineChoice, count_pairs
from winnow.parallel import Progress, release_memory


@dataclass(frozen=True)
class DuplicateRow:
    """One record of a cluster.  ``similarity``/``containment``: resemblance and
    containment of the record's strongest linked pair, whose other record is
    ``match``; ``kept``: the record is its cluster's representative."""

    id: str
    cluster: int
    representative: str
    kept: bool
    similarity: float
    containment: float
    match: str
    fingerprints: int
    source: str
    line: int


@dataclass
class DedupRun:
    """A finished run: the shards read, the clusters, the inputs that could
    not be opened, and the engine that counted the pairs."""

    settings: DedupSettings
    shards: list[Shard]
    clusters: Clusters
    engine: str
    problems: list[InputError] = field(default_factory=list)
    records: int = 0  #: records (usable or bad) found by :func:`read_back`: blank lines are none
    #: candidate pairs whose word pairs were compared (``measure="words"``)
    candidates: int = 0

    @property
    def slots(self) -> int:
        return sum(s.count for s in self.shards)


def estimated_rows(shards: Sequence[Shard], config: WinnowConfig) -> int:
    """Fingerprint rows the shards will give, about: one per ``(w + 1) / 2``
    bytes of input (winnowing's density, section 3), a compressed file
    counted as four times its size."""
    size = 0
    for path in {s.path for s in shards}:
        name = path.lower()
        if os.path.isdir(path):
            size += sum(os.path.getsize(os.path.join(path, f))
                        for s in shards if s.path == path for f in s.files)
        else:
            size += os.path.getsize(path) * (4 if name.endswith(COMPRESSED) else 1)
    return size * 2 // (config.w + 1)


def engine_choice(settings: DedupSettings) -> EngineChoice:
    """The pair-counting engine the settings name (``auto``: the stage's
    rule, :meth:`winnow.pairs.EngineChoice.resolve`, on :func:`estimated_rows`
    of :data:`~winnow.corpus.pairs.KEPT_ROW_BYTES` each)."""
    return EngineChoice(settings.engine, settings.workdir, settings.partitions,
                        settings.ray_address, settings.jobs or None)


def find_duplicates(paths: Sequence[str], settings: DedupSettings, *,
                    progress: Progress | None = None) -> DedupRun:
    """Cluster the near-duplicate and contained records of the inputs at ``paths``
    (JSON Lines files, plain or compressed; Parquet files; folders of text files)."""
    shards, problems = plan_input(paths, settings)
    jobs = [ShardJob(s, settings.fields, settings.config) for s in shards]
    records = sum(s.count for s in shards)
    settings = settings.for_records(records)  # -m as a count of records
    thresholds = Thresholds(settings.similarity, settings.containment,
                            settings.min_fingerprints,
                            settings.candidate_similarity if settings.measure == "words"
                            else None)
    postings = CorpusPostings(jobs, records, estimated_rows(shards, settings.config),
                              settings.jobs, LinkFilter(thresholds))
    choice = engine_choice(settings)
    candidates = 0
    with terminate_unwinds():
        with count_pairs(postings, settings.cap, choice,
                         None if progress is None else in_records(progress, records)) as pairs:
            if progress is not None:
                progress("clustering", 0, 1)
            sizes = _sizes(pairs.sizes, records)
            identical = identical_sets(pairs.digests, sizes)
            if thresholds.candidate is None:
                clusters = cluster_pairs(pairs, sizes, thresholds, identical)
            else:
                found = gather_candidates(pairs, sizes, thresholds)
        del pairs
        if thresholds.candidate is not None:  # the pair sums freed: the candidates'
            release_memory()  # word pairs, their records read once more
            candidates = int(found[0].shape[0])
            sets = word_pair_sets(jobs, np.concatenate(found[:2]), settings.jobs)
            clusters = cluster_pairs([found], sizes, thresholds, identical,
                                     partial(resemblances, sets))
        if progress is not None:
            progress("clustering", 1, 1)
    return DedupRun(settings, shards, clusters,
                    choice.resolve(postings.rows, postings.row_bytes), problems,
                    candidates=candidates)


def plan_input(paths: Sequence[str], settings: DedupSettings
               ) -> tuple[list[Shard], list[InputError]]:
    """The shards of the inputs, with the digests of their content only where
    a sharded engine counts the pairs (its working folder is tied to them):
    the in-memory engine needs none, and computing them took a tenth of a
    100,000-record run."""
    choice = engine_choice(settings)
    if choice.engine != "in-memory" and (
            choice.engine != "auto" or any(os.path.isdir(p) for p in paths)
            or choice.resolve(_file_rows(paths, settings.config), KEPT_ROW_BYTES) != "in-memory"):
        return plan_shards(paths, settings.fields)
    shards, problems = plan_shards(paths, settings.fields, digests=False)
    if choice.resolve(estimated_rows(shards, settings.config), KEPT_ROW_BYTES) == "in-memory":
        return shards, problems
    return plan_shards(paths, settings.fields)  # auto chose a sharded engine


def _file_rows(paths: Sequence[str], config: WinnowConfig) -> int:
    """:func:`estimated_rows` of the input files, from their sizes alone."""
    size = 0
    for path in paths:
        with suppress(OSError):
            size += os.path.getsize(path) * (4 if path.lower().endswith(COMPRESSED) else 1)
    return size * 2 // (config.w + 1)


@contextmanager
def terminate_unwinds() -> Iterator[None]:
    """While the pairs are counted, SIGTERM ends the run as Ctrl-C does
    (``SystemExit(143)``, unwinding): the temporary working folder and its
    shards are removed.  Only from the main thread, and only when SIGTERM
    still has its default action."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _sizes(sizes: npt.ArrayLike, records: int) -> npt.NDArray[np.int64]:
    """Distinct fingerprints per record, one entry for every record."""
    given = np.asarray(sizes, dtype=np.int64)
    if given.shape[0] == records:
        return given
    out = np.zeros(records, dtype=np.int64)
    out[:given.shape[0]] = given[:records]
    return out


#: ``sink(shard, item, kept)``: one slot's record (or bad record) and whether
#: the de-duplicated corpus keeps it.
Sink = Callable[[Shard, Record | BadRecord, bool], None]


def read_back(run: DedupRun, *, on_bad: Callable[[BadRecord], None] | None = None,
              sink: Sink | None = None,
              progress: Callable[[int, int], None] | None = None) -> list[DuplicateRow]:
    """Read the inputs again: every clustered record's row (by cluster, the
    representative first, then input order), each bad record to ``on_bad``,
    every slot to ``sink``.  A bad record is never a duplicate: the corpus keeps it.
    ``progress(done, total)`` follows the slots read.  Without a sink no
    record is built: a line is parsed for its id alone
    (:func:`~winnow.corpus.readers.record_ids`)."""
    clusters = run.clusters
    names: dict[int, str] = {}
    found: list[tuple[int, str, int]] = []  # doc, path, line: never the texts
    run.records = 0
    if progress is not None:
        progress(0, run.slots)
    for shard in run.shards:
        slots = read_shard(shard, run.settings.fields) if sink is not None \
            else record_ids(shard, run.settings.fields)
        for item in slots:
            run.records += 1
            if progress is not None and run.records % 4096 == 0:
                progress(run.records, run.slots)
            if isinstance(item, BadRecord):
                if on_bad is not None:
                    on_bad(item)
                if sink is not None:
                    sink(shard, item, True)
                continue
            doc, ident, path, line = item if isinstance(item, tuple) \
                else (item.doc, item.id, item.path, item.line)
            if clusters.cluster[doc]:
                names[doc] = ident
                found.append((doc, path, line))
            if sink is not None and isinstance(item, Record):
                sink(shard, item, clusters.keeps(doc))
    if progress is not None:
        progress(run.slots, run.slots)
    rows = [_row(doc, path, line, clusters, names) for doc, path, line in found]
    rows.sort(key=lambda r: (r.cluster, not r.kept))
    return rows


def _row(doc: int, path: str, line: int, clusters: Clusters,
         names: dict[int, str]) -> DuplicateRow:
    rep = int(clusters.representative[doc])
    return DuplicateRow(names[doc], int(clusters.cluster[doc]), names[rep], rep == doc,
                        round(float(clusters.resemblance[doc]), 4),
                        round(float(clusters.containment[doc]), 4),
                        names[int(clusters.match[doc])], int(clusters.sizes[doc]),
                        os.fspath(path), line)


__all__ = ["DedupRun", "DuplicateRow", "Sink", "engine_choice", "estimated_rows",
           "find_duplicates", "plan_input", "read_back"]
