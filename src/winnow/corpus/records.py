"""The records of a text corpus as the readers give them, and what every reader shares.

A :class:`Shard` is a run of an input's slots, a :class:`Record` a usable
slot, a :class:`BadRecord` one that cannot be used (and why); :class:`Fields`
says where a record's text and id are.  :mod:`winnow.corpus.readers` plans
the shards and reads them (:mod:`winnow.corpus.jsonl` for JSON Lines).
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
from dataclasses import dataclass
from typing import IO, Literal, cast

from winnow.fileio import DEFAULT_MAX_FILE_BYTES

Kind = Literal["jsonl", "parquet", "text"]

#: Suffixes of compressed JSON Lines files and how to open them.
COMPRESSED = (".gz", ".bz2", ".xz", ".zst")
#: The largest record read by default (bytes of a JSON line, a text file or a
#: Parquet text): compare's per-file budget.
MAX_RECORD_BYTES = DEFAULT_MAX_FILE_BYTES


@dataclass(frozen=True)
class Fields:
    """Where a record's text and id are: a JSON key or Parquet column each
    (``id_field`` ``None``: the record is named ``path:line``), and the
    per-record budget in bytes (``max_bytes``; a larger record is a bad one)."""

    text: str = "text"
    id: str | None = None
    max_bytes: int = MAX_RECORD_BYTES


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
    #: a digest of the shard's bytes (decompressed; a text shard's names and
    #: contents): a sharded run's working folder serves only the same content
    digest: str = ""


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


def oversized(size: int | None, budget: int) -> str:
    """Why a record over the per-record ``budget`` (of ``size`` bytes, when known) is bad."""
    what = "record" if size is None else f"record of {size:,} bytes"
    return (f"{what} over the {budget / (1 << 20):g} MiB record budget; "
            "not read (left out of --keep's corpus)")


def usable(text: object, name: object, fields: Fields,
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


__all__ = ["COMPRESSED", "MAX_RECORD_BYTES", "BadRecord", "Fields", "Kind", "Record", "Shard",
           "open_binary", "oversized", "usable"]
