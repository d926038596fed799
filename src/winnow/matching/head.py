"""The passages of the best pairs, computed where their files are read again.

Only the best reported pairs get passages (``--passages-top``), and a large
batch keeps no documents from the first pass, so their files are read again.
That used to be all the workers did: the documents came back and this
process computed every passage, one pair after the other, while the second
core sat idle.  Now the pairs are cut into tasks (:func:`tasks`: pairs that
share submissions go together, so a file is seldom read twice), and each
worker reads the files of its task and computes its pairs' passages
(:func:`run_task`); this process ranks the other pairs meanwhile and then
only gathers.  A batch whose documents were kept, or a run without workers,
computes them here with the same functions, so the passages are the same
either way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.matching import _span_kernels
from winnow.matching.base import free_starts, in_base
from winnow.matching.clusters import Components
from winnow.matching.model import Passage
from winnow.matching.pairs import FileInfo, file_info, owner_rows, pair_chains, to_passages
from winnow.matching.passages import assemble, maximal_runs
from winnow.matching.prints import FileLike, load_document, prints_with_lengths
from winnow.matching.shares import Literal, literal_cover, two_channel_units
from winnow.matching.table import stable_order
from winnow.model import Document, Skipped
from winnow.parallel import release_memory

U64 = npt.NDArray[np.uint64]

#: Tasks per worker: enough to even out unequal tasks, few enough that a
#: file shared by two tasks is rarely read twice.
TASKS_PER_WORKER = 2


@dataclass(frozen=True)
class Settings:
    """What turns a document into a :class:`FileInfo` and chains into
    passages: each front-end's ``(config, literal_config)`` (``default`` for
    the others), the base code's hashes, the hashes the table left out
    (``excluded``), the shortest k-gram and the merge ``gap``."""

    configs: Mapping[str, tuple[WinnowConfig, WinnowConfig | None]]
    default: tuple[WinnowConfig, WinnowConfig | None]
    base: U64
    excluded: U64
    shortest: int
    gap: int

    def info(self, owner: int, path: str, doc: Document) -> FileInfo:
        """The file's masked units and fingerprints (less the ``excluded``
        hashes and the base code's).

        Base k-grams are marked (:func:`winnow.matching.base.free_starts`) by
        the same rule that kept base fingerprints out of the shared counts,
        so a passage holds no k-gram of the starter code and every counted
        fingerprint seeds one.  Common fingerprints (``-m``) are not masked:
        they never seed a passage, but a copied passage runs on through the
        common code inside it.
        """
        own, literal = self.configs.get(doc.frontend, self.default)
        prints, lengths, first = prints_with_lengths(doc, own, literal)
        hashes, positions = prints["hash"], prints["pos"]
        mine = ~in_base(hashes, self.base)
        if not mine.all():
            hashes, positions, lengths = hashes[mine], positions[mine], lengths[mine]
            first = None if first is None else int(mine[:first].sum())
        return file_info(owner, path, doc, own.k, free_starts(doc, self.base, own),
                         hashes, positions, self.excluded, lengths, first, own.t - own.k + 1)


Found = tuple[tuple[Passage, ...], Literal]


class Passages:
    """The passages of pairs of owners, from the :class:`FileInfo` of their files."""

    def __init__(self, infos: Mapping[int, FileInfo], settings: Settings) -> None:
        self.infos, self.settings = infos, settings
        self.rows = owner_rows(infos)
        self.literal_units = two_channel_units(infos)

    def of(self, a: int, b: int) -> Found:
        """Pair ``(a, b)``'s passages and its literal channel's cover."""
        chains = pair_chains(self.rows, a, b, self.infos, self.settings.shortest,
                             self.settings.gap)
        return to_passages(chains, self.infos), Literal(
            *literal_cover(chains, self.infos), self.literal_units.get(a, 0),
            self.literal_units.get(b, 0))


@dataclass(frozen=True)
class Task:
    """Pairs of owners whose passages one worker computes, with every file of
    those owners ``(file id, owner, file)``."""

    settings: Settings
    pairs: tuple[tuple[int, int], ...]
    files: tuple[tuple[int, int, FileLike], ...]


@dataclass(frozen=True)
class TaskResult:
    """A task's documents (or why a file could not be read again), by file id,
    and its pairs' passages in the task's order."""

    documents: dict[int, Document | Skipped]
    found: tuple[Found, ...]


def load_kernels() -> None:
    """Load the passages' compiled kernels in this process (from numba's
    cache), so that workers forked next share them instead of each loading
    its own copy (about 7 MiB of each worker on a 2,000-file class)."""
    one = np.zeros(1, np.int64)
    assemble(maximal_runs({0: one, 1: one}, one, one, one + 1, one, 1), {0: 1, 1: 1}, 1)
    hashes, ends = np.zeros(1, np.uint64), one + 1
    _span_kernels.shared_hashes(hashes, one, one, ends, 0, 1, hashes, one, one, ends, 0, 1)
    _span_kernels.shared_extent(hashes, one, one, ends, one, 0, 1, hashes)
    _span_kernels.literal_units(hashes, one, one, ends, np.ones(1, np.bool_), one, 0, 1, hashes)
    _span_kernels.position_order(one)
    stable_order(np.zeros(2, np.uint64))  # a file's fingerprints by hash (file_info)


def run_task(task: Task) -> TaskResult:
    """Read the task's files and compute its pairs' passages (in a worker, or
    in the process that shares the tasks with its workers), and give the
    memory it freed back (:func:`winnow.parallel.release_memory`)."""
    documents = {file_id: load_document(file) for file_id, _, file in task.files}
    infos = {file_id: task.settings.info(owner, file.path, doc)
             for file_id, owner, file in task.files
             if not isinstance(doc := documents[file_id], Skipped)}
    passages = Passages(infos, task.settings)
    result = TaskResult(documents, tuple(passages.of(a, b) for a, b in task.pairs))
    del passages, infos
    release_memory()  # a worker's next task would grow it again: 35 MiB less on a class
    return result


def lost_task(task: Task, reason: str) -> TaskResult:
    """A task whose worker died even alone: its files named as unread, its
    pairs without passages."""
    return TaskResult({file_id: Skipped(file.location, reason) for file_id, _, file in task.files},
                      tuple(((), Literal()) for _ in task.pairs))


def tasks(pairs: Sequence[tuple[int, int]], files_of: Mapping[int, Sequence[tuple[int, FileLike]]],
          settings: Settings, count: int) -> list[tuple[list[int], Task]]:
    """``pairs`` (owner pairs) cut into at most ``count`` tasks of about equal
    numbers of pairs, each with the indices of its pairs in ``pairs``.

    Pairs linked by a shared owner form a group (a set of copies of one
    program); a group goes whole to the task with the fewest pairs so far,
    largest group first, so its files are read once; a group larger than a
    task's share is cut into pieces of that share first.  ``files_of[x]``
    lists owner ``x``'s ``(file id, file)``."""
    if not pairs:
        return []
    share = math.ceil(len(pairs) / max(1, count))
    pieces = [group[start:start + share] for group in _groups(pairs)
              for start in range(0, len(group), share)]
    bins: list[list[int]] = [[] for _ in range(min(count, len(pieces)))]
    for piece in sorted(pieces, key=len, reverse=True):  # stable: ties keep their order
        min(bins, key=len).extend(piece)
    out = []
    for chosen in bins:
        chosen.sort()
        owners = sorted({x for i in chosen for x in pairs[i]})
        files = tuple((file_id, owner, file) for owner in owners
                      for file_id, file in files_of.get(owner, ()))
        out.append((chosen, Task(settings, tuple(pairs[i] for i in chosen), files)))
    return out


def _groups(pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Indices of ``pairs`` grouped by connected owners, each group in order,
    groups in the order of their first pair."""
    root = Components(pairs).find
    groups: dict[int, list[int]] = {}
    for i, (a, _) in enumerate(pairs):
        groups.setdefault(root(a), []).append(i)
    return list(groups.values())


def in_order(results: Iterable[tuple[list[int], TaskResult]], n_pairs: int
             ) -> tuple[list[Found], dict[int, Document | Skipped]]:
    """The tasks' passages put back in the order of the pairs, and every
    document read (a file read by two tasks: the first one's)."""
    found: list[Found | None] = [None] * n_pairs
    documents: dict[int, Document | Skipped] = {}
    for indices, result in results:
        for i, item in zip(indices, result.found, strict=True):
            found[i] = item
        for file_id, doc in result.documents.items():
            documents.setdefault(file_id, doc)
    return [item if item is not None else ((), Literal()) for item in found], documents


__all__ = ["Passages", "Settings", "Task", "TaskResult", "in_order", "load_kernels", "lost_task",
           "run_task", "tasks"]
