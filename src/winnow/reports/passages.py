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
from typing import IO, Any, TextIO

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


class CutParquet:
    """Sink of :func:`winnow.corpus.passages.keep_first` for Parquet inputs:
    every column as it was, the text column cut where a record has copies,
    rows left with nothing but spaces dropped (the first file's schema; a
    file whose columns differ cannot be appended: :class:`ValueError`)."""

    def __init__(self, out: IO[bytes], fields: Fields) -> None:
        self.out = out
        self.fields = fields
        self.writer: Any = None
        self.shard: Shard | None = None
        self.texts: list[str | None] = []
        self.written = 0

    def __call__(self, shard: Shard, item: Record | BadRecord, text: str | None) -> None:
        if shard is not self.shard:
            self.flush()
            self.shard = shard
        self.texts.append(text)

    def flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        shard, texts = self.shard, self.texts
        self.shard, self.texts = None, []
        if shard is None:
            return
        table = pq.ParquetFile(shard.path).read_row_groups(list(range(shard.start, shard.stop)))
        if any(t is not None for t in texts):
            at = table.schema.get_field_index(self.fields.text)
            column = table.column(at).to_pylist()
            cut = [old if new is None else new for old, new in zip(column, texts, strict=True)]
            table = table.set_column(at, table.schema.field(at),
                                     pa.array(cut, type=table.schema.field(at).type))
            table = table.filter(pa.array([t != "" for t in texts], type=pa.bool_()))
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.out, table.schema)
        elif table.schema != self.writer.schema:
            raise ValueError(f"{shard.path}: its columns differ from the first Parquet file's")
        self.writer.write_table(table)
        self.written += table.num_rows

    def close(self) -> None:
        self.flush()
        if self.writer is not None:
            self.writer.close()


__all__ = ["ROW_FIELDS", "CutCorpus", "CutParquet", "PassageRows", "passages_csv", "passages_json",
           "passages_jsonl", "passages_table"]
