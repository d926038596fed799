"""The code fast path: one compiled, table-driven lexer for common languages.

Why not tree-sitter or regular expressions: on this machine the official
tree-sitter grammars parse at 4-5 MB/s of CPU time before any walk of the tree
in Python, and a regular-expression lexer with ``findall`` ran at about 3 MB/s
(both measured; see docs/frontends.md), at or below the 5 MB/s target.  A lexer is all the winnowing
paper's front-end needs (section 5.2): tokens, with identifiers, literals,
comments and layout normalised.  Each language is data (:class:`Syntax`):
comment markers, string and character-literal rules and its keyword list;
:mod:`winnow.frontends._code_kernels` scans with it.

Token ids (:func:`winnow.frontends.ids.stable_id`) go through the 64-bit hash
the scanner writes per token: keywords and operators are looked up in a table
of the language (every text an operator can have is known in advance), by
one compiled pass over the tokens; only what the options keep verbatim and
directives are labelled per file, once per distinct text.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit
from winnow.frontends import _code_kernels as K
from winnow.frontends.ids import stable_id
from winnow.frontends.keywords import KEYWORDS

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]

_OPERATORS = """>>>= <<= >>= **= //= ... >>> <=> === !== ?? ??= ?. -> => :: == != <= >= && ||
++ -- += -= *= /= %= &= |= ^= << >> ** // := .. <- |> @= ..= ::= ..< !! ?: <<< ->>"""
OPERATORS = sorted(_OPERATORS.split(), key=len, reverse=True)
#: Python's multi-character operators (as its ``tokenize`` module splits them).
_PYTHON_OPERATORS = """** // >> << <= >= == != -> += -= *= /= //= %= @= &= |= ^= >>= <<=
**= := ..."""
PYTHON_OPERATORS = tuple(_PYTHON_OPERATORS.split())

_LITERAL_LABELS = {K.STRING: "STR", K.CHAR: "CHR", K.NUMBER: "NUM"}
_N_KINDS = K.DIRECTIVE + 1
#: The ids a collapsed literal has (STR, CHR, NUM; Pygments' lexer adds LIT).
LITERAL_IDS = np.array(sorted(stable_id(kind) for kind in ("STR", "CHR", "NUM", "LIT")),
                       dtype=np.uint32)


@lru_cache(maxsize=4)
def _constant_ids(keep_identifiers: bool, keep_literals: bool) -> U32:
    """Per token kind, the id every token of the kind gets (0: looked up or
    labelled by its text)."""
    out = np.zeros(_N_KINDS, dtype=np.uint32)
    if not keep_literals:
        for kind, label in _LITERAL_LABELS.items():
            out[kind] = stable_id(label)
    if not keep_identifiers:
        out[K.WORD] = stable_id("ID")  # keywords get theirs next
    return out


#: Multiplies a hash before its top bits pick a slot: FNV-1a hashes of short
#: texts (operators) differ little in their top bits.
_MIX = np.uint64(0x9E3779B97F4A7C15)


@dataclass(frozen=True)
class Lookup:
    """The keywords and operator texts of a language in one open-addressing
    table: ``slots`` (indexed by the top bits of the hash times ``_MIX``,
    linear probing) hold
    entries, entry 0 none; keywords are entries ``1 .. operators - 1``, in
    hash order, operator texts the rest, in hash order."""

    slots: I64
    shift: np.uint64
    hashes: npt.NDArray[np.uint64]
    kinds: npt.NDArray[np.uint8]
    ids: U32
    id_list: list[int]
    labels: list[str]
    operators: int


