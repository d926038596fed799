"""Clusters of near-duplicate and contained records, from the pair engine's sums.

For each pair of records ``a < b`` that share fingerprints the engine gives
``shared = |Fa ∩ Fb|`` and every record's ``|F|`` (its distinct fingerprints).
From those:

* resemblance ``shared / (|Fa| + |Fb| - shared)`` (Jaccard, Broder 1997);
* containment ``shared / min(|Fa|, |Fb|)``: how much of the smaller record
  is in the larger one (1.0: all of it).

Dedup's default measure of near-duplicates is not the fingerprints'
resemblance but the exact resemblance of the two records' word pairs,
computed for the *candidate* pairs alone (:mod:`winnow.corpus.words`;
:class:`Thresholds`' ``candidate``): the fingerprints' resemblance then
only chooses the candidates.

A pair is *linked* when its resemblance reaches ``similarity``, or when its
containment reaches ``containment`` and the smaller record has at least
``min_fingerprints`` fingerprints.  Clusters are the connected components of
the linked pairs (union-find, linear in the pairs: the pairs are read block
by block, never all held at once).  Memory: about 48 bytes per record.

Records with the same fingerprints (:func:`identical_sets`: the same text
but for case, spacing and punctuation) are linked whatever the ``-m`` cap
left of their fingerprints: however many copies a text has, they are one
cluster.

The **representative** of a cluster is its record with the most
fingerprints (the longest normalised text, so a record that contains the
others is kept), ties going to the first record in input order.  Clusters
are numbered from 1 in the input order of their representatives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.corpus import _kernels
from winnow.pairs.counting import repeated

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
F32 = npt.NDArray[np.float32]
Block = tuple[I64, I64, I64]


@dataclass(frozen=True)
class Thresholds:
    """``similarity`` applies to the pairs' resemblance: of their fingerprints,
    or, where ``candidate`` is given, of their word pairs
    (:mod:`winnow.corpus.words`), computed for the *candidate* pairs alone:
    those whose fingerprint resemblance reaches ``candidate`` or that are
    linked by containment."""

    similarity: float
    containment: float
    min_fingerprints: int
    candidate: float | None = None


def scores(a: I64, b: I64, shared: I64, sizes: I64) -> tuple[F64, F64]:
    """Resemblance and containment of the pairs ``(a[i], b[i])``."""
    size_a, size_b = sizes[a], sizes[b]
    union = (size_a + size_b - shared).astype(np.float64)
    smaller = np.minimum(size_a, size_b).astype(np.float64)
    resemblance = np.divide(shared, union, out=np.zeros(a.shape[0]), where=union > 0)
    containment = np.divide(shared, smaller, out=np.zeros(a.shape[0]), where=smaller > 0)
    return resemblance, containment


def linked(a: I64, b: I64, shared: I64, sizes: I64, thresholds: Thresholds,
           resemblance: F64 | None = None) -> tuple[npt.NDArray[np.bool_], F64, F64]:
    """Which pairs pass the thresholds, with their resemblance and containment;
    ``resemblance``: the pairs' word-pair resemblance, where ``thresholds``
    has a ``candidate`` bound (else that of their fingerprints)."""
    printed, containment = scores(a, b, shared, sizes)
    if resemblance is None:
        resemblance = printed
    keep = (resemblance >= thresholds.similarity) | contained(a, b, containment, sizes,
                                                              thresholds)
    return keep, resemblance, containment


def contained(a: I64, b: I64, containment: F64, sizes: I64,
              thresholds: Thresholds) -> npt.NDArray[np.bool_]:
    """Which pairs are linked by containment."""
    smaller = np.minimum(sizes[a], sizes[b])
    return (containment >= thresholds.containment) & (smaller >= thresholds.min_fingerprints)


def candidates(a: I64, b: I64, shared: I64, sizes: I64,
               thresholds: Thresholds) -> npt.NDArray[np.bool_]:
    """The pairs that can be linked: where ``thresholds`` has a ``candidate``
    bound, those whose fingerprint resemblance reaches it or that are linked
    by containment; else the linked pairs."""
    if thresholds.candidate is None:
        return linked(a, b, shared, sizes, thresholds)[0]
    out = np.empty(a.shape[0], dtype=np.bool_)
    if a.shape[0] and max(int(a.max()), int(b.max())) >= sizes.shape[0]:
        raise IndexError("a pair's record has no size")
    _kernels.candidate_mask(_int64(a), _int64(b), _int64(shared), _int64(sizes),
                            float(thresholds.candidate), float(thresholds.containment),
                            int(thresholds.min_fingerprints), out)
    return out


def _int64(values: npt.NDArray[np.integer]) -> I64:
    """``values`` as int64 (one compiled signature), copied only when not already."""
    return np.ascontiguousarray(values, dtype=np.int64)


@dataclass(frozen=True)
class LinkFilter:
    """The pairs :func:`candidates` keeps: the pair filter dedup gives the pair
    engines (:class:`winnow.pairs.PairFilter`), so that a sharded run writes
    and reads back only those instead of every pair sharing a fingerprint
    (27 million for the million records of ``benchmarks/scale.py``)."""

    thresholds: Thresholds

    def __call__(self, a: I64, b: I64, shared: I64, sizes: I64) -> npt.NDArray[np.bool_]:
        return candidates(a, b, shared, sizes, self.thresholds)

    @property
    def rule(self) -> tuple[float, float, int] | None:
        """The bounds of :func:`candidates`' compiled rule
        (:func:`winnow.corpus._kernels.is_candidate`: ``candidate``,
        ``containment``, ``min_fingerprints``), which a compiled count may
        apply as it sums the pairs; ``None`` without a ``candidate`` bound."""
        t = self.thresholds
        if t.candidate is None:
            return None
        return float(t.candidate), float(t.containment), int(t.min_fingerprints)


@dataclass
class Clusters:
    """Per record (by doc number): ``cluster`` (0: in none, else from 1),
    ``representative`` (the doc kept for its cluster, -1 for none), and its
    strongest linked pair: the other record ``match`` (-1: none), with that
    pair's ``resemblance`` and ``containment``."""

    cluster: I64
    representative: I64
    match: I64
    resemblance: F32
    containment: F32
    sizes: I64
    pairs: int = 0

    @property
    def count(self) -> int:
        return int(self.cluster.max(initial=0))

    @property
    def members(self) -> int:
        return int(np.count_nonzero(self.cluster))

    @property
    def removed(self) -> int:
        """Records that ``--keep representative`` leaves out."""
        return self.members - self.count

    def keeps(self, doc: int) -> bool:
        return bool(self.cluster[doc] == 0 or self.representative[doc] == doc)


