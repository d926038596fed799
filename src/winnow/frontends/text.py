"""The text front-end: Unicode-aware, case, whitespace and punctuation insensitive.

Letters and digits are kept, NFKC-normalised and case-folded; whitespace and
punctuation are dropped unless :class:`FrontEndOptions` keeps them (winnowing
paper, section 5.2: the front-end removes what should not distinguish
documents).  Units are Unicode code points (``unit="chars"``) or words
(``unit="words"``, a stable 32-bit hash of the normalised word).

Speed: pure-ASCII text goes through lookup tables over the bytes with numpy,
in chunks (so temporaries stay small whatever the file's size); only text with
non-ASCII characters pays for per-character Unicode work, once per distinct
character.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from winnow.frontends.base import Input, Result
from winnow.frontends.ids import stable_id
from winnow.frontends.options import DEFAULT_OPTIONS, FrontEndOptions
from winnow.model import Stream
from winnow.sources.sniff import Decoded, codepoints, decode, sniff, utf8_widths

CHUNK = 1 << 20

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]


@dataclass(frozen=True)
class Units:
    """Code points with their ``[start, end)`` in the scanned UTF-8 bytes."""

    cps: U32
    starts: I64
    ends: I64


def _ascii_tables(options: FrontEndOptions) -> tuple[U32, npt.NDArray[np.bool_]]:
    mapping = np.arange(256, dtype=np.uint32)
    if not options.keep_case:
        mapping[ord("A"):ord("Z") + 1] += 32
    keep = np.zeros(256, dtype=bool)
    for ch in range(128):
        c = chr(ch)
        keep[ch] = c.isalnum() or (options.keep_punctuation and _is_punct(c))
    if options.keep_whitespace:
        for c in " \t\n\r\f\v":
            keep[ord(c)] = True
            mapping[ord(c)] = 32
    return mapping, keep


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
    """Normalised characters of UTF-8 text, with byte spans into ``utf8``."""
    buf = np.frombuffer(utf8, dtype=np.uint8)
    units = _unicode_units(utf8, options) if _has_high(buf) else _ascii_units(buf, options)
    if options.keep_whitespace:
        units = _collapse_spaces(units)
    return units


def _has_high(buf: npt.NDArray[np.uint8]) -> bool:
    return any(bool((buf[i:i + CHUNK] >= 0x80).any()) for i in range(0, buf.size, CHUNK))


def _ascii_units(buf: npt.NDArray[np.uint8], options: FrontEndOptions) -> Units:
    mapping, keep = _ascii_tables(options)
    counts = [int(np.count_nonzero(keep[buf[i:i + CHUNK]])) for i in range(0, buf.size, CHUNK)]
    total = sum(counts)
    cps = np.empty(total, dtype=np.uint32)
    starts = np.empty(total, dtype=np.int64)
    at = 0
    for n, i in zip(counts, range(0, buf.size, CHUNK), strict=True):
        chunk = buf[i:i + CHUNK]
        where = np.flatnonzero(keep[chunk])
        cps[at:at + n] = mapping[chunk[where]]
        starts[at:at + n] = where + i
        at += n
    return Units(cps, starts, starts + 1)


def _unicode_units(utf8: bytes, options: FrontEndOptions) -> Units:
    cps = codepoints(utf8.decode("utf-8", "surrogateescape"))
    widths = utf8_widths(cps)
    ends = np.cumsum(widths)
    starts = ends - widths
    mapping, keep = _ascii_tables(options)
    ascii_ = cps < 0x80
    uniq, inverse = np.unique(cps[~ascii_], return_inverse=True)
    expansions = [_normalise(int(u), options.keep_case, options.keep_punctuation,
                             options.keep_whitespace) for u in uniq]
    ucount = np.fromiter((len(e) for e in expansions), dtype=np.int64, count=len(expansions))
    uoffset = np.concatenate([[0], np.cumsum(ucount)]).astype(np.int64)
    flat = np.fromiter((c for e in expansions for c in e), dtype=np.uint32,
                       count=int(uoffset[-1]))
    count = np.zeros(cps.shape[0], dtype=np.int64)
    count[ascii_] = keep[cps[ascii_]]
    uid = np.full(cps.shape[0], -1, dtype=np.int64)
    uid[~ascii_] = inverse
    count[~ascii_] = ucount[inverse]
    src = np.repeat(np.arange(cps.shape[0]), count)
    first = np.repeat(np.cumsum(count) - count, count)
    rank = np.arange(src.shape[0]) - first
    src_cp = cps[src]
    src_uid = uid[src]
    high = src_uid >= 0
    out = np.where(src_cp < 0x80, mapping[np.minimum(src_cp, 255)], 0).astype(np.uint32)
    out[high] = flat[uoffset[src_uid[high]] + rank[high]]
    return Units(out, starts[src].astype(np.int64), ends[src].astype(np.int64))


def _collapse_spaces(units: Units) -> Units:
    space = units.cps == 32
    dup = space.copy()
    dup[1:] &= space[:-1]
    dup[0] = False
    keep = ~dup
    if space.size and space[0]:
        keep[0] = False
    return Units(units.cps[keep], units.starts[keep], units.ends[keep])


def word_units(chars: Units) -> tuple[U32, I64, I64, dict[int, str]]:
    """Group characters into words: a run of letters/digits with nothing dropped between.

    Each kept punctuation character or space is a word of its own.
    """
    n = chars.cps.shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(0, dtype=np.uint32), empty, empty, {}
    text = chars.cps.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
    alnum = np.fromiter((c.isalnum() for c in text), dtype=bool, count=n)
    new = np.ones(n, dtype=bool)
    new[1:] = (chars.starts[1:] > chars.ends[:-1]) | ~alnum[1:] | ~alnum[:-1]
    bounds = np.flatnonzero(new)
    stops = np.append(bounds[1:], n)
    labels: dict[int, str] = {}
    ids = np.empty(bounds.shape[0], dtype=np.uint32)
    cache: dict[str, int] = {}
    for j, (a, b) in enumerate(zip(bounds.tolist(), stops.tolist(), strict=True)):
        word = text[a:b]
        wid = cache.get(word)
        if wid is None:
            wid = cache[word] = stable_id("w:" + word)
            labels[wid] = word
        ids[j] = wid
    return ids, chars.starts[bounds], chars.ends[stops - 1], labels


class TextFrontEnd:
    """Prose: characters (or words), normalised; see the module docstring."""

    name = "text"
    binary_input = False

    def stream(self, data: bytes, name: str) -> Stream:
        """Normalise ``data`` with the default options."""
        return text_stream(decode(data, sniff(data)), DEFAULT_OPTIONS)

    def process(self, inp: Input) -> Result:
        decoded = inp.decoded if inp.decoded is not None else decode(inp.data, sniff(inp.data))
        return Result(text_stream(decoded, inp.options))


def text_stream(decoded: Decoded, options: FrontEndOptions) -> Stream:
    """The stream of already-decoded text, offsets in the original bytes."""
    chars = char_units(decoded.utf8, options)
    if options.unit == "words":
        ids, starts, ends, labels = word_units(chars)
        return Stream(ids, decoded.original(starts), decoded.original(ends), labels)
    return Stream(chars.cps, decoded.original(chars.starts), decoded.original(chars.ends))
