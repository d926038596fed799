"""Writers of ``winnow dedup --passages``: the passage rows (table, CSV, JSON,
JSON Lines, registered in :mod:`winnow.reports.writers` for
:class:`PassageRows`) and the corpus with its repeats cut (JSON Lines).

Rows are written as they are read from the run's working folder, one shard at
a time (the table, which aligns its columns, holds them all).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from typing import IO, TextIO

from winnow.corpus import BadRecord, Fields, Record, Shard
from winnow.corpus.passages import PassageRow
from winnow.reports.table import safe

#: The columns of a passage row, in order.
ROW_FIELDS = tuple(f.name for f in fields(PassageRow))


@dataclass(frozen=True)
class PassageRows:
    """The rows of one ``dedup --passages`` run (an iterable read once)."""

    rows: Iterable[PassageRow]


def passages_jsonl(result: PassageRows, out: TextIO) -> None:
    for row in result.rows:
        out.write(json.dumps(asdict(row), ensure_ascii=False) + "\n")


def passages_json(result: PassageRows, out: TextIO) -> None:
    out.write(json.dumps([asdict(row) for row in result.rows], indent=2, ensure_ascii=False)
              + "\n")


def passages_csv(result: PassageRows, out: TextIO) -> None:
    """CSV, header ``ROW_FIELDS`` (names escaped on a terminal)."""
    writer = csv.writer(out)
    writer.writerow(ROW_FIELDS)
    isatty = getattr(out, "isatty", None)
    escape = bool(isatty()) if callable(isatty) else False
    for row in result.rows:
        values = [getattr(row, name) for name in ROW_FIELDS]
        writer.writerow([safe(v) if escape and isinstance(v, str) else v for v in values])


def passages_table(result: PassageRows, out: TextIO) -> None:
    """An aligned table, names escaped (terminal escapes in ids must not act)."""
    cells = [list(ROW_FIELDS)]
    for row in result.rows:
        cells.append([safe(row.id), str(row.start), str(row.end), str(row.occurrences),
                      safe(row.first_id), "kept" if row.kept else ""])
    if len(cells) == 1:
        out.write("no repeated passages\n")
        return
    widths = [max(len(line[i]) for line in cells) for i in range(len(ROW_FIELDS))]
    for line in cells:
        out.write("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
                  + "\n")


class CutCorpus:
    """Sink of :func:`winnow.corpus.passages.keep_first` writing JSON Lines:
    a record without repeats byte for byte as it was (a bad record too), a
    record with repeats with its text field replaced by the cut text, a
    record left with nothing but spaces dropped; a text file as ``{id field:
    its path, text field: its text}``."""

    def __init__(self, out: IO[bytes], fields: Fields) -> None:
        self.out = out
        self.fields = fields
        self.written = 0

    def __call__(self, shard: Shard, item: Record | BadRecord, text: str | None) -> None:
        if text == "":
            return
        if text is None and item.raw is not None:
            line = item.raw if item.raw.endswith(b"\n") else item.raw + b"\n"
        elif isinstance(item, Record):
            record: dict[str, object]
            if item.raw is not None:
                record = json.loads(item.raw)
            else:
                record = {self.fields.id or "id": item.id}
            record[self.fields.text] = item.text if text is None else text
            line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        else:
            return
        self.out.write(line)
        self.written += 1


__all__ = ["ROW_FIELDS", "CutCorpus", "PassageRows", "passages_csv", "passages_json",
           "passages_jsonl", "passages_table"]
