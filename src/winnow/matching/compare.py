"""``compare``: all-against-all comparison of submissions, MOSS's job.

The two passes of the winnowing paper, section 5.2 (Schleimer, Wilkerson,
Aiken 2003):

1. fingerprint every file (in parallel), set base code apart, drop fingerprints in
   more than ``-m`` submissions, and count shared fingerprints per pair of
   submissions by sorting — never enumerating all pairs
   (:mod:`winnow.matching.batch`, :mod:`winnow.matching.table`,
   :mod:`winnow.pairs.counting`);
2. rank the pairs, and only for the best reported ones build passages, mapped to
   bytes and lines of the originals (:mod:`winnow.matching.passages`).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import replace
from functools import partial

import numpy as np

from winnow.config import WinnowConfig
from winnow.matching.batch import DOCUMENT_BUDGET, Batch, Run, count_table, literal_config
from winnow.matching.clusters import connected_clusters
from winnow.matching.common import many_threshold, shared_code
from winnow.matching.head import (
    TASKS_PER_WORKER,
    Found,
    Passages,
    Settings,
    Task,
    TaskResult,
    in_order,
    load_kernels,
    lost_task,
    run_task,
    tasks,
)
from winnow.matching.model import (
    HISTOGRAM_BINS,
    ComparisonResult,
    FileKey,
    Issue,
    PairResult,
)
from winnow.matching.options import CompareOptions, default_configs
from winnow.matching.pairs import PairList, pair_result
from winnow.matching.prints import FileLike, SubmissionLike, load_document
from winnow.matching.scores import PairScores, pair_scores, rank
from winnow.matching.table import FingerprintTable
from winnow.matching.warm import preloading, warming
from winnow.model import Document, Skipped
from winnow.pairs import EngineChoice
from winnow.pairs.counting import resolve_cap
from winnow.parallel import (
    Progress,
    WorkerPool,
    holding_freed_memory,
    make_pool,
    parallel_map,
    release_memory,
    usable_cores,
)

__all__ = ["DOCUMENT_BUDGET", "compare", "literal_config"]


def compare(
    submissions: Sequence[SubmissionLike],
    config: WinnowConfig | None = None,
    options: CompareOptions | None = None,
    *,
    base: Sequence[SubmissionLike] = (),
    jobs: int = 1,
    progress: Progress | None = None,
    executor: Executor | None = None,
    frontend_configs: Mapping[str, WinnowConfig] | None = None,
    engine: EngineChoice | None = None,
) -> ComparisonResult:
    """Compare every submission with every other and rank the pairs.

    ``submissions`` (role ``new`` or ``archive``; archives are never paired
    with each other) and ``base`` (starter code, ignored everywhere) are
    shaped like :class:`winnow.sources.submissions.SubmissionSource`, e.g.
    from :func:`winnow.sources.submissions.load_submissions`.  ``jobs``
    processes fingerprint and read the files (``0`` = all cores; forked on
    Linux, see :func:`winnow.parallel.make_pool`), or ``executor``;
    ``progress(stage, done, total)`` follows the work.  ``frontend_configs``
    gives the files of a front-end their own engine settings; the others
    use ``config``.  Without ``config``, every front-end gets its own
    defaults and ``config`` is the main front-end's, exactly as ``winnow
    compare`` without ``-k``/``-t`` (:func:`~winnow.matching.options.default_configs`);
    without ``options``, ``CompareOptions()``, the CLI's defaults too.  Bad
    input never raises: it is listed in the result's ``issues``.  ``engine``
    counts the pairs (:mod:`winnow.pairs`; default: in memory, ``auto`` and
    the sharded engines for large batches).
    """
    if config is None:
        config, defaults = default_configs(submissions)
        frontend_configs = defaults if frontend_configs is None else frontend_configs
    options = options or CompareOptions()
    batch = Batch(submissions, base)
    batch.set_configs(config, options, frontend_configs or {})
    run = Run(progress, executor) if executor is not None else Run(
        progress, make_pool(jobs, len(batch.files)), jobs)
    cores = usable_cores() if executor is None and jobs != 1 else 1
    try:
        with warming(cores):  # a first run: the table's kernels compile beside
            result = _compare(batch, config, options, run, engine or EngineChoice("in-memory"),
                              cores)
    finally:
        run.close()
    del batch  # the free heap the comparison leaves goes back before the report is written
    release_memory()
    return result


def _compare(
    batch: Batch, config: WinnowConfig, options: CompareOptions, run: Run,
    engine: EngineChoice, cores: int = 1,
) -> ComparisonResult:
    with preloading(cores) as start:  # the later stages' kernels, loaded while it waits
        batch.fingerprint(options, run, started=start)
    run.fresh_pool(0)  # the workers' grown heaps go; passages fork new ones if needed
    names = [s.name for s in batch.subs]
    cap = resolve_cap(options.max_occurrences, len(names))
    batch.many, batch.many_is_base = many_threshold(len(names)), options.common_as_base
    with holding_freed_memory():  # the table's sorting space, given back: the workers fork next
        table = count_table(batch, cap, engine, run.progress)
    if options.common_as_base:  # passages leave it out as they leave the base out
        batch.base = np.union1d(batch.base, table.many_hashes).astype(np.uint64)
    common, common_documents = shared_code(batch, table, table.excluded, names)
    scores = pair_scores(table.counts, table.sizes, table.weight_totals, len(names))
    gap = config.k if options.merge_gap is None else options.merge_gap
    pairs: Sequence[PairResult]
    estimate = scores.estimate
    if options.similarity == "coverage":
        pairs, documents = _rank_by_coverage(batch, table, scores, config, options, gap, run)
    else:
        ranking = scores.by_name(options.similarity)
        pairs, documents = _report_pairs(
            batch, table, scores, ranking, partial(
                rank, ranking, scores.shared, names, scores.a, scores.b,
                min_similarity=options.min_similarity, floor=estimate),
            config, options, gap, run)
    return ComparisonResult(
        submissions=batch.submissions(table),
        pairs=pairs,
        clusters=connected_clusters(names, scores.a, scores.b, estimate,
                                    options.cluster_threshold),
        config=config.as_dict(),
        parameters={**options.as_dict(),
                    "max_occurrences_resolved": cap,
                    "shared_by_many": batch.many,
                    "merge_gap_resolved": gap,
                    "frontend_params": {fe: {"k": c.k, "t": c.t}
                                        for fe, c in sorted(batch.used().items())}},
        issues=tuple(batch.issues),
        documents={**common_documents, **documents},
        shared_code=common,
        stats={**table.stats, "pairs_reported": len(pairs)},
        histogram=similarity_histogram(estimate),
    )


def similarity_histogram(similarity: np.ndarray) -> tuple[int, ...]:
    """Counts of ``similarity`` in :data:`HISTOGRAM_BINS` equal bins over ``[0, 1]``."""
    index = np.clip((similarity * HISTOGRAM_BINS).astype(np.int64), 0, HISTOGRAM_BINS - 1)
    return tuple(np.bincount(index, minlength=HISTOGRAM_BINS).tolist())


def _report_pairs(
    batch: Batch, table: FingerprintTable, scores: PairScores, score: np.ndarray,
    ranking: Callable[..., np.ndarray], config: WinnowConfig, options: CompareOptions,
    gap: int, run: Run,
) -> tuple[PairList, dict[FileKey, Document]]:
    """The reported pairs (``ranking(top=n)``: the best ``n`` by ``score``, 0 = all), with
    passages when asked (for the best ``options.passages_top`` of them), and
    the documents they show.  The passages of those first pairs are computed
    by the workers that read their files again, while this process ranks
    the others (:mod:`winnow.matching.head`)."""
    names = [s.name for s in batch.subs]
    limit = _passages_limit(options)
    head = ranking(top=limit) if options.passages else np.zeros(0, dtype=np.int64)
    ks = [c.k for c in batch.used().values()] or [config.k]
    shortest = min(ks) if options.literal_k == 0 else min(*ks, options.literal_k)
    pairs = list(zip(scores.a[head].tolist(), scores.b[head].tolist(), strict=True))
    heading = _Head(batch, pairs, Settings(batch.configs, batch.default, batch.base,
                                           table.excluded, shortest, gap), run)
    ranked = head if options.passages and limit == options.top else ranking(top=options.top)
    found, read = heading.results()
    documents: dict[FileKey, Document] = {}
    for file_id in sorted(read):  # in file order, as the batch lists them
        doc = read[file_id]
        if isinstance(doc, Skipped):
            batch.issues.append(Issue(doc.path, f"{doc.reason} (on second read)"))
        else:
            documents[(names[int(batch.owner[file_id])], batch.files[file_id].path)] = doc
    units = batch.units()
    computed = [pair_result(scores, float(score[i]), i, names, units, passages, literal)
                for i, (passages, literal) in zip(head.tolist(), found, strict=True)]
    return PairList(scores, score, ranked, names, units, computed), documents


def _passages_limit(options: CompareOptions) -> int:
    """How many of the best pairs get passages (``0`` = every reported pair)."""
    if options.passages_top == 0:
        return options.top
    return options.passages_top if options.top == 0 else min(options.passages_top, options.top)


def _rank_by_coverage(
    batch: Batch, table: FingerprintTable, scores: PairScores, config: WinnowConfig,
    options: CompareOptions, gap: int, run: Run,
) -> tuple[list[PairResult], dict[FileKey, Document]]:
    """``--similarity coverage``: passages for *every* pair that shares a
    fingerprint, then order by the share of both submissions' units they cover,
    ``(covered_a + covered_b) / (units_a + units_b)`` (Dolos's similarity),
    each pair's ``score``."""
    names = [s.name for s in batch.subs]
    every = rank(scores.dice, scores.shared, names, scores.a, scores.b, top=0,
                 min_similarity=0.0)
    forced = replace(options, passages=True, passages_top=0, top=0)
    pairs, documents = _report_pairs(batch, table, scores, scores.dice,
                                     lambda top: every, config, forced, gap, run)
    units = batch.units().astype(np.float64)
    similarity = np.zeros(scores.a.shape[0], dtype=np.float64)
    for i, pair in zip(every.tolist(), pairs, strict=True):
        a, b = int(scores.a[i]), int(scores.b[i])
        covered = (pair.coverage_a or 0.0) * units[a] + (pair.coverage_b or 0.0) * units[b]
        similarity[i] = covered / (units[a] + units[b]) if units[a] + units[b] else 0.0
    ranked = rank(similarity, scores.shared, names, scores.a, scores.b, top=options.top,
                  min_similarity=options.min_similarity, floor=scores.estimate)
    where = {i: j for j, i in enumerate(every.tolist())}
    chosen = [replace(pairs[where[i]], score=float(similarity[i])) for i in ranked.tolist()]
    shown = {name for pair in chosen for name in (pair.a, pair.b)}
    return chosen, {key: doc for key, doc in documents.items() if key[0] in shown}


class _Head:
    """The passages of the head ``pairs`` (owner pairs) and the documents of
    their files (:mod:`winnow.matching.head`).

    When the batch kept no documents and this run has its own pool, the
    pairs are cut into tasks that this process and workers forked at once
    share: a thread of this process hands the tasks to the workers, one
    when one is free, while this process ranks the other pairs; then
    :meth:`results` takes the tasks left here.  A pool one worker smaller
    than the cores does the work of a full one (this process has no other
    work by then), and the memory of the process it saves.  Every file of
    a task was fingerprinted by a worker in the first pass (a file that
    killed one has no fingerprints, so no pair), so a task run here reads
    only files that were read safely once.  A caller's executor gets every
    task.  Else :meth:`results` computes them here, from the kept
    documents or files read here.
    """

    def __init__(self, batch: Batch, pairs: list[tuple[int, int]], settings: Settings,
                 run: Run) -> None:
        used = np.array([p is not None for p in batch.prints], dtype=bool)
        owners = np.unique(np.array(pairs, dtype=np.int64).reshape(-1))
        self.batch, self.run, self.pairs, self.settings = batch, run, pairs, settings
        self.ids: list[int] = np.flatnonzero(np.isin(batch.owner, owners) & used).tolist()
        #: ``(task number, its pairs' indices, its result)``, as the tasks finish
        self.results_by_task: list[tuple[int, list[int], TaskResult]] = []
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()
        self.queue: deque[tuple[int, list[int], Task]] = deque()
        self.taken: deque[tuple[int, list[int]]] = deque()  # the tasks the workers took
        self.theirs: list[tuple[int, list[int], Task]] = []  # all of them, for another executor
        self.done = 0
        self.workers = bool(self.ids) and not any(i in batch.documents for i in self.ids)
        if not self.workers:
            return
        files_of: dict[int, list[tuple[int, FileLike]]] = {}
        for i in self.ids:
            files_of.setdefault(int(batch.owner[i]), []).append((i, batch.files[i]))
        load_kernels()  # here, shared by the workers forked next
        run.fresh_pool(len(self.ids), start=True, reserve=1)  # forked here, not from the thread
        if run.executor is None:
            self.workers = False
            return
        here = run.jobs is not None  # its own pool: this process takes tasks too
        workers = getattr(run.executor, "workers", 1) + int(here)
        cut = [(number, indices, task) for number, (indices, task)
               in enumerate(tasks(pairs, files_of, settings, workers * TASKS_PER_WORKER))]
        if here:
            self.queue = deque(cut)
        else:
            self.theirs = cut
        self.thread = threading.Thread(target=self._collect, name="winnow-passages",
                                       daemon=True)
        self.thread.start()

    def _take(self) -> Iterator[Task]:
        """The tasks not taken yet, each to one taker (the workers' thread or
        :meth:`results`)."""
        while True:
            with self.lock:
                if not self.queue:
                    return
                number, indices, task = self.queue.popleft()
                self.taken.append((number, indices))
            yield task

    def _record(self, number: int, indices: list[int], result: TaskResult) -> None:
        with self.lock:  # progress too: the two takers report, one at a time
            self.results_by_task.append((number, indices, result))
            self.done += len(indices)
            if self.run.progress is not None:
                self.run.progress("passages", self.done, len(self.pairs))

    def _collect(self) -> None:
        executor = self.run.executor
        try:
            if not self.theirs and isinstance(executor, WorkerPool):  # its own pool: shared
                for result in executor.one_by_one(run_task, self._take(), lost_task):
                    with self.lock:
                        number, indices = self.taken.popleft()
                    self._record(number, indices, result)
                return
            for (number, indices, _), result in zip(self.theirs, parallel_map(
                    run_task, [task for _, _, task in self.theirs], stage="passages",
                    progress=None, executor=executor, lost=lost_task), strict=True):
                self._record(number, indices, result)
        except BaseException as error:  # raised again where the passages are awaited
            self.error = error

    def results(self) -> tuple[list[Found], dict[int, Document | Skipped]]:
        """Per head pair (in order), its passages and literal cover; the
        documents of the files read (or why one could not be), by file id."""
        if self.workers:
            while self.error is None:  # the tasks the workers have not taken
                with self.lock:
                    if not self.queue:
                        break
                    number, indices, task = self.queue.popleft()
                self._record(number, indices, run_task(task))
        if self.thread is not None:
            self.thread.join()
        if self.workers:  # its workers go now, not after the ranking and the CSV
            self.run.fresh_pool(0)
        if self.error is not None:
            raise self.error
        if self.workers:  # in the tasks' order, whoever finished first
            return in_order([(indices, result) for _, indices, result
                             in sorted(self.results_by_task, key=lambda done: done[0])],
                            len(self.pairs))
        batch = self.batch
        read: dict[int, Document | Skipped] = {
            i: batch.documents[i] if i in batch.documents else load_document(batch.files[i])
            for i in self.ids}
        batch.documents = {}
        infos = {i: self.settings.info(int(batch.owner[i]), batch.files[i].path, doc)
                 for i, doc in read.items() if not isinstance(doc, Skipped)}
        passages = Passages(infos, self.settings)
        found = []
        for done, (a, b) in enumerate(self.pairs, 1):
            found.append(passages.of(a, b))
            if self.run.progress is not None:
                self.run.progress("passages", done, len(self.pairs))
        return found, read
