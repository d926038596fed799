"""CSV report: one row per reported pair, best first.

The header is :data:`~winnow.reports.records.PAIR_COLUMNS` (stable, documented
in ``docs/compare.md``): ``file_a,file_b,similarity`` first, then the other
scores.  Fractions are written with 6 decimals; a score that was not computed
(no passages for the pair) is an empty cell.
"""

from __future__ import annotations

import csv
from typing import TextIO

from winnow.matching.model import ComparisonResult
from winnow.reports.records import PAIR_COLUMNS, cluster_of, pair_scores
from winnow.reports.table import safe


def write_csv(result: ComparisonResult, out: TextIO, terminal: bool = False) -> None:
    """Write the pairs of ``result`` as CSV to ``out``; with ``terminal``, names
    have their control characters escaped (:func:`winnow.reports.table.safe`)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PAIR_COLUMNS)
    clusters = cluster_of(result)
    for pair in result.pairs:  # one row at a time: every pair of a class may be many
        row = pair_scores(pair, clusters)
        cells = ["" if value is None else f"{value:.6f}" if type(value) is float
                 else str(value) for value in (row[column] for column in PAIR_COLUMNS)]
        writer.writerow([safe(cell) for cell in cells] if terminal else cells)
