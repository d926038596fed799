"""The fast lexer's token ids and labels, checked token by token.

:meth:`Syntax.lex` gives keywords and operators their ids through tables of
the language and labels the rest once per distinct text; here every token's
id is recomputed from its own text (the rule of the code front-end: keywords
as written, identifiers ``ID``, literals by kind, operators and directives by
their text), for every fast language and every option, and the result must
not depend on the tables or on the files lexed before.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from winnow.frontends import _code_kernels as K
from winnow.frontends.ids import stable_id
from winnow.frontends.keywords import KEYWORDS
from winnow.frontends.lexfast import FAST_LEXERS, Syntax

SNIPPETS = Path(__file__).parent.parent / "fixtures" / "frontends" / "snippets"
OPTIONS = [(False, False), (True, False), (False, True), (True, True)]
LITERALS = {K.STRING: "STR", K.CHAR: "CHR", K.NUMBER: "NUM"}


def expected_label(syntax: Syntax, kind: int, text: bytes, keep_identifiers: bool,
                   keep_literals: bool) -> str:
    if kind in LITERALS:
        return "lit:" + text.decode("utf-8", "replace") if keep_literals else LITERALS[kind]
    if kind == K.WORD:
        word = text.decode("utf-8", "replace")
        if word in KEYWORDS[syntax.language]:
            return word
        return "id:" + word if keep_identifiers else "ID"
    if kind == K.DIRECTIVE:
        return "#" + text[1:].decode("utf-8", "replace").strip(" \t")
    return text.decode("utf-8", "replace")


def check(syntax: Syntax, data: bytes, keep_identifiers: bool, keep_literals: bool) -> None:
    kinds, starts, ends, _ = syntax.scan(data)
    ids, lex_starts, lex_ends, labels = syntax.lex(data, keep_identifiers, keep_literals)
    want = [expected_label(syntax, kind, data[s:e], keep_identifiers, keep_literals)
            for kind, s, e in zip(kinds.tolist(), starts.tolist(), ends.tolist(), strict=True)]
    assert ids.dtype == np.uint32
    assert ids.tolist() == [stable_id(label) for label in want]
    assert labels == {stable_id(label): label for label in want}
    assert np.array_equal(lex_starts, starts) and np.array_equal(lex_ends, ends)


def mixed_source(syntax: Syntax, seed: int) -> bytes:
    """Every operator of the language, some keywords, words, literals,
    directives and stray bytes, in a random order."""
    rng = random.Random(seed)
    pieces = [*syntax.operators, *sorted(KEYWORDS[syntax.language])[:20], "alpha", "beta_2",
              "x", "42", "0x1F", "3.5", '"text"', "'c'", "'two'", "\n#include <a.h>\n",
              "\n#  define N 1\n", "\n# pragma once\n", "@", "?", "\\", "`q`", "$v", "é"]
    pieces += [chr(b) for b in range(33, 127)]
    rng.shuffle(pieces)
    return " ".join(pieces).encode()


@pytest.mark.parametrize("language", sorted(FAST_LEXERS))
def test_every_token_gets_the_id_of_its_own_text(language: str) -> None:
    syntax = FAST_LEXERS[language]
    sources = [path.read_bytes() for path in sorted(SNIPPETS.iterdir())]
    sources += [mixed_source(syntax, seed) for seed in range(3)]
    for keep_identifiers, keep_literals in OPTIONS:
        for data in sources:
            check(syntax, data, keep_identifiers, keep_literals)


@pytest.mark.parametrize("language", sorted(FAST_LEXERS))
def test_the_operator_table_holds_every_operator_text_once(language: str) -> None:
    syntax = FAST_LEXERS[language]
    table = syntax.operator_table
    assert table is not None  # no two operator texts share a hash
    hashes, ids, id_list, labels = table
    assert np.all(hashes[1:] > hashes[:-1])
    assert ids.tolist() == id_list == [stable_id(label) for label in labels]
    data = mixed_source(syntax, 7)
    kinds, _, _, token_hashes = syntax.scan(data)
    assert set(token_hashes[kinds == K.OPERATOR].tolist()) <= set(hashes.tolist())


def test_the_result_does_not_depend_on_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the operator table every verbatim token is labelled from its
    own file (the general path): the same ids and labels."""
    rng = random.Random(3)
    alphabet = b"ab1_ \n\t#\"'`+-*/<=>!&|^%~?:;.,()[]{}@$\\\x00\xc3\xa9"
    sources = [bytes(rng.choice(alphabet) for _ in range(400)) for _ in range(30)]
    for language in ("c", "python", "rust", "swift"):
        syntax = FAST_LEXERS[language]
        for keep_identifiers, keep_literals in OPTIONS:
            fast = [syntax.lex(data, keep_identifiers, keep_literals) for data in sources]
            assert syntax.lookup.operators < syntax.lookup.hashes.shape[0]
            with monkeypatch.context() as patch:
                patch.setitem(syntax.__dict__, "operator_table", None)
                patch.delitem(syntax.__dict__, "lookup")  # built again without operators
                general = [syntax.lex(data, keep_identifiers, keep_literals)
                           for data in sources]
            for (ids, _, _, labels), (ids2, _, _, labels2) in zip(fast, general, strict=True):
                assert ids.tolist() == ids2.tolist() and labels == labels2
            for data in sources[:5]:
                check(syntax, data, keep_identifiers, keep_literals)


