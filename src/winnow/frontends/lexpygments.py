"""The code fallback path: any language Pygments can lex (hundreds).

Pygments token types map to units as the winnowing paper's front-end asks:
keywords and operators by their text, every name to one identifier symbol,
literals to one symbol per kind (consecutive pieces of one string merged),
comments and whitespace dropped.  Pygments is slow (well under 1 MB/s, see
docs/frontends.md), hence the fast path for common languages.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.token import (
    Comment,
    Keyword,
    Literal,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
)
from pygments.util import ClassNotFound

from winnow.errors import UnknownLanguage
from winnow.frontends.ids import stable_id
from winnow.frontends.lexfast import OPERATORS
from winnow.frontends.sniff import codepoints, utf8_widths

I64 = npt.NDArray[np.int64]

#: Multi-character punctuation kept whole (``->``, ``:=``, Prolog's ``:-`` ...).
_OPERATORS = frozenset([*OPERATORS, ":-", "?-", "=>", "<=", "/=", "=="])


@lru_cache(maxsize=128)
def pygments_lexer(alias: str) -> Lexer:
    """The Pygments lexer for an alias, or :class:`UnknownLanguage`."""
    try:
        return get_lexer_by_name(alias, stripnl=False, ensurenl=False)
    except ClassNotFound as error:
        raise UnknownLanguage(f"unknown language {alias!r} (see `winnow languages`)") from error


def _classify(ttype: Any, value: str, keep_identifiers: bool, keep_literals: bool
              ) -> tuple[str | None, bool]:
    """(label or None to drop, mergeable literal?)."""
    if ttype in Comment and ttype not in Comment.Preproc:
        return None, False
    if ttype in Text:  # bare words (shell commands, Tcl, MATLAB) are names
        if not value.strip():
            return None, False
        return ("id:" + value.strip() if keep_identifiers else "ID"), False
    if ttype in Comment.Preproc:
        word = value.strip().lstrip("#").strip().split(" ")[0]
        if not word:
            return None, False
        return (f"#{word}" if word.isalpha() else word), False
    if ttype in String or ttype in Literal.String:
        return ("lit:" + value if keep_literals else "STR"), not keep_literals
    if ttype in Number:
        return ("lit:" + value if keep_literals else "NUM"), False
    if ttype in Literal:
        return ("lit:" + value if keep_literals else "LIT"), False
    if ttype in Name and ttype not in Name.Builtin.Pseudo:
        return ("id:" + value if keep_identifiers else "ID"), False
    if ttype in Keyword or ttype in Operator or ttype in Name:
        return value.strip() or None, False
    stripped = value.strip()
    return (stripped or None), False


def lex_pygments(utf8: bytes, alias: str, keep_identifiers: bool, keep_literals: bool
                 ) -> tuple[npt.NDArray[np.uint32], I64, I64, dict[int, str]]:
    """Token ids with ``[start, end)`` in ``utf8`` for the Pygments lexer ``alias``."""
    text = utf8.decode("utf-8", "surrogateescape")
    cps = codepoints(text)
    offsets = np.concatenate([[0], np.cumsum(utf8_widths(cps))]).astype(np.int64)
    lexer = pygments_lexer(alias)
    ids: list[int] = []
    spans: list[tuple[int, int]] = []
    labels: dict[int, str] = {}
    prev_merge = False
    for index, ttype, value in lexer.get_tokens_unprocessed(text):
        label, merge = _classify(ttype, value, keep_identifiers, keep_literals)
        if label is None:
            prev_merge = False
            continue
        if merge and prev_merge:
            spans[-1] = (spans[-1][0], index + len(value.rstrip()))
            continue
        for piece, a, b in _split_punctuation(ttype, value, index, label):
            uid = stable_id(piece)
            labels[uid] = piece
            ids.append(uid)
            spans.append((a, b))
        prev_merge = merge
    if not ids:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(0, dtype=np.uint32), empty, empty, {}
    span_arr = np.asarray(spans, dtype=np.int64)
    return (np.asarray(ids, dtype=np.uint32), offsets[span_arr[:, 0]],
            offsets[span_arr[:, 1]], labels)


def _split_punctuation(ttype: Any, value: str, index: int, label: str
                       ) -> list[tuple[str, int, int]]:
    """Pygments may give ``();`` as one punctuation token: one unit per character.

    Other tokens give one unit spanning the token without surrounding blanks.
    """
    if ttype in Punctuation and value.strip() not in _OPERATORS:
        return [(ch, index + i, index + i + 1) for i, ch in enumerate(value)
                if not ch.isspace()]
    start = index + len(value) - len(value.lstrip())
    return [(label, start, index + len(value.rstrip()))]
