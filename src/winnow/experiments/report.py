"""What an experiment returns, and the Markdown report made of it.

An experiment returns a :class:`Section`: our own prose (trusted Markdown),
tables whose cells are plain text (escaped here, at the edge: cells may hold
strings taken from the corpus), :class:`Figure` values (measured next to the
paper's, for the command's summary and the tests) and :class:`LinePlot` data
that :mod:`winnow.experiments.plots` draws.  Nothing here imports matplotlib.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class Figure:
    """One measured number, with the paper's value (or bound) when it gives one."""

    name: str
    value: float
    paper: float | None = None


@dataclass(frozen=True)
class Table:
    """A table of plain-text cells: every cell is escaped when written."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Series:
    """One line of a plot; ``style`` is a matplotlib format string (``"o-"``)."""

    label: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    style: str = "o-"


@dataclass(frozen=True)
class LinePlot:
    """A plot saved as ``<name>.png`` beside the report."""

    name: str
    title: str
    xlabel: str
    ylabel: str
    series: tuple[Series, ...]
    loglog: bool = False
    logx: bool = False


@dataclass
class Section:
    """One experiment's part of the report."""

    key: str
    title: str
    intro: str
    tables: list[Table] = field(default_factory=list)
    plots: list[LinePlot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    cpu_seconds: float = 0.0
    #: what the user must hear of (the command prints them on standard error)
    warnings: list[str] = field(default_factory=list)
    skipped: str | None = None

    def figure(self, name: str) -> Figure:
        """The figure called ``name`` (KeyError if absent)."""
        for fig in self.figures:
            if fig.name == name:
                return fig
        raise KeyError(name)

    def add(self, name: str, value: float, paper: float | None = None) -> float:
        """Record a figure and return its value."""
        self.figures.append(Figure(name, float(value), None if paper is None else float(paper)))
        return float(value)


def series(label: str, x: npt.ArrayLike, y: npt.ArrayLike, style: str = "o-") -> Series:
    """A :class:`Series` from any two equal-length arrays."""
    xs = np.asarray(x, dtype=np.float64).tolist()
    ys = np.asarray(y, dtype=np.float64).tolist()
    return Series(label, tuple(xs), tuple(ys), style)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def md_escape(text: str) -> str:
    """Plain text made inert inside a Markdown paragraph or table cell, and in
    the HTML a renderer makes of it: control characters shown as ``\\xNN``,
    the characters of emphasis, code, links and tables (``\\ ` * _ [ ] | ~``)
    backslash-escaped, then ``& < >`` as HTML entities, so a corpus string can
    never inject markup, a link or a table cell."""
    shown = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return html.escape(_MD_SPECIAL.sub(r"\\\1", shown), quote=False)


def fmt(value: float, digits: int = 6) -> str:
    """A number for a table: integers with thousands separators, others rounded."""
    if float(value).is_integer() and abs(value) >= 1:
        return f"{int(value):,}"
    return f"{value:.{digits}g}"


def table_markdown(table: Table) -> list[str]:
    """The Markdown lines of one table, every cell escaped."""
    lines = ["| " + " | ".join(md_escape(c) for c in table.columns) + " |",
             "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in table.rows]
    return lines


def section_markdown(section: Section, plot_dir: str) -> list[str]:
    """The Markdown lines of one section; plots are linked from ``plot_dir``."""
    lines = [f"## {section.title}", "", section.intro, ""]
    if section.skipped is not None:
        return [*lines, f"*Not run: {md_escape(section.skipped)}*", ""]
    for table in section.tables:
        lines += [*table_markdown(table), ""]
    for plot in section.plots:
        lines += [f"![{md_escape(plot.title)}]({plot_dir}/{plot.name}.png)", ""]
    for note in section.notes:
        lines += [note, ""]
    lines += [f"CPU time of this experiment: {section.cpu_seconds:.1f} s.", ""]
    return lines


def report_markdown(title: str, preface: Sequence[str], sections: Sequence[Section],
                    plot_dir: str) -> str:
    """The whole report: title, preface paragraphs, then every section."""
    lines = [f"# {title}", ""]
    for paragraph in preface:
        lines += [paragraph, ""]
    for section in sections:
        lines += section_markdown(section, plot_dir)
    return "\n".join(lines).rstrip("\n") + "\n"