@jit()
def _token_ids(kinds, hashes, constant, slots, shift, entry_hash, entry_kind,  # type: ignore[no-untyped-def]
               entry_id, ids, found, counts, literal_ids, literal_at):
    """Each token's id: its kind's ``constant``, or for a word or operator
    whose hash and kind are an entry's, the entry's id (counted in
    ``found``); ``counts`` the tokens of each kind; ``literal_at`` the
    tokens whose id is one of the four ``literal_ids``.  Returns how many."""
    mask = slots.shape[0] - 1
    literals = 0
    for t in range(kinds.shape[0]):
        kind = kinds[t]
        counts[kind] += 1
        ids[t] = constant[kind]
        if kind == K.WORD or kind == K.OPERATOR:
            h = hashes[t]
            at = np.int64((h * _MIX) >> shift)
            entry = slots[at]
            while entry != 0:
                if entry_hash[entry] == h and entry_kind[entry] == kind:
                    ids[t] = entry_id[entry]
                    found[entry] += 1
                    break
                at = (at + 1) & mask
                entry = slots[at]
        value = ids[t]
        if value == literal_ids[0] or value == literal_ids[1] or value == literal_ids[2] \
                or value == literal_ids[3]:
            literal_at[literals] = t
            literals += 1
    return literals


@dataclass(frozen=True)
class Syntax:
    """The lexical syntax of one language, as the scanner needs it."""

    language: str
    line_comments: tuple[str, ...] = ("//",)
    block_comment: tuple[str, str] | None = ("/*", "*/")
    nested_comments: bool = False
    single_quote: int = K.SQ_CHAR
    triple_dq: bool = False
    triple_sq: bool = False
    backtick: int = K.BT_NONE
    directives: bool = False
    at_strings: bool = False
    string_prefixes: str = ""
    any_prefix: bool = False
    prefix_max: int = 0
    rust_raw: bool = False
    cpp_raw: bool = False
    operators: tuple[str, ...] = tuple(OPERATORS)

    @cached_property
    def tables(self) -> tuple[Any, ...]:
        """The arrays :func:`winnow.frontends._code_kernels.scan` takes."""
        line_cmt = np.zeros((max(1, len(self.line_comments)), 4), dtype=np.uint8)
        line_len = np.zeros(line_cmt.shape[0], dtype=np.int64)
        for i, marker in enumerate(self.line_comments):
            line_cmt[i, :len(marker)] = list(marker.encode())
            line_len[i] = len(marker)
        if not self.line_comments:
            line_len[0] = 99  # never matches
        block = self.block_comment or ("\0\0", "\0\0")
        flags = np.zeros(K.N_FLAGS, dtype=np.int64)
        for index, value in ((K.F_SQ, self.single_quote), (K.F_TRIPLE_DQ, self.triple_dq),
                             (K.F_TRIPLE_SQ, self.triple_sq), (K.F_BACKTICK, self.backtick),
                             (K.F_DIRECTIVES, self.directives), (K.F_NEST, self.nested_comments),
                             (K.F_AT_STRING, self.at_strings), (K.F_ANY_PREFIX, self.any_prefix),
                             (K.F_PREFIX_MAX, self.prefix_max), (K.F_RUST_RAW, self.rust_raw),
                             (K.F_CPP_RAW, self.cpp_raw)):
            flags[index] = int(value)
        prefix_ok = np.zeros(128, dtype=np.bool_)
        for ch in self.string_prefixes:
            prefix_ok[ord(ch)] = True
        op2 = np.zeros(1 << 16, dtype=np.uint8)
        ordered = sorted(self.operators, key=len, reverse=True)
        longer = [op.encode() for op in ordered if len(op) > 2]  # longest first
        for op in ordered:
            raw = op.encode()
            if len(raw) == 2:
                op2[raw[0] | raw[1] << 8] |= 1
        for raw in longer:
            op2[raw[0] | raw[1] << 8] |= 2
        ops_long = np.array([int.from_bytes(raw, "little") for raw in longer], dtype=np.int64)
        return (line_cmt, line_len, np.frombuffer(block[0].encode(), dtype=np.uint8),
                np.frombuffer(block[1].encode(), dtype=np.uint8),
                np.bool_(self.block_comment is not None), flags, prefix_ok, op2, ops_long)

    @cached_property
    def keywords(self) -> frozenset[bytes]:
        return frozenset(kw.encode() for kw in KEYWORDS[self.language])

    def scan(self, utf8: bytes) -> tuple[npt.NDArray[np.uint8], I64, I64,
                                         npt.NDArray[np.uint64]]:
        """Token kinds, ``[start, end)`` and byte hashes (two passes: count, fill)."""
        buf = np.frombuffer(utf8, dtype=np.uint8)
        tables = self.tables
        none8, none64 = np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.int64)
        count = int(K.scan(buf, *tables, none8, none64, none64, False))
        kinds = np.empty(count, dtype=np.uint8)
        starts = np.empty(count, dtype=np.int64)
        ends = np.empty(count, dtype=np.int64)
        hashes = np.empty(count, dtype=np.uint64)
        K.scan(buf, *tables, kinds, starts, ends, True)
        K.hash_tokens(buf, kinds, starts, ends, hashes)
        return kinds, starts, ends, hashes

    @cached_property
    def keyword_table(self) -> tuple[npt.NDArray[np.uint64], U32, list[int], list[str]]:
        """Sorted FNV hashes of the keywords, their ids (an array and a list),
        and the label of each id (the last keyword in hash order of an id)."""
        pairs = sorted((K.fnv1a64(kw.encode()), kw) for kw in KEYWORDS[self.language])
        hashes = np.array([h for h, _ in pairs], dtype=np.uint64)
        ids = [stable_id(kw) for _, kw in pairs]
        by_id = {stable_id(kw): kw for _, kw in pairs}
        return hashes, np.array(ids, dtype=np.uint32), ids, [by_id[i] for i in ids]

    @cached_property
    def operator_table(self) -> tuple[npt.NDArray[np.uint64], U32, list[int], list[str]] | None:
        """Every text an operator token can have (one byte, or one of
        ``operators``): FNV hashes, sorted, with their ids (an array and a
        list) and labels; ``None`` if two texts shared a hash."""
        texts = {bytes([b]) for b in range(256)} | {op.encode() for op in self.operators}
        rows = sorted((K.fnv1a64(text), text.decode("utf-8", "replace")) for text in texts)
        hashes = np.array([h for h, _ in rows], dtype=np.uint64)
        if np.unique(hashes).shape[0] != hashes.shape[0]:
            return None
        ids = [stable_id(label) for _, label in rows]
        return hashes, np.array(ids, dtype=np.uint32), ids, [label for _, label in rows]

    def lex(self, utf8: bytes, keep_identifiers: bool, keep_literals: bool
            ) -> tuple[U32, I64, I64, dict[int, str]]:
        """Token ids with ``[start, end)`` in ``utf8`` and labels of the ids used.

        Literals and identifiers get their constant ids by kind, keywords and
        operators by a vectorised look-up of their hashes in tables of the
        language; only what the options keep verbatim (and directives) is
        labelled once per distinct token text of the file.
        """
        return self.lex_hashed(utf8, keep_identifiers, keep_literals)[:4]

    @cached_property
    def lookup(self) -> Lookup:
        """:attr:`keyword_table` and :attr:`operator_table` as one table for
        :func:`_token_ids`."""
        kw_hashes, _, kw_id_list, kw_labels = self.keyword_table
        rows = [(0, 0, 0, "")]  # entry 0: an empty slot
        rows += [(h, K.WORD, i, label)
                 for h, i, label in zip(kw_hashes.tolist(), kw_id_list, kw_labels, strict=True)]
        operators = self.operator_table
        if operators is not None:
            op_hashes, _, op_id_list, op_labels = operators
            rows += [(h, K.OPERATOR, i, label) for h, i, label
                     in zip(op_hashes.tolist(), op_id_list, op_labels, strict=True)]
        bits = max(6, (4 * len(rows)).bit_length())  # a quarter full at most
        slots = np.zeros(1 << bits, dtype=np.int64)
        for entry, (h, _, _, _) in enumerate(rows[1:], start=1):
            at = (h * int(_MIX) & 0xFFFFFFFFFFFFFFFF) >> (64 - bits)
            while slots[at]:
                at = (at + 1) & ((1 << bits) - 1)
            slots[at] = entry
        return Lookup(slots, np.uint64(64 - bits),
                      np.array([r[0] for r in rows], dtype=np.uint64),
                      np.array([r[1] for r in rows], dtype=np.uint8),
                      np.array([r[2] for r in rows], dtype=np.uint32),
                      [r[2] for r in rows], [r[3] for r in rows], 1 + len(kw_id_list))

    def lex_hashed(self, utf8: bytes, keep_identifiers: bool, keep_literals: bool
                   ) -> tuple[U32, I64, I64, dict[int, str], npt.NDArray[np.uint64] | None,
                              I64 | None]:
        """:meth:`lex`; each token's FNV-1a hash of its bytes (``None`` when
        the text has a directive, whose hash skips its blanks); the tokens
        whose id is a collapsed literal's (:data:`LITERAL_IDS`), in order
        (``None``: not known, the caller compares the ids)."""
        kinds, starts, ends, hashes = self.scan(utf8)
        table = self.lookup
        ids = np.empty(kinds.shape[0], dtype=np.uint32)
        found = np.zeros(table.hashes.shape[0], dtype=np.int64)
        counted = np.zeros(_N_KINDS, dtype=np.int64)
        literal_at = np.empty(kinds.shape[0], dtype=np.int64)
        literals = _token_ids(kinds, hashes, _constant_ids(keep_identifiers, keep_literals),
                              table.slots, table.shift, table.hashes, table.kinds, table.ids,
                              ids, found, counted, LITERAL_IDS, literal_at)
        counts = counted.tolist()
        labels: dict[int, str] = {}
        if not keep_literals:
            for kind, label in _LITERAL_LABELS.items():
                if counts[kind]:
                    labels[stable_id(label)] = label
        keywords = found[:table.operators]
        for i in np.flatnonzero(keywords).tolist():
            labels[table.id_list[i]] = table.labels[i]
        others: npt.NDArray[np.bool_] | None = None  # labelled by text, not operators
        if counts[K.DIRECTIVE]:
            others = kinds == K.DIRECTIVE
        if keep_literals and counts[K.NUMBER] + counts[K.STRING] + counts[K.CHAR]:
            literal = (kinds >= K.NUMBER) & (kinds <= K.CHAR)
            others = literal if others is None else others | literal
        if counts[K.WORD] > int(keywords.sum()):
            if keep_identifiers:  # the words found no id: keywords have theirs
                plain = (kinds == K.WORD) & (ids == 0)
                others = plain if others is None else others | plain
            else:
                labels[stable_id("ID")] = "ID"
        other = None if others is None else np.flatnonzero(others)
        final = other is None  # no id changes after _token_ids: its literal_at hold
        if not self._label_fast(utf8, found, counts[K.OPERATOR], other, kinds, starts, ends,
                                hashes, ids, labels):
            final = False
            verbatim = kinds == K.OPERATOR
            if others is not None:
                verbatim |= others
            self._label_verbatim(utf8, np.flatnonzero(verbatim), kinds, starts, ends, hashes,
                                 ids, labels)
        return (ids, starts, ends, labels, None if counts[K.DIRECTIVE] else hashes,
                literal_at[:literals] if final else None)

    def _label_fast(self, utf8: bytes, found: I64, operators: int, other: I64 | None,
                    kinds: npt.NDArray[np.uint8], starts: I64, ends: I64,
                    hashes: npt.NDArray[np.uint64], ids: U32, labels: dict[int, str]
                    ) -> bool:
        """:meth:`_label_verbatim` of the operators (``found`` in the table by
        :func:`_token_ids`) and the ``other`` tokens; ``False`` (``labels``
        untouched) where that could differ: an operator not in the table, or
        a hash or an id shared by an operator and another token of the file."""
        table = self.lookup
        rows = (np.flatnonzero(found[table.operators:]) + table.operators).tolist()
        if int(found[table.operators:].sum()) != operators:
            return False
        if other is not None:
            own: dict[int, str] = {}
            if rows and np.intersect1d(hashes[other], table.hashes[rows]).shape[0]:
                return False
            self._label_verbatim(utf8, other, kinds, starts, ends, hashes, ids, own)
            if not own.keys().isdisjoint(table.id_list[i] for i in rows):
                return False  # the caller labels every token again
            labels.update(own)  # after the operators': no id is both
        for i in rows:  # hash order, as _label_verbatim
            labels[table.id_list[i]] = table.labels[i]
        return True

    def _label_verbatim(self, utf8: bytes, where: I64, kinds: npt.NDArray[np.uint8],
                        starts: I64, ends: I64, hashes: npt.NDArray[np.uint64],
                        ids: U32, labels: dict[int, str]) -> None:
        """Ids of tokens labelled by their text, computed once per distinct hash
        of this file (each gets the label of its first token)."""
        if where.shape[0] == 0:
            return
        uniq, first, inverse = np.unique(hashes[where], return_index=True,
                                         return_inverse=True)
        table = np.empty(uniq.shape[0], dtype=np.uint32)
        for u, at in enumerate(where[first].tolist()):
            label = self._label(int(kinds[at]), utf8[starts[at]:ends[at]], True, True)
            table[u] = stable_id(label)
            labels[int(table[u])] = label
        ids[where] = table[inverse.reshape(-1)]

    def _label(self, kind: int, text: bytes, keep_identifiers: bool, keep_literals: bool
               ) -> str:
        if kind in _LITERAL_LABELS:
            if keep_literals:
                return "lit:" + text.decode("utf-8", "replace")
            return _LITERAL_LABELS[kind]
        if kind == K.WORD:
            if text in self.keywords:
                return text.decode()
            return "id:" + text.decode("utf-8", "replace") if keep_identifiers else "ID"
        if kind == K.DIRECTIVE:
            return "#" + text[1:].decode("utf-8", "replace").strip(" \t")
        return text.decode("utf-8", "replace")


