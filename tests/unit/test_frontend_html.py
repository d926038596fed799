"""The HTML front-end: every unit maps back to the markup it came from."""

from __future__ import annotations

import html
import unicodedata

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.frontends import FrontEndOptions, make_document

PIECES = ["<p>", "</p>", "<script>x<y</script>", "<style>a{b:c}</style>", "&amp;", "&eacute;",
          "&#233;", "&#x41;", "&bogus;", "&amp", "<!-- comment -->", "<b class='a>b'>",
          "Text", " ", "\n", "é", "<template>hid</template>", "<noscript>n</noscript>", "<",
          ">", "&", "<br/>", "<!DOCTYPE html>", "e\u0301", "<a href=x>"]


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=25),
       encoding=st.sampled_from(["utf-8", "utf-16"]))
def test_units_map_back_to_their_markup(parts: list[str], encoding: str) -> None:
    source = "".join(parts)
    data = source.encode(encoding, "surrogatepass")
    doc = make_document(data, "a.html", options=FrontEndOptions(keep_punctuation=True))
    if doc.kind == "binary":
        return
    starts, ends = doc.stream.starts, doc.stream.ends
    assert np.all(starts < ends) and np.all(np.diff(starts) >= 0)
    for unit, start, end in zip(doc.stream.units.tolist(), starts.tolist(), ends.tolist(),
                                strict=True):
        piece = data[start:end].decode(encoding.replace("utf-16", "utf-16-le"), "replace")
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
