"""Writers of ``winnow contamination``: one row per evaluation item (table,
CSV, JSON, JSON Lines; registered in :mod:`winnow.reports.writers` for
:class:`ContaminationRows`).

A row has the columns of :data:`ROW_FIELDS`; ``locations`` is a list of
``{"id", "start", "end"}`` objects (record name, byte offsets into its text)
in JSON and JSON Lines, the same list as a JSON string in CSV, and the first
location in the terminal table.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from typing import Any, TextIO

from winnow.corpus.contamination import ItemRow
from winnow.reports.table import safe

#: The columns of an item row, in order.
ROW_FIELDS = tuple(f.name for f in fields(ItemRow))
#: Columns of the terminal table.
TABLE_FIELDS = ("coverage", "longest", "tokens", "records", "id", "first location")


@dataclass(frozen=True)
class ContaminationRows:
    """The item rows of one scan: the result the writer registry writes."""

    rows: list[ItemRow]

    def __iter__(self) -> Iterator[ItemRow]:
        return iter(self.rows)


def _plain(row: ItemRow) -> dict[str, Any]:
    return asdict(row) | {"locations": [asdict(place) for place in row.locations]}


def rows_jsonl(result: ContaminationRows, out: TextIO) -> None:
    """One JSON object per item."""
    for row in result.rows:
        out.write(json.dumps(_plain(row), ensure_ascii=False) + "\n")


def rows_json(result: ContaminationRows, out: TextIO) -> None:
    """The items as one JSON list of objects."""
    out.write(json.dumps([_plain(row) for row in result.rows], indent=2, ensure_ascii=False) + "\n")


def rows_csv(result: ContaminationRows, out: TextIO) -> None:
    """CSV with the header ``ROW_FIELDS``; ``locations`` a JSON list (names
    escaped on a terminal)."""
    writer = csv.writer(out)
    writer.writerow(ROW_FIELDS)
    isatty = getattr(out, "isatty", None)
    escape = bool(isatty()) if callable(isatty) else False
    for row in result.rows:
        places = json.dumps([asdict(place) for place in row.locations], ensure_ascii=False)
        values: list[object] = [row.id, row.tokens, row.longest, row.coverage, row.records,
                                places]
        writer.writerow([safe(v) if escape and isinstance(v, str) else v for v in values])


def rows_table(result: ContaminationRows, out: TextIO) -> None:
    """An aligned table, best covered first; names escaped (terminal escapes in
    item or record names must not act)."""
    cells = [list(TABLE_FIELDS)]
    for row in result.rows:
        first = row.locations[0] if row.locations else None
        where = "" if first is None else f"{safe(first.id)} @ {first.start}-{first.end}"
        cells.append([f"{row.coverage:.3f}", str(row.longest), str(row.tokens),
                      str(row.records), safe(row.id), where])
    if len(cells) == 1:
        out.write("no evaluation items\n")
        return
    widths = [max(len(line[i]) for line in cells) for i in range(len(TABLE_FIELDS))]
    for line in cells:
        out.write("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
                  + "\n")


__all__ = ["ROW_FIELDS", "ContaminationRows", "rows_csv", "rows_json", "rows_jsonl",
           "rows_table"]
