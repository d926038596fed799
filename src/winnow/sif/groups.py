"""All-against-all: groups of identical and of similar files (Manber 1994, section 4).

Everything here reads the index only, never a file, so changing the threshold
or a filter costs one more database query (sif: "changing it will take just
one more second").

* **Identical groups**: files with equal checksums (two or more; empty files
  only with ``include_empty``).
* **Similar groups**, sif's first version: identical files are represented by
  one of them (the first path), so similar groups list distinct contents.  For
  every file ``R`` (in path order) the group is ``R`` and every ``X`` whose
  shared fingerprints cover at least ``threshold`` (a fraction) of ``R``'s:
  ``similarity(R, X) = |F(R) ∩ F(X)| / |F(R)|`` (distinct hashes).  A set
  of files already printed is not printed again.
* **Filters**, applied to pairs before grouping: text is never compared with
  binary (unless ``mix_kinds``), ``size_ratio`` keeps pairs whose smaller
  size is at least that fraction of the larger, ``same_suffix`` keeps pairs
  with the same file extension.  Hashes held by more than ``max_df`` distinct
  contents are boilerplate and are not counted (sif's Postscript headers).
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

import numpy as np

from winnow.errors import InvalidConfig
from winnow.index.store import DocRow, FingerprintIndex
from winnow.pairs import EngineChoice, count_pairs
from winnow.parallel import Progress
from winnow.sif.interesting import interesting_sets
from winnow.sif.postings import IndexPostings
from winnow.sif.shares import Pairs, directed_shares, fraction_problem, share_lookup


@dataclass(frozen=True)
class GroupOptions:
    """Post-processing choices; none of them requires re-reading files.

    ``threshold`` a fraction (0 to 1, 0.5 = 50 %) of the reference file's
    fingerprints, as the command line's ``--threshold`` takes it; ``size_ratio`` a
    fraction (0 to 1) or ``None``; ``max_df`` at least 2 (a
    fingerprint in fewer files pairs none).  Validated on construction, every
    problem reported at once (:class:`~winnow.errors.InvalidConfig`).
    """

    threshold: float = 0.5
    size_ratio: float | None = None
    same_suffix: bool = False
    mix_kinds: bool = False
    max_df: int = 200
    include_empty: bool = False
    interesting: bool = False

    def __post_init__(self) -> None:
        problems = [fraction_problem("threshold", self.threshold)]
        if self.size_ratio is not None:
            problems.append(fraction_problem("size_ratio", self.size_ratio))
        if isinstance(self.max_df, bool) or not isinstance(self.max_df, int) or self.max_df < 2:
            problems.append(f"max_df must be an integer >= 2, got {self.max_df!r}")
        listed = [problem for problem in problems if problem]
        if listed:
            raise InvalidConfig(listed)


@dataclass(frozen=True)
class Member:
    """One file of a group; ``similarity`` (a fraction) is relative to the reference
    file: the share of the reference's fingerprints in a similar group, the
    share of the smaller file's in an interesting set."""

    path: str
    similarity: float
    size: int
    reference: bool


#: What a group is: copies, files similar to a reference, or sif's interesting set.
GroupKind = Literal["identical", "similar", "interesting"]


@dataclass(frozen=True)
class Group:
    number: int
    kind: GroupKind
    members: tuple[Member, ...]


@dataclass
class GroupsResult:
    identical: list[Group]
    similar: list[Group]
    interesting: list[Group] | None
    options: GroupOptions
    documents: int


def identical_sets(docs: list[DocRow], include_empty: bool = False) -> list[list[DocRow]]:
    """Files with equal checksums, two or more per set, in path order."""
    by_checksum: dict[str, list[DocRow]] = defaultdict(list)
    for row in docs:
        if row.size > 0 or include_empty:
            by_checksum[row.checksum].append(row)
    sets = [sorted(rows, key=lambda r: r.path) for rows in by_checksum.values() if len(rows) > 1]
    return sorted(sets, key=lambda rows: rows[0].path)


def representatives(docs: list[DocRow]) -> list[DocRow]:
    """One document per distinct content (the first path), with fingerprints."""
    first: dict[str, DocRow] = {}
    for row in sorted(docs, key=lambda r: r.path):
        first.setdefault(row.checksum, row)
    return sorted((r for r in first.values() if r.n_distinct > 0), key=lambda r: r.path)


def _suffix(path: str) -> str:
    return os.path.splitext(path)[1].lower()


