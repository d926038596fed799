"""Type and encoding sniffing: text or binary, and which encoding.

Like sif (Manber 1994, section 4), a file is first classified as text or
binary, and the two are never compared with each other.  Text is decoded with a
detected encoding (UTF-8 and UTF-16/32 with a byte-order mark directly, other
encodings through ``charset-normalizer``); bytes that do not decode are never a
crash and never silently dropped: they are escaped one byte per character and a
warning says so.

:class:`Decoded` keeps the text as UTF-8 bytes (what the front-ends scan) and a
map from UTF-8 byte offsets back to byte offsets in the *original* data, so a
front-end's offsets always point into the bytes the user gave.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from winnow.model import Kind

#: How many leading bytes are inspected to decide text vs binary.
SNIFF_BYTES = 64 * 1024

#: Control bytes (other than tab, newline, form feed, carriage return, escape)
#: above this fraction of the sniffed sample make a file binary.
CONTROL_FRACTION = 0.10

#: Bytes validated per step of the strict UTF-8 check (bounds its memory).
VALIDATE_CHUNK = 1 << 20

#: Legacy code pages preferred when the detector finds them about as plausible.
PREFERRED = ("cp1252", "iso8859_1", "iso8859_15", "latin_1")

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

_CONTROL = np.zeros(256, dtype=bool)
_CONTROL[:32] = True
_CONTROL[[9, 10, 12, 13, 27]] = False
_CONTROL[127] = True


@dataclass(frozen=True)
class Sniffed:
    """The verdict on one file: ``kind`` text or binary, encoding, why."""

    kind: Kind
    encoding: str | None
    bom: int = 0
    reason: str = ""


def _looks_utf16(sample: bytes) -> str | None:
    """UTF-16 without a BOM: NULs in every other byte of mostly-ASCII text."""
    if len(sample) < 4:
        return None
    buf = np.frombuffer(sample[: len(sample) // 2 * 2], dtype=np.uint8)
    even, odd = buf[0::2], buf[1::2]
    if np.mean(odd == 0) > 0.9 and np.mean(even == 0) < 0.05:
        return "utf-16-le"
    if np.mean(even == 0) > 0.9 and np.mean(odd == 0) < 0.05:
        return "utf-16-be"
    return None


def sniff(data: bytes) -> Sniffed:
    """Decide whether ``data`` is text (and in which encoding) or binary.

    Order: a byte-order mark decides; NUL bytes mean binary unless the
    sample is BOM-less UTF-16 or UTF-8 text with at most one NUL per KiB and
    no other control bytes; valid UTF-8 is UTF-8; too many control bytes
    mean binary; otherwise ``charset-normalizer`` picks an encoding, and if it
    finds none the file is binary.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return Sniffed("text", encoding, len(bom), f"byte-order mark ({encoding})")
    sample = data[:SNIFF_BYTES]
    if b"\x00" in sample:
        utf16 = _looks_utf16(sample)
        if utf16 is not None:
            return Sniffed("text", utf16, 0, f"{utf16} without byte-order mark")
        if _text_with_stray_nuls(sample, whole=len(data) <= SNIFF_BYTES):
            return Sniffed("text", "utf-8", 0, "UTF-8 with a few NUL bytes")
        return Sniffed("binary", None, 0, "NUL bytes")
    if _is_utf8(sample, whole=len(data) <= SNIFF_BYTES):
        return Sniffed("text", "utf-8", 0, "valid UTF-8")
    if len(data) <= SNIFF_BYTES and _is_utf8(sample, whole=False):
        return Sniffed("text", "utf-8", 0, "UTF-8 cut inside its last character")
    buf = np.frombuffer(sample, dtype=np.uint8)
    if buf.size and float(np.mean(_CONTROL[buf])) > CONTROL_FRACTION:
        return Sniffed("binary", None, 0, "control bytes")
    high = buf >= 0x80
    if _mostly_utf8(sample):
        return Sniffed("text", "utf-8", 0, "UTF-8 with invalid bytes")
    guess = _detect(sample) if high.any() else "ascii"
    if guess is None:
        return Sniffed("binary", None, 0, "no text encoding fits")
    return Sniffed("text", guess, 0, f"detected {guess}")


