"""The languages the code front-end knows: names, file extensions, backend.

``fast`` languages use the table-driven lexers of :mod:`winnow.frontends.lexfast`;
the others use Pygments (``fallback``), which knows hundreds more: ``--lang``
also accepts any Pygments lexer alias.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import PurePath

#: The languages with a table-driven lexer (:data:`winnow.frontends.lexfast.FAST_LEXERS`,
#: which imports the compiled scanner; this table does not).
FAST_LANGUAGES = frozenset({"python", "java", "c", "cpp", "csharp", "javascript", "typescript",
                            "go", "rust", "kotlin", "scala", "swift", "dart"})


@dataclass(frozen=True)
class Language:
    """One language: its name, file extensions, Pygments alias and shebang names."""

    name: str
    extensions: tuple[str, ...]
    pygments: str
    interpreters: tuple[str, ...] = ()

    @property
    def backend(self) -> str:
        return "fast" if self.name in FAST_LANGUAGES else "fallback"


def _lang(name: str, exts: str, pygments: str | None = None, interp: str = "") -> Language:
    return Language(name, tuple(exts.split()), pygments or name, tuple(interp.split()))


LANGUAGES: tuple[Language, ...] = (
    _lang("python", ".py .pyw .pyi", interp="python python2 python3 pypy pypy3"),
    _lang("java", ".java"),
    _lang("c", ".c .h"),
    _lang("cpp", ".cpp .cc .cxx .c++ .hpp .hh .hxx .h++ .ino"),
    _lang("csharp", ".cs"),
    _lang("javascript", ".js .mjs .cjs .jsx", interp="node nodejs"),
    _lang("typescript", ".ts .tsx .mts .cts", interp="ts-node deno"),
    _lang("go", ".go"),
    _lang("rust", ".rs"),
    _lang("kotlin", ".kt .kts"),
    _lang("scala", ".scala .sc", interp="scala"),
    _lang("swift", ".swift"),
    _lang("dart", ".dart"),
    _lang("ruby", ".rb .rake .gemspec", interp="ruby"),
    _lang("php", ".php .php3 .php4 .php5 .phtml", interp="php"),
    _lang("haskell", ".hs .lhs", interp="runhaskell runghc"),
    _lang("ocaml", ".ml .mli", interp="ocaml"),
    _lang("fsharp", ".fs .fsi .fsx"),
    _lang("r", ".r .R .Rscript", "splus", interp="Rscript"),
    _lang("matlab", ".m", interp="octave"),
    _lang("julia", ".jl", interp="julia"),
    _lang("lua", ".lua", interp="lua luajit"),
    _lang("perl", ".pl .pm .t", interp="perl"),
    _lang("shell", ".sh .bash .zsh .ksh", "bash", interp="sh bash zsh ksh dash"),
    _lang("powershell", ".ps1 .psm1", interp="pwsh"),
    _lang("sql", ".sql"),
    _lang("pascal", ".pas .pp .dpr .lpr", "delphi"),
    _lang("fortran", ".f90 .f95 .f03 .f08 .f .for .ftn", "fortran"),
    _lang("prolog", ".pro .prolog", interp="swipl"),
    _lang("scheme", ".scm .ss .rkt", interp="guile racket"),
    _lang("lisp", ".lisp .lsp .cl .el", "common-lisp", interp="sbcl clisp"),
    _lang("clojure", ".clj .cljs .cljc"),
    _lang("elixir", ".ex .exs", interp="elixir"),
    _lang("erlang", ".erl .hrl", interp="escript"),
    _lang("verilog", ".v .sv .svh", "systemverilog"),
    _lang("vhdl", ".vhd .vhdl"),
    _lang("asm", ".s .S .asm .nasm", "nasm"),
    _lang("objective-c", ".mm", "objective-c"),
    _lang("groovy", ".groovy .gradle", interp="groovy"),
    _lang("elm", ".elm"),
    _lang("zig", ".zig"),
    _lang("nim", ".nim"),
    _lang("d", ".d"),
    _lang("ada", ".adb .ads"),
    _lang("cobol", ".cob .cbl"),
    _lang("tcl", ".tcl", interp="tclsh wish"),
    _lang("awk", ".awk", interp="awk gawk"),
    _lang("css", ".css"),
    _lang("vb.net", ".vb"),
    _lang("coffeescript", ".coffee", "coffee-script"),
)

_BY_NAME = {lang.name: lang for lang in LANGUAGES}
_BY_EXT = {ext: lang for lang in LANGUAGES for ext in lang.extensions}
_BY_INTERP = {i: lang for lang in LANGUAGES for i in lang.interpreters}
ALIASES = {"c++": "cpp", "c#": "csharp", "cs": "csharp", "js": "javascript", "ts": "typescript",
           "py": "python", "bash": "shell", "sh": "shell", "octave": "matlab", "golang": "go",
           "rs": "rust", "kt": "kotlin", "rb": "ruby", "pl": "perl", "systemverilog": "verilog",
           "assembly": "asm", "commonlisp": "lisp", "racket": "scheme", "delphi": "pascal"}


#: ``--lang`` values that mean prose, not code: they select the text front-end
#: (a code lexer for plain text would make each file one token).
TEXT_LANGS = frozenset({"text", "txt", "plain", "plaintext", "prose", "markdown", "md",
                        "rst", "restructuredtext", "asciidoc", "tex", "latex", "english"})


def is_text_lang(name: str | None) -> bool:
    """``name`` is a ``--lang`` for prose (:data:`TEXT_LANGS`, case-insensitive)."""
    return name is not None and name.lower() in TEXT_LANGS


def find_language(name: str) -> Language | None:
    """A language by name or alias (case-insensitive), or ``None``."""
    key = name.lower()
    return _BY_NAME.get(ALIASES.get(key, key))


def path_suffix(name: str) -> str:
    """``PurePath(name).suffix``, from the string (a path object costs more
    than the rest of choosing a file's front-end)."""
    base = name[name.rfind("/") + 1:]
    if os.sep != "/" or os.altsep is not None or base in ("", ".", ".."):
        return PurePath(name).suffix  # another separator, or a name pathlib drops
    dot = base.rfind(".")
    return base[dot:] if 0 < dot < len(base) - 1 else ""


def language_for_path(name: str) -> Language | None:
    """The language of a file name by its extension (``.R`` and ``.r`` both R)."""
    suffix = path_suffix(name)
    return _BY_EXT.get(suffix) or _BY_EXT.get(suffix.lower())


def language_for_shebang(data: bytes) -> Language | None:
    """The language named by a ``#!`` line (``#!/usr/bin/env python3`` ...)."""
    if not data.startswith(b"#!"):
        return None
    words = data[2:data.find(b"\n") if b"\n" in data else 200].decode("latin-1").split()
    if not words:
        return None
    prog = words[0].rsplit("/", 1)[-1]
    if prog == "env":
        rest = [w for w in words[1:] if not w.startswith("-")]
        prog = rest[0] if rest else ""
    for candidate in (prog, prog.rstrip("0123456789.")):
        if candidate in _BY_INTERP:
            return _BY_INTERP[candidate]
    return None
