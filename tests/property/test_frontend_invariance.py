"""Invariance of the front-ends (winnowing paper, section 5.2): what must not matter.

Renaming identifiers consistently, changing whitespace and indentation,
adding or removing comments leave a code stream unchanged; letter case,
whitespace and punctuation leave a prose stream unchanged; and the offset map
always round-trips (each unit's bytes lie inside the file, in order, and hold
what the unit says).
"""

from __future__ import annotations

import keyword
import unicodedata

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.frontends import FrontEndOptions, make_document
from winnow.frontends.keywords import KEYWORDS
from winnow.model import Document

PROGRAMS = {
    "python": ("a.py", "#", """
def {f}({a}, {b}=3):
    {c} = [{a} * 2 for {d} in range({b}) if {d} % 2]
    while {c}:
        {a} += {c}.pop() - 1.5
    return {f}({a}, "done") or {b}
"""),
    "java": ("A.java", "//", """
class {f} {{ int {a}; static int {b}(int {c}, String {d}) {{
    for (int i = 0; i < {c}; i++) {{ {d} = {d} + "x" + 'y'; }}
    return {c} >= 2 ? {b}({c} - 1, {d}) : 0x1F; }} }}
"""),
    "c": ("a.c", "//", """
#include <stdio.h>
static int {f}(const char *{a}, int {b}) {{
    int {c} = 0; /* count */
    while (*{a}) {{ {c} += (*{a}++ == 'x') ? {b} : 1; }}
    return {c} << 2;
}}
"""),
    "lua": ("a.lua", "--", """
local function {f}({a}, {b})
  local {c} = {{}}
  for {d} = 1, {b} do {c}[{d}] = {a} .. "x" end
  return #{c}
end
"""),
}
NAMES = ("f", "a", "b", "c", "d")
RESERVED = set(keyword.kwlist) | set().union(*KEYWORDS.values()) | {
    "i", "int", "char", "range", "print", "String", "local", "function", "end", "do", "for",
    "return", "then", "nil", "and", "or", "not", "in", "is", "self", "x", "y", "stdio", "h",
    "include", "static", "const", "while", "if", "else", "def", "class"}

identifier = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,11}", fullmatch=True).filter(
    lambda s: s not in RESERVED and not keyword.iskeyword(s))


def labels(doc: Document) -> list[str]:
    return [doc.stream.labels[int(u)] for u in doc.stream.units]


def code_doc(language: str, source: str) -> Document:
    name = PROGRAMS[language][0]
    doc = make_document(source.encode(), name)
    assert doc.language == language
    return doc


def render(language: str, names: list[str]) -> str:
    return PROGRAMS[language][2].format(**dict(zip(NAMES, names, strict=True)))


@settings(max_examples=40, deadline=None)
@given(language=st.sampled_from(sorted(PROGRAMS)),
       names=st.lists(identifier, min_size=5, max_size=5, unique=True))
def test_consistent_renaming_leaves_stream_unchanged(language: str, names: list[str]) -> None:
    original = code_doc(language, render(language, list(NAMES)))
    renamed = code_doc(language, render(language, names))
    assert np.array_equal(original.stream.units, renamed.stream.units)


def _relayout(source: str, data: st.DataObject, comment: str | None) -> str:
    """Change the indentation and the blanks between tokens; maybe add comments."""
    out = []
    for line in source.split("\n"):
        indent = data.draw(st.sampled_from(["", " ", "  ", "\t", "        "]))
        parts = line.split(" ")
        spaces = [data.draw(st.sampled_from([" ", "  ", "\t", " \t "])) for _ in parts[1:]]
        body = parts[0] + "".join(s + p for s, p in zip(spaces, parts[1:], strict=True))
        body = body.strip() if body.strip() else ""
        if comment and data.draw(st.booleans()):
            body += f"  {comment} note: x = {data.draw(st.integers(0, 99))} 'quote\""
        out.append(indent + body if body else body)
        if comment and data.draw(st.booleans()):
            out.append(f"{comment} a whole comment line")
    return "\n".join(out)


@settings(max_examples=40, deadline=None)
@given(language=st.sampled_from(["java", "c", "lua"]), data=st.data())
def test_layout_and_comments_do_not_matter(language: str, data: st.DataObject) -> None:
    source = render(language, list(NAMES))
    comment = PROGRAMS[language][1] if data.draw(st.booleans()) else None
    changed = _relayout(source, data, comment)
    assert labels(code_doc(language, source)) == labels(code_doc(language, changed))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_python_comments_and_blanks_do_not_matter(data: st.DataObject) -> None:
    source = render("python", list(NAMES))
    out = []
    for line in source.split("\n"):
        stripped = line.lstrip(" ")
        indent = line[: len(line) - len(stripped)]
        stripped = stripped.replace(" = ", data.draw(st.sampled_from([" = ", "=", "  =\t"])))
        if stripped and data.draw(st.booleans()):
            stripped += "  # trailing comment"
        out.append(indent * data.draw(st.sampled_from([1, 2])) + stripped)
        if data.draw(st.booleans()):
            out.append("# comment line")
    assert labels(code_doc("python", source)) == labels(code_doc("python", "\n".join(out)))


