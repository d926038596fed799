"""``compare``: all-against-all comparison of submissions, MOSS's job.

The two passes of the winnowing paper, section 5.2 (Schleimer, Wilkerson,
Aiken 2003):

1. fingerprint every file (in parallel), drop base code and fingerprints in
   more than ``-m`` submissions, and count shared fingerprints per pair of
   submissions by sorting — never enumerating all pairs
   (:mod:`winnow.matching.table`, :mod:`winnow.matching.counting`);
2. rank the pairs, and only for the reported ones build passages, mapped to
   bytes and lines of the originals (:mod:`winnow.matching.passages`).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from winnow.config import WinnowConfig
from winnow.engine import kgram_hashes
from winnow.matching.clusters import connected_clusters
from winnow.matching.counting import resolve_cap
from winnow.matching.model import (
    HISTOGRAM_BINS,
    ComparisonResult,
    FileKey,
    Issue,
    PairResult,
    Role,
    Submission,
    SubmittedFile,
)
from winnow.matching.options import CompareOptions
from winnow.matching.pairs import (
    FileInfo,
    file_info,
    owner_rows,
    pair_chains,
    pair_result,
    to_passages,
)
from winnow.matching.prints import (
    FileLike,
    FilePrints,
    Progress,
    Skipped,
    SubmissionLike,
    document_prints,
    fingerprint_file,
    load_document,
    make_pool,
    parallel_map,
)
from winnow.matching.scores import PairScores, pair_scores, rank
from winnow.matching.table import FingerprintTable, build_table
from winnow.model import Document


@dataclass(frozen=True)
class _Run:
    """How work is run: the progress callback and the executor (``None`` = here)."""

    progress: Progress | None
    executor: Executor | None


#: Source bytes up to which a batch's documents are kept from the first pass
#: (a document takes about 3 times its source in memory); above, the files
#: of the reported pairs are read again for the passages.
DOCUMENT_BUDGET = 8 << 20


def literal_config(config: WinnowConfig, options: CompareOptions) -> WinnowConfig | None:
    """The engine settings of the literal channel: ``k = literal_k`` and the
    same window ``w`` (so the same density of fingerprints); ``None`` when off."""
    if options.literal_k == 0:
        return None
    return replace(config, k=options.literal_k, t=options.literal_k + config.w - 1)


def every_kgram(config: WinnowConfig) -> WinnowConfig:
    """Settings that select every k-gram: how base code is fingerprinted, so
    that a k-gram of it is ignored wherever a submission's window selects it,
    not only where the base file's own window did."""
    return WinnowConfig(k=config.k, t=config.k, method="winnow", seed=config.seed)


def _by_role(item: tuple[FileLike, bool], *, new: partial[FilePrints | Skipped],
             base: partial[FilePrints | Skipped]) -> FilePrints | Skipped:
    """Fingerprint one ``(file, is_base)`` item with the settings of its role."""
    file, is_base = item
    return base(file) if is_base else new(file)


