"""The code front-end: source code as a stream of normalised tokens.

Keywords and operators stay distinct, identifiers collapse to one symbol,
literals to one symbol per kind, comments and layout vanish (winnowing paper,
section 5.2; MOSS does the same).  Common languages use the fast path
(:mod:`winnow.frontends.lexfast`), the rest Pygments
(:mod:`winnow.frontends.lexpygments`).  The language comes from ``--lang``, the
file extension, a ``#!`` line or, last, Pygments' guess.
"""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt

from winnow.frontends._code_kernels import STRING, hash_tokens
from winnow.frontends.base import Input, Result
from winnow.frontends.languages import (
    find_language,
    language_for_path,
    language_for_shebang,
)
from winnow.frontends.lexfast import FAST_LEXERS, LITERAL_IDS
from winnow.frontends.lexpygments import lex_pygments, pygments_lexer
from winnow.frontends.options import DEFAULT_OPTIONS, FrontEndOptions
from winnow.frontends.sniff import Decoded
from winnow.model import Stream

I64 = npt.NDArray[np.int64]


def resolve_language(name: str, data: bytes, lang: str | None) -> tuple[str, str, list[str]]:
    """``(language name, backend key, warnings)`` for a document.

    The backend key is a fast-lexer name or a Pygments alias.  An unknown
    ``lang`` raises :class:`winnow.frontends.lexpygments.UnknownLanguage`.
    """
    if lang is not None:
        known = find_language(lang)
        if known is not None:
            return known.name, known.pygments, []
        pygments_lexer(lang)  # raises UnknownLanguage when Pygments lacks it too
        return lang.lower(), lang.lower(), []
    found = language_for_path(name) or language_for_shebang(data)
    if found is not None:
        return found.name, found.pygments, []
    return _guess(data)


def _guess(data: bytes) -> tuple[str, str, list[str]]:
    from pygments.lexers import guess_lexer
    from pygments.util import ClassNotFound

    try:
        lexer = guess_lexer(data[:8192].decode("utf-8", "replace"))
    except ClassNotFound:
        return "text", "text", ["language unknown; lexed as plain text tokens"]
    alias = lexer.aliases[0] if lexer.aliases else "text"
    known = find_language(alias)
    if known is not None:
        return known.name, known.pygments, [f"language guessed from content: {known.name}"]
    return alias, alias, [f"language guessed from content: {alias}"]


_LONE_CR = re.compile(rb"\r(?!\n)")


def source_lines(decoded: Decoded) -> bytes:
    """The decoded UTF-8 text with every lone CR read as LF.

    A lone CR ends a line as LF does (old Mac files; Python and most compilers
    accept them): byte for byte, so offsets do not move.  Without this, one
    ``#`` comment swallowed a CR-only file, an easy way to hide a copy.
    """
    text = decoded.utf8
    return _LONE_CR.sub(b"\n", text) if b"\r" in text else text


def code_stream(decoded: Decoded, language: str, backend: str,
                options: FrontEndOptions = DEFAULT_OPTIONS) -> Stream:
    """Tokens of decoded source text (:func:`source_lines`), offsets mapped to
    the original bytes."""
    text = source_lines(decoded)
    fast = FAST_LEXERS.get(language)
    hashes = at = None
    if fast is not None:
        ids, starts, ends, labels, hashes, at = fast.lex_hashed(
            text, options.keep_identifiers, options.keep_literals)
    else:
        ids, starts, ends, labels = lex_pygments(text, backend,
                                                 options.keep_identifiers, options.keep_literals)
    literals = None if options.keep_literals else literal_units(ids, text, starts, ends,
                                                                hashes, at)
    return Stream(ids, decoded.original(starts), decoded.original(ends), labels, literals)


def literal_units(ids: npt.NDArray[np.uint32], utf8: bytes, starts: I64, ends: I64,
                  token_hashes: npt.NDArray[np.uint64] | None = None,
                  literal_at: I64 | None = None) -> npt.NDArray[np.uint32]:
    """``ids`` with each collapsed literal replaced by an id of its kind and bytes.

    The token count and positions stay those of ``ids``, so fingerprints of
    either stream index the same tokens.  The id is the 64-bit FNV-1a hash of
    the literal's bytes, mixed with its kind id, folded to 31 bits with the
    top bit set like every token id (:func:`winnow.frontends.ids.stable_id`).
    ``token_hashes``: that hash of every token, and ``literal_at``: the
    tokens whose id is a literal's, when the lexer has them
    (:meth:`winnow.frontends.lexfast.Syntax.lex_hashed`).
    """
    out = ids.astype(np.uint32, copy=True)
    if literal_at is not None:
        where = literal_at
    else:
        literal = ids == LITERAL_IDS[0]
        for kind in LITERAL_IDS[1:]:
            literal |= ids == kind
        where = np.flatnonzero(literal)
    if where.shape[0]:
        if token_hashes is not None:
            hashes = token_hashes[where]
        else:
            hashes = np.empty(where.shape[0], dtype=np.uint64)
            kinds = np.full(where.shape[0], STRING, dtype=np.uint8)
            hash_tokens(np.frombuffer(utf8, dtype=np.uint8), kinds, starts[where], ends[where],
                        hashes)
        hashes ^= ids[where].astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        out[where] = (hashes >> np.uint64(33)).astype(np.uint32) | np.uint32(0x80000000)
    return out


class CodeFrontEnd:
    """Source code in any language :mod:`winnow.frontends.languages` lists (and
    any Pygments alias)."""

    name = "code"
    binary_input = False

    def process(self, inp: Input) -> Result:
        decoded = inp.text()
        language, backend, warnings = resolve_language(inp.name, inp.data, inp.lang)
        stream = code_stream(decoded, language, backend, inp.options)
        return Result(stream, language, tuple(warnings))
