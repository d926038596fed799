"""Turning pair scores and passages into :class:`~winnow.matching.model.PairResult`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.engine import kgram_hashes
from winnow.matching.model import PairResult, Passage, Region
from winnow.matching.passages import Chain, assemble, join_seeds, masked_units, maximal_runs
from winnow.matching.scores import PairScores
from winnow.matching.table import FingerprintTable, in_sorted
from winnow.model import Document, Span

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]


@dataclass(frozen=True)
class FileInfo:
    """What passages need of one file: its owner, path, document and masked units."""

    owner: int
    path: str
    document: Document
    units: I64


def file_info(
    owner: int, path: str, doc: Document, file_id: int, mask: U64, k: int, seed: int,
) -> FileInfo:
    """The file's units with every unit of a k-gram whose hash is in ``mask``
    (sorted: base code and common fingerprints) masked out."""
    units = doc.stream.units
    excluded = np.zeros(0, dtype=np.int64)
    if mask.shape[0] and len(units) >= k:
        hashes = kgram_hashes(units, k, seed=seed)
        excluded = np.flatnonzero(in_sorted(hashes, mask)).astype(np.int64)
    return FileInfo(owner, path, doc, masked_units(units, excluded, k, -(file_id + 1)))


def pair_chains(
    table: FingerprintTable, a: int, b: int, infos: Mapping[int, FileInfo], k: int, gap: int
) -> list[Chain]:
    """The passages of submissions ``a`` and ``b`` in unit coordinates."""
    fa_h, fa_f, fa_p = table.rows(a)
    fb_h, fb_f, fb_p = table.rows(b)
    seed_fa, seed_pa, seed_fb, seed_pb = join_seeds(fa_h, fa_f, fa_p, fb_h, fb_f, fb_p)
    files = set(seed_fa.tolist()) | set(seed_fb.tolist())
    if not files <= infos.keys():  # a file that could not be read again
        known = np.array(sorted(files & infos.keys()), dtype=np.int64)
        usable = np.isin(seed_fa, known) & np.isin(seed_fb, known)
        seed_fa, seed_pa, seed_fb, seed_pb = (
            seed_fa[usable], seed_pa[usable], seed_fb[usable], seed_pb[usable]
        )
        files &= infos.keys()
    units = {f: infos[f].units for f in files}
    runs = maximal_runs(units, seed_fa, seed_pa, seed_fb, seed_pb, min_length=k)
    return assemble(runs, {f: units[f].shape[0] for f in files}, gap, min_length=k)


def _region(info: FileInfo, start: int, end: int) -> Region:
    span = Span(start, end)
    byte_span = info.document.stream.byte_span(span)
    return Region(info.path, span, byte_span, info.document.lines_of(byte_span))


def to_passages(chains: Sequence[Chain], infos: Mapping[int, FileInfo]) -> tuple[Passage, ...]:
    """Chains as :class:`Passage` values with byte and line ranges, numbered."""
    return tuple(
        Passage(
            index=i,
            a=_region(infos[c.fa], c.sa, c.ea),
            b=_region(infos[c.fb], c.sb, c.eb),
            length=c.matched,
            fingerprints=c.seeds,
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


def _union_length(spans: set[tuple[int, int]]) -> int:
    total, reach = 0, -1
    for start, end in sorted(spans):
        if end > reach:
            total += end - max(start, reach)
            reach = end
    return total


def pair_result(
    scores: PairScores, similarity: float, i: int, names: Sequence[str],
    units: I64, passages: tuple[Passage, ...] | None,
) -> PairResult:
    """The :class:`PairResult` of scored pair ``i``; ``passages=None`` when not computed.

    ``units[x]`` is the total length in units of submission ``x``.
    """
    a, b = int(scores.a[i]), int(scores.b[i])
    found = passages or ()
    covered_a, lines_a = _covered(found, "a")
    covered_b, lines_b = _covered(found, "b")
    computed = passages is not None
    return PairResult(
        a=names[a], b=names[b], similarity=float(similarity),
        shared=int(scores.shared[i]),
        containment_a=float(scores.containment_a[i]),
        containment_b=float(scores.containment_b[i]),
        jaccard=float(scores.jaccard[i]), weighted=float(scores.weighted[i]),
        rarity=float(scores.rarity[i]),
        passages_computed=computed,
        coverage_a=(covered_a / units[a] if units[a] else 0.0) if computed else None,
        coverage_b=(covered_b / units[b] if units[b] else 0.0) if computed else None,
        lines_a=lines_a if computed else None,
        lines_b=lines_b if computed else None,
        longest=max((p.length for p in found), default=0) if computed else None,
        passages=found,
    )
