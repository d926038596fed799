"""Writers of ``winnow dedup``: the cluster rows (table, CSV, JSON, JSON Lines or
Parquet, registered in :mod:`winnow.reports.writers` for :class:`DedupRows`) and the
de-duplicated corpus (JSON Lines, compressed by the file's suffix, or Parquet).

Cluster rows have the columns of :data:`ROW_FIELDS` (a
:class:`winnow.corpus.DuplicateRow` each).  Every file is written whole or
not at all (:mod:`winnow.outputs`): a temporary file renamed at the end.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import json
import lzma
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import IO, Any, BinaryIO, TextIO, cast

from winnow.corpus import BadRecord, DuplicateRow, Fields, Record, Shard
from winnow.errors import InvalidInput
from winnow.outputs import atomic_binary
from winnow.reports.anonymize import spreadsheet_safe
from winnow.reports.table import safe

#: The columns of a cluster row, in order.
ROW_FIELDS = tuple(f.name for f in fields(DuplicateRow))
#: Columns of the terminal table.
TABLE_FIELDS = ("cluster", "kept", "similarity", "containment", "id", "match")


def row_dict(row: DuplicateRow) -> dict[str, Any]:
    """A cluster row as a dict of ``ROW_FIELDS`` (its values are plain
    scalars, so no deep copy: ``dataclasses.asdict`` took 45 µs a row, 6.7 s
    of writing 148,000 rows)."""
    return {name: getattr(row, name) for name in ROW_FIELDS}


def write_rows_jsonl(rows: Iterable[DuplicateRow], out: TextIO) -> None:
    """One JSON object per cluster row (``ROW_FIELDS`` as keys)."""
    for row in rows:
        out.write(json.dumps(row_dict(row), ensure_ascii=False) + "\n")


def write_rows_json(rows: Iterable[DuplicateRow], out: TextIO) -> None:
    """The cluster rows as one JSON list of objects."""
    out.write(json.dumps([row_dict(row) for row in rows], indent=2, ensure_ascii=False) + "\n")


def write_rows_csv(rows: Iterable[DuplicateRow], out: TextIO) -> None:
    """The cluster rows as CSV, header ``ROW_FIELDS`` (control characters of
    names escaped on a terminal; a name starting like a spreadsheet formula
    gets a leading ``'``: :func:`~winnow.reports.anonymize.spreadsheet_safe`)."""
    writer = csv.writer(out)
    writer.writerow(ROW_FIELDS)
    escape = _is_terminal(out)
    for row in rows:
        values = [getattr(row, name) for name in ROW_FIELDS]
        cells = [spreadsheet_safe(v) if isinstance(v, str) else v for v in values]
        writer.writerow([safe(v) if escape and isinstance(v, str) else v for v in cells])


def write_rows_table(rows: Iterable[DuplicateRow], out: TextIO) -> None:
    """An aligned table of the main columns, names escaped (terminal escapes in
    record names must not act)."""
    cells = [[str(name) for name in TABLE_FIELDS]]
    for row in rows:
        cells.append([str(row.cluster), "kept" if row.kept else "",
                      f"{row.similarity:.3f}", f"{row.containment:.3f}", safe(row.id),
                      safe(row.match)])
    if len(cells) == 1:
        out.write("no near-duplicate or contained records\n")
        return
    widths = [max(len(line[i]) for line in cells) for i in range(len(TABLE_FIELDS))]
    for line in cells:
        out.write("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
                  + "\n")


def _is_terminal(out: TextIO) -> bool:
    isatty = getattr(out, "isatty", None)
    return bool(isatty()) if callable(isatty) else False


@dataclass(frozen=True)
class DedupRows:
    """The cluster rows of one ``winnow dedup`` run: the result the writer
    registry (:mod:`winnow.reports.writers`) writes in each format."""

    rows: Sequence[DuplicateRow]


def rows_table(result: DedupRows, out: TextIO) -> None:
    write_rows_table(result.rows, out)


def rows_csv(result: DedupRows, out: TextIO) -> None:
    write_rows_csv(result.rows, out)


def rows_json(result: DedupRows, out: TextIO) -> None:
    write_rows_json(result.rows, out)


def rows_jsonl(result: DedupRows, out: TextIO) -> None:
    write_rows_jsonl(result.rows, out)


def rows_parquet(result: DedupRows, out: BinaryIO) -> None:
    """The cluster rows as one Parquet table, to a byte stream."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist([row_dict(row) for row in result.rows],
                                        schema=_row_schema()), out)


def _row_schema() -> Any:
    import pyarrow as pa

    types = {"cluster": pa.int64(), "kept": pa.bool_(), "similarity": pa.float64(),
             "containment": pa.float64(), "fingerprints": pa.int64(), "line": pa.int64()}
    return pa.schema([(name, types.get(name, pa.string())) for name in ROW_FIELDS])


@contextmanager
def compressed_output(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A binary handle that writes ``path`` compressed by its suffix (``.gz``,
    ``.bz2``, ``.xz``, ``.zst``; any other suffix: as is), whole or not at all."""
    name = os.fspath(path).lower()
    with atomic_binary(path) as raw:
        stream: IO[bytes]
        if name.endswith(".gz"):
            stream = cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="wb"))
        elif name.endswith(".bz2"):
            stream = cast(IO[bytes], bz2.BZ2File(raw, "wb"))
        elif name.endswith(".xz"):
            stream = cast(IO[bytes], lzma.LZMAFile(raw, "wb"))  # noqa: SIM115
        elif name.endswith(".zst"):
            import zstandard

            stream = zstandard.ZstdCompressor().stream_writer(raw, closefd=False)
        else:
            yield raw
            return
        try:
            yield stream
        finally:
            stream.close()


