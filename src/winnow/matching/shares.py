"""The shares of a pair's two submissions that its passages cover, in the
units a reader sees, with the literal channel counted in those units.

A code file is compared in two channels (docs/compare.md): its normalised
tokens, and the same tokens with every literal kept as its text.  A passage
is a run of equal normalised tokens; inside it, the tokens also covered by
shared k-grams of the literal channel are those whose strings and numbers
match too.  So every token of a two-channel file counts twice, once per
channel, and a side's share is

    share = (covered + literal_covered) / (units + two_channel_units)

``covered`` the tokens inside passages (``coverage`` × ``units``),
``literal_covered`` the tokens inside the literal channel's shared k-grams
of those passages, ``two_channel_units`` the tokens of the submission's
two-channel files.  A file with one channel (prose, ``--literal-k 0``)
adds nothing to the second terms: its share is its coverage.  A share is
never above the coverage the report highlights
(:func:`winnow.matching.pairs.pair_result` applies the formula).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.matching import _span_kernels
from winnow.matching.pairs import FileInfo, shared_within, span
from winnow.matching.passages import Chain

I64 = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Literal:
    """Per side of a pair: tokens inside the literal channel's shared k-grams
    of its passages, and tokens of its two-channel files."""

    covered_a: int = 0
    covered_b: int = 0
    units_a: int = 0
    units_b: int = 0


def literal_cover(chains: Sequence[Chain], infos: Mapping[int, FileInfo]) -> tuple[int, int]:
    """Tokens of side ``a`` and of side ``b`` inside the literal channel's
    shared k-grams that lie in the passages ``chains``."""
    totals = [0, 0]
    for chain in chains:
        a, b = infos[chain.fa], infos[chain.fb]
        shared = shared_within(a, chain.sa, chain.ea, b, chain.sb, chain.eb)
        sides = ((a, chain.sa, chain.ea), (b, chain.sb, chain.eb))
        for side, (info, start, end) in enumerate(sides):
            totals[side] += int(_span_kernels.literal_units(
                *span(info), info.literal, info.positions, start, end, shared))
    return totals[0], totals[1]


def two_channel_units(infos: Mapping[int, FileInfo]) -> dict[int, int]:
    """Per owner, the tokens of its files fingerprinted in both channels."""
    out: dict[int, int] = {}
    for info in infos.values():
        if info.two_channels:
            out[info.owner] = out.get(info.owner, 0) + int(info.units.shape[0])
    return out

