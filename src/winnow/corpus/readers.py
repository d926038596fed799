"""Records of text corpora: JSON Lines (plain or compressed), Parquet, folders of text files.

Every input is cut into :class:`Shard` objects, each a run of *slots* with
consecutive global numbers (the ``doc`` ids of the pair engine): a JSON Lines
slot is one line, a Parquet slot one row, a text-folder slot one file.  A
slot whose record cannot be used (not JSON, invalid UTF-8, no text field, a
text that is not a string) keeps its number and gives a :class:`BadRecord`
instead of a :class:`Record`, so the numbers never depend on the content and
the same shard read twice (by a worker, then by the writer) gives the same
slots.  Blank JSON Lines lines are slots that hold nothing (not records).

Compressed JSON Lines are read through the standard library (``.gz``,
``.bz2``, ``.xz``) and the ``zstandard`` package (``.zst``); Parquet through
pyarrow, one row group at a time, only the two columns used.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal, cast

from winnow.errors import InputError

Kind = Literal["jsonl", "parquet", "text"]

#: Suffixes of compressed JSON Lines files and how to open them.
COMPRESSED = (".gz", ".bz2", ".xz", ".zst")
#: A plain JSON Lines file is cut into shards of about this many bytes (at
#: line boundaries), so that one large file is fingerprinted in parallel; a
#: compressed file is one shard (it can only be read from its start).
SHARD_BYTES = 16 << 20
#: Text files per shard of a folder.
SHARD_FILES = 512
#: Bytes read at a time when counting lines.
BLOCK = 1 << 20


@dataclass(frozen=True)
class Fields:
    """Where a record's text and id are: a JSON key or Parquet column each
    (``id_field`` ``None``: the record is named ``path:line``)."""

    text: str = "text"
    id: str | None = None


@dataclass(frozen=True)
class Shard:
    """Slots ``first .. first + count - 1`` of one input file.

    ``start``/``stop`` are byte offsets (plain JSON Lines), row-group indices
    (Parquet) or indices into ``files`` (a text folder); ``line`` is the
    1-based line, row or file number of the first slot within ``path``.
    """

    kind: Kind
    path: str
    first: int
    count: int
    start: int = 0
    stop: int = -1
    line: int = 1
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Record:
    """A usable record: its slot number, name, text and what it came from
    (the JSON line's bytes, or ``None`` for a Parquet row or a text file)."""

    doc: int
    id: str
    text: str
    path: str
    line: int
    raw: bytes | None = None


@dataclass(frozen=True)
class BadRecord:
    """A slot whose record could not be used, and why."""

    doc: int
    path: str
    line: int
    reason: str
    raw: bytes | None = None


def open_binary(path: str) -> IO[bytes]:
    """``path`` opened for reading, decompressed by its suffix."""
    lower = path.lower()
    if lower.endswith(".gz"):
        return cast(IO[bytes], gzip.open(path, "rb"))
    if lower.endswith(".bz2"):
        return cast(IO[bytes], bz2.open(path, "rb"))
    if lower.endswith(".xz"):
        return cast(IO[bytes], lzma.open(path, "rb"))
    if lower.endswith(".zst"):
        import zstandard

        raw = open(path, "rb")  # noqa: SIM115 - closed with the reader (closefd)
        reader = zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)
        return io.BufferedReader(reader)
    return open(path, "rb")


def kind_of(path: Path) -> Kind:
    """A folder is a text folder, ``*.parquet`` Parquet, any other file JSON Lines."""
    if path.is_dir():
        return "text"
    return "parquet" if path.name.lower().endswith(".parquet") else "jsonl"


def plan_shards(paths: Sequence[str], fields: Fields) -> tuple[list[Shard], list[InputError]]:
    """The shards of every input, numbered in order, and the inputs that
    could not be opened (each an :class:`InputError`; the others are kept)."""
    shards: list[Shard] = []
    problems: list[InputError] = []
    first = 0
    for name in paths:
        path = Path(name)
        try:
            if not path.exists():
                raise InputError(name, "no such file or folder")
            kind = kind_of(path)
            planned = {"jsonl": _jsonl_shards, "parquet": _parquet_shards,
                       "text": _folder_shards}[kind](name, first)
        except InputError as error:
            problems.append(error)
            continue
        except (OSError, EOFError, ValueError, lzma.LZMAError) as error:
            problems.append(InputError(name, str(error) or type(error).__name__))
            continue
        shards += planned
        first += sum(s.count for s in planned)
    return shards, problems


def _jsonl_shards(path: str, first: int) -> list[Shard]:
    """One shard per compressed file; plain files cut at line boundaries."""
    if path.lower().endswith(COMPRESSED):
        lines = 0
        tail = b"\n"
        with open_binary(path) as stream:
            while block := stream.read(BLOCK):
                lines += block.count(b"\n")
                tail = block[-1:]
        lines += tail != b"\n"  # a last line without its newline
        return [Shard("jsonl", path, first, lines)] if lines else []
    shards = []
    line = 1
    with open(path, "rb") as stream:
        start = 0
        while True:
            stream.seek(start + SHARD_BYTES)
            stream.readline()  # to the end of the line the cut falls in
            stop = min(stream.tell(), os.fstat(stream.fileno()).st_size)
            if stop <= start:
                break
            stream.seek(start)
            chunk = stream.read(stop - start)
            lines = chunk.count(b"\n") + (not chunk.endswith(b"\n"))
            shards.append(Shard("jsonl", path, first, lines, start, stop, line))
            first += lines
            line += lines
            start = stop
    return shards


