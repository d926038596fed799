"""Golden normalised streams: one small snippet per front-end and per language.

Each language snippet (tests/fixtures/frontends/snippets/) has a comment, an
identifier, a keyword, a string or number; the expected stream pins that
comments vanish, identifiers and literals collapse, keywords and operators stay.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

from winnow.frontends import FrontEndOptions, languages, make_document, read_document
from winnow.frontends.ids import stable_id
from winnow.model import Document, Span

SNIPPETS = Path(__file__).parent.parent / "fixtures" / "frontends" / "snippets"

LANGUAGE_GOLDEN = {
    'ada.adb': ('ada', 'function ID ( ID : ID ) return Integer is begin return ID + NUM ; end ID ;'),  # noqa: E501
    'asm.asm': ('asm', 'ID ID ID , [ ID + NUM ] ID'),
    'awk.awk': ('awk', '{ ID += $ NUM * NUM }'),
    'c.c': ('c', '#include < ID . ID > int ID ( int ID ) { return ID + CHR * NUM ; }'),
    'clojure.clj': ('clojure', '( defn ID [ ID ] ( ID ID NUM ) )'),
    'cobol.cob': ('cobol', 'PROCEDURE DIVISION . DISPLAY STR .'),
    'coffeescript.coffee': ('coffeescript', 'ID = ID ID + NUM'),
    'cpp.cpp': ('cpp', 'template < typename ID > ID ID ( ID ID ) { return ID << NUM ; } auto ID = STR ;'),  # noqa: E501
    'csharp.cs': ('csharp', 'class ID { int ID ( int ID ) => ID + STR . ID * NUM ; }'),
    'css.css': ('css', 'ID . ID { color : red ; margin : NUM px ; }'),
    'd.d': ('d', 'int ID ( int ID ) { return ID + NUM ; }'),
    'dart.dart': ('dart', 'ID ID ( ID ID ) => ID + STR . ID * NUM ;'),
    'elixir.ex': ('elixir', 'def ID ( ID ) , STR : ID + NUM'),
    'elm.elm': ('elm', 'ID ID ID ID ID NUM'),
    'erlang.erl': ('erlang', 'ID ( ID ) - > ID + NUM .'),
    'fortran.f90': ('fortran', 'integer function ID ( ID ) ID = ID + NUM end function'),
    'fsharp.fs': ('fsharp', 'let ID ID = ID + NUM'),
    'go.go': ('go', 'func ID ( ID ID ) ID { return ID + STR * NUM }'),
    'groovy.groovy': ('groovy', 'def ID ( ID ) { return ID + STR . ID ( ) * NUM }'),
    'haskell.hs': ('haskell', 'ID :: Int -> Int ID ID = ID + NUM'),
    'java.java': ('java', 'class ID { int ID ( int ID ) { return ID + STR . ID ( ) * NUM ; } }'),
    'javascript.js': ('javascript', 'const ID = ( ID ) => ID + STR * NUM ;'),
    'julia.jl': ('julia', 'function ID ( ID ) return ID + NUM end'),
    'kotlin.kt': ('kotlin', 'fun ID ( ID : ID ) : ID = ID + STR . ID * NUM'),
    'lisp.lisp': ('lisp', '( ID ID ( ID ) ( ID ID NUM ) )'),
    'lua.lua': ('lua', 'local function ID ( ID ) return ID + NUM end'),
    'matlab.m': ('matlab', 'function ID = ID ( ID ) ID = ID + NUM ; end'),
    'nim.nim': ('nim', 'proc ID ( ID : ID ) : ID = ID + NUM'),
    'objective-c.mm': ('objective-c', '@interface ID ID NSObject - ( int ) ID : ( int ) ID ; @end'),
    'ocaml.ml': ('ocaml', 'let ID ID = ID + NUM'),
    'pascal.pas': ('pascal', 'function ID ( ID : Integer ) : Integer ; begin ID : = ID + NUM ; end ;'),  # noqa: E501
    'perl.pl': ('perl', 'sub ID { my ( ID ID ) = ID ID ; return ID ID + NUM ; }'),
    'php.php': ('php', '<?php function ID ( ID ) { return ID . STR . NUM ; }'),
    'powershell.ps1': ('powershell', 'function ID ( ID ) { return ID + ID }'),
    'prolog.pro': ('prolog', 'ID ( ID , ID ) :- ID is ID + NUM'),
    'python.py': ('python', 'def ID ( ID ) : return ID + STR * NUM'),
    'r.R': ('r', 'ID <- function ( ID ) { ID + NUM }'),
    'ruby.rb': ('ruby', 'def ID ( ID ) ID + STR . ID * NUM end'),
    'rust.rs': ('rust', "fn ID < ' ID > ( ID : & ' ID str ) -> u32 { ID . ID ( ) as u32 + NUM }"),
    'scala.scala': ('scala', 'def ID ( ID : ID ) : ID = ID + STR . ID * NUM'),
    'scheme.scm': ('scheme', '( define ( ID ID ) ( ID ID NUM ) )'),
    'shell.sh': ('shell', 'ID ( ) { ID STR ID STR | ID ID ID ; }'),
    'sql.sql': ('sql', 'SELECT ID , COUNT ( * ) FROM ID WHERE ID > NUM ;'),
    'swift.swift': ('swift', 'func ID ( ID : ID ) -> ID { return ID + STR . ID * NUM }'),
    'tcl.tcl': ('tcl', 'proc ID { ID } { return [ expr { ID + ID } ] } ;'),
    'typescript.ts': ('typescript', 'function ID ( ID : number ) : string { return ID + STR ; }'),
    'vb.net.vb': ('vb.net', 'Function ID ( ID As Integer ) As Integer Return ID + NUM End Function'),  # noqa: E501
    'verilog.v': ('verilog', 'module ID ( input ID , output ID ) ; assign ID = ID & NUM ; endmodule'),  # noqa: E501
    'vhdl.vhd': ('vhdl', 'architecture ID of ID is begin ID < = ID and STR ; end ID ;'),
    'zig.zig': ('zig', 'fn ID ( ID : u32 ) u32 { return ID + NUM ; }'),
}


def labels(doc: Document) -> str:
    return " ".join(doc.stream.labels[int(u)] for u in doc.stream.units)


def chars(doc: Document) -> str:
    return "".join(chr(int(u)) for u in doc.stream.units)


@pytest.mark.parametrize("snippet", sorted(LANGUAGE_GOLDEN))
def test_language_snippet(snippet: str) -> None:
    language, expected = LANGUAGE_GOLDEN[snippet]
    doc = read_document(SNIPPETS / snippet)
    assert (doc.frontend, doc.language) == ("code", language)
    assert labels(doc) == expected
    assert doc.warnings == ()


def test_every_listed_language_has_a_golden_snippet() -> None:
    covered = {language for language, _ in LANGUAGE_GOLDEN.values()}
    assert {name for name, _, _ in languages()} == covered


def test_token_ids_are_pinned() -> None:
    # Ids are BLAKE2b of the label with the top bit set: the same in every process.
    digest = hashlib.blake2b(b"ID", digest_size=4).digest()
    assert stable_id("ID") == 0x80000000 | int.from_bytes(digest, "little")
    doc = make_document(b"x = 1\n", "a.py")
    assert doc.stream.units.tolist() == [stable_id("ID"), stable_id("="), stable_id("NUM")]


def test_keep_identifiers_and_literals() -> None:
    opts = FrontEndOptions(keep_identifiers=True, keep_literals=True)
    doc = make_document(b'total = price * 2 + "x"  # c\n', "a.py", options=opts)
    assert labels(doc) == 'id:total = id:price * lit:2 + lit:"x"'


def test_literal_units_keep_each_literal_text() -> None:
    doc = make_document(b'a = "hi" + 2\nb = "hi" + 3  # c\nc = "yo"\n', "a.py")
    units, lits = doc.stream.units, doc.stream.literal_units
    assert lits is not None and lits.shape == units.shape
    literal = np.isin(units, [stable_id("STR"), stable_id("NUM")])
    assert (lits[~literal] == units[~literal]).all()  # only literals change
    strs, nums = lits[units == stable_id("STR")], lits[units == stable_id("NUM")]
    assert strs[0] == strs[1] != strs[2]  # "hi", "hi", "yo"
    assert nums[0] != nums[1] and not np.isin(lits[literal], units).any()
    kept = make_document(b'a = "hi"\n', "a.py", options=FrontEndOptions(keep_literals=True))
    assert kept.stream.literal_units is None  # the stream already keeps them
    assert make_document(b"plain prose\n", "a.txt").stream.literal_units is None


def test_literal_units_of_a_pygments_language_and_a_notebook() -> None:
    ruby = make_document(b'x = "hi"\ny = "hi"\n', "a.rb").stream
    assert ruby.literal_units is not None
    assert ruby.literal_units[2] == ruby.literal_units[5] != ruby.units[2]
    cells = {"cells": [{"cell_type": "code", "source": ['s = "hi"\n']},
                       {"cell_type": "markdown", "source": ["words"]}],
             "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    nb = make_document(json.dumps(cells).encode(), "n.ipynb").stream
    assert nb.literal_units is not None and nb.literal_units.shape == nb.units.shape
    assert nb.literal_units[2] != nb.units[2] == stable_id("STR")


def test_text_chars() -> None:
    doc = make_document("Hello, WORLD!  Ça va? ﬁ 42\n".encode(), "a.txt")
    assert (doc.frontend, doc.kind, doc.encoding) == ("text", "text", "utf-8")
    assert chars(doc) == "helloworldçavafi42"
    assert doc.stream.units.dtype == np.uint32


def test_text_words() -> None:
    doc = make_document(b"The quick, brown fox -- the QUICK fox.\n", "a.txt",
                        options=FrontEndOptions(unit="words"))
    assert labels(doc) == "the quick brown fox the quick fox"
    assert doc.stream.units[0] == doc.stream.units[4] == stable_id("w:the")


def test_text_keep_case_and_punctuation() -> None:
    doc = make_document(b"Hi, Bob!", "a.txt",
                        options=FrontEndOptions(keep_case=True, keep_punctuation=True))
    assert chars(doc) == "Hi,Bob!"


def test_html() -> None:
    page = (b"<html><head><title>T</title><style>p {color: red}</style>"
            b"<script>var x = '<p>no</p>';</script></head>"
            b"<body><!-- hidden --><p>Caf&eacute; &amp; Bar&#33;</p></body></html>")
    doc = make_document(page, "a.html")
    assert doc.frontend == "html"
    assert chars(doc) == "tcafébar"
    e = chars(doc).index("é")
    assert page[doc.stream.starts[e]:doc.stream.ends[e]] == b"&eacute;"


def test_notebook_code_cells() -> None:
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["%matplotlib inline\n", "def f(x):\n", "    return \"a\\tb\"  # c\n"]},
    ], "metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    data = json.dumps(nb, indent=1).encode()
    doc = make_document(data, "a.ipynb")
    assert (doc.frontend, doc.language) == ("notebook", "python")
    assert labels(doc) == "def ID ( ID ) : return STR"
    assert [data[a:b].decode() for a, b in zip(doc.stream.starts, doc.stream.ends,
                                               strict=True)][-1] == '\\"a\\\\tb\\"'
    with_md = make_document(data, "a.ipynb", options=FrontEndOptions(notebook_markdown=True))
    assert "".join(chr(u) for u in with_md.stream.units[:5].tolist()) == "title"


def test_bytes() -> None:
    doc = make_document(b"\x00\x01\xffELF", "a.bin")
    assert (doc.frontend, doc.kind) == ("bytes", "binary")
    assert doc.stream.units.tolist() == [0, 1, 255, 69, 76, 70]


def test_docx_document() -> None:
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_paragraph("Hello, Document World.")
    document.add_paragraph("Second paragraph")
    buffer = io.BytesIO()
    document.save(buffer)
    doc = make_document(buffer.getvalue(), "a.docx")
    assert (doc.frontend, doc.kind, doc.encoding) == ("document", "text", "utf-8")
    assert doc.data == b"Hello, Document World.\nSecond paragraph"
    assert chars(doc) == "hellodocumentworldsecondparagraph"
    assert doc.lines_of(doc.stream.byte_span(Span(18, 20))) == (2, 2)


def test_notebook_offsets_span_json_escapes() -> None:
    nb = {"cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["café = '😀'\n", "print(café)"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": "x"},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    data = json.dumps(nb).encode()  # ensure_ascii: é is \\u00e9, 😀 a surrogate pair
    doc = make_document(data, "a.ipynb")
    spans = [data[a:b].decode() for a, b in zip(doc.stream.starts, doc.stream.ends,
                                                  strict=True)]
    assert labels(doc) == "ID = STR ID ( ID ) ID"
    assert spans == ["caf\\u00e9", "=", "'\\ud83d\\ude00'", "print", "(", "caf\\u00e9", ")",
                     "x"]


def tiny_pdf(text: str) -> bytes:
    """A minimal one-page PDF showing ``text`` (correct xref offsets)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def test_pdf_document() -> None:
    pytest.importorskip("pypdf")
    doc = make_document(tiny_pdf("Hello, PDF World"), "a.pdf")
    assert (doc.frontend, doc.kind, doc.encoding, doc.warnings) == ("document", "text",
                                                                     "utf-8", ())
    assert doc.data == b"Hello, PDF World"
    assert chars(doc) == "hellopdfworld"
