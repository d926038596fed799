"""Turning pair scores and passages into :class:`~winnow.matching.model.PairResult`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from winnow.matching import _span_kernels
from winnow.matching.base import covered
from winnow.matching.model import PairResult, Passage, Region
from winnow.matching.passages import Chain, assemble, join_seeds, maximal_runs
from winnow.matching.scores import PairScores, power_mean
from winnow.matching.table import in_sorted, stable_order
from winnow.model import Document, Span

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]


@dataclass(frozen=True)
class FileInfo:
    """What passages need of one file: its owner, path, document, units, where
    a passage may hold the k-gram starting at each unit (``free``: not base
    code), and its kept fingerprints ``(hashes, positions)`` sorted by hash."""

    owner: int
    path: str
    document: Document
    k: int
    units: I64
    free: npt.NDArray[np.bool_]
    hashes: U64
    positions: I64
    ends: I64
    #: Per fingerprint: of the literal channel (:func:`winnow.matching.shares.literal_cover`).
    literal: npt.NDArray[np.bool_]
    #: Per unit: inside a k-gram of a common fingerprint (``-m``, not counted).
    common: npt.NDArray[np.bool_]
    #: The fingerprints' rows in order of position, and their positions in
    #: that order: a passage's fingerprints are one slice (:func:`span`).
    by_position: I64
    sorted_positions: I64
    #: The file is fingerprinted in both channels (code, with ``literal_k``).
    two_channels: bool = False


def file_info(
    owner: int, path: str, doc: Document, k: int, free: npt.NDArray[np.bool_],
    hashes: U64, positions: I64, excluded: U64, lengths: I64 | None = None,
    literal_from: int | None = None, window: int = 1,
) -> FileInfo:
    """The file's k (of its main channel), units and ``free`` k-gram starts, and its
    fingerprints ``(hashes, positions)`` (those outside the base code) less the
    ``excluded`` hashes (common: the table did not count them); ``lengths[i]``
    is the length of fingerprint ``i``'s k-gram (default ``k``), so ``ends``
    says where each ends; fingerprints from index ``literal_from`` on are the
    literal channel's (``None``: the file has one channel).  ``common`` marks
    the units of the excluded fingerprints' k-grams, each widened on both sides
    by the ``window`` less one (winnowing selects one in every window, so a
    stretch of common code is marked whole).  Arrays are copied only where a
    fingerprint is left out."""
    n = hashes.shape[0]
    every = np.full(n, k, dtype=np.int64) if lengths is None else lengths.astype(np.int64)
    literal = np.arange(n) >= (n if literal_from is None else literal_from)
    n_units = len(doc.stream.units)
    common = np.zeros(n_units, dtype=bool)
    # sorted first: the binary searches then walk the excluded hashes in
    # order (a third of their time), and the kept rows keep their order
    order, hashes = stable_order(np.ascontiguousarray(hashes, dtype=np.uint64))
    left_out = in_sorted(hashes, excluded)
    if left_out.any():
        marks = np.zeros(n_units + 1, dtype=np.int64)
        rows = order[left_out]
        starts = positions[rows].astype(np.int64)
        np.add.at(marks, np.clip(starts - window + 1, 0, n_units), 1)
        np.add.at(marks, np.minimum(starts + every[rows] + window - 1, n_units), -1)
        common = np.cumsum(marks[:-1]) > 0
        kept = ~left_out
        order, hashes = order[kept], hashes[kept]
    positions = positions[order].astype(np.int64, copy=False)
    by_position = _span_kernels.position_order(positions)
    return FileInfo(owner, path, doc, k, np.asarray(doc.stream.units).astype(np.int64), free,
                    hashes, positions, positions + every[order], literal[order],
                    common, by_position, positions[by_position], literal_from is not None)


Rows = tuple[U64, I64, I64]


def owner_rows(infos: Mapping[int, FileInfo]) -> dict[int, Rows]:
    """Per owner, the ``(hashes, files, positions)`` of its files, sorted by hash."""
    by_owner: dict[int, list[int]] = {}
    for file_id, info in infos.items():
        by_owner.setdefault(info.owner, []).append(file_id)
    rows: dict[int, Rows] = {}
    for owner, ids in by_owner.items():
        h = np.concatenate([infos[i].hashes for i in ids])
        f = np.repeat(np.array(ids, dtype=np.int64), [infos[i].hashes.shape[0] for i in ids])
        p = np.concatenate([infos[i].positions for i in ids])
        order = np.argsort(h, kind="stable")
        rows[owner] = (h[order], f[order], p[order])
    return rows


def pair_chains(
    rows: Mapping[int, Rows], a: int, b: int, infos: Mapping[int, FileInfo], k: int, gap: int,
) -> list[Chain]:
    """The passages of submissions ``a`` and ``b`` in unit coordinates
    (``rows`` from :func:`owner_rows`; an owner none of whose files could be
    read again has none), at least ``k`` units long: the shortest k-gram of
    the channels, so that every shared fingerprint seeds one.  No passage
    holds a k-gram of the base code (``FileInfo.free``, ``FileInfo.k``)."""
    empty: Rows = (np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.int64))
    fa_h, fa_f, fa_p = rows.get(a, empty)
    fb_h, fb_f, fb_p = rows.get(b, empty)
    seed_fa, seed_pa, seed_fb, seed_pb = join_seeds(fa_h, fa_f, fa_p, fb_h, fb_f, fb_p)
    files = set(seed_fa.tolist()) | set(seed_fb.tolist())
    units = {f: infos[f].units for f in files}
    runs = maximal_runs(units, seed_fa, seed_pa, seed_fb, seed_pb, min_length=k,
                        free={f: infos[f].free for f in files},
                        kgrams={f: infos[f].k for f in files})
    chains = assemble(runs, {f: units[f].shape[0] for f in files}, gap, min_length=k)
    if not all(info.free.all() for info in (infos[f] for f in files)):
        chains = [_trim(c, covered(infos[c.fa].free, infos[c.fa].k),
                        covered(infos[c.fb].free, infos[c.fb].k), (c.ea - c.sa, c.ea - c.sa))
                  for c in chains]
    if any(info.common.any() for info in (infos[f] for f in files)):
        chains = [_trim(c, infos[c.fa].common, infos[c.fb].common,
                        _hull(infos[c.fa], c.sa, c.ea, infos[c.fb], c.sb, c.eb))
                  for c in chains]
    return [replace(c, seeds=inside(infos[c.fa], c.sa, c.ea, infos[c.fb], c.sb, c.eb))
            for c in chains]


def span(info: FileInfo) -> tuple[U64, I64, I64, I64]:
    """What the compiled span loops read of a file (:mod:`winnow.matching._span_kernels`)."""
    return info.hashes, info.by_position, info.sorted_positions, info.ends


def shared_within(a: FileInfo, sa: int, ea: int, b: FileInfo, sb: int, eb: int) -> U64:
    """The distinct hashes, sorted, with an occurrence wholly inside ``[sa,
    ea)`` of ``a`` and one wholly inside ``[sb, eb)`` of ``b``."""
    shared: U64 = _span_kernels.shared_hashes(*span(a), sa, ea, *span(b), sb, eb)
    return shared


def inside(a: FileInfo, sa: int, ea: int, b: FileInfo, sb: int, eb: int) -> int:
    """How many shared fingerprints a passage holds (:func:`shared_within`):
    never more than the k-grams of the two channels that fit in it."""
    return int(shared_within(a, sa, ea, b, sb, eb).shape[0])


def _hull(a: FileInfo, sa: int, ea: int, b: FileInfo, sb: int, eb: int) -> tuple[int, int]:
    """How far a chain's ends may be trimmed without cutting into a shared
    fingerprint inside it: ``(lead, tail)`` units at most."""
    shared = shared_within(a, sa, ea, b, sb, eb)
    if shared.shape[0] == 0:
        return ea - sa, ea - sa
    lead, tail = ea - sa, ea - sa
    for info, start, end in ((a, sa, ea), (b, sb, eb)):
        first, last = _span_kernels.shared_extent(*span(info), info.positions, start, end,
                                                  shared)
        lead = min(lead, int(first) - start)
        tail = min(tail, end - int(last))
    return lead, tail


def _trim(chain: Chain, base_a: npt.NDArray[np.bool_], base_b: npt.NDArray[np.bool_],
          limits: tuple[int, int]) -> Chain:
    """``chain`` with the units ``base_a``/``base_b`` mark (starter code, or
    common code) at its ends cut off (the same count on both sides, so they
    stay aligned), unless nothing would be left; never more than ``limits``
    (lead, tail) units (for common code: so that no shared fingerprint it
    holds is cut)."""
    lead = 0
    while (lead < limits[0] and chain.sa + lead < chain.ea and chain.sb + lead < chain.eb
           and (base_a[chain.sa + lead] or base_b[chain.sb + lead])):
        lead += 1
    tail = 0
    while (tail < limits[1] and chain.ea - tail - 1 > chain.sa + lead
           and chain.eb - tail - 1 > chain.sb + lead
           and (base_a[chain.ea - tail - 1] or base_b[chain.eb - tail - 1])):
        tail += 1
    if chain.sa + lead >= chain.ea - tail or chain.sb + lead >= chain.eb - tail:
        return chain
    return replace(chain, sa=chain.sa + lead, ea=chain.ea - tail, sb=chain.sb + lead,
                   eb=chain.eb - tail, matched=max(1, chain.matched - lead - tail))


def _region(info: FileInfo, start: int, end: int) -> Region:
    span = Span(start, end)
    byte_span = info.document.stream.byte_span(span)
    return Region(info.path, span, byte_span, info.document.lines_of(byte_span))


def to_passages(chains: Sequence[Chain], infos: Mapping[int, FileInfo]) -> tuple[Passage, ...]:
    """Chains as :class:`Passage` values with byte and line ranges, numbered;
    with the gaps that lie inside them (after their ends were trimmed)."""
    return tuple(
        Passage(
            index=i,
            a=_region(infos[c.fa], c.sa, c.ea),
            b=_region(infos[c.fb], c.sb, c.eb),
            length=c.matched,
            fingerprints=c.seeds,
            gaps=tuple((_region(infos[c.fa], ga, gb), _region(infos[c.fb], gc, gd))
                       for ga, gb, gc, gd in c.gaps
                       if c.sa <= ga and gb <= c.ea and c.sb <= gc and gd <= c.eb),
        )
        for i, c in enumerate(chains)
    )


def _covered(passages: Sequence[Passage], side: str) -> tuple[int, int]:
    """Units covered and distinct lines touched on one side (union over passages)."""
    units: dict[str, set[tuple[int, int]]] = {}
    lines: dict[str, set[int]] = {}
    for passage in passages:
        region: Region = getattr(passage, side)
        units.setdefault(region.file, set()).add((region.units.start, region.units.end))
        lines.setdefault(region.file, set()).update(
            range(region.lines[0], region.lines[1] + 1)
        )
    covered = sum(_union_length(spans) for spans in units.values())
    return covered, sum(len(x) for x in lines.values())


def _share(covered: int, literal_covered: int, units: int, literal_units: int) -> float:
    """:func:`winnow.matching.shares.share` (kept here: shares imports this module)."""
    total = units + literal_units
    return (covered + literal_covered) / total if total else 0.0


def _union_length(spans: set[tuple[int, int]]) -> int:
    total, reach = 0, -1
    for start, end in sorted(spans):
        if end > reach:
            total += end - max(start, reach)
            reach = end
    return total


def pair_result(
    scores: PairScores, score: float, i: int, names: Sequence[str],
    units: I64, passages: tuple[Passage, ...] | None, literal: Any = None,
) -> PairResult:
    """The :class:`PairResult` of scored pair ``i``, ranked by ``score``;
    ``passages=None`` when not computed.

    Its ``similarity`` is the power mean of the shares of the two sides the
    passages cover (:func:`~winnow.matching.scores.power_mean`; the shares
    count the literal channel, ``literal``, a
    :class:`winnow.matching.shares.Literal`, see :mod:`winnow.matching.shares`),
    or, without passages, of the two containments (:attr:`PairScores.estimate`).
    ``units[x]`` is the total length in units of submission ``x``.
    """
    a, b = int(scores.a[i]), int(scores.b[i])
    if passages is None:
        return PairResult(
            a=names[a], b=names[b], similarity=float(scores.estimate[i]),
            shared=int(scores.shared[i]), containment_a=float(scores.containment_a[i]),
            containment_b=float(scores.containment_b[i]), jaccard=float(scores.jaccard[i]),
            weighted=float(scores.weighted[i]), rarity=float(scores.rarity[i]),
            score=float(score))
    found = passages
    covered_a, lines_a = _covered(found, "a")
    covered_b, lines_b = _covered(found, "b")
    computed = True
    share_a = float(covered_a / units[a]) if units[a] else 0.0
    share_b = float(covered_b / units[b]) if units[b] else 0.0
    lit = (0, 0, 0, 0) if literal is None else (literal.covered_a, literal.covered_b,
                                                 literal.units_a, literal.units_b)
    both_a = _share(covered_a, lit[0], int(units[a]), lit[2])
    both_b = _share(covered_b, lit[1], int(units[b]), lit[3])
    similarity = float(power_mean(np.array([both_a]), np.array([both_b]))[0])
    return PairResult(
        a=names[a], b=names[b], similarity=similarity, score=float(score),
        shared=int(scores.shared[i]),
        containment_a=float(scores.containment_a[i]),
        containment_b=float(scores.containment_b[i]),
        jaccard=float(scores.jaccard[i]), weighted=float(scores.weighted[i]),
        rarity=float(scores.rarity[i]),
        passages_computed=computed,
        coverage_a=share_a if computed else None,
        coverage_b=share_b if computed else None,
        lines_a=lines_a if computed else None,
        lines_b=lines_b if computed else None,
        longest=max((p.length for p in found), default=0) if computed else None,
        passages=distinct_passages(found),
    )


def distinct_passages(passages: tuple[Passage, ...]) -> tuple[Passage, ...]:
    """``passages`` less those over the same bytes on both sides as an earlier
    one, numbered again: the copies of a stream's repeated part
    (:attr:`winnow.model.Stream.repeats`) match alike, and a report shows
    such a passage once.  The scores count them all."""
    seen: set[tuple[str, Span, str, Span]] = set()
    kept: list[Passage] = []
    for passage in passages:
        key = (passage.a.file, passage.a.bytes, passage.b.file, passage.b.bytes)
        if key not in seen:
            seen.add(key)
            kept.append(passage if passage.index == len(kept)
                        else replace(passage, index=len(kept)))
    return passages if len(kept) == len(passages) else tuple(kept)


class PairList(Sequence[PairResult]):
    """The reported pairs, best first, each :class:`PairResult` made when it is
    read: ``computed`` holds the first pairs (those with passages), the others
    are built from the score arrays on access, so that ``-n 0`` on a large
    class holds arrays, not hundreds of thousands of objects, and a writer
    that iterates streams them."""

    def __init__(self, scores: PairScores, score: npt.NDArray[np.float64], ranked: I64,
                 names: Sequence[str], units: I64, computed: Sequence[PairResult]) -> None:
        self._scores, self._score, self._ranked = scores, score, ranked
        self._names, self._units, self._computed = list(names), units, list(computed)

    def __len__(self) -> int:
        return int(self._ranked.shape[0])

    @property
    def with_passages(self) -> int:
        """How many leading pairs had their passages computed (the others have none)."""
        return len(self._computed)

    @property
    def names(self) -> list[str]:
        """The submissions' names; :meth:`score_columns` gives pairs as indices into it."""
        return self._names

    def score_columns(self, start: int, stop: int) -> tuple[I64, dict[str, npt.NDArray[Any]]]:
        """The scores of pairs ``start .. stop - 1`` (none of them with passages),
        for writers that stream many pairs without making an object per pair:
        the pairs' rows, and the score columns they index, under
        :class:`PairResult`'s names (``a`` and ``b`` as indices into
        :attr:`names`), whole (``columns[name][rows]`` are the pairs' values;
        the list's own arrays: read them, never write)."""
        if start < len(self._computed):
            raise ValueError("score_columns covers pairs without passages only")
        s = self._scores
        return self._ranked[start:stop], {
            "a": s.a, "b": s.b, "similarity": s.estimate, "shared": s.shared,
            "containment_a": s.containment_a, "containment_b": s.containment_b,
            "jaccard": s.jaccard, "weighted": s.weighted, "rarity": s.rarity,
            "score": self._score,
        }

    def _make(self, j: int) -> PairResult:
        if j < len(self._computed):
            return self._computed[j]
        i = int(self._ranked[j])
        return pair_result(self._scores, float(self._score[i]), i, self._names,
                           self._units, None)

    @overload
    def __getitem__(self, index: int) -> PairResult: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[PairResult, ...]: ...

    def __getitem__(self, index: int | slice) -> PairResult | tuple[PairResult, ...]:
        if isinstance(index, slice):
            return tuple(self._make(j) for j in range(*index.indices(len(self))))
        j = index + len(self) if index < 0 else index
        if not 0 <= j < len(self):
            raise IndexError("pair index out of range")
        return self._make(j)

    def __iter__(self) -> Iterator[PairResult]:
        return (self._make(j) for j in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or len(other) != len(self):
            return False
        return all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PairList({len(self)} pairs)"
