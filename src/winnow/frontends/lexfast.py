"""The code fast path: table-driven regular-expression lexers for common languages.

Why not tree-sitter: on this machine the official grammars parse at about
1-2.4 MB/s before any tree walk (measured in the design notes of
docs/frontends.md), below the 5 MB/s target; a lexer is all the winnowing
paper's front-end needs (section 5.2: tokens with identifiers, literals,
comments and layout normalised).  Each language is data: comment, string and
number syntax plus its keyword list.

Speed: one compiled pattern per language scans the whole file with
``findall`` (no per-token match objects); lengths, offsets and token kinds are
then computed with numpy, and the keyword/operator tables applied with
``map(dict.get, ...)``.  Token ids come from :func:`winnow.frontends.ids.stable_id`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat

import numpy as np
import numpy.typing as npt

from winnow.frontends.ids import stable_id
from winnow.frontends.keywords import KEYWORDS

I64 = npt.NDArray[np.int64]

C_COMMENTS = rb"//[^\n]*|/\*.*?(?:\*/|\Z)"
HASH_COMMENT = rb"#[^\n]*"
DQ = rb'"(?:\\.|[^"\\\n])*"?'
SQ = rb"'(?:\\.|[^'\\\n])*'?"
CHAR = rb"'(?:\\[^'\n]{1,10}|[^'\\\n\x80-\xff]|[\x80-\xff]{2,4})'"
TRIPLE_DQ = rb'"""(?:\\.|[^\\])*?(?:"""|\Z)'
TRIPLE_SQ = rb"'''(?:\\.|[^\\])*?(?:'''|\Z)"
BACKTICK = rb"`(?:\\.|[^`\\])*(?:`|\Z)"
NUMBER = (rb"0[xX][0-9a-fA-F_]+\w*|0[bBoO][0-7_]+\w*|\d[\d_]*(?:\.(?![.a-zA-Z_])[\d_]*)?"
          rb"(?:[eEpP][+-]?\d[\d_]*)?\w*|\.\d[\d_]*(?:[eE][+-]?\d[\d_]*)?\w*")
WORD = rb"[A-Za-z_$\x80-\xff][\w$\x80-\xff]*"
PREPROC = rb"\#[ \t]*[A-Za-z]+"

_OPERATORS = """>>>= <<= >>= **= //= ... >>> <=> === !== ?? ??= ?. -> => :: == != <= >= && ||
++ -- += -= *= /= %= &= |= ^= << >> ** // := .. <- |> @= ..="""
OPERATORS = sorted(_OPERATORS.split(), key=len, reverse=True)


@dataclass(frozen=True)
class FastLexer:
    """One language's lexical syntax.  ``strings`` are tried in order."""

    language: str
    comments: tuple[bytes, ...]
    strings: tuple[bytes, ...]
    chars: tuple[bytes, ...] = ()
    extra_ops: tuple[bytes, ...] = ()

    @cached_property
    def pattern(self) -> re.Pattern[bytes]:
        skip = rb"(?:\s+|\\\n|" + rb"|".join(self.comments) + rb")*" if self.comments \
            else rb"(?:\s+|\\\n)*"
        ops = rb"|".join([*self.extra_ops, *(re.escape(o.encode()) for o in OPERATORS),
                          rb"(?s:.)"])
        string = rb"|".join(self.strings)
        char = rb"|".join(self.chars) if self.chars else rb"(?!)"
        return re.compile(
            rb"(" + skip + rb")(?:(" + string + rb")|(" + char + rb")|(" + NUMBER + rb")|("
            + WORD + rb")|(" + ops + rb"))?",
            re.DOTALL,
        )

    @cached_property
    def keyword_ids(self) -> dict[bytes, int]:
        table = {kw.encode(): stable_id(kw) for kw in KEYWORDS[self.language]}
        table[b""] = -1
        return table

    def lex(self, utf8: bytes, keep_identifiers: bool, keep_literals: bool
            ) -> tuple[npt.NDArray[np.uint32], I64, I64, dict[int, str]]:
        """Token ids with ``[start, end)`` in ``utf8`` and labels of the ids used."""
        rows = self.pattern.findall(utf8)
        if not rows:
            empty = np.zeros(0, dtype=np.int64)
            return np.zeros(0, dtype=np.uint32), empty, empty, {}
        cols = list(zip(*rows, strict=True))
        n = len(rows)
        lens = np.empty((6, n), dtype=np.int64)
        for i, col in enumerate(cols):
            lens[i] = np.fromiter(map(len, col), dtype=np.int64, count=n)
        tok_len = lens[1:].sum(axis=0)
        ends = np.cumsum(lens[0] + tok_len)
        starts = ends - tok_len
        kind = np.argmax(lens[1:] > 0, axis=0)
        real = tok_len > 0
        ids, labels = self._ids(cols, kind, keep_identifiers, keep_literals)
        return ids[real], starts[real], ends[real], labels

    def _ids(self, cols: list[tuple[bytes, ...]], kind: I64, keep_identifiers: bool,
             keep_literals: bool) -> tuple[npt.NDArray[np.uint32], dict[int, str]]:
        labels: dict[int, str] = {}
        ids = np.zeros(kind.shape[0], dtype=np.int64)
        for k, (col, label) in enumerate(((cols[1], "STR"), (cols[2], "CHR"), (cols[3], "NUM"))):
            mask = kind == k
            if keep_literals:
                ids[mask] = self._exact(col, mask, "lit:", labels)
            elif mask.any():
                ids[mask] = stable_id(label)
                labels[stable_id(label)] = label
        words = np.fromiter(map(self.keyword_ids.get, cols[4], repeat(0)), dtype=np.int64,
                            count=kind.shape[0])
        is_word = kind == 3
        ident = is_word & (words == 0)
        keyword = is_word & (words > 0)
        for wid in np.unique(words[keyword]).tolist():
            labels[wid] = _label_of(self.keyword_ids, wid)
        ids[keyword] = words[keyword]
        if keep_identifiers:
            ids[ident] = self._exact(cols[4], ident, "id:", labels)
        elif ident.any():
            ids[ident] = stable_id("ID")
            labels[stable_id("ID")] = "ID"
        ops = kind == 4
        ids[ops] = self._exact(cols[5], ops, "", labels)
        return ids.astype(np.uint32), labels

    @staticmethod
    def _exact(col: tuple[bytes, ...], mask: npt.NDArray[np.bool_], prefix: str,
               labels: dict[int, str]) -> I64:
        texts = [col[i] for i in np.flatnonzero(mask).tolist()]
        table: dict[bytes, int] = {}
        for t in set(texts):
            label = prefix + t.decode("utf-8", "replace")
            table[t] = stable_id(label)
            labels[table[t]] = label
        return np.fromiter(map(table.__getitem__, texts), dtype=np.int64, count=len(texts))


def _label_of(table: dict[bytes, int], wid: int) -> str:
    return next(word.decode() for word, value in table.items() if value == wid)


_C = (C_COMMENTS,)
_PY_STR = rb"(?:[rRbBuUfF]{1,2})?(?:" + TRIPLE_DQ + rb"|" + TRIPLE_SQ + rb"|" + DQ + rb"|" \
    + SQ + rb")"

FAST_LEXERS: dict[str, FastLexer] = {
    "python": FastLexer("python", (HASH_COMMENT,), (_PY_STR,)),
    "java": FastLexer("java", _C, (TRIPLE_DQ, DQ), (CHAR,)),
    "c": FastLexer("c", _C, (rb'(?:u8|[uUL])?' + DQ,), (rb"[uUL]?" + CHAR,), (PREPROC,)),
    "cpp": FastLexer("cpp", _C, (rb'(?:u8|[uUL])?R"[^(\s"]*\(.*?\)[^\s"]*"',
                                rb'(?:u8|[uUL])?' + DQ),
        (rb"(?:u8|[uUL])?" + CHAR,), (PREPROC,)),
    "csharp": FastLexer("csharp", _C, (rb'\$?@"(?:""|[^"])*"|@?\$?"""(?:.)*?"""', rb"\$?" + DQ),
                        (CHAR,), (PREPROC,)),
    "javascript": FastLexer("javascript", _C, (DQ, SQ, BACKTICK)),
    "typescript": FastLexer("typescript", _C, (DQ, SQ, BACKTICK)),
    "go": FastLexer("go", _C, (DQ, BACKTICK), (CHAR,)),
    "rust": FastLexer("rust", _C, (rb'b?r#*"[^"]*"#*', rb"b?" + DQ), (rb"b?" + CHAR,)),
    "kotlin": FastLexer("kotlin", _C, (TRIPLE_DQ, DQ), (CHAR,)),
    "scala": FastLexer("scala", _C, (rb"[a-z]?" + TRIPLE_DQ, rb"[a-z]?" + DQ), (CHAR,)),
    "swift": FastLexer("swift", _C, (rb"#*" + TRIPLE_DQ + rb"#*", rb"#*" + DQ + rb"#*")),
    "dart": FastLexer("dart", _C, (rb"r?" + TRIPLE_DQ, rb"r?" + TRIPLE_SQ, rb"r?" + DQ,
                                  rb"r?" + SQ)),
}
