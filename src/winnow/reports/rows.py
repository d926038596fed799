"""Flat records as CSV, JSON Lines or JSON: the pieces every writer's machine formats share.

CSV lines end in ``\\n`` (every CSV winnow writes), and CSV written to a
terminal has its control characters escaped like the tables (a file name
with terminal escapes must not act); to a file or pipe it is written as is.
JSON escapes them by itself.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TextIO

from winnow.reports.table import safe


def is_terminal(out: TextIO) -> bool:
    """Whether ``out`` is a terminal (where raw control characters would act)."""
    isatty = getattr(out, "isatty", None)
    return bool(isatty()) if callable(isatty) else False


def terminal_safe(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` with its strings escaped for a terminal (:func:`safe`)."""
    return {key: safe(value) if isinstance(value, str) else value
            for key, value in record.items()}


def write_csv_rows(rows: Iterable[Mapping[str, Any]], columns: Sequence[str],
                   out: TextIO) -> None:
    """A header of ``columns``, then one line per row (missing cells empty)."""
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(map(terminal_safe, rows) if is_terminal(out) else rows)


def write_jsonl_rows(rows: Iterable[Mapping[str, Any]], out: TextIO) -> None:
    """One JSON object per line."""
    for row in rows:
        out.write(json.dumps(row) + "\n")


def write_json_list(rows: Iterable[Mapping[str, Any]], out: TextIO) -> None:
    """One indented JSON list."""
    out.write(json.dumps(list(rows), indent=2) + "\n")


def write_json_listing(head: Mapping[str, Any], key: str,
                       items: Iterable[Mapping[str, Any]], out: TextIO) -> None:
    """One JSON object: the members of ``head``, then ``key`` holding ``items``,
    one item per line.

    Each member and item is encoded by itself (by the C encoder) and joined
    with the separators :func:`json.dumps` uses.
    """
    out.write("{")
    for name, value in head.items():
        out.write(f"{json.dumps(name)}: {json.dumps(value)}, ")
    out.write(f"{json.dumps(key)}: [\n")
    out.write(",\n".join(json.dumps(item) for item in items))
    out.write("\n]}\n")
