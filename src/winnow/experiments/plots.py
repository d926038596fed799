"""Drawing :class:`LinePlot` data as PNG files with matplotlib.

matplotlib is the optional ``experiments`` extra; it is imported only when a
plot is drawn, so nothing else in winnow pays for it.  The object-oriented
API (``Figure`` with the Agg canvas) keeps no global state; the PNGs carry no
version metadata, so regenerating them gives the same bytes for the same data.
"""

from __future__ import annotations

from pathlib import Path

from winnow.errors import MissingExtra, install_hint
from winnow.experiments.report import LinePlot


def require_matplotlib() -> None:
    """Raise :class:`~winnow.errors.MissingExtra` now, before any experiment runs, if
    matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as error:
        raise MissingExtra(
            f"the plots need matplotlib: {install_hint('experiments')}") from error


def draw(plot: LinePlot, path: Path) -> None:
    """Save ``plot`` as a PNG at ``path``."""
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 4.4), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for line in plot.series:
        axes.plot(line.x, line.y, line.style, label=line.label, markersize=3)
    if plot.loglog or plot.logx:
        axes.set_xscale("log")
    if plot.loglog:
        axes.set_yscale("log")
    axes.set_title(plot.title, fontsize=10)
    axes.set_xlabel(plot.xlabel)
    axes.set_ylabel(plot.ylabel)
    axes.grid(True, which="major", alpha=0.3)
    axes.legend(fontsize=7)
    figure.savefig(path, dpi=100, metadata={"Software": None})
