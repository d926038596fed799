"""The similarity histogram of the HTML report, as plain geometry for an inline SVG.

Computed here (server side) so the report needs no charting library: the template
only draws the rectangles and labels given by :func:`histogram`.
"""

from __future__ import annotations

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
    """Everything the SVG template draws; ``threshold_x`` marks the cluster threshold."""

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


def _nice_step(peak: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50 ... that gives at most four steps up to ``peak``."""
    base = 1
    while True:
        for step in (base, 2 * base, 5 * base):
            if peak <= 4 * step:
                return step
        base *= 10


def _y_ticks(peak: int, axis_y: float, plot_h: float) -> tuple[Tick, ...]:
    """Round counts from 0 to ``peak`` (the tallest bar)."""
    step = _nice_step(peak)
    return tuple(Tick(axis_y - plot_h * value / peak, str(value))
                 for value in range(0, peak + 1, step))


def histogram(
    similarities: Sequence[float], bins: int = 20, threshold: float | None = None
) -> Histogram:
    """Bin similarities (fractions in ``[0, 1]``) into ``bins`` equal bins over 0–100 %."""
    counts = [0] * bins
    for value in similarities:
        index = min(bins - 1, max(0, int(value * bins)))
        counts[index] += 1
    peak = max(max(counts), 1)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    slot = plot_w / bins
    bars = []
    for i, count in enumerate(counts):
        h = plot_h * count / peak
        bars.append(Bar(LEFT + i * slot + 1, TOP + plot_h - h, slot - 2, h,
                        round(100 * i / bins), round(100 * (i + 1) / bins), count))
    x_ticks = tuple(Tick(LEFT + plot_w * p / 100, f"{p}%") for p in (0, 25, 50, 75, 100))
    threshold_x = None
    if threshold is not None and 0 <= threshold <= 1:
        threshold_x = LEFT + plot_w * threshold
    return Histogram(WIDTH, HEIGHT, tuple(bars), x_ticks, _y_ticks(peak, TOP + plot_h, plot_h),
                     LEFT, WIDTH - RIGHT, TOP, TOP + plot_h, len(similarities), threshold_x)