_C_PREFIX = dict(string_prefixes="LuU8R", prefix_max=2)

FAST_LEXERS: dict[str, Syntax] = {
    "python": Syntax("python", ("#",), None, single_quote=K.SQ_STRING, triple_dq=True,
                     triple_sq=True, string_prefixes="rRbBuUfF", prefix_max=2,
                     operators=PYTHON_OPERATORS),
    "java": Syntax("java", triple_dq=True),
    "c": Syntax("c", directives=True, string_prefixes="LuU8", prefix_max=2),
    "cpp": Syntax("cpp", directives=True, cpp_raw=True, **_C_PREFIX),  # type: ignore[arg-type]
    "csharp": Syntax("csharp", directives=True, at_strings=True, triple_dq=True),
    "javascript": Syntax("javascript", single_quote=K.SQ_STRING, backtick=K.BT_ESCAPED),
    "typescript": Syntax("typescript", single_quote=K.SQ_STRING, backtick=K.BT_ESCAPED),
    "go": Syntax("go", backtick=K.BT_RAW),
    "rust": Syntax("rust", nested_comments=True, string_prefixes="br", prefix_max=2,
                   rust_raw=True),
    "kotlin": Syntax("kotlin", nested_comments=True, triple_dq=True),
    "scala": Syntax("scala", nested_comments=True, triple_dq=True, any_prefix=True,
                    prefix_max=16),
    "swift": Syntax("swift", nested_comments=True, single_quote=K.SQ_NONE, triple_dq=True),
    "dart": Syntax("dart", single_quote=K.SQ_STRING, triple_dq=True, triple_sq=True,
                   string_prefixes="r", prefix_max=1),
}
