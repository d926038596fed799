"""Text-vs-binary and encoding sniffing, and offsets back into the original bytes."""

from __future__ import annotations

import codecs

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.frontends.sniff import VALIDATE_CHUNK, decode, first_invalid_utf8, sniff


@pytest.mark.parametrize(
    ("data", "kind", "encoding"),
    [
        (b"", "text", "utf-8"),
        (b"plain ascii\n", "text", "utf-8"),
        ("naïve café".encode(), "text", "utf-8"),
        (codecs.BOM_UTF8 + b"bom", "text", "utf-8"),
        ("naïve".encode("utf-16"), "text", "utf-16-le"),
        ("naïve".encode("utf-16-be"), "text", "utf-16-be"),
        ("hello world, plain".encode("utf-16-le"), "text", "utf-16-le"),
        (b"\x7fELF\x02\x01\x01\x00\x00\x00\x00", "binary", None),
        (bytes(range(256)) * 4, "binary", None),
    ],
)
def test_sniff(data: bytes, kind: str, encoding: str | None) -> None:
    verdict = sniff(data)
    assert (verdict.kind, verdict.encoding) == (kind, encoding)
    assert verdict.reason


def test_latin1_text_is_detected_and_mapped_back() -> None:
    text = "Le cœur a ses raisons que la raison ne connaît point; déjà vu, à côté. " * 3
    data = text.encode("cp1252")
    verdict = sniff(data)
    assert verdict.kind == "text" and verdict.encoding is not None
    decoded = decode(data, verdict)
    assert decoded.text() == data.decode(verdict.encoding)
    i = decoded.utf8.index("ô".encode())
    assert data[decoded.original(np.array([i]))[0]:][:1] == "ô".encode("cp1252")


def test_invalid_utf8_is_kept_with_a_warning() -> None:
    data = "héllo wörld ".encode() * 10 + b"\xff\xfe bad " + "ünïcode".encode()
    verdict = sniff(data)
    assert (verdict.kind, verdict.encoding) == ("text", "utf-8")
    decoded = decode(data, verdict)
    assert decoded.utf8 == data
    assert decoded.warnings and "invalid UTF-8" in decoded.warnings[0]


def test_utf16_offsets_map_to_original_bytes() -> None:
    data = "a😀b".encode("utf-16")  # BOM, a, surrogate pair, b
    decoded = decode(data, sniff(data))
    assert decoded.text() == "a😀b"
    starts = decoded.original(np.arange(len(decoded.utf8) + 1))
    assert starts[0] == 2 and starts[1] == 4 and starts[5] == 8 and starts[-1] == 10


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=4), st.text(max_size=3).map(str.encode),
                          st.sampled_from([b"\xed\xa0\x80", b"\xc0\x80", b"\xf4\x90\x80\x80",
                                           b"\xe2\x82", b"\xf0"])), max_size=6).map(b"".join))
def test_utf8_validation_agrees_with_python(data: bytes) -> None:
    try:
        data.decode("utf-8")
        expected = None
    except UnicodeDecodeError as error:
        expected = error.start
    assert first_invalid_utf8(data) == expected


def test_utf8_cut_inside_its_last_character_is_text() -> None:
    data = "naïve café".encode()[:-1]
    verdict = sniff(data)
    assert (verdict.kind, verdict.encoding) == ("text", "utf-8")
    assert decode(data, verdict).warnings  # the cut byte is reported


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=20).map(lambda s: s.encode("utf-8")),
                          st.binary(max_size=4)), max_size=12).map(b"".join))
def test_first_invalid_utf8_agrees_with_the_strict_decoder(data: bytes) -> None:
    try:
        data.decode("utf-8")
        expected = None
    except UnicodeDecodeError as error:
        expected = error.start
    assert first_invalid_utf8(data) == expected


@pytest.mark.parametrize("tail", [b"\xc3\xa9" * 3, b"\xc3" + b"x", b"\xe2\x82" + b"\xff"])
def test_first_invalid_utf8_across_a_validation_chunk(tail: bytes) -> None:
    """A character (valid or broken) straddling the chunk boundary."""
    data = b"a" * (VALIDATE_CHUNK - 1) + tail
    try:
        data.decode("utf-8")
        expected = None
    except UnicodeDecodeError as error:
        expected = error.start
    assert first_invalid_utf8(data) == expected
