"""The files of one comparison: read, fingerprinted and tabled (the first
pass of :mod:`winnow.matching.compare`), with the engine settings of each
front-end and the base code; their pairs counted by the pair-counting stage
(:mod:`winnow.pairs`, :class:`BatchPostings`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.matching.base import base_hashes
from winnow.matching.model import Issue, Submission, SubmittedFile
from winnow.matching.options import CompareOptions
from winnow.matching.prints import (
    FileLike,
    FilePrints,
    SubmissionLike,
    fingerprint_file,
    load_document,
    lost_file,
)
from winnow.matching.table import (
    FingerprintTable,
    count_groups,
    group_words,
    in_sorted,
    word_type,
)
from winnow.model import Document, Role, Skipped
from winnow.pairs import EngineChoice, Layout, PairSums, Postings, Shards, count_pairs
from winnow.pairs.memory import MemorySums
from winnow.parallel import Progress, chunk_size, make_pool, parallel_map

U64 = npt.NDArray[np.uint64]


@dataclass
class Run:
    """How work is run: the progress callback and the executor (``None`` = here);
    ``jobs`` when the executor is this run's own pool (see :meth:`fresh_pool`)."""

    progress: Progress | None
    executor: Executor | None
    jobs: int | None = None

    def fresh_pool(self, tasks: int, *, start: bool = False, reserve: int = 0) -> None:
        """Replace this run's own pool by a new one for ``tasks`` tasks (less
        ``reserve`` workers: this process works beside it, see
        :func:`winnow.parallel.make_pool`): the fingerprinting workers hold
        heaps grown by their work; new workers share the parent's memory
        instead.  They are forked on first use, or at once with ``start``: by
        the calling thread, before another thread submits work to them."""
        if self.jobs is None:
            return
        if self.executor is not None:
            self.executor.shutdown(cancel_futures=True)
        self.executor = make_pool(self.jobs, tasks, reserve=reserve)
        if start:
            self.start()

    def start(self) -> None:
        """Fork this run's own pool's workers now (they fork on first use)."""
        if self.jobs is not None and self.executor is not None:
            self.executor.submit(os.getpid)  # a fork pool starts all its workers at once

    def close(self) -> None:
        if self.jobs is not None and self.executor is not None:
            self.executor.shutdown(cancel_futures=True)


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


def _after_first(progress: Progress, stage: str, done: int, total: int) -> None:
    """``progress`` of the files after the first, counted with it."""
    progress(stage, done + 1, total + 1)