class JsonlCorpus:
    """Sink of :func:`winnow.corpus.read_back` writing the kept records as JSON
    Lines: JSON Lines records byte for byte as they were (bad ones too: they
    are not duplicates), a text file as ``{id field: its path, text field: its
    text}``.  A text file that is not UTF-8 cannot be put in JSON and is left
    out (it was named as a bad record)."""

    def __init__(self, out: IO[bytes], fields: Fields) -> None:
        self.out = out
        self.fields = fields
        self.written = 0

    def __call__(self, shard: Shard, item: Record | BadRecord, kept: bool) -> None:
        if not kept:
            return
        if item.raw is not None:
            line = item.raw if item.raw.endswith(b"\n") else item.raw + b"\n"
        elif isinstance(item, Record):
            record = {self.fields.id or "id": item.id, self.fields.text: item.text}
            line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        else:
            return
        self.out.write(line)
        self.written += 1


class ParquetCorpus:
    """Sink writing the kept rows of Parquet inputs, every column as it was,
    with the first file's schema (a file whose schema differs cannot be
    appended: :class:`~winnow.errors.InvalidInput`)."""

    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.writer: Any = None
        self.shard: Shard | None = None
        self.mask: list[bool] = []
        self.written = 0

    def __call__(self, shard: Shard, item: Record | BadRecord, kept: bool) -> None:
        if shard is not self.shard:
            self.flush()
            self.shard = shard
        self.mask.append(kept)

    def flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        shard, mask = self.shard, self.mask
        self.shard, self.mask = None, []
        if shard is None:
            return
        table = pq.ParquetFile(shard.path).read_row_groups(list(range(shard.start, shard.stop)))
        kept = table.filter(pa.array(mask, type=pa.bool_()))
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.out, kept.schema)
        elif kept.schema != self.writer.schema:
            self.writer.close()  # now, not when collected, after its file is gone
            self.writer = None
            raise InvalidInput(str(shard.path), "its columns differ from the first Parquet "
                               "file's (the de-duplicated corpus keeps one schema)")
        self.writer.write_table(kept)
        self.written += kept.num_rows

    def close(self) -> None:
        self.flush()
        if self.writer is not None:
            self.writer.close()


__all__ = ["ROW_FIELDS", "TABLE_FIELDS", "DedupRows", "JsonlCorpus", "ParquetCorpus",
           "compressed_output", "write_rows_csv", "write_rows_json", "write_rows_jsonl",
           "write_rows_table"]
