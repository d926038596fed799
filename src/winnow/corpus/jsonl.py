"""JSON Lines records: a shard's lines, parsed into records, or only their texts.

Lines are cut in blocks (:mod:`winnow.corpus.streams`): an oversized line is
a bad record named with its size, never held whole.  Parsed by orjson, a
line it refuses is parsed again by the standard library, whose verdict and
message name the problem (:func:`parse_json_line`); the quick paths
(:func:`jsonl_texts`, :func:`line_slot`) give the same records without
building them.  Used by :mod:`winnow.corpus.readers`.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import overload

import orjson

from winnow.corpus.records import BadRecord, Fields, Record, Shard, open_binary, oversized, usable
from winnow.corpus.streams import blocks, line_runs, wanted_lines
from winnow.corpus.streams import lines as split_lines
from winnow.fileio import printable


@overload
def jsonl_lines(shard: Shard, budget: int) -> Iterator[bytes | int]: ...


@overload
def jsonl_lines(shard: Shard, budget: int,
                wanted: list[int]) -> Iterator[tuple[int, bytes | int]]: ...


def jsonl_lines(shard: Shard, budget: int, wanted: list[int] | None = None
                ) -> Iterator[bytes | int] | Iterator[tuple[int, bytes | int]]:
    """The lines of ``shard`` (an oversized one as its length); a compressed
    file's lines up to any damage (named when the shards were planned).
    ``wanted``: only these lines (0-based, ascending), each as ``(i, line)``."""
    with _shard_blocks(shard) as read:
        if wanted is None:
            yield from split_lines(read, budget)
        else:
            yield from wanted_lines(read, budget, wanted)


def jsonl_runs(shard: Shard, budget: int) -> Iterator[list[bytes | int]]:
    """:func:`jsonl_lines` a block at a time, without the newlines
    (:func:`~winnow.corpus.streams.line_runs`): for readers that only parse them."""
    with _shard_blocks(shard) as read:
        for run, _ in line_runs(read, budget):
            yield run


@contextmanager
def _shard_blocks(shard: Shard) -> Iterator[Iterator[bytes]]:
    """The blocks of ``shard``'s bytes, its file open meanwhile."""
    with open_binary(shard.path) as stream:
        if shard.stop < 0:
            yield blocks(stream, damage=[])
        else:
            stream.seek(shard.start)
            yield blocks(stream, shard.stop - shard.start)


def jsonl_records(shard: Shard, fields: Fields) -> Iterator[Record | BadRecord]:
    """Every line of ``shard`` that holds something, as a record or a bad one."""
    shown = printable(shard.path)
    for i, raw in enumerate(jsonl_lines(shard, fields.max_bytes)):
        if i >= shard.count:
            return
        doc, line = shard.first + i, shard.line + i
        if isinstance(raw, int):
            yield BadRecord(doc, shown, line, oversized(raw, fields.max_bytes))
        elif raw.strip():
            yield parse_json_line(raw, doc, shown, line, fields)


def jsonl_texts(shard: Shard, fields: Fields,
                wanted: list[int] | None = None) -> Iterator[tuple[int, bytes]]:
    """:func:`record_texts` of the lines of a JSON Lines shard (``wanted``:
    only these, 0-based, ascending): :func:`line_slot`'s quick path written
    out in one loop (a record's generator layers and calls were a quarter
    of reading it), every other line through :func:`parse_json_line` as
    there."""
    loads, name, key, count = orjson.loads, fields.text, fields.id, shard.count
    shown = printable(shard.path)
    numbered: Iterator[tuple[int, bytes | int]] = (
        enumerate(itertools.chain.from_iterable(jsonl_runs(shard, fields.max_bytes)))
        if wanted is None else jsonl_lines(shard, fields.max_bytes, wanted))
    for i, raw in numbered:
        if i >= count:
            return
        if isinstance(raw, int):  # oversized: a bad record
            continue
        try:
            value = loads(raw)
        except orjson.JSONDecodeError:
            value = None
        if type(value) is dict:
            text = value.get(name)
            if type(text) is str and (key is None or type(value.get(key)) in (str, int)):
                try:
                    data = text.encode("utf-8")
                except UnicodeEncodeError:  # a lone surrogate: parse_json_line names it
                    data = None
                if data is not None:
                    yield shard.first + i, data
                    continue
        if raw.strip():
            slot = parse_json_line(raw, shard.first + i, shown, shard.line + i, fields)
            if isinstance(slot, Record):
                yield slot.doc, slot.text.encode("utf-8")


#: A usable JSON Lines record read without building it: ``(doc, line, UTF-8
#: text, id value or None)``.
Quick = tuple[int, int, bytes, object]


def line_slot(raw: bytes | int, doc: int, line: int, shown: str,
          fields: Fields) -> Quick | Record | BadRecord | None:
    """One line's slot for :func:`_slots` (``None``: a blank line)."""
    if isinstance(raw, int):
        return BadRecord(doc, shown, line, oversized(raw, fields.max_bytes))
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        value = None
    if type(value) is dict:
        text = value.get(fields.text)
        ident = None if fields.id is None else value.get(fields.id)
        if type(text) is str and (fields.id is None or type(ident) in (str, int)):
            try:
                data = text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: parse_json_line names it
                data = None
            if data is not None:
                return doc, line, data, ident
    if raw.strip():
        return parse_json_line(raw, doc, shown, line, fields)
    return None


def parse_json_line(raw: bytes, doc: int, path: str, line: int,
                    fields: Fields) -> Record | BadRecord:
    """One JSON Lines record, or why it cannot be used.

    Parsed by orjson (four times the standard library's speed on corpus
    lines); a line orjson refuses, or whose id it reads as a float (an
    integer beyond 64 bits), is parsed again by the standard library, whose
    verdict and message name the problem, so both give the same records."""
    value = _fast_json(raw, fields)
    if value is not None:
        return _record(value, raw, doc, path, line, fields)
    try:
        value = json.loads(raw)
    except UnicodeDecodeError:
        return BadRecord(doc, path, line, "invalid UTF-8", raw)
    except RecursionError:
        return BadRecord(doc, path, line, "JSON nested too deeply (over about 1,000 levels)",
                         raw)
    except ValueError as error:
        return BadRecord(doc, path, line, f"not JSON ({error})", raw)
    return _record(value, raw, doc, path, line, fields)


def _fast_json(raw: bytes, fields: Fields) -> object | None:
    """``raw`` parsed by orjson, or ``None`` where the standard library must
    decide (orjson refuses it, or reads the id as a float)."""
    try:
        value: object = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if fields.id is not None and isinstance(value, dict) and \
            isinstance(value.get(fields.id), float):
        return None
    return value


def _record(value: object, raw: bytes, doc: int, path: str, line: int,
            fields: Fields) -> Record | BadRecord:
    if not isinstance(value, dict):
        return BadRecord(doc, path, line, "not a JSON object", raw)
    checked = usable(value.get(fields.text), value.get(fields.id) if fields.id else None,
                       fields, fields.text in value)
    if isinstance(checked, str):
        return BadRecord(doc, path, line, checked, raw)
    text, name = checked
    return Record(doc, name or f"{path}:{line}", text, path, line, raw)


__all__ = ["Quick", "jsonl_lines", "jsonl_records", "jsonl_runs", "jsonl_texts", "line_slot",
           "parse_json_line"]