class Batch:
    """The fingerprinted files of a batch and its base code."""

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
        self.base_files: list[FileLike] = [file for sub in base for file in sub.files]
        self.owner = np.array(owners, dtype=np.int64)
        self.issues += [Issue(p.path, p.reason) for sub in [*self.subs, *base]
                        for p in sub.problems]
        self.prints: list[FilePrints | None] = []
        self.documents: dict[int, Document] = {}
        self.base = np.zeros(0, np.uint64)
        self.configs: dict[str, tuple[WinnowConfig, WinnowConfig | None]] = {}
        self.default: tuple[WinnowConfig, WinnowConfig | None] = (WinnowConfig(), None)
        #: Fingerprints in at least this many submissions are listed apart
        #: (:mod:`winnow.matching.common`), and are base code with ``many_is_base``.
        self.many, self.many_is_base = 0, False

    def set_configs(self, config: WinnowConfig, options: CompareOptions,
                    by_frontend: Mapping[str, WinnowConfig]) -> None:
        """The engine settings of each front-end's files (``config`` for the others)."""
        self.default = (config, literal_config(config, options))
        self.configs = {fe: (c, literal_config(c, options)) for fe, c in by_frontend.items()}

    def config_of(self, frontend: str) -> tuple[WinnowConfig, WinnowConfig | None]:
        """``(config, literal_config)`` of a file of ``frontend``."""
        return self.configs.get(frontend, self.default)

    def used(self) -> dict[str, WinnowConfig]:
        """The settings of every front-end the read files got."""
        return {p.frontend: self.config_of(p.frontend)[0] for p in self.prints if p is not None}

    def read_base(self, options: CompareOptions) -> None:
        """Hash every k-gram of the base code (:mod:`winnow.matching.base`), here:
        it is small, and compiles the front-end kernels before workers fork."""
        hashes = [np.zeros(0, np.uint64)]
        for doc in map(load_document, self.base_files):
            if isinstance(doc, Skipped):
                self.issues.append(Issue(doc.path, doc.reason))
            elif doc.kind != "binary" or options.allow_binary:
                hashes.append(base_hashes([doc], *self.config_of(doc.frontend)))
        self.base = np.unique(np.concatenate(hashes)).astype(np.uint64)

    def fingerprint(self, options: CompareOptions, run: Run,
                    started: Callable[[], None] | None = None) -> None:
        """Fingerprint every file; keep the documents too when the batch is small
        (:data:`DOCUMENT_BUDGET`), sparing the passages pass a second read.

        The first file is done here, before the workers start: on a first run
        its kernels compile once, in this process, and the forked workers
        inherit them instead of each compiling its own.  ``started`` is
        called once this run's own pool has forked its workers, as this
        process starts waiting for them (not when the files after the first
        are fewer than two: they are fingerprinted here)."""
        self.read_base(options)
        config, literal = self.default
        sizes = [getattr(file, "size", -1) for file in self.files]
        keep = min(sizes, default=0) >= 0 and sum(sizes) <= DOCUMENT_BUDGET
        work = partial(fingerprint_file, config=config, allow_binary=options.allow_binary,
                       keep_document=keep, literal_config=literal, base=self.base,
                       configs=self.configs or None)
        first = [work(file) for file in self.files[:1]]
        progress = run.progress
        if progress is not None and first:
            progress("fingerprint", 1, len(self.files))
            progress = partial(_after_first, progress)
        workers = getattr(run.executor, "workers", 16)  # a caller's executor: assume many
        if started is not None and run.executor is not None and len(self.files) > 2:
            run.start()
            started()
        rest = parallel_map(work, self.files[1:], stage="fingerprint", progress=progress,
                            executor=run.executor, lost=lost_file,
                            chunksize=chunk_size(len(self.files), workers))
        for i, (file, result) in enumerate(zip(self.files, chain(first, rest), strict=True)):
            if isinstance(result, Skipped):
                self.issues.append(Issue(result.path, result.reason))
                self.prints.append(None)
                continue
            if result.hashes.shape[0] == 0 and result.units > 0:
                self.issues.append(Issue(file.location, (
                    f"shorter than k = {self.config_of(result.frontend)[0].k} units after "
                    "normalisation; cannot match"
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
        ids = [i for i, p in enumerate(self.prints) if p is not None]
        lengths = [self._prints(i).hashes.shape[0] for i in ids]
        hashes = np.empty(sum(lengths), dtype=np.uint64)
        # each row's file and base flag in one word, written file by file (the
        # batch lists its files owner by owner, so the rows are grouped by owner)
        word = word_type(len(self.files))
        words = np.empty(hashes.shape[0], dtype=word)
        at = 0
        for i, n in zip(ids, lengths, strict=True):
            prints = self._prints(i)
            hashes[at:at + n] = prints.hashes
            if prints.own is None:
                words[at:at + n] = (i << 1) | 1
            else:
                np.bitwise_or(word(i << 1), prints.own, out=words[at:at + n], dtype=word)
            at += n
            self.prints[i] = replace(prints, hashes=np.zeros(0, np.uint64), own=None)
        groups = group_words(hashes, words, self.owner, cap, self.many, self.many_is_base)
        del hashes, words  # the rows are grouped: their memory is the count's
        return count_groups(groups, len(self.subs), cap=cap, archive=np.array(
            [s.role == "archive" for s in self.subs], dtype=bool))

    def _prints(self, i: int) -> FilePrints:
        prints = self.prints[i]
        assert prints is not None
        return prints

    def units(self) -> np.ndarray:
        """Total units per submission (files that were read)."""
        totals = np.zeros(len(self.subs), dtype=np.int64)
        for i, p in enumerate(self.prints):
            if p is not None:
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


@dataclass(frozen=True)
class OwnerShard:
    """Input shard of a sharded count: the distinct fingerprints of some submissions."""

    owners: list[int]
    hashes: list[U64]


def owner_prints(shard: OwnerShard) -> Iterator[tuple[int, U64]]:
    yield from zip(shard.owners, shard.hashes, strict=True)


class BatchPostings(Postings):
    """A batch's submissions as the pair-counting stage's postings
    (:mod:`winnow.pairs`).

    In memory, the batch's own table (:meth:`Batch.table`, one sort of the
    files' rows); for a sharded engine, input shards of whole submissions
    (their distinct fingerprints), so the counting's sort temporaries and
    pair arrays are the tasks', bounded by their budgets.  The batch's
    fingerprints are in memory already (the first pass keeps them).
    """

    def __init__(self, batch: Batch) -> None:
        self.batch = batch
        self.documents = len(batch.subs)
        self.rows = sum(p.hashes.shape[0] for p in batch.prints if p is not None)
        self.base = batch.base
        self.archive = np.array([s.role == "archive" for s in batch.subs], dtype=bool)
        self.table: FingerprintTable | None = None
        self.sets: list[U64] = []

    def in_memory(self, cap: int, progress: Progress | None) -> PairSums:
        self.table = self.batch.table(cap)
        return MemorySums(self.table.sizes, self.table.weight_totals, self.table.counts,
                          self.table.excluded, self.table.stats)

    def shards(self, layout: Layout) -> Shards:
        self.sets = self._owner_sets()
        shards: list[OwnerShard] = []
        for owner, hashes in enumerate(self.sets):
            if not shards or sum(h.shape[0] for h in shards[-1].hashes) >= layout.row_budget:
                shards.append(OwnerShard([], []))
            shards[-1].owners.append(owner)
            shards[-1].hashes.append(hashes)
        return Shards(shards, owner_prints)

    def _owner_sets(self) -> list[U64]:
        """Each submission's distinct fingerprints."""
        parts: list[list[U64]] = [[] for _ in self.batch.subs]
        for i, prints in enumerate(self.batch.prints):
            if prints is not None:
                parts[int(self.batch.owner[i])].append(prints.hashes)
        return [np.unique(np.concatenate([np.zeros(0, np.uint64), *p])) for p in parts]

    def table_of(self, sums: PairSums) -> FingerprintTable:
        """The batch's fingerprint table: the in-memory one, or one made of a
        sharded engine's sums (the same pairs and counts; the files' arrays
        are released as they are read)."""
        if self.table is not None:
            return self.table
        batch, excluded = self.batch, sums.excluded()
        counts = sums.shared_counts()
        file_prints = np.zeros(len(batch.prints), dtype=np.int64)
        for i, prints in enumerate(batch.prints):
            if prints is not None:
                file_prints[i] = int((~in_sorted(prints.hashes, excluded)).sum())
                batch.prints[i] = replace(prints, hashes=np.zeros(0, np.uint64), own=None)
        ignored_base = sum(int((in_sorted(h, batch.base) & ~in_sorted(h, excluded)).sum())
                           for h in self.sets)
        return FingerprintTable(
            excluded=excluded, sizes=sums.sizes, weight_totals=sums.weight_totals,
            file_prints=file_prints, counts=counts,
            stats={"fingerprints": int(file_prints.sum()), "ignored_base": ignored_base,
                   "ignored_common": sums.stats["ignored_common"],
                   "distinct_hashes": sums.stats["distinct_hashes"],
                   "pairs_sharing": int(counts.a.shape[0])})


def count_table(batch: Batch, cap: int, choice: EngineChoice,
                progress: Progress | None = None) -> FingerprintTable:
    """The batch's fingerprint table, its pairs counted by the engine ``choice``
    names (the pair-counting stage, :func:`winnow.pairs.count_pairs`)."""
    postings = BatchPostings(batch)
    with count_pairs(postings, cap, choice, progress) as sums:
        return postings.table_of(sums)
