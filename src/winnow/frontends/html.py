"""The HTML front-end: the visible text of a page through the text front-end.

Tags, comments, scripts and styles are removed and character references
decoded as the standard library's :class:`html.parser.HTMLParser` does; every
unit's offsets still point into the HTML source (an entity's character spans
the whole ``&...;``).  Plain markup (well-formed tags with quoted or simple
attribute values, comments, doctypes, ``&name;``/``&#N;`` references) is read
by :func:`_plain_pieces`, one regular-expression match per construct, which
finds exactly what ``html.parser`` finds (a property test compares them);
anything else sends the page to ``html.parser`` itself.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import numpy as np

from winnow.frontends.base import Input, Result
from winnow.frontends.mapped import Assembled, char_offsets
from winnow.frontends.options import FrontEndOptions
from winnow.frontends.sniff import Decoded
from winnow.frontends.text import Units, char_units, word_units
from winnow.model import Stream

_HIDDEN = {"script", "style", "template", "noscript"}
_REF = re.compile(r"&(?:#[xX]?[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?")


class _Pieces:
    """Visible text as pieces, each with the source characters it stands for:
    a copied piece's ``k``-th character is source character ``first + k``; a
    decoded reference's characters all span ``[first, last)``.  The offset
    map is built once, vectorised, by :meth:`assembled`."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.first: list[int] = []
        self.last: list[int] = []  # -1 for a copied piece

    def copy(self, text: str, at: int) -> None:
        self.texts.append(text)
        self.first.append(at)
        self.last.append(-1)

    def replace(self, text: str, start: int, end: int) -> None:
        self.texts.append(text)
        self.first.append(start)
        self.last.append(end)

    def assembled(self, source: str) -> Assembled:
        """The visible text, each character mapped to its bytes in ``source``."""
        text = "".join(self.texts)
        lens = np.fromiter(map(len, self.texts), dtype=np.int64, count=len(self.texts))
        first = np.repeat(np.array(self.first, dtype=np.int64), lens)
        last = np.repeat(np.array(self.last, dtype=np.int64), lens)
        piece_start = np.repeat(np.cumsum(lens) - lens, lens)
        copied = last < 0
        index = first + np.where(copied, np.arange(first.shape[0]) - piece_start, 0)
        offsets = char_offsets(source)
        return Assembled.from_chars(text, offsets[index],
                                    offsets[np.where(copied, index + 1, last)])


class _Visible(HTMLParser):
    """Collects visible text with source offsets through ``html.parser`` (tag
    boundaries leave a gap in the offsets, so words never join across tags)."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self.source = source
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self.pieces = _Pieces()
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
            self.pieces.copy(data, self._here())

    def _reference(self) -> None:
        if self.hidden:
            return
        i = self._here()
        match = _REF.match(self.source, i)
        if match is not None:
            self.pieces.replace(html.unescape(match.group()), i, match.end())

    def handle_entityref(self, name: str) -> None:
        self._reference()

    def handle_charref(self, name: str) -> None:
        self._reference()


# The fast path: plain markup whose every construct ``html.parser`` (Python
# 3.11) handles in one obvious way.  Anything else -- unquoted values touching
# a "/", unusual names or whitespace, "<!" other than comments and doctypes,
# references other than &name; &#N; &#xN;, a "&" or "<" at the very end, an
# unclosed comment, script or style -- sends the whole page to html.parser.
_W = "[ \t\n\r\f]"
_NAME = "[a-zA-Z][a-zA-Z0-9-]*"
_ATTR = (rf"{_W}+[a-zA-Z_:][-a-zA-Z0-9_:.]*"
         rf"(?:{_W}*={_W}*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`/]+(?!/)))?")
_SHOWN = rf"(?!(?i:script|style|template|noscript)(?:{_W}|/|>))"  # not a hidden tag's name
_TOKEN = re.compile(
    r"(?P<data>[^<&]+)"
    r"|(?P<ref>&(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);)"
    # a run of tags other than the hidden ones, and comments: one match
    rf"|(?P<markup>(?:<{_SHOWN}{_NAME}(?:{_ATTR})*{_W}*/?>|</{_SHOWN}{_NAME}{_W}*>"
    r"|<!--.*?--\s*>)+)"
    rf"|(?P<start><(?P<name>{_NAME})(?:{_ATTR})*{_W}*(?P<empty>/?)>)"
    rf"|(?P<end></(?P<endname>{_NAME}){_W}*>)"
    r"|(?P<skip><!--.*?--\s*>|<![dD][oO][cC][tT][yY][pP][eE][^>]*>|<\?[^>]*>)"
    r"|(?P<amp>&(?=[^a-zA-Z#]))|(?P<lt><(?=[^a-zA-Z/!?]))", re.DOTALL)
_RAW_END = {tag: re.compile(rf"</\s*{tag}\s*>", re.IGNORECASE) for tag in ("script", "style")}


def _plain_pieces(source: str) -> _Pieces | None:
    """The visible text of plain markup exactly as :class:`_Visible` finds it,
    one regular-expression match per construct; ``None`` for anything else."""
    pieces, hidden, i, n = _Pieces(), 0, 0, len(source)
    while i < n:
        m = _TOKEN.match(source, i)
        if m is None:
            return None
        kind, end = m.lastgroup, m.end()
        if kind in ("data", "amp", "lt"):
            if not hidden:
                pieces.copy(m.group(), i)
        elif kind == "ref":
            if not hidden:
                pieces.replace(html.unescape(m.group()), i, end)
        elif kind == "start" and not m.group("empty"):
            tag = m.group("name").lower()
            hidden += tag in _HIDDEN
            if tag in _RAW_END:  # raw text up to the end tag, as html.parser
                close = _RAW_END[tag].search(source, end)
                if close is None:
                    return None
                hidden, end = max(0, hidden - 1), close.end()
        elif kind == "end" and m.group("endname").lower() in _HIDDEN:
            hidden = max(0, hidden - 1)
        i = end
    return pieces


_CONSTRUCT = re.compile(r"<[a-zA-Z/!?]")


def complete_prefix(source: str) -> int:
    """The length of the prefix of ``source`` whose markup constructs all end.

    A tag, end tag, declaration or processing instruction with no ``>`` after
    it, or a comment with no ``-->`` after it, runs to the end of the input;
    ``html.parser`` then rescans the rest once per character when it closes,
    which takes quadratic time (100 KB of ``<a`` took 20 s).  HTML5 drops an
    unclosed tag or comment at the end of the input, and so does this
    front-end: the parser is given the prefix only.  Linear: two searches
    from the last ``>`` and the last ``-->``.
    """
    cut = len(source)
    construct = _CONSTRUCT.search(source, source.rfind(">") + 1)
    if construct is not None:
        cut = construct.start()
    last_close = source.rfind("-->")
    comment = source.find("<!--", last_close + 3 if last_close >= 0 else 0)
    return min(cut, comment) if comment >= 0 else cut


def html_stream(decoded: Decoded, options: FrontEndOptions) -> Stream:
    """Normalised visible text of an HTML document, offsets into the original bytes."""
    source = decoded.text()
    pieces = _plain_pieces(source)
    if pieces is None:
        parser = _Visible(source)
        parser.feed(source[:complete_prefix(source)])
        parser.close()
        pieces = parser.pieces
    visible = pieces.assembled(source)
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

    def process(self, inp: Input) -> Result:
        decoded = inp.text()
        return Result(html_stream(decoded, inp.options))

