"""The working folder of ``dedup --passages``: each input shard's token streams,
fingerprint rows by hash partition, seeds, runs and spans, as ``.npy`` files.

Layout (``S`` an input shard, ``P`` a hash partition)::

    tokens/sSSSSSS/        the shard's records as token streams (memory-mapped
                           by the tasks that extend seeds against them):
                           docs.npy, bounds.npy (token range of each record),
                           ids.bin, off.bin, norm.bin (UTF-8), bstart.bin,
                           bend.bin (raw arrays, appended record by record);
                           names.json (the records' ids)
    prints/pPPPP/sSSSSSS.npy  (hash, doc, pos) rows of shard S in partition P
    seeds/sSSSSSS/pPPPP.npy   (doc, pos, first_doc, first_pos, size) seeds whose
                           later occurrence is in shard S
    runs/sSSSSSS/sTTTTTT.npy  verified runs of shard S's records, found by task T
    spans/sSSSSSS.npy         the shard's passage rows, by record and start

Every task reads and writes only these files, so the tasks of a stage run on
any worker process in any order.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from winnow.frontends.text import char_units, word_units

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
U8 = npt.NDArray[np.uint8]

#: Fingerprint rows: hash, record, token position.
PRINT_DTYPE = np.dtype([("hash", "<u8"), ("doc", "<i8"), ("pos", "<i8")])
#: Seeds: a later occurrence ``(doc, pos)`` of a repeated fingerprint, one of its
#: group's first occurrences ``(first_doc, first_pos)``, and the group's size.
SEED_DTYPE = np.dtype([("doc", "<i8"), ("pos", "<i8"), ("first_doc", "<i8"),
                       ("first_pos", "<i8"), ("size", "<i8")])
#: Verified runs, in tokens: ``[start, end)`` of ``doc``, its partner's
#: ``[other_start, other_end)`` of ``other``, whether this side is the later
#: copy, the tokens matched, and the fingerprint group's size.
RUN_DTYPE = np.dtype([("doc", "<i8"), ("start", "<i8"), ("end", "<i8"), ("other", "<i8"),
                      ("other_start", "<i8"), ("other_end", "<i8"), ("copy", "?"),
                      ("matched", "<i8"), ("size", "<i8")])
#: Passage rows of a shard, in bytes of the record's text.
SPAN_DTYPE = np.dtype([("doc", "<i8"), ("start", "<i8"), ("end", "<i8"),
                       ("occurrences", "<i8"), ("first_doc", "<i8"), ("kept", "?")])


@dataclass(frozen=True)
class Tokens:
    """One record's token stream: 32-bit word ids, each token's start in
    ``norm`` (the normalised characters as UTF-8, one more entry than tokens),
    and its byte span in the record's text (UTF-8)."""

    ids: U32
    off: I64
    norm: U8
    bstart: I64
    bend: I64


def tokenize(text: str) -> Tokens:
    """The words of ``text`` as the text front-end counts them (NFKC, case
    folded, punctuation and spaces dropped), with their normalised characters
    in UTF-8 (a word's characters run up to the next word's)."""
    utf8 = text.encode("utf-8")
    chars = char_units(utf8)
    ids, starts, ends, _ = word_units(chars)
    cps = chars.cps
    widths = 1 + (cps >= 0x80).astype(np.int64) + (cps >= 0x800) + (cps >= 0x10000)
    at = np.zeros(cps.shape[0] + 1, dtype=np.int64)
    np.cumsum(widths, out=at[1:])
    off = np.empty(ids.shape[0] + 1, dtype=np.int64)
    off[:-1] = at[np.searchsorted(chars.starts, starts, side="left")]
    off[-1] = at[-1]
    norm = cps.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass").encode(
        "utf-8", "surrogatepass")
    return Tokens(ids.astype(np.uint32), off, np.frombuffer(norm, dtype=np.uint8),
                  starts.astype(np.int64), ends.astype(np.int64))


def shard_name(index: int) -> str:
    return f"s{index:06d}"


def part_name(index: int) -> str:
    return f"p{index:04d}"


def partition_of(hashes: npt.NDArray[np.uint64], partitions: int) -> I64:
    """A hash's partition: its top bits after a multiplicative mix."""
    mixed = (hashes ^ (hashes >> np.uint64(29))) * np.uint64(0xBF58476D1CE4E5B9)
    return ((mixed >> np.uint64(32)).astype(np.int64) * partitions) >> 32


