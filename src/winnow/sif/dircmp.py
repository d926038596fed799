"""Comparing two directories by content, not names (Manber 1994, section 6, third item).

Both trees are in the index; each file of A and of B ends up in one row:

* ``identical``: same relative path, same checksum;
* ``renamed``: an A file whose path is gone from B, its content under another
  path in B (moved or renamed);
* ``copied``: an extra copy: a B file whose content A holds at a path already
  accounted for (still there, or renamed), or an A file whose path is gone and
  whose content B holds only at paths already paired;
* ``modified``: same relative path, different content, with its similarity;
* ``similar``: different paths, similarity at least ``threshold`` (a fraction; a
  one-to-one greedy matching, best pairs first: moved *and* edited);
* ``only-a`` / ``only-b``: nothing on the other side matches.

The similarity of two files is ``shared / max(|F(a)|, |F(b)|)`` (distinct
fingerprints): each file must share that much of itself.  Fingerprints sample
a file, so a small edit can leave them all equal; two files with different
checksums differ in at least ``max(|size_a - size_b|, 1)`` bytes, so their
similarity is capped at ``1 - that / max(size_a, size_b)``: a changed file is
never reported 100 % similar.  Every similarity and share here is a fraction
from 0 to 1, as the command line's ``--threshold`` takes it.  For the folders as a
whole we report the resemblance (Jaccard) of their fingerprint sets,
``|F(A) ∩ F(B)| / |F(A) ∪ F(B)|``, and the containments both ways.  File names
enter only where content alone cannot decide (``modified``, and the choice of
partner among equal checksums, which prefers the same name).
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal, get_args

import numpy as np

from winnow.errors import InputError
from winnow.index.store import DocRow, FingerprintIndex
from winnow.sif.shares import check_threshold

#: What became of a file between the two trees.
Status = Literal["identical", "renamed", "copied", "modified", "similar", "only-a", "only-b"]
#: Every row status, in the order rows are listed.
STATUSES: tuple[Status, ...] = get_args(Status)


@dataclass(frozen=True)
class DirEntry:
    status: Status
    path_a: str | None
    path_b: str | None
    similarity: float
    size_a: int | None
    size_b: int | None


@dataclass
class DirComparison:
    dir_a: str
    dir_b: str
    entries: list[DirEntry] = field(default_factory=list)
    files_a: int = 0
    files_b: int = 0
    fingerprints_a: int = 0
    fingerprints_b: int = 0
    shared_fingerprints: int = 0

    @property
    def resemblance(self) -> float:
        """Jaccard similarity of the two folders' fingerprint sets, a fraction."""
        union = self.fingerprints_a + self.fingerprints_b - self.shared_fingerprints
        return self.shared_fingerprints / union if union else 1.0

    @property
    def a_in_b(self) -> float:
        """Share of A's fingerprints found in B, a fraction."""
        found = self.shared_fingerprints
        return found / self.fingerprints_a if self.fingerprints_a else 0.0

    @property
    def b_in_a(self) -> float:
        """Share of B's fingerprints found in A, a fraction."""
        found = self.shared_fingerprints
        return found / self.fingerprints_b if self.fingerprints_b else 0.0

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for entry in self.entries:
            out[entry.status] += 1
        return dict(out)


def _rel(row: DocRow, root: str) -> str:
    return os.path.relpath(row.path, root)


def changed_cap(size_a: int, size_b: int) -> float:
    """The most two files of these sizes with different content can share, a
    fraction: at least ``max(|size_a - size_b|, 1)`` of the larger's bytes differ."""
    larger = max(size_a, size_b)
    return 1 - max(abs(size_a - size_b), 1) / larger if larger else 0.0


def _by_checksum(rows: dict[str, DocRow]) -> dict[str, list[str]]:
    """Relative paths by checksum, each list in path order."""
    out: dict[str, list[str]] = defaultdict(list)
    for rel in sorted(rows):
        out[rows[rel].checksum].append(rel)
    return out


