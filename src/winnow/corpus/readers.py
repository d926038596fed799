"""Records of text corpora: JSON Lines (plain or compressed), Parquet, folders of text files.

Every input is cut into :class:`Shard` objects, each a run of *slots* with
consecutive global numbers (the ``doc`` ids of the pair engine): a JSON Lines
slot is one line, a Parquet slot one row, a text-folder slot one file.  A
slot whose record cannot be used (not JSON, invalid UTF-8, no text field, a
text that is not a string) keeps its number and gives a :class:`BadRecord`
instead of a :class:`Record`, so the numbers never depend on the content and
the same shard read twice (by a worker, then by the writer) gives the same
slots.  Blank JSON Lines lines are slots that hold nothing (not records).

The record types are :mod:`winnow.corpus.records`'s, JSON Lines lines are
read and parsed by :mod:`winnow.corpus.jsonl`; this module plans the shards
and reads each kind.  Compressed JSON Lines are read through the standard
library (``.gz``, ``.bz2``, ``.xz``) and the ``zstandard`` package
(``.zst``); Parquet through pyarrow, one row group at a time, only the two
columns used.

Hostile inputs cost only their own records:

* a compressed file that ends early or is damaged keeps every line before
  the damage (its shard counts the lines decompressed; the damage is a
  problem naming the file and the line where it starts);
* lines are read in blocks, and a record over ``Fields.max_bytes`` (the
  per-record budget, 16 MiB by default: compare's per-file budget) is a bad
  record named with its size, never held whole (a 2 GB line of a small
  ``.gz`` costs a block of memory); so is a text file or Parquet text over it;
* JSON nested deeper than Python's recursion limit (about 1,000 levels) is a
  bad record, not a crash;
* a name that is not UTF-8 (a text file's, an input's) is shown with its odd
  bytes as ``\\xNN`` (:func:`winnow.fileio.printable`) and the file opened by
  its real name; a text folder is walked by :mod:`winnow.sources.walk` (links
  never followed) and its files read beneath the folder
  (:func:`winnow.fileio.read_regular`), never through a link.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from collections.abc import Collection, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from winnow.corpus.jsonl import (
    Quick,
    jsonl_lines,
    jsonl_records,
    jsonl_texts,
    line_slot,
    parse_json_line,
)
from winnow.corpus.records import (
    COMPRESSED,
    MAX_RECORD_BYTES,
    BadRecord,
    Fields,
    Kind,
    Record,
    Shard,
    open_binary,
    oversized,
    usable,
)
from winnow.corpus.streams import blocks, count_newlines, damaged, file_digest, line_end
from winnow.errors import InputError, InvalidInput
from winnow.fileio import FileTooLarge, printable, read_regular

#: A plain JSON Lines file is cut into shards of about this many bytes (at
#: line boundaries), so that one large file is fingerprinted in parallel; a
#: compressed file is one shard (it can only be read from its start).
SHARD_BYTES = 16 << 20
#: Text files per shard of a folder.
SHARD_FILES = 512


def kind_of(path: Path) -> Kind:
    """A folder is a text folder, ``*.parquet`` Parquet, any other file JSON Lines."""
    if path.is_dir():
        return "text"
    return "parquet" if path.name.lower().endswith(".parquet") else "jsonl"


def plan_shards(paths: Sequence[str], fields: Fields, *,
                digests: bool = True) -> tuple[list[Shard], list[InputError]]:
    """The shards of every input, numbered in order, and the inputs that
    could not be opened or are damaged (each an :class:`InputError`; the
    others, and the readable lines of a damaged compressed file, are kept).
    ``digests``: give each shard the digest of its content (what a sharded
    run's working folder is tied to; the in-memory engine needs none: an
    eighth of a second per 100 MB)."""
    shards: list[Shard] = []
    problems: list[InputError] = []
    first = 0
    errors: tuple[type[BaseException], ...] = (*damaged(), RecursionError)
    counted = _plain_counts(paths, digests)
    for name in paths:
        path = Path(name)
        try:
            if not path.exists():
                raise InputError(printable(name), "no such file or folder")
            kind = kind_of(path)
            if kind == "jsonl" and name in counted:
                planned = _plain_shards(name, first, counted[name])
            else:
                planned = {"jsonl": _jsonl_shards, "parquet": _parquet_shards,
                           "text": _folder_shards}[kind](name, first, problems, digests)
        except InputError as error:
            problems.append(error)
            continue
        except errors as error:
            problems.append(InputError(printable(name), str(error) or type(error).__name__))
            continue
        shards += planned
        first += sum(s.count for s in planned)
    return shards, problems


class _Digest(Protocol):
    def update(self, data: bytes | memoryview, /) -> None: ...

    def hexdigest(self) -> str: ...


class _NoDigest:
    """What :func:`_digest` gives when no digest is wanted."""

    def update(self, data: bytes | memoryview, /) -> None:
        return None

    def hexdigest(self) -> str:
        return ""


def _digest(wanted: bool) -> _Digest:
    """A shard's digest: SHA-256 (twice blake2b's speed where the processor
    has SHA instructions: 1.8 against 0.9 GB/s), or none."""
    return hashlib.sha256() if wanted else _NoDigest()


def _jsonl_shards(path: str, first: int, problems: list[InputError],
                  digests: bool = True) -> list[Shard]:
    """One shard per compressed file (its lines up to any damage, which is
    named in ``problems``); plain files cut at line boundaries."""
    if path.lower().endswith(COMPRESSED):
        lines = 0
        tail = b"\n"
        damage: list[BaseException] = []
        digest = _digest(digests)
        with open_binary(path) as stream:
            for block in blocks(stream, damage=damage):
                lines += block.count(b"\n")
                tail = block[-1:]
                digest.update(block)
        lines += tail != b"\n"  # a last line without its newline
        if damage:
            problems.append(InputError(printable(path), (
                f"compressed data ends early or is damaged after line {lines} "
                f"({damage[0] or type(damage[0]).__name__}); the lines before it are read")))
        return [Shard("jsonl", path, first, lines, digest=digest.hexdigest())] if lines else []
    return _plain_shards(path, first, _plain_counts([path], digests, strict=True)[path])


#: A plain JSON Lines file's shard spans, each ``((start, stop), (lines, digest))``.
Counted = list[tuple[tuple[int, int], tuple[int, str]]]


def _plain_counts(paths: Sequence[str], digests: bool, *,
                  strict: bool = False) -> dict[str, Counted]:
    """Every plain (not compressed) JSON Lines file of ``paths`` cut into
    spans of about :data:`SHARD_BYTES` at line boundaries, with each span's
    lines (a last line without its newline counted) and digest, the spans
    of all the files counted together by a thread per usable core
    (:func:`~winnow.corpus.streams.count_newlines`): a corpus of files
    smaller than a shard is counted in parallel too.  A file that cannot be
    read is left out, to be named when it is planned alone (``strict``: its
    error raised)."""
    from winnow.parallel import usable_cores

    spans: list[tuple[str, tuple[int, int]]] = []
    out: dict[str, Counted] = {}
    for name in dict.fromkeys(paths):
        if not strict and (name.lower().endswith(COMPRESSED) or not os.path.isfile(name)
                           or kind_of(Path(name)) != "jsonl"):
            continue
        try:
            with open(name, "rb") as stream:
                size = os.fstat(stream.fileno()).st_size
                cuts = [0]
                while cuts[-1] < size:
                    cuts.append(line_end(stream, min(cuts[-1] + SHARD_BYTES, size), size))
        except OSError:
            if strict:
                raise
            continue
        spans += [(name, span) for span in itertools.pairwise(cuts)]
        out[name] = []  # an empty file has no span

    def count(item: tuple[str, tuple[int, int]]) -> tuple[int, str] | None:
        digest = _digest(digests)
        try:
            newlines, last = count_newlines(item[0], *item[1], digest.update)
        except OSError:
            if strict:
                raise
            return None
        return newlines + (last not in (-1, ord("\n"))), digest.hexdigest()

    threads = min(usable_cores(), len(spans))
    if threads < 2:
        found = list(map(count, spans))
    else:
        with ThreadPoolExecutor(threads, thread_name_prefix="winnow-lines") as pool:
            found = list(pool.map(count, spans))
    failed = set()
    for (name, span), result in zip(spans, found, strict=True):
        if result is None:
            failed.add(name)
        else:
            out[name].append((span, result))
    for name in failed:
        out.pop(name, None)
    return out


def _plain_shards(path: str, first: int, counted: Counted) -> list[Shard]:
    """The shards of a plain JSON Lines file from its counted spans."""
    shards = []
    line = 1
    for (start, stop), (lines, hexdigest) in counted:
        shards.append(Shard("jsonl", path, first, lines, start, stop, line, digest=hexdigest))
        first += lines
        line += lines
    return shards


def _parquet_shards(path: str, first: int, problems: list[InputError],
                    digests: bool = True) -> list[Shard]:
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    shards = []
    line = 1
    digest = file_digest(path) if digests else ""
    for group in range(meta.num_row_groups):
        rows = meta.row_group(group).num_rows
        if rows:
            shards.append(Shard("parquet", path, first, rows, group, group + 1, line,
                                digest=digest))
        first += rows
        line += rows
    return shards


def parquet_schema_differs(paths: Sequence[str]) -> InvalidInput | None:
    """Why the Parquet files at ``paths`` cannot make one de-duplicated corpus (a
    file whose columns differ from the first one's, or that cannot be read,
    named: a usage error), or ``None``; read from their footers only."""
    import pyarrow.parquet as pq

    first: tuple[str, Any] | None = None
    for path in paths:
        try:
            schema = pq.read_schema(path)
        except (OSError, ValueError) as error:
            return InvalidInput(printable(path), f"not a readable Parquet file ({error})")
        if first is None:
            first = (path, schema)
        elif not schema.equals(first[1]):
            columns = ", ".join(f"{f.name} {f.type}" for f in schema)
            return InvalidInput(printable(path), f"its columns ({columns}) differ from "
                                f"{printable(first[0])}'s; the de-duplicated corpus is one "
                                "table")
    return None


def _folder_shards(path: str, first: int, problems: list[InputError],
                   digests: bool = True) -> list[Shard]:
    """The regular files under ``path``, by path (the walk's order); symbolic
    links (to files or folders) are never followed, and what the walk skips is
    named in ``problems``."""
    from winnow.sources.walk import FileEntry, WalkPolicy, scan  # folders only: 6 ms to load

    policy = WalkPolicy(links="never", skip_pseudo=True, text_names=False)
    files = []
    for item in scan([path], policy):
        if isinstance(item, FileEntry):
            files.append(item.rel)
        else:
            problems.append(InputError(printable(item.path), item.reason))
    files.sort()
    shards = []
    for i in range(0, len(files), SHARD_FILES):
        part = tuple(files[i:i + SHARD_FILES])
        digest = _digest(digests)
        for name in part if digests else ():
            digest.update(os.fsencode(name) + b"\0")
            try:
                digest.update(file_digest(os.path.join(path, name)).encode())
            except OSError as error:  # named when the shard is read
                digest.update(str(error.errno).encode())
        shards.append(Shard("text", path, first + i, len(part), i, i + len(part), i + 1, part,
                            digest.hexdigest()))
    return shards


def read_shard(shard: Shard, fields: Fields) -> Iterator[Record | BadRecord]:
    """Every slot of ``shard`` that holds something, in order."""
    if shard.kind == "jsonl":
        yield from jsonl_records(shard, fields)
    elif shard.kind == "parquet":
        yield from _parquet_records(shard, fields)
    else:
        yield from _text_records(shard, fields)


def record_texts(shard: Shard, fields: Fields,
                 wanted: Collection[int] | None = None) -> Iterator[tuple[int, bytes]]:
    """``(doc, UTF-8 text)`` of every usable record of ``shard``: the records
    :func:`read_shard` gives, a JSON Lines shard's without building them
    (:func:`~winnow.corpus.jsonl.jsonl_texts`).  Two thirds of the
    per-record cost of fingerprinting a corpus was building records that
    only their text was read from.  ``wanted``: only these docs (a JSON line
    of another is not parsed)."""
    if shard.kind == "jsonl":
        yield from jsonl_texts(shard, fields, None if wanted is None else sorted(
            d - shard.first for d in wanted if shard.first <= d < shard.first + shard.count))
        return
    for item in read_shard(shard, fields):
        if isinstance(item, Record) and (wanted is None or item.doc in wanted):
            yield item.doc, item.text.encode("utf-8")


def record_ids(shard: Shard, fields: Fields
               ) -> Iterator[tuple[int, str, str, int] | BadRecord]:
    """Every slot of ``shard`` that holds something, in order, as
    :func:`read_shard` gives it, but a usable record as ``(doc, id, path,
    line)`` only: what naming the clustered records needs (:func:`_slots`)."""
    shown = printable(shard.path)
    for slot in _slots(shard, fields):
        if isinstance(slot, tuple):
            doc, line, _, ident = slot
            yield doc, (None if ident is None else str(ident)) or f"{shown}:{line}", shown, line
        elif isinstance(slot, Record):
            yield slot.doc, slot.id, slot.path, slot.line
        else:
            yield slot


def _slots(shard: Shard, fields: Fields) -> Iterator[Quick | Record | BadRecord]:
    """The slots :func:`read_shard` gives, a JSON Lines line that orjson reads
    as an object with a string text (valid UTF-8) and a string or integer id
    (when asked for) as a :data:`~winnow.corpus.jsonl.Quick` tuple: any other line goes through
    :func:`parse_json_line`, so both agree on every line (a test checks it)."""
    if shard.kind != "jsonl":
        yield from read_shard(shard, fields)
        return
    shown = printable(shard.path)
    for i, raw in enumerate(jsonl_lines(shard, fields.max_bytes)):
        if i >= shard.count:
            return
        slot = line_slot(raw, shard.first + i, shard.line + i, shown, fields)
        if slot is not None:
            yield slot


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
    shown = printable(shard.path)
    for i, (text, name) in enumerate(zip(texts, ids, strict=True)):
        doc, line = shard.first + i, shard.line + i
        checked = usable(text, name, fields, fields.text in names)
        if isinstance(checked, str):
            yield BadRecord(doc, shown, line, checked)
        elif len(checked[0]) > fields.max_bytes // 4 and \
                len(checked[0].encode("utf-8")) > fields.max_bytes:
            yield BadRecord(doc, shown, line, oversized(len(checked[0].encode("utf-8")),
                                                         fields.max_bytes))
        else:
            yield Record(doc, checked[1] or f"{shown}:{line}", checked[0], shown, line)


def _text_records(shard: Shard, fields: Fields) -> Iterator[Record | BadRecord]:
    for i, name in enumerate(shard.files):
        doc, path = shard.first + i, os.path.join(shard.path, name)
        shown = printable(path)
        try:
            data = read_regular(path, max_bytes=fields.max_bytes,
                                beneath=(shard.path, name, False, None), special=False)
        except FileTooLarge:
            yield BadRecord(doc, shown, 0, oversized(None, fields.max_bytes))
            continue
        except OSError as error:
            yield BadRecord(doc, shown, 0, error.strerror or str(error))
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            yield BadRecord(doc, shown, 0, f"invalid UTF-8 at byte {error.start}")
            continue
        yield Record(doc, printable(name), text, shown, 0)


__all__ = [
    "COMPRESSED",
    "MAX_RECORD_BYTES",
    "SHARD_BYTES",
    "BadRecord",
    "Fields",
    "Kind",
    "Record",
    "Shard",
    "kind_of",
    "open_binary",
    "parquet_schema_differs",
    "parse_json_line",
    "plan_shards",
    "read_shard",
    "record_ids",
    "record_texts",
]
