"""The text front-end: Unicode-aware, case, whitespace and punctuation insensitive.

Letters and digits are kept, NFKC-normalised and case-folded; whitespace and
punctuation are dropped unless :class:`FrontEndOptions` keeps them (winnowing
paper, section 5.2: the front-end removes what should not distinguish
documents).  Units are Unicode code points (``unit="chars"``) or words
(``unit="words"``, a stable 32-bit hash of the normalised word).

Speed: one compiled pass (:mod:`winnow.frontends._text_kernels`) decodes
UTF-8 in place and writes straight into the output; ASCII maps through a
table, other characters through a per-process table that Python fills the
first time a code point is met, so Unicode normalisation runs once per
*distinct* character, never per occurrence.  A combining sequence (a
character and the marks after it, when one of them composes) is normalised
as a whole, once per distinct sequence.  Memory: the input plus the output
arrays, allocated for one unit per byte and shrunk in place (pages never
written are never mapped), whatever the file's size or line length.
"""

from __future__ import annotations

import os
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from winnow.frontends._text_kernels import (
    CLUSTER,
    COMPOSES,
    DONE,
    KNOWN,
    LEN_SHIFT,
    MARK,
    START_SHIFT,
    UNKNOWN,
    ascii_fill,
    fill_units,
    find_clusters,
    unknown_codepoints,
    word_bounds,
)
from winnow.frontends.base import Input, Result
from winnow.frontends.ids import stable_id
from winnow.frontends.options import DEFAULT_OPTIONS, FrontEndOptions
from winnow.frontends.sniff import Decoded
from winnow.model import Stream

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]

#: One past the largest Unicode code point.
CODE_POINTS = 0x110000

#: Unknown code points a document learns one at a time, each where the scan
#: meets it (about 5 us each), before one compiled scan lists all the others
#: of the document (loading that kernel from the cache costs about 8 ms once).
SINGLE_STEPS = 64

_NO_CLUSTERS = np.zeros((0, 4), dtype=np.int64)
_NO_UNITS = np.zeros(0, dtype=np.uint32)
#: Serialises use of the shared code point tables (the kernels hold the GIL).
_LOCK = threading.Lock()


def _new_lock() -> None:
    """A forked child gets a fresh lock (the parent's may be held by a thread
    that does not exist in the child)."""
    global _LOCK
    _LOCK = threading.Lock()


os.register_at_fork(after_in_child=_new_lock)


class Units(NamedTuple):
    """Code points with their ``[start, end)`` in the scanned UTF-8 bytes."""

    cps: U32
    starts: I64
    ends: I64


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"


def _normalise_text(text: str, keep_case: bool, keep_punct: bool, keep_ws: bool
                    ) -> tuple[int, ...]:
    """NFKC (and case fold) of ``text``, keeping the wanted characters."""
    out = unicodedata.normalize("NFKC", text)
    if not keep_case:
        out = out.casefold()
    kept: list[int] = []
    for c in out:
        if c.isalnum() or (keep_punct and _is_punct(c)):
            kept.append(ord(c))
        elif keep_ws and c.isspace():
            kept.append(32)
    return tuple(kept)


#: Canonical composites all lie below this code point, and none lies in these
#: ranges: CJK ideographs, Hangul syllables (whose jamo the algorithm of
#: Unicode section 3.12 gives), surrogates, private use.  A test compares the
#: set built from them with the whole Unicode database.
COMPOSITES_BELOW = 0x20000
_NO_COMPOSITES = ((0x3400, 0x9FFF), (0xAC00, 0xDFFF), (0xE000, 0xF8FF))
_HANGUL_JAMO = frozenset(range(0x1161, 0x1176)) | frozenset(range(0x11A8, 0x11C3))


@lru_cache(maxsize=1)
def _composing() -> frozenset[int]:
    """Characters canonical composition can merge into the one before them:
    every character after the first in a canonical decomposition (combining
    marks, Hangul medial vowels and final consonants).  Computed once, the
    first time a mark is met, by one NFD of all code points that could
    decompose, each after a NUL separator (about 6 ms)."""
    cps = np.arange(COMPOSITES_BELOW, dtype=np.uint32)
    for low, high in _NO_COMPOSITES:
        cps = cps[(cps < low) | (cps > high)]
    pairs = np.zeros((cps.shape[0], 2), dtype=np.uint32)
    pairs[:, 1] = cps
    nfd = unicodedata.normalize("NFD", pairs.tobytes().decode("utf-32-le"))
    out = np.frombuffer(nfd.encode("utf-32-le"), dtype=np.uint32)
    later = out[1:][(out[1:] != 0) & (out[:-1] != 0)]
    return frozenset(later.tolist()) | _HANGUL_JAMO