class _Matcher:
    def __init__(self, a: list[DocRow], b: list[DocRow], root_a: str, root_b: str) -> None:
        self.a = {_rel(r, root_a): r for r in a}
        self.b = {_rel(r, root_b): r for r in b}
        self.left_a = set(self.a)
        self.left_b = set(self.b)
        self.entries: list[DirEntry] = []

    def pair(self, status: Status, ra: str, rb: str, similarity: float) -> None:
        """Record the row ``ra``/``rb``; both files are then accounted for."""
        x, y = self.a[ra], self.b[rb]
        self.entries.append(DirEntry(status, ra, rb, similarity, x.size, y.size))
        self.left_a.discard(ra)
        self.left_b.discard(rb)

    def copied(self, ra: str, rb: str, extra_in_b: bool) -> None:
        """Record an extra copy: only the extra side's file is accounted for."""
        x, y = self.a[ra], self.b[rb]
        self.entries.append(DirEntry("copied", ra, rb, 1.0, x.size, y.size))
        (self.left_b if extra_in_b else self.left_a).discard(rb if extra_in_b else ra)

    def exact(self) -> None:
        """Equal checksums: identical, then renamed, then the extra copies."""
        for rel in sorted(self.left_a & self.left_b):
            if self.a[rel].checksum == self.b[rel].checksum:
                self.pair("identical", rel, rel, 1.0)
        holders_a, holders_b = _by_checksum(self.a), _by_checksum(self.b)
        gone = sorted(self.left_a - set(self.b))  # A paths B no longer has
        for rel in gone:
            free = [p for p in holders_b.get(self.a[rel].checksum, []) if p in self.left_b]
            if free:
                self.pair("renamed", rel, free[0], 1.0)
        # a B path A also has, with other content, is left for `modified`
        for rel in sorted(self.left_b - set(self.a)):
            sources = holders_a.get(self.b[rel].checksum, [])
            if sources:
                self.copied(sources[0], rel, extra_in_b=True)
        for rel in sorted(self.left_a - set(self.b)):
            copies = holders_b.get(self.a[rel].checksum, [])
            if copies:
                self.copied(rel, copies[0], extra_in_b=False)

    def similarity(self, ra: str, rb: str, score: float) -> float:
        """``score`` capped for files whose contents differ (:func:`changed_cap`)."""
        x, y = self.a[ra], self.b[rb]
        return score if x.checksum == y.checksum else min(score, changed_cap(x.size, y.size))

    def fuzzy(self, index: FingerprintIndex, threshold: float) -> None:
        rows = [self.a[r] for r in self.left_a] + [self.b[r] for r in self.left_b]
        rel_of = {row.id: ("a", r) for r in self.left_a for row in [self.a[r]]}
        rel_of.update({row.id: ("b", r) for r in self.left_b for row in [self.b[r]]})
        scores: dict[tuple[str, str], float] = {}
        if len(rows) >= 2:
            ids = np.array([row.id for row in rows], dtype=np.int32)
            by_id = {row.id: row for row in rows}
            counts = index.pair_counts(ids, 1 << 30)
            for x, y, shared in zip(counts.a, counts.b, counts.shared, strict=True):
                (sx, rx), (sy, ry) = rel_of[int(x)], rel_of[int(y)]
                if sx == sy:
                    continue
                most = max(by_id[int(x)].n_distinct, by_id[int(y)].n_distinct)
                key = (rx, ry) if sx == "a" else (ry, rx)
                scores[key] = int(shared) / most if most else 0.0
        scores = {key: self.similarity(*key, score) for key, score in scores.items()}
        for rel in sorted(self.left_a & self.left_b):
            self.pair("modified", rel, rel, scores.get((rel, rel), 0.0))
        for (ra, rb), score in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])):
            if score >= threshold and ra in self.left_a and rb in self.left_b:
                self.pair("similar", ra, rb, score)
        for rel in sorted(self.left_a):
            self.entries.append(DirEntry("only-a", rel, None, 0.0, self.a[rel].size, None))
        for rel in sorted(self.left_b):
            self.entries.append(DirEntry("only-b", None, rel, 0.0, None, self.b[rel].size))


def check_folders(*dirs: str) -> None:
    """Refuse a path that is not an existing folder (exit code 1, like any input)."""
    for path in dirs:
        if not os.path.isdir(path):
            raise InputError(path, "not a folder" if os.path.lexists(path) else "no such folder")


def check_disjoint(dir_a: str, dir_b: str) -> None:
    """Refuse folders that nest (their files would be counted on both sides)."""
    root_a, root_b = os.path.abspath(dir_a), os.path.abspath(dir_b)
    for inner, outer in ((root_a, root_b), (root_b, root_a)):
        if inner != outer and inner.startswith(outer.rstrip(os.sep) + os.sep):
            raise InputError(inner, f"is inside {outer}; compare folders that do not nest")


def compare_dirs(index: FingerprintIndex, dir_a: str, dir_b: str,
                 threshold: float = 0.5) -> DirComparison:
    """Compare the indexed contents of ``dir_a`` and ``dir_b`` (both already indexed);
    ``threshold``, a fraction from 0 to 1, pairs differently named files."""
    check_threshold(threshold)
    check_disjoint(dir_a, dir_b)
    root_a, root_b = os.path.abspath(dir_a), os.path.abspath(dir_b)
    docs_a, docs_b = index.documents([root_a]), index.documents([root_b])
    matcher = _Matcher(docs_a, docs_b, root_a, root_b)
    matcher.exact()
    matcher.fuzzy(index, threshold)
    result = DirComparison(dir_a, dir_b, matcher.entries, len(docs_a), len(docs_b))
    fa, fb, shared = index.fingerprint_sets_overlap([r.id for r in docs_a],
                                                    [r.id for r in docs_b])
    result.fingerprints_a, result.fingerprints_b, result.shared_fingerprints = fa, fb, shared
    order = {status: i for i, status in enumerate(STATUSES)}
    result.entries.sort(key=lambda e: (order[e.status], e.path_a or "", e.path_b or ""))
    return result