def identical_sets(digests: npt.NDArray[np.uint64] | None, sizes: I64) -> tuple[I64, I64]:
    """Pairs ``(first, other)`` joining every record to the first record with
    the same fingerprint set (the same digest and size; a digest of 0 is no
    set): the copies the cap cannot hide."""
    if digests is None:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    docs = np.flatnonzero(digests[:sizes.shape[0]] != 0)
    docs = docs[repeated(digests[docs])[0]]  # a digest of one record alone pairs nothing
    order = docs[np.lexsort((docs, sizes[docs], digests[docs]))]
    if order.shape[0] < 2:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    key_d, key_s = digests[order], sizes[order]
    start = np.ones(order.shape[0], dtype=bool)
    start[1:] = (key_d[1:] != key_d[:-1]) | (key_s[1:] != key_s[:-1])
    first = order[np.flatnonzero(start)[np.cumsum(start) - 1]]
    copy = ~start
    return first[copy].astype(np.int64), order[copy].astype(np.int64)


def gather_candidates(blocks: Iterable[Block], sizes: I64, thresholds: Thresholds) -> Block:
    """The pairs of ``blocks`` that :func:`candidates` keeps, in one block."""
    kept: list[Block] = []
    for a, b, shared in blocks:
        keep = candidates(a, b, shared, sizes, thresholds)
        kept.append((a[keep].astype(np.int64), b[keep].astype(np.int64),
                     shared[keep].astype(np.int64)))
    if not kept:
        none = np.zeros(0, dtype=np.int64)
        return none, none, none
    return (np.concatenate([k[0] for k in kept]), np.concatenate([k[1] for k in kept]),
            np.concatenate([k[2] for k in kept]))


def cluster_pairs(blocks: Iterable[Block], sizes: I64, thresholds: Thresholds,
                  identical: tuple[I64, I64] | None = None,
                  words: Callable[[I64, I64], F64] | None = None) -> Clusters:
    """Link the pairs of ``blocks`` that pass ``thresholds`` into clusters, and
    the ``identical`` pairs (records with the same fingerprints,
    :func:`identical_sets`) whatever their counted scores: a text copied into
    more records than the ``-m`` cap shares only capped fingerprints, so its
    copies share no counted one, yet are one another's duplicates
    (resemblance and containment 1).  ``words(a, b)``: the pairs' word-pair
    resemblance (:func:`winnow.corpus.words.resemblances`), where
    ``thresholds`` has a ``candidate`` bound."""
    n = sizes.shape[0]
    parent = np.arange(n, dtype=np.int64)
    best_res = np.full(n, -1.0, dtype=np.float32)  # 4 bytes a record: scores need no more
    best_cont = np.full(n, -1.0, dtype=np.float32)
    match = np.full(n, -1, dtype=np.int64)
    pairs = 0
    if identical is not None and identical[0].shape[0]:
        ones = np.ones(identical[0].shape[0], dtype=np.float32)
        _kernels.link(parent, identical[0], identical[1], ones, ones, best_res, best_cont,
                      match)
        pairs += identical[0].shape[0]
    for a, b, shared in blocks:
        keep, resemblance, containment = linked(
            a, b, shared, sizes, thresholds, None if words is None else words(a, b))
        if keep.any():
            pairs += int(np.count_nonzero(keep))
            _kernels.link(parent, a[keep].astype(np.int64), b[keep].astype(np.int64),
                          resemblance[keep].astype(np.float32),
                          containment[keep].astype(np.float32), best_res, best_cont, match)
    root = _kernels.roots(parent)
    del parent
    in_cluster = match >= 0
    cluster = np.zeros(n, dtype=np.int64)
    representative = np.full(n, -1, dtype=np.int64)
    members = np.flatnonzero(in_cluster)
    if members.shape[0]:
        # representative: most fingerprints, then first; clusters in its order
        ordered = members[np.lexsort((members, -sizes[members], root[members]))]
        first = np.ones(ordered.shape[0], dtype=bool)
        first[1:] = root[ordered][1:] != root[ordered][:-1]
        group = np.cumsum(first) - 1  # each member's cluster, by root
        reps = ordered[first]
        rank = np.empty(reps.shape[0], dtype=np.int64)
        rank[np.argsort(reps)] = np.arange(reps.shape[0])
        representative[ordered] = reps[group]
        cluster[ordered] = rank[group] + 1
    return Clusters(cluster, representative, match, np.maximum(best_res, 0.0),
                    np.maximum(best_cont, 0.0), sizes, pairs)


__all__ = ["Block", "Clusters", "LinkFilter", "Thresholds", "candidates", "cluster_pairs",
           "contained", "gather_candidates", "identical_sets", "linked", "scores"]