def _flags(cp: int) -> int:
    """``MARK``/``COMPOSES`` bits of a code point's table entry.  Only combining
    marks (M*) and Hangul jamo (Lo) compose with the character before them."""
    ch = chr(cp)
    if (unicodedata.category(ch)[0] == "M" or 0x1100 <= cp <= 0x11FF) \
            and cp in _composing():
        return MARK | COMPOSES
    first = unicodedata.normalize("NFD", ch)[:1]
    return MARK if unicodedata.combining(ch) or unicodedata.combining(first) else 0


def leads_with_mark(utf8: bytes) -> bool:
    """Whether UTF-8 text starts with a character that can belong to the
    combining sequence of a character before it (a mark, a Hangul medial
    vowel or final consonant): text that cannot be joined to other text
    without changing its units."""
    if not utf8 or utf8[0] < 0x80:
        return False
    first = utf8[:4].decode("utf-8", "ignore")[:1]
    return bool(first) and _flags(ord(first)) != 0


@dataclass
class _Table:
    """The dense code point table of one set of options (entries as in
    :mod:`winnow.frontends._text_kernels`) and the units it points into.
    Pages of ``index`` that no code point touches are never mapped."""

    keep: tuple[bool, bool, bool]
    ascii_map: U32
    index: I64 = field(default_factory=lambda: np.zeros(CODE_POINTS, dtype=np.int64))
    flat: U32 = field(default_factory=lambda: np.zeros(1024, dtype=np.uint32))
    used: int = 0
    #: Scratch flags for :func:`unknown_codepoints`, all False between calls.
    seen: npt.NDArray[np.bool_] = field(
        default_factory=lambda: np.zeros(CODE_POINTS, dtype=np.bool_))

    def learn(self, buf: npt.NDArray[np.uint8], start: int) -> None:
        """Add every code point of ``buf[start:]`` that is not known yet."""
        found = np.empty(4096, dtype=np.int64)
        while (m := int(unknown_codepoints(buf, start, self.index, self.seen, found))) > 0:
            try:
                for cp in found[:m].tolist():
                    self.add(cp)
            finally:  # the flags must be clear for the next call, whatever happened
                self.seen[found[:m]] = False

    def add(self, cp: int) -> None:
        """Add one code point (its entry last, so an entry always points to
        units already written)."""
        units = _normalise_text(chr(cp), *self.keep)
        start = self.used
        if start + len(units) > self.flat.shape[0]:
            self.flat = np.concatenate([self.flat, np.zeros_like(self.flat)])
        self.flat[start:start + len(units)] = units
        self.used = start + len(units)
        self.index[cp] = KNOWN | _flags(cp) | len(units) << LEN_SHIFT | start << START_SHIFT


@lru_cache(maxsize=64)
def _table(options: FrontEndOptions) -> _Table:
    """The table for these options (shared by options that keep the same)."""
    return _shared_table(options.keep_case, options.keep_punctuation, options.keep_whitespace)


@lru_cache(maxsize=8)
def _shared_table(keep_case: bool, keep_punct: bool, keep_ws: bool) -> _Table:
    return _Table((keep_case, keep_punct, keep_ws), _ascii_map(keep_case, keep_punct, keep_ws))


def _clusters(utf8: bytes, buf: npt.NDArray[np.uint8], table: _Table
              ) -> tuple[I64, U32]:
    """Combining sequences of the text with their normalised units
    (rows ``start, end, first, stop`` into the returned units)."""
    spans = np.empty((1024, 2), dtype=np.int64)
    m = int(find_clusters(buf, table.index, spans))
    if m > spans.shape[0]:
        spans = np.empty((m, 2), dtype=np.int64)
        find_clusters(buf, table.index, spans)
    rows = np.empty((m, 4), dtype=np.int64)
    rows[:, :2] = spans[:m]
    known: dict[bytes, tuple[int, int]] = {}
    flat: list[int] = []
    for k, (start, end) in enumerate(spans[:m].tolist()):
        key = utf8[start:end]
        if key not in known:
            units = _normalise_text(key.decode("utf-8"), *table.keep)
            known[key] = (len(flat), len(flat) + len(units))
            flat.extend(units)
        rows[k, 2:] = known[key]
    return rows, np.array(flat, dtype=np.uint32)


