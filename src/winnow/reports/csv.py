"""CSV report: one row per reported pair, best first.

The header is :data:`~winnow.reports.records.PAIR_COLUMNS` (stable, documented
in ``docs/compare.md``): ``file_a,file_b,similarity`` first, then the other
scores.  Fractions are written with 6 decimals; a score that was not computed
(no passages for the pair) is an empty cell.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any, TextIO

from winnow.matching.model import ComparisonResult
from winnow.reports.records import PAIR_COLUMNS, cluster_of, pair_scores
from winnow.reports.table import safe

#: Pairs formatted at a time on the fast path (:func:`_scores_only_rows`).
CHUNK = 8192


def write_csv(result: ComparisonResult, out: TextIO, terminal: bool = False) -> None:
    """Write the pairs of ``result`` as CSV to ``out``; with ``terminal``, names
    have their control characters escaped (:func:`winnow.reports.table.safe`).

    Rows are written as the pairs are read (every pair of a class may be
    hundreds of thousands); the pairs without passages, when the sequence
    offers their columns (``score_columns``), without an object per pair."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PAIR_COLUMNS)
    clusters = cluster_of(result)
    pairs = result.pairs
    head = getattr(pairs, "with_passages", len(pairs)) if hasattr(pairs, "score_columns") \
        else len(pairs)
    for pair in (pairs[j] for j in range(head)):
        row = pair_scores(pair, clusters)
        cells = ["" if value is None else f"{value:.6f}" if isinstance(value, float)
                 else str(value) for value in (row[column] for column in PAIR_COLUMNS)]
        writer.writerow([safe(cell) for cell in cells] if terminal else cells)
    quoted: dict[str, str] = {}
    for start in range(head, len(pairs), CHUNK):
        columns = pairs.score_columns(start, min(start + CHUNK, len(pairs)))  # type: ignore[attr-defined]
        out.write("".join(_scores_only_lines(columns, clusters, terminal, quoted)))


def _field(name: str, terminal: bool, quoted: dict[str, str]) -> str:
    """``name`` as the CSV writer writes it (quoted when needed), cached."""
    if name not in quoted:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow([safe(name) if terminal else name])
        quoted[name] = buffer.getvalue()[:-1]
    return quoted[name]


def _scores_only_lines(columns: dict[str, list[Any]], clusters: dict[str, int],
                       terminal: bool, quoted: dict[str, str]) -> Iterator[str]:
    """CSV lines of pairs without passages (their passage cells empty)."""
    for a, b, sim, shared, ca, cb, jac, wei, rar in zip(
        columns["a"], columns["b"], columns["similarity"], columns["shared"],
        columns["containment_a"], columns["containment_b"], columns["jaccard"],
        columns["weighted"], columns["rarity"], strict=True,
    ):
        cluster = clusters.get(a)
        same = "" if cluster is None or cluster != clusters.get(b) else str(cluster)
        yield (f"{_field(a, terminal, quoted)},{_field(b, terminal, quoted)},{sim:.6f},,,,,"
               f"{shared},{ca:.6f},{cb:.6f},{jac:.6f},{wei:.6f},{rar:.6f},,,{same}\n")
