"""Output of ``winnow languages`` and ``winnow experiments``: short fixed listings.

Each has a table, CSV, JSON and JSON Lines writer, registered in
:mod:`winnow.reports.writers`.  This module imports nothing heavy (``winnow
languages`` loads neither numpy nor numba).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from winnow.reports.rows import write_csv_rows, write_json_list, write_jsonl_rows
from winnow.reports.table import safe

#: Columns of ``winnow languages --format csv``.
LANGUAGE_COLUMNS = ("language", "extensions", "backend")
#: Columns of ``winnow experiments --format csv``.
FIGURE_COLUMNS = ("experiment", "figure", "measured", "paper")


# -- languages ----------------------------------------------------------------------

@dataclass(frozen=True)
class LanguageListing:
    """The code front-end's languages: ``(name, extensions, backend)`` each,
    ``backend`` being ``fast`` or ``fallback``."""

    languages: Sequence[tuple[str, Sequence[str], str]]

    def rows(self) -> list[dict[str, str]]:
        return [{"language": name, "extensions": " ".join(exts), "backend": backend}
                for name, exts, backend in self.languages]


def languages_table(listing: LanguageListing, out: TextIO) -> None:
    rows = listing.rows()
    out.write(f"{'language':<14} {'backend':<9} extensions\n")
    for row in rows:
        out.write(f"{row['language']:<14} {row['backend']:<9} {row['extensions']}\n")
    fast = sum(row["backend"] == "fast" for row in rows)
    out.write(f"{len(rows)} languages ({fast} fast, {len(rows) - fast} fallback)\n")


def languages_csv(listing: LanguageListing, out: TextIO) -> None:
    write_csv_rows(listing.rows(), LANGUAGE_COLUMNS, out)


def languages_json(listing: LanguageListing, out: TextIO) -> None:
    write_json_list(listing.rows(), out)


def languages_jsonl(listing: LanguageListing, out: TextIO) -> None:
    write_jsonl_rows(listing.rows(), out)


# -- experiments --------------------------------------------------------------------

@dataclass(frozen=True)
class ExperimentFigures:
    """``winnow experiments``: every figure measured beside the paper's
    (records with the :data:`FIGURE_COLUMNS`; ``None`` where there is no
    figure), and the experiments skipped with the reason (the table only)."""

    figures: list[dict[str, Any]]
    skipped: list[tuple[str, str]] = field(default_factory=list)


def _number(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f}" if value.is_integer() and abs(value) >= 1 else f"{value:.6g}"


def figures_table(report: ExperimentFigures, out: TextIO) -> None:
    out.write(f"{'experiment':<11} {'figure':<48} {'measured':>14} {'paper':>14}\n")
    for r in report.figures:
        out.write(f"{r['experiment']:<11} {r['figure']:<48} {_number(r['measured']):>14} "
                  f"{_number(r['paper']):>14}\n")
    for key, reason in report.skipped:
        out.write(f"{key:<11} skipped: {safe(reason)}\n")


def figures_csv(report: ExperimentFigures, out: TextIO) -> None:
    write_csv_rows(report.figures, FIGURE_COLUMNS, out)


def figures_json(report: ExperimentFigures, out: TextIO) -> None:
    write_json_list(report.figures, out)


def figures_jsonl(report: ExperimentFigures, out: TextIO) -> None:
    write_jsonl_rows(report.figures, out)