class _Batch:
    """The fingerprinted files of a batch: owner ``-1`` is base code."""

    def __init__(self, subs: Sequence[SubmissionLike], base: Sequence[SubmissionLike]) -> None:
        self.issues: list[Issue] = []
        self.subs: list[SubmissionLike] = []
        seen: set[str] = set()
        for sub in subs:  # a name given twice is compared once
            if sub.name in seen:
                self.issues.append(Issue(sub.name, "given twice; compared once", skipped=False))
            else:
                seen.add(sub.name)
                self.subs.append(sub)
        self.files: list[FileLike] = []
        owners: list[int] = []
        for owner, sub in enumerate(self.subs):
            self.files.extend(sub.files)
            owners.extend([owner] * len(sub.files))
        for sub in base:
            self.files.extend(sub.files)
            owners.extend([-1] * sum(1 for _ in sub.files))
        self.owner = np.array(owners, dtype=np.int64)
        self.issues += [Issue(p.path, p.reason) for sub in [*self.subs, *base]
                        for p in sub.problems]
        self.prints: list[FilePrints | None] = []
        self.documents: dict[int, Document] = {}

    def fingerprint(self, config: WinnowConfig, options: CompareOptions, run: _Run) -> None:
        """Fingerprint every file; keep the documents too when the batch is small
        (:data:`DOCUMENT_BUDGET`), sparing the passages pass a second read."""
        sizes = [getattr(file, "size", -1) for file in self.files]
        keep = min(sizes, default=0) >= 0 and sum(sizes) <= DOCUMENT_BUDGET
        literal = literal_config(config, options)
        new = partial(fingerprint_file, config=config, allow_binary=options.allow_binary,
                      keep_document=keep, literal_config=literal)
        base = partial(fingerprint_file, config=every_kgram(config),
                       allow_binary=options.allow_binary, keep_document=keep,
                       literal_config=None if literal is None else every_kgram(literal))
        items = [(file, bool(owner < 0)) for file, owner in zip(self.files, self.owner.tolist(),
                                                                  strict=True)]
        for i, (file, result) in enumerate(zip(self.files, parallel_map(
            partial(_by_role, new=new, base=base), items, stage="fingerprint",
            progress=run.progress, executor=run.executor,
        ), strict=True)):
            if isinstance(result, Skipped):
                self.issues.append(Issue(result.path, result.reason))
                self.prints.append(None)
                continue
            if result.hashes.shape[0] == 0 and result.units > 0:
                self.issues.append(Issue(file.location, (
                    f"shorter than k = {config.k} units after normalisation; cannot match"
                ), skipped=False))
            self.issues.extend(Issue(file.location, w, skipped=False) for w in result.warnings)
            if result.document is not None:
                self.documents[i] = result.document
            self.prints.append(result)
        for owner, sub in enumerate(self.subs):
            used = [self.prints[i] for i in np.flatnonzero(self.owner == owner).tolist()]
            if sub.files and not any(p is not None for p in used):
                self.issues.append(Issue(sub.name, "no usable files; submission left out"))
            elif sub.files and not any(p.units for p in used if p is not None):
                self.issues.append(Issue(sub.name, "empty submission: nothing to compare"))

    def table(self, cap: int) -> FingerprintTable:
        """The fingerprint table of the new and archive submissions.

        The per-file arrays are released as they are copied into one (only
        sizes are kept), so the batch holds its fingerprints about once.
        """
        ids = [i for i, p in enumerate(self.prints) if p is not None and self.owner[i] >= 0]
        base = np.unique(np.concatenate([np.zeros(0, np.uint64), *(
            p.hashes for i, p in enumerate(self.prints) if p is not None and self.owner[i] < 0
        )]))
        lengths = np.array([self._prints(i).hashes.shape[0] for i in ids], dtype=np.int64)
        hashes = np.empty(int(lengths.sum()), dtype=np.uint64)
        at = 0
        for i, n in zip(ids, lengths.tolist(), strict=True):
            prints = self._prints(i)
            hashes[at:at + n] = prints.hashes
            at += n
            self.prints[i] = replace(prints, hashes=np.zeros(0, np.uint64))
        files = np.repeat(np.array(ids, dtype=np.int32), lengths)
        return build_table(
            hashes, files, self.owner, len(self.subs), base_hashes=base, cap=cap,
            archive=np.array([s.role == "archive" for s in self.subs], dtype=bool),
        )

    def _prints(self, i: int) -> FilePrints:
        prints = self.prints[i]
        assert prints is not None
        return prints

    def units(self) -> np.ndarray:
        """Total units per submission (files that were read)."""
        totals = np.zeros(len(self.subs), dtype=np.int64)
        for i, p in enumerate(self.prints):
            if p is not None and self.owner[i] >= 0:
                totals[self.owner[i]] += p.units
        return totals

    def submissions(self, table: FingerprintTable) -> tuple[Submission, ...]:
        out = []
        for owner, sub in enumerate(self.subs):
            files = tuple(
                SubmittedFile(self.files[i].path, p.size, p.units, int(table.file_prints[i]))
                for i in np.flatnonzero(self.owner == owner).tolist()
                if (p := self.prints[i]) is not None
            )
            role: Role = "archive" if sub.role == "archive" else "new"
            out.append(Submission(sub.name, role, files, sum(f.units for f in files),
                                  int(table.sizes[owner])))
        return tuple(out)