def _parquet_shards(path: str, first: int) -> list[Shard]:
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    shards = []
    line = 1
    for group in range(meta.num_row_groups):
        rows = meta.row_group(group).num_rows
        if rows:
            shards.append(Shard("parquet", path, first, rows, group, group + 1, line))
        first += rows
        line += rows
    return shards


def _folder_shards(path: str, first: int) -> list[Shard]:
    """The regular files under ``path``, by path; symbolic links (to files or
    folders) are never followed."""
    found = []
    for folder, dirs, names in os.walk(path):
        dirs.sort()
        for name in names:
            full = os.path.join(folder, name)
            if not os.path.islink(full) and os.path.isfile(full):
                found.append(os.path.relpath(full, path))
    files = sorted(found)
    shards = []
    for i in range(0, len(files), SHARD_FILES):
        part = tuple(files[i:i + SHARD_FILES])
        shards.append(Shard("text", path, first + i, len(part), i, i + len(part), i + 1, part))
    return shards


def read_shard(shard: Shard, fields: Fields) -> Iterator[Record | BadRecord]:
    """Every slot of ``shard`` that holds something, in order."""
    if shard.kind == "jsonl":
        yield from _jsonl_records(shard, fields)
    elif shard.kind == "parquet":
        yield from _parquet_records(shard, fields)
    else:
        yield from _text_records(shard)


def _jsonl_lines(shard: Shard) -> Iterator[bytes]:
    with open_binary(shard.path) as stream:
        if shard.stop < 0:
            yield from stream
            return
        stream.seek(shard.start)
        left = shard.stop - shard.start
        while left > 0:
            line = stream.readline(left)
            if not line:
                return
            left -= len(line)
            yield line


def _jsonl_records(shard: Shard, fields: Fields) -> Iterator[Record | BadRecord]:
    for i, raw in enumerate(_jsonl_lines(shard)):
        if i >= shard.count:
            return
        doc, line = shard.first + i, shard.line + i
        if not raw.strip():
            continue
        yield parse_json_line(raw, doc, shard.path, line, fields)


def parse_json_line(raw: bytes, doc: int, path: str, line: int,
                    fields: Fields) -> Record | BadRecord:
    """One JSON Lines record, or why it cannot be used."""
    try:
        value = json.loads(raw)
    except UnicodeDecodeError:
        return BadRecord(doc, path, line, "invalid UTF-8", raw)
    except ValueError as error:
        return BadRecord(doc, path, line, f"not JSON ({error})", raw)
    if not isinstance(value, dict):
        return BadRecord(doc, path, line, "not a JSON object", raw)
    checked = _checked(value.get(fields.text), value.get(fields.id) if fields.id else None,
                       fields, fields.text in value)
    if isinstance(checked, str):
        return BadRecord(doc, path, line, checked, raw)
    text, name = checked
    return Record(doc, name or f"{path}:{line}", text, path, line, raw)


def _checked(text: object, name: object, fields: Fields,
             present: bool) -> tuple[str, str | None] | str:
    """``(text, id)`` of a record, or the reason it cannot be used."""
    if not present or text is None:
        return f"no field {fields.text!r}"
    if not isinstance(text, str):
        return f"field {fields.text!r} is not a string"
    if fields.id is not None and name is None:
        return f"no field {fields.id!r}"
    if name is not None and not isinstance(name, str | int):
        return f"field {fields.id!r} is not a string or an integer"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "invalid UTF-8 (a lone surrogate escape)"
    return text, None if name is None else str(name)


def _parquet_records(shard: Shard, fields: Fields) -> Iterator[Record | BadRecord]:
    import pyarrow.parquet as pq

    reader = pq.ParquetFile(shard.path)
    names = set(reader.schema_arrow.names)
    columns = [c for c in (fields.text, fields.id) if c is not None and c in names]
    table = reader.read_row_groups(list(range(shard.start, shard.stop)), columns=columns)
    texts = (table.column(fields.text).to_pylist() if fields.text in names
             else [None] * table.num_rows)
    ids: list[object] = (table.column(fields.id).to_pylist()
                         if fields.id is not None and fields.id in names
                         else [None] * table.num_rows)
    for i, (text, name) in enumerate(zip(texts, ids, strict=True)):
        doc, line = shard.first + i, shard.line + i
        checked = _checked(text, name, fields, fields.text in names)
        if isinstance(checked, str):
            yield BadRecord(doc, shard.path, line, checked)
        else:
            yield Record(doc, checked[1] or f"{shard.path}:{line}", checked[0], shard.path,
                         line)


def _text_records(shard: Shard) -> Iterator[Record | BadRecord]:
    for i, name in enumerate(shard.files):
        doc, path = shard.first + i, os.path.join(shard.path, name)
        try:
            with open(path, "rb") as stream:
                data = stream.read()
        except OSError as error:
            yield BadRecord(doc, path, 0, error.strerror or str(error))
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            yield BadRecord(doc, path, 0, f"invalid UTF-8 at byte {error.start}")
            continue
        yield Record(doc, name, text, path, 0)


__all__ = [
    "COMPRESSED",
    "BadRecord",
    "Fields",
    "Kind",
    "Record",
    "Shard",
    "kind_of",
    "open_binary",
    "parse_json_line",
    "plan_shards",
    "read_shard",
]
