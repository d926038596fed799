"""Front-ends: per-format normalisation of documents into code-unit streams.

The entry points are :func:`make_document` (bytes in memory) and
:func:`read_document` (a file).  Both sniff the input (text or binary, which
encoding), pick a front-end (``--frontend`` / ``--lang`` or automatically
from the name, ``#!`` line and content) and return a
:class:`winnow.model.Document` whose stream's offsets point into the original
bytes.  Malformed content never crashes a run: it is decoded with replacement
or compared as bytes, and ``Document.warnings`` says so; content that a
front-end cannot process at all (any exception, a structure nested too deep,
memory exhausted) raises :class:`UnreadableContent`, an
:class:`~winnow.errors.InputError` naming the file, which every command turns
into a skipped file.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from winnow.errors import UnknownFrontEnd, UnknownLanguage, UnreadableContent
from winnow.frontends.languages import LANGUAGES, find_language, is_text_lang
from winnow.frontends.options import (
    DEFAULT_PARAMS,
    FrontEndOptions,
    default_params,
)

if TYPE_CHECKING:
    from winnow.frontends.base import DocumentFrontEnd
    from winnow.frontends.dispatch import (
        FRONTENDS,
        choose_frontend,
        make_document,
        read_document,
    )
    from winnow.model import Document

#: Names imported from their modules on first use: the front-ends load numpy
#: and their compiled kernels, which ``winnow languages`` (the tables above)
#: does not need.
_LAZY = {
    "FRONTENDS": "dispatch", "choose_frontend": "dispatch", "make_document": "dispatch",
    "read_document": "dispatch", "DocumentFrontEnd": "base",
}


def __getattr__(name: str) -> Any:
    if name == "Document":
        from winnow.model import Document

        return Document
    if name in _LAZY:
        return getattr(importlib.import_module(f"winnow.frontends.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'winnow.frontends' has no attribute {name!r}")


def languages() -> list[tuple[str, tuple[str, ...], str]]:
    """``(name, extensions, backend)`` of every listed language; backend is
    ``fast`` or ``fallback`` (Pygments)."""
    return [(lang.name, lang.extensions, lang.backend) for lang in LANGUAGES]


__all__ = [
    "DEFAULT_PARAMS",
    "FRONTENDS",
    "Document",
    "DocumentFrontEnd",
    "FrontEndOptions",
    "UnknownFrontEnd",
    "UnknownLanguage",
    "UnreadableContent",
    "choose_frontend",
    "default_params",
    "find_language",
    "is_text_lang",
    "languages",
    "make_document",
    "read_document",
]