def char_units(utf8: bytes, options: FrontEndOptions = DEFAULT_OPTIONS) -> Units:
    """Normalised characters of UTF-8 text, with byte spans into ``utf8``.

    One compiled pass over the bytes writes straight into the output, which
    is allocated for one unit per byte and shrunk in place at the end (pages
    never written are never mapped).  Each character is NFKC-normalised and
    case-folded; a combining sequence (``e`` + U+0301) is normalised as a
    whole, so it gives the same units as its precomposed form, all spanning
    the whole sequence.  Invalid bytes map to nothing.
    """
    buf = np.frombuffer(utf8, dtype=np.uint8)
    n = buf.shape[0]
    cps = np.empty(n, dtype=np.uint32)
    starts = np.empty(n, dtype=np.int64)
    ends = np.empty(n, dtype=np.int64)
    state = np.zeros(4, dtype=np.int64)
    table = _table(options)
    clusters, cflat = _NO_CLUSTERS, _NO_UNITS
    stops = 0
    with _LOCK:
        while (status := fill_units(buf, state, table.ascii_map, table.index, table.flat,
                                    clusters, cflat, cps, starts, ends)) != DONE:
            if status == UNKNOWN:
                table.add(int(state[3]))  # always progress
                if (stops := stops + 1) > SINGLE_STEPS:
                    table.learn(buf, int(state[0]))
            elif status == CLUSTER and clusters is _NO_CLUSTERS:
                table.learn(buf, 0)
                clusters, cflat = _clusters(utf8, buf, table)
                state[:] = 0
            elif status == CLUSTER:  # cannot happen; never abort a batch if it does
                raise ValueError(f"text front-end: composing mark at byte {state[0]} outside "
                                 "every combining sequence")
            else:
                size = 2 * cps.shape[0] + 256
                for array in (cps, starts, ends):
                    array.resize(size, refcheck=False)
    total = int(state[1])
    for array in (cps, starts, ends):
        array.resize(total, refcheck=False)
    units = Units(cps, starts, ends)
    return _collapse_spaces(units) if options.keep_whitespace else units


@lru_cache(maxsize=1)
def byte_units() -> U32:
    """The unit of each byte value under the default options, read-only: an
    ASCII letter or digit's lower case, 0 for any other ASCII byte (dropped)
    and for every byte from 128 on (not ASCII: no caller of this table
    reads one, and the 256 entries make the compiled loops that index it
    by byte safe whatever they are given)."""
    table = np.zeros(256, dtype=np.uint32)
    table[:128] = _table(DEFAULT_OPTIONS).ascii_map
    table.flags.writeable = False
    return table


def ascii_units(text: bytes, offsets: I64) -> tuple[npt.NDArray[np.uint8], I64] | None:
    """The units :func:`char_units` gives ``text`` (default options) when it
    is all ASCII, as bytes, and how many come before each byte offset of
    ``offsets`` (ascending; one more entry: all of them), without the byte
    spans; ``None`` for text that is not all ASCII.  The corpus's
    fingerprinting needs only each record's first unit: for its ASCII
    batches this pass writes one byte a unit where :func:`char_units` writes
    twenty (the code point and its span): 14-19 ms against 32-35 ms for the
    7.1 MB of one of ``benchmarks/scale.py``'s shards."""
    if not text.isascii():
        return None
    data = np.frombuffer(text, dtype=np.uint8)
    units = np.empty(data.shape[0], dtype=np.uint8)
    bounds = np.empty(offsets.shape[0] + 1, dtype=np.int64)
    total = int(ascii_fill(data, byte_units(), offsets, units, bounds))
    units.resize(total, refcheck=False)  # in place: the pages past it given back
    return units, bounds


def _ascii_map(keep_case: bool, keep_punct: bool, keep_ws: bool) -> U32:
    """Unit of each ASCII byte, 0 where the byte is dropped (read-only)."""
    table = np.zeros(128, dtype=np.uint32)
    for ch in range(1, 128):
        c = chr(ch)
        if c.isalnum() or (keep_punct and _is_punct(c)):
            table[ch] = ord(c.lower()) if not keep_case else ch
        elif keep_ws and c.isspace():
            table[ch] = 32
    table.flags.writeable = False
    return table


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
    _, first, inv = np.unique(hashes, return_index=True, return_inverse=True)
    text = chars.cps.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
    words = [text[a:b] for a, b in zip(bounds[first].tolist(), stops[first].tolist(),
                                       strict=True)]
    table = np.fromiter((stable_id("w:" + word) for word in words), dtype=np.uint32,
                        count=len(words))
    labels = dict(zip(table.tolist(), words, strict=True))
    return table[inv.reshape(-1)], chars.starts[bounds], chars.ends[stops - 1], labels


class TextFrontEnd:
    """Prose: characters (or words), normalised; see the module docstring."""

    name = "text"
    binary_input = False

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