def _text_with_stray_nuls(sample: bytes, whole: bool) -> bool:
    """At most one NUL per KiB in otherwise clean UTF-8 text (no other control
    bytes).  C compilers ignore a NUL in a comment, so without this one NUL
    byte turned a copied source file into a skipped "binary" one."""
    if sample.count(b"\x00") * 1024 > len(sample):
        return False
    rest = sample.replace(b"\x00", b"")
    if _CONTROL[np.frombuffer(rest, dtype=np.uint8)].any():
        return False
    return _is_utf8(rest, whole)


def _is_utf8(sample: bytes, whole: bool) -> bool:
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as error:
        # A multi-byte character cut by the sample's end is still UTF-8.
        return not whole and error.start >= len(sample) - 3 and error.reason.startswith(
            "unexpected end"
        )
    return True


def _mostly_utf8(sample: bytes) -> bool:
    """UTF-8 with a few stray bytes: more valid multi-byte sequences than errors."""
    text = sample.decode("utf-8", "surrogateescape")
    bad = sum(1 for ch in text if "\udc80" <= ch <= "\udcff")
    good = sum(1 for ch in text if ord(ch) >= 0x80 and not "\udc80" <= ch <= "\udcff")
    return good > 0 and bad <= good


def _detect(sample: bytes) -> str | None:
    from charset_normalizer import from_bytes

    matches = list(from_bytes(sample))
    if not matches:
        return None
    # The detector often ranks rare code pages (mac-latin2 ...) above cp1252 on
    # short Western-European text; prefer the common one when it is close.
    best = matches[0]
    for match in matches:
        if match.encoding in PREFERRED and match.chaos <= best.chaos + 0.1:
            best = match
            break
    return str(codecs.lookup(best.encoding).name)


