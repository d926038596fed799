"""Output of ``winnow evaluate``: the ranking's scores against labelled pairs.

Table, CSV (one line overall, then one per group value; :data:`COLUMNS`),
JSON (everything) and JSON Lines (the lines of the CSV), registered in
:mod:`winnow.reports.writers`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, TextIO

from winnow.reports.rows import write_csv_rows, write_jsonl_rows
from winnow.reports.table import safe

COLUMNS = ("column", "value", "n_pairs", "n_positive", "n_negative", "roc_auc", "pr_auc",
           "best_f1", "threshold", "precision", "recall")


@dataclass(frozen=True)
class EvaluationSummary:
    """What was evaluated and how it scored.

    ``overall`` and each of ``groups`` are records with the :data:`COLUMNS`
    (``winnow.evaluation.evaluation_rows``); ``unread`` names the labelled
    files that could not be compared.
    """

    labels: str
    root: str
    files: int
    unread: list[str]
    config: dict[str, Any]
    parameters: dict[str, Any]
    overall: dict[str, Any]
    groups: list[dict[str, Any]]

    def rows(self) -> list[dict[str, Any]]:
        return [self.overall, *self.groups]


def _cell(value: object) -> str:
    if value is None:
        return "-"
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def evaluation_table(data: EvaluationSummary, out: TextIO) -> None:
    """An aligned terminal table: one line overall, then one per group value."""
    config, params = data.config, data.parameters
    out.write(f"{safe(data.labels)}: {data.files} files under {safe(data.root)}; "
              f"k={config['k']} t={config['t']} {config['method']}, "
              f"-m {params.get('max_occurrences_resolved', params['max_occurrences'])}, "
              f"similarity {params['similarity']}\n")
    head = ("group", "value", "pairs", "pos", "neg", "ROC AUC", "PR AUC", "best F1",
            "threshold", "precision", "recall")
    lines = [[safe(_cell(r[c]) if c != "column" else (r[c] or "all")) for c in COLUMNS]
             for r in data.rows()]
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(head)]
    for line in [list(head), *lines]:
        out.write("  ".join(cell.rjust(w) if i > 1 else cell.ljust(w)
                            for i, (cell, w) in enumerate(zip(line, widths, strict=True)))
                  .rstrip() + "\n")


def evaluation_csv(data: EvaluationSummary, out: TextIO) -> None:
    cells = ({c: ("" if r[c] is None else r[c]) for c in COLUMNS} for r in data.rows())
    write_csv_rows(cells, COLUMNS, out)


def evaluation_json(data: EvaluationSummary, out: TextIO) -> None:
    out.write(json.dumps(asdict(data), indent=2) + "\n")


def evaluation_jsonl(data: EvaluationSummary, out: TextIO) -> None:
    write_jsonl_rows(data.rows(), out)
