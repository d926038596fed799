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

from winnow.frontends.base import Input, Result
from winnow.frontends.mapped import Assembler, char_offsets
from winnow.frontends.options import DEFAULT_OPTIONS, FrontEndOptions
from winnow.frontends.text import char_units, word_units
from winnow.model import Stream
from winnow.sources.sniff import Decoded, decode, sniff

_HIDDEN = {"script", "style", "template", "noscript"}
_REF = re.compile(r"&(?:#[xX]?[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?")


class _Visible(HTMLParser):
    """Collects visible text with source offsets (tag boundaries leave a gap in
    the offsets, so words never join across tags)."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self.source = source
        self.offsets = char_offsets(source)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self.out = Assembler()
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
        if self.hidden:
            return
        i = self._here()
        self.out.copy(data, self.offsets[i:i + len(data)], self.offsets[i + 1:i + len(data) + 1])

    def _reference(self) -> None:
        if self.hidden:
            return
        i = self._here()
        match = _REF.match(self.source, i)
        if match is None:
            return
        self.out.replace(html.unescape(match.group()), int(self.offsets[i]),
                         int(self.offsets[match.end()]))

    def handle_entityref(self, name: str) -> None:
        self._reference()

    def handle_charref(self, name: str) -> None:
        self._reference()


def html_stream(decoded: Decoded, options: FrontEndOptions) -> Stream:
    """Normalised visible text of an HTML document, offsets into the original bytes."""
    parser = _Visible(decoded.text())
    parser.feed(parser.source)
    parser.close()
    visible = parser.out.done()
    chars = char_units(visible.utf8, options)
    if options.unit == "words":
        ids, starts, ends, labels = word_units(chars)
    else:
        ids, starts, ends, labels = chars.cps, chars.starts, chars.ends, {}
    src_starts, src_ends = visible.source_spans(starts, ends)
    return Stream(ids, decoded.original(src_starts), decoded.original(src_ends), labels)


class HtmlFrontEnd:
    """HTML pages: visible text only, through the text front-end."""

    name = "html"
    binary_input = False

    def stream(self, data: bytes, name: str) -> Stream:
        return html_stream(decode(data, sniff(data)), DEFAULT_OPTIONS)

    def process(self, inp: Input) -> Result:
        decoded = inp.text()
        return Result(html_stream(decoded, inp.options))

