"""Reproduce the winnowing and sif papers' experiments on winnow's own code.

One module per experiment, each returning a :class:`~winnow.experiments.report.Section`
(tables, figures beside the paper's, plot data);
:mod:`winnow.experiments.runner` runs them and writes the Markdown report,
:mod:`winnow.experiments.plots` draws the plots (matplotlib, the
``experiments`` extra, imported only there).  This module imports nothing
heavy, so the command line can list the experiments cheaply.
"""

from __future__ import annotations

from typing import Final

#: Experiment names, in report order (``winnow experiments --only`` takes these).
EXPERIMENTS: Final = ("random", "html", "lowentropy", "frequency", "lowerbound", "sif",
                      "parameters")

__all__ = ["EXPERIMENTS"]