def load_pairs(index: FingerprintIndex, docs: list[DocRow], options: GroupOptions,
               engine: EngineChoice | None = None, progress: Progress | None = None, *,
               rows: int | None = None) -> Pairs:
    """Pairs of ``docs`` sharing fingerprints, with the filters applied,
    counted by the pair-counting stage (:mod:`winnow.pairs`) on the index's
    shared postings: by the ``engine`` chosen (default: in memory, the
    index's self-join), sized by ``rows`` fingerprint rows (default: the
    index's)."""
    if len(docs) < 2:
        empty = np.zeros(0, dtype=np.int64)
        return Pairs(docs, empty, empty, empty)
    ids = np.array([row.id for row in docs], dtype=np.int64)
    postings = IndexPostings(index, ids, rows)
    with count_pairs(postings, options.max_df, engine or EngineChoice("in-memory"),
                     progress) as sums:
        counts = sums.pair_counts()
    a, b, shared = counts.a, counts.b, counts.shared
    keep = np.ones(a.size, dtype=bool)
    if not options.mix_kinds:
        kinds = np.array([row.kind for row in docs])
        keep &= kinds[a] == kinds[b]
    if options.size_ratio is not None:
        sizes = np.array([row.size for row in docs], dtype=np.float64)
        small, large = np.minimum(sizes[a], sizes[b]), np.maximum(sizes[a], sizes[b])
        keep &= small >= options.size_ratio * large
    if options.same_suffix:
        suffixes = np.array([_suffix(row.path) for row in docs])
        keep &= suffixes[a] == suffixes[b]
    return Pairs(docs, a[keep], b[keep], shared[keep])


def similar_sets(pairs: Pairs, threshold: float) -> list[tuple[int, list[tuple[int, float]]]]:
    """sif's groups: ``(reference, [(member, similarity), ...])``, each set once."""
    ref, other, share = directed_shares(pairs)
    keep = share >= threshold
    ref, other, share = ref[keep], other[keep], share[keep]
    order = np.lexsort((other, -share, ref))
    ref, other, share = ref[order], other[order], share[order]
    bounds = np.flatnonzero(np.diff(ref)) + 1
    starts, stops = np.r_[0, bounds].tolist(), np.r_[bounds, ref.size].tolist()
    refs, others, shares = ref.tolist(), other.tolist(), share.tolist()
    seen: set[frozenset[int]] = set()
    out = []
    for start, stop in zip(starts, stops, strict=True):
        if start == stop:
            continue
        members = list(zip(others[start:stop], shares[start:stop], strict=True))
        key = frozenset([refs[start], *others[start:stop]])
        if key not in seen:
            seen.add(key)
            out.append((refs[start], members))
    return out


def find_groups(index: FingerprintIndex, options: GroupOptions,
                engine: EngineChoice | None = None,
                progress: Progress | None = None) -> GroupsResult:
    """Identical groups, then similar groups (and interesting sets if asked);
    ``engine`` counts the shared fingerprints of the pairs (default: in
    memory, the index's self-join; :mod:`winnow.pairs`)."""
    docs = index.documents()
    number = 0
    identical = []
    for rows in identical_sets(docs, options.include_empty):
        number += 1
        members = tuple(Member(r.path, 1.0, r.size, i == 0) for i, r in enumerate(rows))
        identical.append(Group(number, "identical", members))
    reps = representatives(docs)
    pairs = load_pairs(index, reps, options, engine, progress,
                       rows=sum(row.n_distinct for row in docs))
    similar = []
    for r, others in similar_sets(pairs, options.threshold):
        number += 1
        head = Member(reps[r].path, 1.0, reps[r].size, True)
        rest = tuple(Member(reps[o].path, s, reps[o].size, False) for o, s in others)
        similar.append(Group(number, "similar", (head, *rest)))
    interesting = None
    if options.interesting:
        interesting = []
        share_of = share_lookup(pairs)
        for clique in interesting_sets(pairs, options.threshold):
            number += 1
            sims = [1.0, *share_of(clique[0], clique[1:])]
            ranked = sorted(zip(clique[1:], sims[1:], strict=True), key=lambda ms: -ms[1])
            members = tuple(Member(reps[m].path, sim, reps[m].size, m == clique[0])
                            for m, sim in [(clique[0], 1.0), *ranked])
            interesting.append(Group(number, "interesting", members))
    return GroupsResult(identical, similar, interesting, options, len(docs))

