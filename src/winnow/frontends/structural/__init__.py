"""The structural front-end: syntax trees (tree-sitter), normalised, as tokens.

``--frontend structural``.  For the languages of
:data:`~winnow.frontends.structural.tables.TABLES` a file is parsed with its
official tree-sitter grammar, converted to the language-neutral tree of
:mod:`~winnow.frontends.structural.ir`, normalised
(:mod:`~winnow.frontends.structural.normalise`: dead code dropped, independent
statements, members and declarations in canonical order, equivalent forms
made one, helpers called once inlined) and emitted as tokens of the neutral
alphabet, whose offsets point into the original bytes as the code
front-end's do.  A file with syntax errors is read as far as tree-sitter's
error recovery placed it (:mod:`~winnow.frontends.structural.recovery`);
other languages, files whose parse left more than
:data:`~winnow.frontends.structural.recovery.MAX_UNPLACED` of their bytes
unplaced and anything the front-end cannot process go through the code
front-end's lexer instead, with a warning: a file is never lost.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from winnow.frontends.base import Input, Result
from winnow.frontends.code import code_stream, resolve_language, source_lines
from winnow.frontends.languages import language_for_path
from winnow.frontends.sniff import Decoded
from winnow.frontends.structural.ir import ALPHABET_NAME
from winnow.frontends.structural.recovery import ParseTooSlow
from winnow.model import Stream

__all__ = ["ALPHABET_NAME", "StructuralFrontEnd", "languages_in", "structural_stream",
           "supports", "with_lexical"]

#: XORed into the code front-end's unit ids in :func:`with_lexical`, so that
#: they never equal the neutral alphabet's ids of the same label (``ID``).
_LEXICAL_MASK = np.uint32(0x9E3779B9)
#: How many times the neutral tokens come before the lexer's in
#: :func:`with_lexical`, each time under other ids (:data:`_VIEW_MASKS`): the
#: weight of the normalised program against its text in a pair's score.
NEUTRAL_WEIGHT = 4
_VIEW_MASKS = (np.uint32(0), np.uint32(0x5BD1E995), np.uint32(0x27D4EB2F),
               np.uint32(0x165667B1))


def supports(language: str) -> bool:
    """Whether the structural front-end parses ``language`` (else it lexes)."""
    from winnow.frontends.structural.tables import TABLES

    return language in TABLES


def languages_in(names: Iterable[str], sample: int = 5000) -> set[str]:
    """The :func:`supports` languages among files named ``names`` (by extension,
    over the first ``sample`` names)."""
    found: set[str] = set()
    for _, name in zip(range(sample), names, strict=False):
        lang = language_for_path(name)
        if lang is not None and supports(lang.name):
            found.add(lang.name)
    return found


def structural_stream(decoded: Decoded, language: str) -> Stream:
    """The normalised stream of decoded source in a :func:`supports` language.

    Raises :class:`SyntaxError` when the parse's errors leave too much of the
    file unplaced (:func:`~winnow.frontends.structural.recovery.usable`; the
    caller lexes instead).
    """
    from winnow.frontends.structural.convert import Converter
    from winnow.frontends.structural.emit import emit
    from winnow.frontends.structural.program import normalise_file
    from winnow.frontends.structural.recovery import parse, usable
    from winnow.frontends.structural.tables import TABLES, parser_for

    text = source_lines(decoded)  # an old-Mac CR-only file: its lines, not one comment
    tree = parse(parser_for(language), text)
    if not usable(tree.root_node, len(text)):
        raise SyntaxError("syntax errors")
    table = TABLES[language]
    converter = Converter(table, text)
    root = normalise_file(converter.block(tree.root_node, tree.root_node))
    tokens = emit(root, len(text))
    starts = np.asarray(tokens.starts, dtype=np.int64)
    ends = np.asarray(tokens.ends, dtype=np.int64)
    return Stream(np.asarray(tokens.ids, dtype=np.uint32), decoded.original(starts),
                  decoded.original(ends), tokens.labels,
                  np.asarray(tokens.literal_ids, dtype=np.uint32))


class StructuralFrontEnd:
    """Source code parsed, normalised and emitted in the neutral alphabet."""

    name = "structural"
    binary_input = False

    def process(self, inp: Input) -> Result:
        decoded = inp.text()
        language, backend, warnings = resolve_language(inp.name, inp.data, inp.lang)
        if supports(language):
            try:
                stream = structural_stream(decoded, language)
                if inp.options.lexical:
                    lexed = code_stream(decoded, language, backend, inp.options)
                    stream = with_lexical(stream, lexed)
                return Result(stream, language, tuple(warnings))
            except ParseTooSlow as error:
                warnings.append(f"{error}: lexed, not parsed (code front-end)")
            except SyntaxError:
                warnings.append("syntax errors: lexed, not parsed (code front-end)")
            except RecursionError:
                warnings.append("nested too deeply to normalise: lexed (code front-end)")
            except (ImportError, ValueError, IndexError, KeyError, AttributeError,
                    TypeError) as error:  # a grammar missing, or a tree no rule expected
                warnings.append(f"cannot normalise ({type(error).__name__}): lexed "
                                "(code front-end)")
        stream = code_stream(decoded, language, backend, inp.options)
        return Result(stream, language, tuple(warnings))


def with_lexical(neutral: Stream, lexed: Stream, weight: int = NEUTRAL_WEIGHT) -> Stream:
    """The neutral stream ``weight`` times, then the code front-end's stream of
    the same file; each neutral copy's unit ids XOR a mask of its own
    (:data:`_VIEW_MASKS`), the lexer's ids XOR :data:`_LEXICAL_MASK`, so that
    no two parts share an id; the offsets of all point into the same bytes.

    Fingerprints are counted once per document, so a copy under the same ids
    would add nothing: under other ids each copy adds the same evidence
    again.  The lexer gives about twice as many units as the tree, so with
    ``weight`` 4 a pair's score is about two thirds the normalised programs'
    likeness and one third their tokens' (the literal channel goes the same
    way); with ``weight`` 1 one third and two thirds.
    """
    if not 1 <= weight <= len(_VIEW_MASKS):
        raise ValueError(f"weight must be 1 to {len(_VIEW_MASKS)}; got {weight}")

    def ids(units: npt.NDArray[np.integer], mask: np.uint32) -> npt.NDArray[np.uint32]:
        return units.astype(np.uint32) ^ mask

    neutral_literal = (neutral.literal_units if neutral.literal_units is not None
                       else neutral.units)
    lexed_literal = lexed.literal_units if lexed.literal_units is not None else lexed.units
    masks = _VIEW_MASKS[:weight]
    labels = {int(np.uint32(unit) ^ mask): label for mask in masks
              for unit, label in neutral.labels.items()}
    labels.update({int(np.uint32(unit) ^ _LEXICAL_MASK): label
                   for unit, label in lexed.labels.items()})
    return Stream(np.concatenate([*(ids(neutral.units, m) for m in masks),
                                  ids(lexed.units, _LEXICAL_MASK)]),
                  np.concatenate([*(neutral.starts for _ in masks), lexed.starts]),
                  np.concatenate([*(neutral.ends for _ in masks), lexed.ends]), labels,
                  np.concatenate([*(ids(neutral_literal, m) for m in masks),
                                  ids(lexed_literal, _LEXICAL_MASK)]),
                  repeats=(len(neutral), weight))
