"""All-against-all: groups of identical and of similar files (Manber 1994, section 4).

Everything here reads the index only, never a file, so changing the threshold
or a filter costs one more database query (sif: "changing it will take just
one more second").

* **Identical groups**: files with equal checksums (two or more; empty files
  only with ``include_empty``).
* **Similar groups**, sif's first version: identical files are represented by
  one of them (the first path), so similar groups list distinct contents.  For
  every file ``R`` (in path order) the group is ``R`` and every ``X`` whose
  shared fingerprints cover at least ``threshold`` percent of ``R``'s:
  ``similarity(R, X) = 100 · |F(R) ∩ F(X)| / |F(R)|`` (distinct hashes).  A set
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
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.index.store import DocRow, FingerprintIndex

IntArray = npt.NDArray[np.int64]

#: Counts the distinct hashes shared by each pair of the given documents,
#: ignoring hashes in more than ``max_df`` of them: ``(a_ids, b_ids, shared)``.
#: Default :meth:`FingerprintIndex.shared_counts`; a sharded engine may stand in
#: (:class:`winnow.sharded.groups.ShardedCounter`).
PairCounter = Callable[[FingerprintIndex, npt.NDArray[np.int32], int],
                       tuple[IntArray, IntArray, IntArray]]


@dataclass(frozen=True)
class GroupOptions:
    """Post-processing choices; none of them requires re-reading files."""

    threshold: float = 50.0
    size_ratio: float | None = None
    same_suffix: bool = False
    mix_kinds: bool = False
    max_df: int = 200
    include_empty: bool = False
    interesting: bool = False


@dataclass(frozen=True)
class Member:
    """One file of a group; ``similarity`` (percent) is relative to the reference
    file: the share of the reference's fingerprints in a similar group, the
    share of the smaller file's in an interesting set."""

    path: str
    similarity: float
    size: int
    reference: bool


@dataclass(frozen=True)
class Group:
    number: int
    kind: str  # "identical", "similar" or "interesting"
    members: tuple[Member, ...]


@dataclass
class Pairs:
    """Similar-enough pairs among ``docs``: ``share[i, j]`` in percent of ``i``."""

    docs: list[DocRow]
    a: IntArray
    b: IntArray
    shared: IntArray


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
               counter: PairCounter = FingerprintIndex.shared_counts) -> Pairs:
    """Pairs of ``docs`` sharing fingerprints, with the filters applied."""
    if len(docs) < 2:
        empty = np.zeros(0, dtype=np.int64)
        return Pairs(docs, empty, empty, empty)
    ids = np.array([row.id for row in docs], dtype=np.int64)
    position = np.full(int(ids.max()) + 1, -1, dtype=np.int64)
    position[ids] = np.arange(ids.size)
    a_id, b_id, shared = counter(index, ids.astype(np.int32), options.max_df)
    a, b = position[a_id], position[b_id]
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


def directed_shares(pairs: Pairs) -> tuple[IntArray, IntArray, npt.NDArray[np.float64]]:
    """Both directions of every pair: ``(ref, other, 100·shared/|F(ref)|)``."""
    distinct = np.array([row.n_distinct for row in pairs.docs], dtype=np.float64)
    ref = np.concatenate([pairs.a, pairs.b])
    other = np.concatenate([pairs.b, pairs.a])
    shared = np.concatenate([pairs.shared, pairs.shared]).astype(np.float64)
    return ref, other, 100.0 * shared / distinct[ref]


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


def _share_lookup(pairs: Pairs) -> Callable[[int, list[int]], list[float]]:
    """``share_of(r, others)``: ``100·shared/min(|F(r)|, |F(o)|)`` for each other
    ``o`` (0 if unpaired): the share of the smaller file, the measure that joins
    the members of an interesting set (:mod:`winnow.sif.interesting`)."""
    ref, other, share = directed_shares(pairs)
    n = max(len(pairs.docs), 1)
    # both directions of a pair hold the same key once ordered; keep the larger share
    keys = np.minimum(ref, other) * n + np.maximum(ref, other)
    order = np.lexsort((-share, keys))
    keys, values = keys[order], share[order]
    first = np.r_[True, keys[1:] != keys[:-1]] if keys.size else np.zeros(0, dtype=bool)
    keys, values = keys[first], values[first]

    def share_of(r: int, others: list[int]) -> list[float]:
        if keys.size == 0 or not others:
            return [0.0] * len(others)
        o = np.asarray(others, dtype=np.int64)
        wanted = np.minimum(r, o) * n + np.maximum(r, o)
        at = np.minimum(np.searchsorted(keys, wanted), keys.size - 1)
        found: list[float] = np.where(keys[at] == wanted, values[at], 0.0).tolist()
        return found

    return share_of


def find_groups(index: FingerprintIndex, options: GroupOptions,
                counter: PairCounter = FingerprintIndex.shared_counts) -> GroupsResult:
    """Identical groups, then similar groups (and interesting sets if asked);
    ``counter`` counts the shared fingerprints of the pairs."""
    from winnow.sif.interesting import interesting_sets

    docs = index.documents()
    number = 0
    identical = []
    for rows in identical_sets(docs, options.include_empty):
        number += 1
        members = tuple(Member(r.path, 100.0, r.size, i == 0) for i, r in enumerate(rows))
        identical.append(Group(number, "identical", members))
    reps = representatives(docs)
    pairs = load_pairs(index, reps, options, counter)
    similar = []
    for r, others in similar_sets(pairs, options.threshold):
        number += 1
        head = Member(reps[r].path, 100.0, reps[r].size, True)
        rest = tuple(Member(reps[o].path, s, reps[o].size, False) for o, s in others)
        similar.append(Group(number, "similar", (head, *rest)))
    interesting = None
    if options.interesting:
        interesting = []
        share_of = _share_lookup(pairs)
        for clique in interesting_sets(pairs, options.threshold):
            number += 1
            sims = [100.0, *share_of(clique[0], clique[1:])]
            ranked = sorted(zip(clique[1:], sims[1:], strict=True), key=lambda ms: -ms[1])
            members = tuple(Member(reps[m].path, sim, reps[m].size, m == clique[0])
                            for m, sim in [(clique[0], 100.0), *ranked])
            interesting.append(Group(number, "interesting", members))
    return GroupsResult(identical, similar, interesting, options, len(docs))

