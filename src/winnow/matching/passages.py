"""Passages: the second pass, run only for the pairs worth showing.

Section 5.2 of the winnowing paper (Schleimer, Wilkerson, Aiken 2003): once a
pair is found, its matching fingerprints are merged into passages, and the
paper suggests refining a found pair with a closer look.  Here:

1. **Seeds** — every occurrence pair ``(file_a, pos_a, file_b, pos_b)`` of a
   kept fingerprint shared by the two submissions (:func:`join_seeds`).
2. **Maximal runs** — each seed is extended left and right over equal units
   of the two normalised streams, to the maximal exact match containing it
   (:func:`maximal_runs`); seeds inside an already found run (same diagonal)
   are absorbed.  A run never holds a whole k-gram of base code.
3. **One-to-one** — runs are taken longest first; a run overlapping one
   already taken on either side is trimmed to its longest free stretch, or
   dropped when that is shorter than ``k`` (:func:`assemble`).
4. **Merging** — runs that follow each other in the same order in both
   files, with gaps of at most ``gap`` units on both sides, become one
   passage (the consecutive-match merge of section 5.2); the passage keeps
   its gaps, so that a report can show them as such.

Plain functions over numpy arrays; positions are unit indices, half-open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from winnow.compiled import uninterrupted
from winnow.matching import _kernels

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]

#: Occurrence pairs of one hash beyond this many are not used as seeds
#: (a fragment repeated many times in both files adds nothing but cost).
MAX_SEEDS_PER_HASH = 64


@dataclass(frozen=True, slots=True)
class Run:
    """An exact match: ``length`` units from ``sa`` in file ``fa`` and ``sb`` in ``fb``."""

    fa: int
    fb: int
    sa: int
    sb: int
    length: int
    seeds: int


class Runs(NamedTuple):
    """Runs as arrays, one entry per run (the fields of :class:`Run`)."""

    fa: I64
    fb: I64
    sa: I64
    sb: I64
    length: I64
    seeds: I64

    @classmethod
    def of(cls, runs: Sequence[Run]) -> Runs:
        columns = [np.array([getattr(r, name) for r in runs], dtype=np.int64)
                   for name in cls._fields]
        return cls(*columns)

    def as_list(self) -> list[Run]:
        return [Run(*row) for row in zip(*(column.tolist() for column in self), strict=True)]


@dataclass(frozen=True, slots=True)
class Chain:
    """A passage in unit coordinates: ``[sa, ea)`` of ``fa`` against ``[sb, eb)`` of ``fb``;
    ``matched`` units are exact matches, ``seeds`` shared fingerprints inside;
    ``gaps`` the unmatched stretches its runs were joined across,
    ``(sa, ea, sb, eb)`` each (one side may be empty)."""

    fa: int
    fb: int
    sa: int
    ea: int
    sb: int
    eb: int
    matched: int
    seeds: int
    gaps: tuple[tuple[int, int, int, int], ...] = ()


def join_seeds(
    ha: U64, fa: I64, pa: I64, hb: U64, fb: I64, pb: I64
) -> tuple[I64, I64, I64, I64]:
    """All ``(fa, pa, fb, pb)`` with equal hashes; ``ha`` and ``hb`` sorted."""
    lo = np.searchsorted(hb, ha, side="left")
    hi = np.searchsorted(hb, ha, side="right")
    counts = hi - lo
    counts[counts > MAX_SEEDS_PER_HASH] = 0
    left = np.repeat(np.arange(ha.shape[0]), counts)
    if left.shape[0] == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    offsets = np.arange(left.shape[0]) - np.repeat(np.cumsum(counts) - counts, counts)
    right = np.repeat(lo, counts) + offsets
    return fa[left], pa[left], fb[right], pb[right]


def maximal_runs(
    units: dict[int, I64], fa: I64, pa: I64, fb: I64, pb: I64, min_length: int,
    free: dict[int, npt.NDArray[np.bool_]] | None = None, kgrams: dict[int, int] | None = None,
) -> Runs:
    """The maximal exact runs through the seeds, each found once.

    ``units[f]`` is file ``f``'s stream.  Each seed is extended left and right while the units
    are equal and the run holds no ``kgrams[f]``-long k-gram starting where
    ``free[f]`` is false (base code; default: everywhere free); seeds inside
    an already found run on the same diagonal are absorbed; runs shorter
    than ``min_length`` (a hash collision) are dropped.  The loop is compiled
    (:func:`winnow.matching._kernels.extend_seeds`).
    """
    if fa.shape[0] == 0:
        return Runs.of([])
    files = sorted(units)
    ids = np.array(files, dtype=np.int64)
    sizes = np.array([0] + [units[f].shape[0] for f in files], dtype=np.int64)
    bounds = np.cumsum(sizes)
    joined = np.concatenate([units[f] for f in files]).astype(np.int64, copy=False)
    allowed = (np.ones(joined.shape[0], dtype=np.bool_) if free is None
               else np.concatenate([free[f] for f in files]).astype(np.bool_))
    la, lb = np.searchsorted(ids, fa), np.searchsorted(ids, fb)
    order = np.lexsort((pa, pb - pa, lb, la))
    with uninterrupted():  # six arrays come back (winnow.compiled.uninterrupted)
        ra, rb, sa, sb, length, seeds = _kernels.extend_seeds(
            joined, allowed,
            np.array([(kgrams or {}).get(f, 1) for f in files], dtype=np.int64),
            bounds, la[order], pa[order].astype(np.int64), lb[order],
            pb[order].astype(np.int64), int(min_length))
    ids_of = np.asarray(files, dtype=np.int64)
    return Runs(ids_of[ra], ids_of[rb], sa, sb, length, seeds)


def assemble(runs: Runs | Sequence[Run], sizes: dict[int, int], gap: int,
             min_length: int = 1) -> list[Chain]:
    """One-to-one runs (longest first), merged into passages; longest passage first.

    ``sizes[f]`` is the length in units of file ``f``.  A run overlapping runs
    already taken is trimmed to its (first) longest stretch free on both
    sides, and dropped if that is shorter than ``min_length``; the taking is
    compiled (:func:`winnow.matching._kernels.claim_runs`).
    """
    fa, fb, sa, sb, length, seeds = runs if isinstance(runs, Runs) else Runs.of(runs)
    files = np.array(sorted(sizes), dtype=np.int64)
    base = np.cumsum([0] + [sizes[f] for f in files.tolist()]).astype(np.int64)
    order = np.lexsort((sb, fb, sa, fa, -length))
    fa, fb, sa, sb, length, seeds = (c[order] for c in (fa, fb, sa, sb, length, seeds))
    claimed = np.zeros(int(base[-1]), dtype=np.bool_)
    with uninterrupted():  # two arrays come back (winnow.compiled.uninterrupted)
        offsets, kept = _kernels.claim_runs(
            claimed, base[np.searchsorted(files, fa)] + sa,
            base[np.searchsorted(files, fb)] + sb, length, int(min_length))
    took = kept >= 0
    taken = Runs(fa[took], fb[took], sa[took] + offsets[took], sb[took] + offsets[took],
                 kept[took], seeds[took])
    by_place = np.lexsort((taken.sa, taken.fb, taken.fa))  # stable: ties keep the claim order
    chains: list[Chain] = []
    for run in Runs(*(column[by_place] for column in taken)).as_list():
        if chains:
            cur = chains[-1]
            if (
                cur.fa == run.fa and cur.fb == run.fb
                and 0 <= run.sa - cur.ea <= gap and 0 <= run.sb - cur.eb <= gap
            ):
                hole = (cur.ea, run.sa, cur.eb, run.sb)
                chains[-1] = Chain(
                    cur.fa, cur.fb, cur.sa, run.sa + run.length, cur.sb, run.sb + run.length,
                    cur.matched + run.length, cur.seeds + run.seeds,
                    cur.gaps + ((hole,) if run.sa > cur.ea or run.sb > cur.eb else ()),
                )
                continue
        chains.append(Chain(
            run.fa, run.fb, run.sa, run.sa + run.length, run.sb, run.sb + run.length,
            run.length, run.seeds,
        ))
    chains.sort(key=lambda c: (-c.matched, c.fa, c.sa))
    return chains