def save(path: str, array: npt.NDArray[Any]) -> None:
    """``array`` to ``path`` (a ``.npy`` file), written whole or not at all."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = f"{path}.tmp-{os.getpid()}.npy"
    np.save(temporary, array)
    os.replace(temporary, path)


def load(path: str, dtype: np.dtype[Any]) -> npt.NDArray[Any]:
    """A ``.npy`` file, or no rows when it was never written."""
    if not os.path.exists(path):
        return np.zeros(0, dtype=dtype)
    loaded: npt.NDArray[Any] = np.load(path)
    return loaded


#: The token files of a shard, appended record by record, and their types.
TOKEN_FILES = {"ids": np.uint32, "off": np.int64, "norm": np.uint8, "bstart": np.int64,
               "bend": np.int64}


class TokenWriter:
    """Writes one shard's token streams to ``folder`` record by record (raw
    arrays appended to files, ``off`` made shard-wide), so a task holds one
    record's arrays at a time; :meth:`close` adds the records' numbers, token
    ranges and names."""

    def __init__(self, folder: str) -> None:
        os.makedirs(folder, exist_ok=True)
        self.folder = folder
        self.files = {name: open(os.path.join(folder, f"{name}.bin"), "wb")  # noqa: SIM115
                      for name in TOKEN_FILES}
        self.docs: list[int] = []
        self.bounds = [0]
        self.names: list[str] = []
        self.chars = 0

    def add(self, doc: int, name: str, tokens: Tokens) -> None:
        parts = {"ids": tokens.ids, "off": tokens.off[:-1] + self.chars, "norm": tokens.norm,
                 "bstart": tokens.bstart, "bend": tokens.bend}
        for key, array in parts.items():
            self.files[key].write(np.ascontiguousarray(array, dtype=TOKEN_FILES[key]).tobytes())
        self.chars += int(tokens.off[-1])
        self.docs.append(doc)
        self.bounds.append(self.bounds[-1] + tokens.ids.shape[0])
        self.names.append(name)

    def close(self) -> None:
        self.files["off"].write(np.array([self.chars], dtype=np.int64).tobytes())
        for handle in self.files.values():
            handle.close()
        save(os.path.join(self.folder, "docs.npy"), np.array(self.docs, dtype=np.int64))
        save(os.path.join(self.folder, "bounds.npy"), np.array(self.bounds, dtype=np.int64))
        temporary = os.path.join(self.folder, f"names.json.tmp-{os.getpid()}")
        with open(temporary, "w", encoding="utf-8") as out:
            json.dump(self.names, out)
        os.replace(temporary, os.path.join(self.folder, "names.json"))


@dataclass(frozen=True)
class ShardTokens:
    """A shard's token streams, memory-mapped: record ``docs[r]`` holds tokens
    ``bounds[r] .. bounds[r + 1] - 1``."""

    docs: I64
    bounds: I64
    ids: U32
    off: I64
    norm: U32
    bstart: I64
    bend: I64

    def record(self, doc: int) -> int:
        """The row of record ``doc`` (which must be in the shard)."""
        return int(np.searchsorted(self.docs, doc))

    def ranges(self, docs: I64) -> tuple[I64, I64]:
        """Token ranges ``[lo, hi)`` of records ``docs`` (all in the shard)."""
        rows = np.searchsorted(self.docs, docs)
        return self.bounds[rows], self.bounds[rows + 1]


def open_tokens(folder: str) -> ShardTokens:
    """The token streams a stage-1 task wrote to ``folder``, memory-mapped."""
    def part(name: str) -> npt.NDArray[Any]:
        path = os.path.join(folder, f"{name}.bin")
        dtype = np.dtype(TOKEN_FILES[name])
        if os.path.getsize(path) < dtype.itemsize:  # nothing to map; numba needs an array
            return np.zeros(1, dtype=dtype)
        return np.memmap(path, dtype=dtype, mode="r")

    return ShardTokens(np.load(os.path.join(folder, "docs.npy")),
                       np.load(os.path.join(folder, "bounds.npy")), part("ids"), part("off"),
                       part("norm"), part("bstart"), part("bend"))


@lru_cache(maxsize=64)
def shard_names(folder: str) -> tuple[str, ...]:
    """The record ids of a shard, in record order."""
    with open(os.path.join(folder, "names.json"), encoding="utf-8") as stream:
        return tuple(json.load(stream))


__all__ = [
    "PRINT_DTYPE",
    "RUN_DTYPE",
    "SEED_DTYPE",
    "SPAN_DTYPE",
    "ShardTokens",
    "TokenWriter",
    "Tokens",
    "load",
    "open_tokens",
    "part_name",
    "partition_of",
    "save",
    "shard_name",
    "shard_names",
    "tokenize",
]