@dataclass(frozen=True)
class Decoded:
    """Text as UTF-8 bytes plus the way back to original byte offsets.

    ``utf8`` is what the front-ends scan.  For UTF-8 input it *is* the input
    (after any BOM; invalid bytes kept as they are), so offsets shift by
    ``bom``; otherwise ``to_orig[i]`` is the original offset of UTF-8 offset
    ``i`` (length ``len(utf8) + 1``).
    """

    utf8: bytes
    encoding: str
    bom: int = 0
    to_orig: npt.NDArray[np.int64] | None = None
    warnings: tuple[str, ...] = field(default=())

    def text(self) -> str:
        """The decoded text; undecodable bytes are lone surrogates U+DC80..U+DCFF."""
        return self.utf8.decode("utf-8", "surrogateescape")

    def original(self, offsets: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Map UTF-8 offsets to offsets in the original bytes."""
        if self.to_orig is None:
            return offsets + self.bom if self.bom else offsets
        return self.to_orig[offsets]


def utf8_widths(codepoints: npt.NDArray[np.uint32]) -> npt.NDArray[np.int64]:
    """UTF-8 length of each code point (escaped bytes U+DC80..U+DCFF count 1)."""
    widths = np.where(codepoints < 0x80, 1, np.where(codepoints < 0x800, 2,
                      np.where(codepoints < 0x10000, 3, 4))).astype(np.int64)
    widths[(codepoints >= 0xDC80) & (codepoints <= 0xDCFF)] = 1
    return widths


def codepoints(text: str) -> npt.NDArray[np.uint32]:
    """The code points of ``text`` (lone surrogates allowed)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def decode(data: bytes, sniffed: Sniffed) -> Decoded:
    """Decode text ``data`` in the sniffed encoding, never raising."""
    encoding = sniffed.encoding or "utf-8"
    body = data[sniffed.bom:]
    if encoding in ("utf-8", "ascii"):
        warnings: tuple[str, ...] = ()
        bad = first_invalid_utf8(body)
        if bad is not None:
            warnings = (f"invalid UTF-8 (first at byte {sniffed.bom + bad}); "
                        "undecodable bytes kept as unknown characters",)
        return Decoded(body, "utf-8", sniffed.bom, None, warnings)
    decoded = _decode_other(body, encoding, sniffed.bom)
    if sniffed.reason.startswith("detected"):
        note = f"invalid UTF-8; decoded as {encoding} (detected)"
        return Decoded(decoded.utf8, encoding, sniffed.bom, decoded.to_orig,
                       (note, *decoded.warnings))
    return decoded


def first_invalid_utf8(data: bytes) -> int | None:
    """Offset of the first byte that is not part of valid UTF-8, or ``None``.

    ASCII is answered by ``bytes.isascii`` (C, a word at a time); other text
    is validated by CPython's strict UTF-8 decoder a chunk at a time, so at
    most one chunk's string exists whatever the file's size.  Only invalid
    input pays for the compiled byte scan that locates the first bad byte.
    """
    if data.isascii() or _valid_utf8(data):
        return None
    from winnow.frontends._utf8_kernel import first_invalid  # numba: only for invalid text

    at = int(first_invalid(np.frombuffer(data, dtype=np.uint8)))
    return None if at < 0 else at


def _valid_utf8(data: bytes) -> bool:
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    view = memoryview(data)
    try:
        for start in range(0, len(data), VALIDATE_CHUNK):
            decoder.decode(view[start:start + VALIDATE_CHUNK],
                           final=start + VALIDATE_CHUNK >= len(data))
    except UnicodeDecodeError:
        return False
    return True


def _decode_other(body: bytes, encoding: str, bom: int) -> Decoded:
    warnings: list[str] = []
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as error:
        warnings.append(f"invalid {encoding} (first at byte {bom + error.start}); "
                        "replaced with U+FFFD")
        text = body.decode(encoding, "replace")
    cps = codepoints(text)
    orig_w = _encoded_widths(text, cps, encoding)
    if int(orig_w.sum()) != len(body):  # replacement characters: widths unknown
        orig_w = _widths_by_incremental_decode(body, encoding, len(text))
    utf8 = text.encode("utf-8", "surrogatepass")
    u8_w = utf8_widths(cps)
    char_orig = bom + np.concatenate([[0], np.cumsum(orig_w)]).astype(np.int64)
    to_orig = np.repeat(char_orig[:-1], u8_w)
    to_orig = np.concatenate([to_orig, char_orig[-1:]]).astype(np.int64)
    return Decoded(utf8, encoding, bom, to_orig, tuple(warnings))


def _encoded_widths(text: str, cps: npt.NDArray[np.uint32], encoding: str
                    ) -> npt.NDArray[np.int64]:
    name = codecs.lookup(encoding).name
    if name.startswith("utf-16"):
        return np.where(cps >= 0x10000, 4, 2).astype(np.int64)
    if name.startswith("utf-32"):
        return np.full(cps.shape[0], 4, dtype=np.int64)
    if len(text.encode(encoding, "replace")) == len(text):  # single-byte code page
        return np.ones(cps.shape[0], dtype=np.int64)
    return np.fromiter((len(ch.encode(encoding, "replace")) for ch in text),
                       dtype=np.int64, count=len(text))


def _widths_by_incremental_decode(body: bytes, encoding: str, n_chars: int
                                  ) -> npt.NDArray[np.int64]:
    """Source bytes per decoded character, one byte at a time (slow, rare path)."""
    decoder = codecs.getincrementaldecoder(encoding)("replace")
    widths = np.zeros(n_chars, dtype=np.int64)
    produced, pending = 0, 0
    for i in range(len(body)):
        out = decoder.decode(body[i:i + 1])
        pending += 1
        if out:
            widths[produced] = pending
            produced += len(out)
            pending = 0
    out = decoder.decode(b"", final=True)
    if out and produced < n_chars:
        widths[produced] = pending
    return widths
