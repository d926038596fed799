"""The text front-end: Unicode-aware, case, whitespace and punctuation insensitive.

Letters and digits are kept, NFKC-normalised and case-folded; whitespace and
punctuation are dropped unless :class:`FrontEndOptions` keeps them (winnowing
paper, section 5.2: the front-end removes what should not distinguish
documents).  Units are Unicode code points (``unit="chars"``) or words
(``unit="words"``, a stable 32-bit hash of the normalised word).

Speed: compiled loops (:mod:`winnow.frontends._text_kernels`) decode UTF-8
in place and map ASCII through a table; Unicode normalisation runs once per
*distinct* non-ASCII character, never per occurrence.  Memory: the input plus
the exact-size output arrays, whatever the file's size or line length.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from winnow.frontends._text_kernels import (
    count_units,
    fill_units,
    high_codepoints,
    word_bounds,
)
from winnow.frontends.base import Input, Result
from winnow.frontends.ids import stable_id
from winnow.frontends.options import DEFAULT_OPTIONS, FrontEndOptions
from winnow.model import Stream
from winnow.sources.sniff import Decoded, decode, sniff

CHUNK = 1 << 22

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]


@dataclass(frozen=True)
class Units:
    """Code points with their ``[start, end)`` in the scanned UTF-8 bytes."""

    cps: U32
    starts: I64
    ends: I64


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"


@lru_cache(maxsize=1 << 16)
def _normalise(cp: int, keep_case: bool, keep_punct: bool, keep_ws: bool) -> tuple[int, ...]:
    """NFKC (and case fold) of one character, keeping the wanted characters."""
    if 0xDC80 <= cp <= 0xDCFF:  # an undecodable byte
        return ()
    out = unicodedata.normalize("NFKC", chr(cp))
    if not keep_case:
        out = out.casefold()
    kept: list[int] = []
    for c in out:
        if c.isalnum() or (keep_punct and _is_punct(c)):
            kept.append(ord(c))
        elif keep_ws and c.isspace():
            kept.append(32)
    return tuple(kept)


def char_units(utf8: bytes, options: FrontEndOptions = DEFAULT_OPTIONS) -> Units:
    """Normalised characters of UTF-8 text, with byte spans into ``utf8``.

    Two compiled passes over the bytes (count, then fill), so the only memory
    besides the input is the exact-size output (20 bytes per unit).  Invalid
    bytes map to nothing.
    """
    buf = np.frombuffer(utf8, dtype=np.uint8)
    ascii_map = _ascii_map(options)
    distinct, exp_offset, exp_flat = _expansions(buf, options, utf8.isascii())
    total = int(count_units(buf, ascii_map, distinct, exp_offset))
    cps = np.empty(total, dtype=np.uint32)
    starts = np.empty(total, dtype=np.int64)
    ends = np.empty(total, dtype=np.int64)
    fill_units(buf, ascii_map, distinct, exp_offset, exp_flat, cps, starts, ends)
    units = Units(cps, starts, ends)
    return _collapse_spaces(units) if options.keep_whitespace else units


@lru_cache(maxsize=64)
def _ascii_map(options: FrontEndOptions) -> U32:
    """Unit of each ASCII byte, 0 where the byte is dropped (read-only, cached)."""
    table = np.zeros(128, dtype=np.uint32)
    for ch in range(1, 128):
        c = chr(ch)
        if c.isalnum() or (options.keep_punctuation and _is_punct(c)):
            table[ch] = ord(c.lower()) if not options.keep_case else ch
        elif options.keep_whitespace and c.isspace():
            table[ch] = 32
    table.flags.writeable = False
    return table


def _expansions(buf: npt.NDArray[np.uint8], options: FrontEndOptions, is_ascii: bool
                ) -> tuple[I64, I64, U32]:
    """Distinct non-ASCII code points (sorted) and their normalised units (CSR)."""
    empty = np.zeros(0, dtype=np.int64)
    if is_ascii:
        return empty, np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.uint32)
    found = np.empty(int(high_codepoints(buf, empty)), dtype=np.int64)
    high_codepoints(buf, found)
    distinct = np.unique(found)
    expansions = [_normalise(int(cp), options.keep_case, options.keep_punctuation,
                             options.keep_whitespace) for cp in distinct.tolist()]
    counts = np.fromiter(map(len, expansions), dtype=np.int64, count=len(expansions))
    offsets = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(counts)])
    flat = np.fromiter((c for e in expansions for c in e), dtype=np.uint32,
                       count=int(offsets[-1]))
    return distinct, offsets, flat


def _collapse_spaces(units: Units) -> Units:
    """Each run of kept whitespace becomes one space; leading and trailing ones go."""
    space = units.cps == 32
    keep = ~space
    keep[1:] |= space[1:] & ~space[:-1]  # the first space of each run
    words = np.flatnonzero(~space)
    if words.size == 0:
        keep[:] = False
    else:
        keep[:words[0]] = False
        keep[words[-1] + 1:] = False
    return Units(units.cps[keep], units.starts[keep], units.ends[keep])


_ASCII_ALNUM = np.array([chr(c).isalnum() for c in range(128)], dtype=np.bool_)


def word_units(chars: Units) -> tuple[U32, I64, I64, dict[int, str]]:
    """Group characters into words: a run of letters/digits with nothing dropped between.

    Each kept punctuation character or space is a word of its own.  Word ids
    are :func:`stable_id` of ``"w:" + word``, computed once per distinct word.
    """
    n = chars.cps.shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(0, dtype=np.uint32), empty, empty, {}
    wordchar = _ASCII_ALNUM[np.minimum(chars.cps, 127)]
    high = np.flatnonzero(chars.cps >= 128)
    if high.shape[0]:
        distinct, inverse = np.unique(chars.cps[high], return_inverse=True)
        flags = np.array([chr(c).isalnum() for c in distinct.tolist()], dtype=np.bool_)
        wordchar[high] = flags[inverse.reshape(-1)]
    bounds = np.empty(n, dtype=np.int64)
    hashes = np.empty(n, dtype=np.uint64)
    count = int(word_bounds(chars.cps, chars.starts, chars.ends, wordchar, bounds, hashes))
    bounds, hashes = bounds[:count].copy(), hashes[:count].copy()
    stops = np.append(bounds[1:], n)
    uniq, first, inv = np.unique(hashes, return_index=True, return_inverse=True)
    table = np.empty(uniq.shape[0], dtype=np.uint32)
    labels: dict[int, str] = {}
    for u, w in enumerate(first.tolist()):
        word = "".join(map(chr, chars.cps[bounds[w]:stops[w]].tolist()))
        table[u] = stable_id("w:" + word)
        labels[int(table[u])] = word
    return table[inv.reshape(-1)], chars.starts[bounds], chars.ends[stops - 1], labels


class TextFrontEnd:
    """Prose: characters (or words), normalised; see the module docstring."""

    name = "text"
    binary_input = False

    def stream(self, data: bytes, name: str) -> Stream:
        """Normalise ``data`` with the default options."""
        return text_stream(decode(data, sniff(data)), DEFAULT_OPTIONS)

    def process(self, inp: Input) -> Result:
        decoded = inp.text()
        return Result(text_stream(decoded, inp.options))


def text_stream(decoded: Decoded, options: FrontEndOptions) -> Stream:
    """The stream of already-decoded text, offsets in the original bytes."""
    chars = char_units(decoded.utf8, options)
    if options.unit == "words":
        ids, starts, ends, labels = word_units(chars)
        return Stream(ids, decoded.original(starts), decoded.original(ends), labels)
    return Stream(chars.cps, decoded.original(chars.starts), decoded.original(chars.ends))