prose = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=200)


@settings(max_examples=80, deadline=None)
@given(text=prose, data=st.data())
def test_case_whitespace_and_punctuation_do_not_matter_in_prose(text: str,
                                                                data: st.DataObject) -> None:
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    ascii_case = "".join(c.swapcase() if flip and c.isascii() else c
                         for c, flip in zip(text, flips, strict=True))
    spaced = ascii_case.replace(" ", data.draw(st.sampled_from([" ", "\n\t ", ", "])))
    a = make_document(text.encode(), "a.txt")
    b = make_document(spaced.encode(), "a.txt")
    assert a.stream.units.tolist() == b.stream.units.tolist()
    upper = make_document(text.upper().encode(), "a.txt")
    lower = make_document(text.lower().encode(), "a.txt")
    if unicodedata.normalize("NFKC", text).isascii():
        assert upper.stream.units.tolist() == lower.stream.units.tolist()


def assert_round_trip(doc: Document) -> None:
    starts, ends = doc.stream.starts, doc.stream.ends
    assert starts.dtype == ends.dtype == np.int64
    if len(doc.stream) == 0:
        return
    assert starts.min() >= 0 and ends.max() <= len(doc.data)
    assert np.all(starts < ends)
    assert np.all(np.diff(starts) >= 0)


@settings(max_examples=80, deadline=None)
@given(text=prose, encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "latin-1"]))
def test_text_offsets_round_trip(text: str, encoding: str) -> None:
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode("utf-8")
        encoding = "utf-8"
    doc = make_document(data, "a.txt")
    assert_round_trip(doc)
    if doc.kind == "binary" or doc.encoding is None:
        return
    for unit, start, end in zip(doc.stream.units.tolist(), doc.stream.starts.tolist(),
                                doc.stream.ends.tolist(), strict=True):
        original = data[start:end].decode(doc.encoding, "surrogateescape")
        assert chr(unit) in unicodedata.normalize("NFKC", original).casefold()


@settings(max_examples=60, deadline=None)
@given(source=st.text(max_size=300), language=st.sampled_from(["a.py", "a.c", "a.lua"]))
def test_code_offsets_round_trip_on_any_input(source: str, language: str) -> None:
    data = source.encode("utf-8", "surrogatepass")
    doc = make_document(data, language)
    assert_round_trip(doc)


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=300), name=st.sampled_from(["a.py", "a.txt", "a.bin",
                                                           "a.html", "a.ipynb", "a.pdf"]))
def test_any_bytes_never_raise_and_round_trip(data: bytes, name: str) -> None:
    doc = make_document(data, name)
    assert_round_trip(doc)
    if doc.frontend == "bytes":
        assert doc.kind == "binary"
        assert doc.stream.units.tolist() == list(data)


def test_words_mode_renaming_free_options() -> None:
    opts = FrontEndOptions(unit="words")
    a = make_document(b"Alpha beta, GAMMA.", "a.txt", options=opts)
    b = make_document(b"alpha   BETA gamma", "a.txt", options=opts)
    assert a.stream.units.tolist() == b.stream.units.tolist()


TRICKY = [b'"', b"'", b"`", b"#", b"r", b"R", b"b", b"u8", b"L", b"@", b"$", b"/", b"*",
          b"\\", b"\n", b" ", b"(", b")", b".", b"1", b"e", b"0x", b"-", b"+", b"<", b">",
          b"=", b'"""', b"'''", b'r#"', b'R"(', b')"', b"\xc3", b"\xa9", b"/*", b"*/", b"//",
          b"a", b":"]


@settings(max_examples=150, deadline=None)
@given(pieces=st.lists(st.sampled_from(TRICKY), max_size=16),
       language=st.sampled_from(sorted(KEYWORDS)))
def test_fast_lexers_on_tricky_input(pieces: list[bytes], language: str) -> None:
    doc = make_document(b"".join(pieces), "x", lang=language)
    assert doc.language == language or doc.kind == "binary"
    assert_round_trip(doc)
    assert np.all(doc.stream.starts[1:] >= doc.stream.ends[:-1])  # tokens never overlap


def test_keep_whitespace_collapses_runs() -> None:
    opts = FrontEndOptions(keep_whitespace=True)
    for text, expected in [(b"", ""), (b"   ", ""), (b" a  b\n\n c ", "a b c")]:
        doc = make_document(text, "a.txt", options=opts)
        assert "".join(chr(u) for u in doc.stream.units.tolist()) == expected
