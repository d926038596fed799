"""The HTML front-end: the visible text of a page through the text front-end.

Tags, comments, scripts and styles are removed and character references
decoded by the standard library's :class:`html.parser.HTMLParser`; every unit's
offsets still point into the HTML source (an entity's character spans the
whole ``&...;``).
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import numpy as np

from winnow.frontends.base import Input, Result
from winnow.frontends.mapped import Assembled, char_offsets
from winnow.frontends.options import DEFAULT_OPTIONS, FrontEndOptions
from winnow.frontends.text import Units, char_units, word_units
from winnow.model import Stream
from winnow.sources.sniff import Decoded, decode, sniff

_HIDDEN = {"script", "style", "template", "noscript"}
_REF = re.compile(r"&(?:#[xX]?[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?")


class _Visible(HTMLParser):
    """Collects visible text with source offsets (tag boundaries leave a gap in
    the offsets, so words never join across tags).

    Each piece of text is recorded with the source characters it stands for:
    a copied piece's ``k``-th character is source character ``first + k``; a
    decoded reference's characters all span ``[first, last)``.  The offset map
    is built once, vectorised, by :meth:`assembled`.
    """

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self.source = source
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self.texts: list[str] = []
        self.first: list[int] = []
        self.last: list[int] = []  # -1 for a copied piece
        self.hidden = 0

    def _here(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.texts.append(data)
            self.first.append(self._here())
            self.last.append(-1)

    def _reference(self) -> None:
        if self.hidden:
            return
        i = self._here()
        match = _REF.match(self.source, i)
        if match is not None:
            self.texts.append(html.unescape(match.group()))
            self.first.append(i)
            self.last.append(match.end())

    def handle_entityref(self, name: str) -> None:
        self._reference()

    def handle_charref(self, name: str) -> None:
        self._reference()

    def assembled(self) -> Assembled:
        """The visible text, each character mapped to its source bytes."""
        text = "".join(self.texts)
        lens = np.fromiter(map(len, self.texts), dtype=np.int64, count=len(self.texts))
        first = np.repeat(np.array(self.first, dtype=np.int64), lens)
        last = np.repeat(np.array(self.last, dtype=np.int64), lens)
        piece_start = np.repeat(np.cumsum(lens) - lens, lens)
        copied = last < 0
        index = first + np.where(copied, np.arange(first.shape[0]) - piece_start, 0)
        offsets = char_offsets(self.source)
        return Assembled.from_chars(text, offsets[index],
                                    offsets[np.where(copied, index + 1, last)])


def html_stream(decoded: Decoded, options: FrontEndOptions) -> Stream:
    """Normalised visible text of an HTML document, offsets into the original bytes."""
    parser = _Visible(decoded.text())
    parser.feed(parser.source)
    parser.close()
    visible = parser.assembled()
    chars = char_units(visible.utf8, options)
    # Words are split on gaps in the *source* offsets: a tag, comment or
    # hidden element between two pieces of text ends a word.
    in_source = Units(chars.cps, *visible.source_spans(chars.starts, chars.ends))
    if options.unit == "words":
        ids, starts, ends, labels = word_units(in_source)
    else:
        ids, starts, ends, labels = in_source.cps, in_source.starts, in_source.ends, {}
    return Stream(ids, decoded.original(starts), decoded.original(ends), labels)


class HtmlFrontEnd:
    """HTML pages: visible text only, through the text front-end."""

    name = "html"
    binary_input = False

    def stream(self, data: bytes, name: str) -> Stream:
        return html_stream(decode(data, sniff(data)), DEFAULT_OPTIONS)

    def process(self, inp: Input) -> Result:
        decoded = inp.text()
        return Result(html_stream(decoded, inp.options))

