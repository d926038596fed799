"""The similarity histogram of the HTML report, as plain geometry for an inline SVG.

Computed here (server side) so the report needs no charting library: the template
only draws the rectangles and labels given by :func:`histogram`.  Given the counts of
*all* pairs (:attr:`ComparisonResult.histogram`), it draws those on a logarithmic
scale (a class has far more unrelated pairs than copied ones), the listed pairs over
them, and a band over the listed range.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 200
LEFT, RIGHT, TOP, BOTTOM = 40, 22, 12, 34


@dataclass(frozen=True, slots=True)
class Bar:
    """One bin: similarity in ``[low, high)`` percent (the last bin includes 100)."""

    x: float
    y: float
    width: float
    height: float
    low: int
    high: int
    count: int


@dataclass(frozen=True, slots=True)
class Tick:
    """An axis label at ``x`` (or ``y``) with its ``label``."""

    at: float
    label: str


@dataclass(frozen=True, slots=True)
class Histogram:
    """Everything the SVG template draws; ``threshold_x`` marks the cluster threshold.

    ``bars`` are the listed pairs, or with ``all_bars`` every pair; ``band`` spans the
    listed similarities ``(x_low, x_high)``; ``log`` says the counts are on a log scale.
    """

    width: int
    height: int
    bars: tuple[Bar, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    total: int
    threshold_x: float | None
    all_bars: tuple[Bar, ...] = ()
    all_total: int = 0
    band: tuple[float, float] | None = None
    log: bool = False


def _nice_step(peak: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50 ... that gives at most four steps up to ``peak``."""
    base = 1
    while True:
        for step in (base, 2 * base, 5 * base):
            if peak <= 4 * step:
                return step
        base *= 10


def _y_ticks(peak: int, axis_y: float, plot_h: float, log: bool) -> tuple[Tick, ...]:
    """Round counts from 0 to ``peak`` (the tallest bar): 0, 1, 10, 100 ... on a log scale."""
    if log:
        values = [0] + [10 ** e for e in range(int(math.log10(max(peak, 1))) + 1)]
    else:
        values = list(range(0, peak + 1, _nice_step(peak)))
    return tuple(Tick(axis_y - plot_h * _scale(v, peak, log), str(v)) for v in values)


def _scale(count: int, peak: int, log: bool) -> float:
    """Height of ``count`` as a share of the plot, the tallest bar ``peak`` being 1."""
    if log:
        return math.log10(1 + count) / math.log10(1 + peak)
    return count / peak


def _bars(counts: Sequence[int], peak: int, log: bool) -> tuple[Bar, ...]:
    bins = len(counts)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    slot = plot_w / bins
    bars = []
    for i, count in enumerate(counts):
        h = plot_h * _scale(count, peak, log)
        bars.append(Bar(LEFT + i * slot + 1, TOP + plot_h - h, slot - 2, h,
                        round(100 * i / bins), round(100 * (i + 1) / bins), count))
    return tuple(bars)


def _count(similarities: Sequence[float], bins: int) -> list[int]:
    counts = [0] * bins
    for value in similarities:
        counts[min(bins - 1, max(0, int(value * bins)))] += 1
    return counts


def histogram(
    similarities: Sequence[float], bins: int = 20, threshold: float | None = None,
    all_counts: Sequence[int] = (),
) -> Histogram:
    """Bin similarities (fractions in ``[0, 1]``) into ``bins`` equal bins over 0–100 %.

    ``all_counts``, when it has ``bins`` counts, are every pair's (the listed pairs
    are among them): they are drawn too, on a log scale, with the listed range marked.
    """
    counts = _count(similarities, bins)
    every = list(all_counts) if len(all_counts) == bins else []
    log = bool(every)
    peak = max(max(counts), *every, 1)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    x_ticks = tuple(Tick(LEFT + plot_w * p / 100, f"{p}%") for p in (0, 25, 50, 75, 100))
    threshold_x = None
    if threshold is not None and 0 <= threshold <= 1:
        threshold_x = LEFT + plot_w * threshold
    band = None
    if every and similarities:
        low = min(1.0, max(0.0, min(similarities)))
        high = min(1.0, max(0.0, max(similarities)))
        band = (LEFT + plot_w * low, max(LEFT + plot_w * high, LEFT + plot_w * low + 2))
    return Histogram(WIDTH, HEIGHT, _bars(counts, peak, log), x_ticks,
                     _y_ticks(peak, TOP + plot_h, plot_h, log),
                     LEFT, WIDTH - RIGHT, TOP, TOP + plot_h, len(similarities), threshold_x,
                     _bars(every, peak, log) if every else (), sum(every), band, log)