@pytest.mark.parametrize("language", sorted(FAST_LEXERS))
@pytest.mark.parametrize("keep_identifiers", [False, True])
def test_what_the_lexer_hands_literal_units_gives_the_same_units(
        language: str, keep_identifiers: bool) -> None:
    """code_stream hands literal_units the scanner's token hashes and the
    tokens whose id is a literal's instead of hashing and searching again:
    the same units (no hashes when a directive's hash skips its blanks, no
    positions when ids were given after the compiled pass)."""
    from winnow.frontends.code import literal_units

    syntax = FAST_LEXERS[language]
    for data in [mixed_source(syntax, 11), (SNIPPETS / "c.c").read_bytes(),
                 b'x = "a  b" + \'c\' + 12 + "a  b"\n', b"", b"a"]:
        ids, starts, ends, labels, hashes, at = syntax.lex_hashed(data, keep_identifiers,
                                                                  False)
        plain = syntax.lex(data, keep_identifiers, False)
        assert ids.tolist() == plain[0].tolist() and labels == plain[3]
        kinds = syntax.scan(data)[0]
        again = literal_units(ids, data, starts, ends)
        assert (again != ids).sum() == np.isin(kinds, list(LITERALS)).sum()
        has_directive = bool((kinds == K.DIRECTIVE).any())
        assert (hashes is None) == has_directive
        assert (at is None) == (has_directive or (keep_identifiers and b"a" in data))
        if at is not None:
            assert at.tolist() == np.flatnonzero(np.isin(kinds, list(LITERALS))).tolist()
        assert literal_units(ids, data, starts, ends, hashes, at).tolist() == again.tolist()


@pytest.mark.parametrize("language", sorted(FAST_LEXERS))
def test_the_lookup_table_finds_every_entry_near_its_slot(language: str) -> None:
    """Every keyword and operator text is in the table, a few slots at most
    from where its hash points (FNV hashes of short texts share their top
    bits: taken as they are, one chain held all 256 one-byte operators)."""
    table = FAST_LEXERS[language].lookup
    size = table.slots.shape[0]
    shift = int(table.shift)
    assert sorted(table.slots[table.slots > 0].tolist()) == list(range(1, len(table.labels)))
    for entry, h in enumerate(table.hashes.tolist()[1:], start=1):
        home = (h * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF) >> shift
        at = int(np.flatnonzero(table.slots == entry)[0])
        assert (at - home) % size <= 8
