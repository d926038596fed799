"""The HTML front-end: every unit maps back to the markup it came from."""

from __future__ import annotations

import html
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.frontends import FrontEndOptions, make_document
from winnow.frontends.html import _plain_pieces, _Visible, complete_prefix

PIECES = ["<p>", "</p>", "<script>x<y</script>", "<style>a{b:c}</style>", "&amp;", "&eacute;",
          "&#233;", "&#x41;", "&bogus;", "&amp", "<!-- comment -->", "<b class='a>b'>",
          "Text", " ", "\n", "é", "<template>hid</template>", "<noscript>n</noscript>", "<",
          ">", "&", "<br/>", "<!DOCTYPE html>", "e\u0301", "<a href=x>"]


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
@settings(max_examples=150, deadline=None)
@given(parts=st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=25),
       encoding=st.sampled_from(["utf-8", "utf-16"]))
def test_units_map_back_to_their_markup(parts: list[str], encoding: str) -> None:
    source = "".join(parts)
    data = source.encode(encoding, "surrogatepass")
    doc = make_document(data, "a.html", options=FrontEndOptions(keep_punctuation=True))
    if doc.kind == "binary" or doc.encoding is None:
        return
    starts, ends = doc.stream.starts, doc.stream.ends
    assert np.all(starts < ends) and np.all(np.diff(starts) >= 0)
    for unit, start, end in zip(doc.stream.units.tolist(), starts.tolist(), ends.tolist(),
                                strict=True):
        # The sniffed encoding: "\x00..." in UTF-16 starts like a UTF-32 BOM.
        piece = data[start:end].decode(doc.encoding, "replace")
        decoded = unicodedata.normalize("NFKC", html.unescape(piece)).casefold()
        assert chr(unit) in decoded


def test_hidden_content_and_references() -> None:
    page = ("<html><head><style>p{}</style><script>var x = 1 < 2;</script></head>"
            "<body><p>Caf&eacute; &amp; th&#233;<!-- not this --></p>"
            "<template>hidden</template><noscript>no</noscript>e\u0301</body></html>")
    doc = make_document(page.encode(), "a.html", options=FrontEndOptions(unit="words"))
    assert list(doc.stream.labels[u] for u in doc.stream.units.tolist()) == \
        ["café", "thé", "é"]
    spans = [page.encode()[a:b] for a, b in zip(doc.stream.starts.tolist(),
                                                doc.stream.ends.tolist(), strict=True)]
    assert spans == [b"Caf&eacute;", b"th&#233;", "e\u0301".encode()]


def test_tags_end_words() -> None:
    words = FrontEndOptions(unit="words")
    doc = make_document(b"<p>foo</p><p>bar</p> <i>b</i>az", "a.html", options=words)
    assert [doc.stream.labels[u] for u in doc.stream.units.tolist()] == ["foo", "bar", "b", "az"]


TRICKY = [*PIECES, "<P>", "</P >", "<script>a</ScRiPt >", "<script src=x/>", "<script/>",
                   "&#X41;", "&#;", "&#12a;", "&a-b;", "<!-->", "<!--->", "<!-- a -- >",
                   "<b class=\"x\"/>", "<a b=c/>", "<a b=c/d>", "<a b = 'c' >", "<a b==c>",
                   "<a\xa0b>", "<p\x0b>", "<br / >", "<![CDATA[x]]>", "<?pi?>", "</ script>",
                   "</>", "<a:b>", "< p>", "<p", "<!--", "&#", "<SCRIPT>x</script>",
                   "<scripts>", "<template/>", "</TEMPLATE>", "<style\n>", "</noscript\t>"]


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.one_of(st.sampled_from(TRICKY), st.text(max_size=3)), max_size=30))
def test_plain_markup_scan_agrees_with_html_parser(parts: list[str]) -> None:
    # The fast path must find exactly what html.parser finds, or decline.
    source = "".join(parts)
    fast = _plain_pieces(source)
    if fast is None:
        return
    slow = _Visible(source)
    slow.feed(source)
    slow.close()
    a, b = fast.assembled(source), slow.pieces.assembled(source)
    assert a.utf8 == b.utf8
    assert np.array_equal(a.byte_starts, b.byte_starts)
    assert np.array_equal(a.byte_ends, b.byte_ends)


def test_plain_pages_take_the_fast_path_and_others_do_not() -> None:
    page = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/>'
            "<script>if (a < b) {}</script></head><body class=x><!-- nav -->"
            "<p>R&amp;D &lt; 5 &#8364;</p><br/></body></html>")
    assert _plain_pieces(page) is not None
    for odd in ("<![CDATA[x]]>", "<a href=/x/y>", "&a.b;", "<p", "<script>never closed"):
        assert _plain_pieces(page + odd) is None


def test_a_construct_left_open_at_the_end_is_dropped_not_rescanned() -> None:
    # html.parser rescans an unclosed tag or comment once per character when it
    # closes (quadratic: 100 KB of "<a" took 20 s); like HTML5, the unclosed
    # tail is dropped, so the parser only ever sees complete constructs.
    page = "<p>x</p>"
    assert complete_prefix(page) == len(page)
    assert complete_prefix(page + "<a") == len(page)
    assert complete_prefix(page + "<!-- c > d") == len(page)
    assert complete_prefix(page + "</p") == len(page)
    assert complete_prefix("a < b and <!-- c --> d") == len("a < b and <!-- c --> d")
    assert complete_prefix("<!-- a --> <!-- b") == len("<!-- a --> ")
    for tail in (b"<a" * 50_000, b"<!--" * 25_000):
        doc = make_document(b"<p>hello</p>" + tail, "x.html")
        assert "".join(map(chr, doc.stream.units.tolist())) == "hello"
