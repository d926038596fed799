"""MOSS's language names and the winnow front-end and language each maps to.

MOSS knows a fixed list of names (its ``-l`` option).  Each maps to winnow's
``code`` front-end with one of its languages, or to the ``text`` front-end
(``ascii``, and SPICE netlists, which no lexer here knows).  A few have no
lexer of their own and use the nearest one: ``modula2`` the Pascal lexer
(the same family: ``BEGIN``/``END`` blocks, ``:=``), ``mips`` and ``a8086``
the assembly lexer, ``plsql`` the SQL lexer, ``vb`` the VB.NET lexer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """How the files of a job in one MOSS language are read."""

    frontend: str
    lang: str | None = None


def _code(lang: str) -> Language:
    return Language("code", lang)


#: MOSS name -> front-end and language.
MOSS_LANGUAGES: dict[str, Language] = {
    "c": _code("c"), "cc": _code("cpp"), "java": _code("java"), "ml": _code("ocaml"),
    "pascal": _code("pascal"), "ada": _code("ada"), "lisp": _code("lisp"),
    "scheme": _code("scheme"), "haskell": _code("haskell"), "fortran": _code("fortran"),
    "ascii": Language("text"), "vhdl": _code("vhdl"), "verilog": _code("verilog"),
    "perl": _code("perl"), "matlab": _code("matlab"), "python": _code("python"),
    "mips": _code("asm"), "prolog": _code("prolog"), "spice": Language("text"),
    "vb": _code("vb.net"), "csharp": _code("csharp"), "modula2": _code("pascal"),
    "a8086": _code("asm"), "javascript": _code("javascript"), "plsql": _code("sql"),
}


def moss_language(name: str) -> Language | None:
    """The mapping of MOSS language ``name`` (case-insensitive), ``None`` if unknown."""
    return MOSS_LANGUAGES.get(name.strip().lower())