def compare(
    submissions: Sequence[SubmissionLike],
    config: WinnowConfig | None = None,
    options: CompareOptions | None = None,
    *,
    base: Sequence[SubmissionLike] = (),
    jobs: int = 1,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> ComparisonResult:
    """Compare every submission with every other and rank the pairs.

    ``submissions`` (role ``new`` or ``archive``; archives are never paired
    with each other) and ``base`` (starter code, ignored everywhere) are
    shaped like :class:`winnow.sources.submissions.SubmissionSource`, e.g.
    from :func:`winnow.sources.submissions.load_submissions`.  ``jobs``
    processes fingerprint and read the files (``0`` = all cores; forked on
    Linux, see :func:`winnow.matching.prints.make_pool`), or ``executor``;
    ``progress(stage, done, total)`` follows the work.  Bad input never
    raises: it is listed in the result's ``issues``.
    """
    config = config or WinnowConfig()
    options = options or CompareOptions()
    batch = _Batch(submissions, base)
    pool = None if executor is not None else make_pool(jobs, len(batch.files))
    try:
        return _compare(batch, config, options, _Run(progress, executor or pool))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def _compare(
    batch: _Batch, config: WinnowConfig, options: CompareOptions, run: _Run
) -> ComparisonResult:
    batch.fingerprint(config, options, run)
    names = [s.name for s in batch.subs]
    cap = resolve_cap(options.max_occurrences, len(names))
    table = batch.table(cap)
    scores = pair_scores(table.counts, table.sizes, table.weight_totals, len(names))
    gap = config.k if options.merge_gap is None else options.merge_gap
    if options.similarity == "coverage":
        pairs, documents, similarity = _rank_by_coverage(
            batch, table, scores, config, options, gap, run)
    else:
        similarity = scores.by_name(options.similarity)
        ranked = rank(similarity, scores.shared, names, scores.a, scores.b,
                      top=options.top, min_similarity=options.min_similarity)
        pairs, documents = _report_pairs(
            batch, table, scores, similarity, ranked, config, options, gap, run)
    return ComparisonResult(
        submissions=batch.submissions(table),
        pairs=tuple(pairs),
        clusters=connected_clusters(names, scores.a, scores.b, similarity,
                                    options.cluster_threshold),
        config=config.as_dict(),
        parameters={**options.as_dict(),
                    "max_occurrences_resolved": cap,
                    "merge_gap_resolved": gap},
        issues=tuple(batch.issues),
        documents=documents,
        stats={**table.stats, "pairs_reported": len(pairs)},
        histogram=similarity_histogram(similarity),
    )


def similarity_histogram(similarity: np.ndarray) -> tuple[int, ...]:
    """Counts of ``similarity`` in :data:`HISTOGRAM_BINS` equal bins over ``[0, 1]``."""
    index = np.clip((similarity * HISTOGRAM_BINS).astype(np.int64), 0, HISTOGRAM_BINS - 1)
    return tuple(np.bincount(index, minlength=HISTOGRAM_BINS).tolist())


def _report_pairs(
    batch: _Batch, table: FingerprintTable, scores: PairScores, similarity: np.ndarray,
    ranked: np.ndarray, config: WinnowConfig, options: CompareOptions, gap: int, run: _Run,
) -> tuple[list[PairResult], dict[FileKey, Document]]:
    """The reported pairs, with passages when asked, and the documents they show."""
    names = [s.name for s in batch.subs]
    documents: dict[FileKey, Document] = {}
    infos: dict[int, FileInfo] = {}
    if options.passages and ranked.shape[0]:
        owners = np.union1d(scores.a[ranked], scores.b[ranked])
        infos = _load_infos(batch, owners, table.excluded, config, options, run)
        documents = {(names[f.owner], f.path): f.document for f in infos.values()}
    rows = owner_rows(infos)
    units = batch.units()
    pairs: list[PairResult] = []
    for done, i in enumerate(ranked.tolist(), 1):
        passages = None
        if options.passages:
            chains = pair_chains(rows, int(scores.a[i]), int(scores.b[i]), infos, config.k, gap)
            passages = to_passages(chains, infos)
            if run.progress is not None:
                run.progress("passages", done, ranked.shape[0])
        pairs.append(pair_result(scores, float(similarity[i]), i, names, units, passages))
    return pairs, documents


def _rank_by_coverage(
    batch: _Batch, table: FingerprintTable, scores: PairScores, config: WinnowConfig,
    options: CompareOptions, gap: int, run: _Run,
) -> tuple[list[PairResult], dict[FileKey, Document], np.ndarray]:
    """``--similarity coverage``: passages for *every* pair that shares a
    fingerprint, then rank by the share of both submissions' units they cover,
    ``(covered_a + covered_b) / (units_a + units_b)`` (Dolos's similarity)."""
    names = [s.name for s in batch.subs]
    every = rank(scores.dice, scores.shared, names, scores.a, scores.b, top=0,
                 min_similarity=0.0)
    forced = replace(options, passages=True)
    pairs, documents = _report_pairs(batch, table, scores, scores.dice, every, config,
                                     forced, gap, run)
    units = batch.units().astype(np.float64)
    similarity = np.zeros(scores.a.shape[0], dtype=np.float64)
    for i, pair in zip(every.tolist(), pairs, strict=True):
        a, b = int(scores.a[i]), int(scores.b[i])
        covered = (pair.coverage_a or 0.0) * units[a] + (pair.coverage_b or 0.0) * units[b]
        similarity[i] = covered / (units[a] + units[b]) if units[a] + units[b] else 0.0
    ranked = rank(similarity, scores.shared, names, scores.a, scores.b, top=options.top,
                  min_similarity=options.min_similarity)
    where = {i: j for j, i in enumerate(every.tolist())}
    chosen = [replace(pairs[where[i]], similarity=float(similarity[i]))
              for i in ranked.tolist()]
    shown = {name for pair in chosen for name in (pair.a, pair.b)}
    return chosen, {key: doc for key, doc in documents.items() if key[0] in shown}, similarity


def _load_infos(
    batch: _Batch, owners: np.ndarray, excluded: np.ndarray, config: WinnowConfig,
    options: CompareOptions, run: _Run,
) -> dict[int, FileInfo]:
    """Documents (kept, or read again), masked units and fingerprints (less the
    ``excluded`` hashes) of every file of ``owners``.

    The mask holds *every* k-gram of the base code (not only its selected
    fingerprints), so that passages stop exactly where starter code begins.
    Common fingerprints (``-m``) are not masked: they never seed a passage,
    but a copied passage runs on through the common code inside it.
    """
    used = np.array([p is not None for p in batch.prints], dtype=bool)
    ids = np.flatnonzero(np.isin(batch.owner, owners) & used).tolist()
    base_ids = np.flatnonzero((batch.owner < 0) & used).tolist()
    missing = [i for i in ids + base_ids if i not in batch.documents]
    reread = dict(zip(missing, parallel_map(
        load_document, [batch.files[i] for i in missing], stage="documents",
        progress=run.progress, executor=run.executor), strict=True))
    loaded = [batch.documents[i] if i in batch.documents else reread[i] for i in ids + base_ids]
    batch.documents = {}
    base_hashes = [kgram_hashes(doc.stream.units, config.k, seed=config.seed)
                   for doc in loaded[len(ids):] if isinstance(doc, Document)]
    mask = np.unique(np.concatenate([np.zeros(0, np.uint64), *base_hashes]))
    literal = literal_config(config, options)
    infos: dict[int, FileInfo] = {}
    for i, doc in zip(ids, loaded, strict=False):
        if isinstance(doc, Skipped):
            batch.issues.append(Issue(doc.path, f"{doc.reason} (on second read)"))
            continue
        infos[i] = file_info(int(batch.owner[i]), batch.files[i].path, doc, i,
                             mask.astype(np.uint64), config.k, config.seed,
                             document_prints(doc, config, literal), excluded)
    return infos
