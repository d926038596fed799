"""Choosing a front-end and running it: :func:`make_document` and :func:`read_document`.

Imported on first use of these names from :mod:`winnow.frontends` (the
front-ends load numpy and their compiled kernels).
"""

from __future__ import annotations

from pathlib import Path

from winnow.errors import InputError, UnknownFrontEnd, UnreadableContent, WinnowError
from winnow.fileio import DEFAULT_MAX_FILE_BYTES, FileTooLarge, read_regular
from winnow.frontends.base import DocumentFrontEnd, Input, Result
from winnow.frontends.bytes import BytesFrontEnd
from winnow.frontends.code import CodeFrontEnd
from winnow.frontends.documents import DocumentsFrontEnd
from winnow.frontends.html import HtmlFrontEnd
from winnow.frontends.languages import (
    is_text_lang,
    language_for_path,
    language_for_shebang,
    path_suffix,
)
from winnow.frontends.notebook import NotebookFrontEnd
from winnow.frontends.options import DEFAULT_OPTIONS, FrontEndOptions
from winnow.frontends.sniff import decode, sniff
from winnow.frontends.structural import StructuralFrontEnd
from winnow.frontends.text import TextFrontEnd
from winnow.model import Document

FRONTENDS: dict[str, DocumentFrontEnd] = {
    fe.name: fe
    for fe in (TextFrontEnd(), CodeFrontEnd(), HtmlFrontEnd(), NotebookFrontEnd(),
               DocumentsFrontEnd(), BytesFrontEnd(), StructuralFrontEnd())
}

_HTML_EXT = {".html", ".htm", ".xhtml", ".shtml"}
_DOC_EXT = {".pdf", ".docx"}


def choose_frontend(data: bytes, name: str, lang: str | None = None) -> str:
    """The front-end automatic selection picks: by extension, then ``#!`` line.

    ``.ipynb`` is a notebook, ``.html`` HTML, ``.pdf``/``.docx`` a document, a
    known source extension (or ``lang``, or a ``#!`` naming an interpreter) is
    code, everything else text (binary data is settled by the caller).  A
    ``lang`` for prose (``text``, ``markdown`` ..., :func:`is_text_lang`)
    selects the text front-end.
    """
    suffix = path_suffix(name).lower()
    if lang is not None:
        return "text" if is_text_lang(lang) else "code"
    if suffix == ".ipynb":
        return "notebook"
    if suffix in _HTML_EXT:
        return "html"
    if suffix in _DOC_EXT:
        return "document"
    if language_for_path(name) is not None or language_for_shebang(data[:256]) is not None:
        return "code"
    return "text"


def make_document(data: bytes, name: str, *, frontend: str | None = None,
                  lang: str | None = None, options: FrontEndOptions | None = None
                  ) -> Document:
    """Sniff, decode and normalise one document held in memory.

    Malformed content gives a document: binary data in a text format goes to
    the ``bytes`` front-end and invalid text is decoded with replacement,
    each with a warning in ``Document.warnings``.  Content no front-end can
    process raises :class:`UnreadableContent` (an :class:`InputError`: the
    caller skips the file); :class:`UnknownFrontEnd` / ``UnknownLanguage``
    are raised for bad arguments.
    """
    opts = options or DEFAULT_OPTIONS
    chosen = frontend or choose_frontend(data, name, lang)
    if chosen not in FRONTENDS:
        raise UnknownFrontEnd(name, f"unknown front-end {chosen!r} "
                                    f"(choose from {', '.join(FRONTENDS)})")
    try:
        return _normalise(data, name, FRONTENDS[chosen], lang, opts)
    except WinnowError:
        raise
    except MemoryError as error:
        raise UnreadableContent(name, "out of memory while processing its content; "
                                      "skipped") from error
    except RecursionError as error:
        raise UnreadableContent(name, "content nested too deeply to process; "
                                      "skipped") from error
    except Exception as error:  # any front-end failure costs this file only
        raise UnreadableContent(name, f"cannot process content ({type(error).__name__}: "
                                      f"{str(error)[:200]}); skipped") from error


def _normalise(data: bytes, name: str, fe: DocumentFrontEnd, lang: str | None,
               opts: FrontEndOptions) -> Document:
    """:func:`make_document` once the front-end is chosen (may raise on hostile content)."""
    sniffed = sniff(data)
    warnings: list[str] = []
    if fe.binary_input:
        result = fe.process(Input(data, name, None, lang, opts))
        kind = result.kind or ("binary" if fe.name == "bytes" else "text")
        return _document(name, data, kind, fe.name, result, result.encoding, warnings)
    if sniffed.kind == "binary":
        warnings.append(f"looks binary ({sniffed.reason}); compared as bytes, "
                        f"not as {fe.name}")
        result = FRONTENDS["bytes"].process(Input(data, name, None, lang, opts))
        return _document(name, data, "binary", "bytes", result, None, warnings)
    decoded = decode(data, sniffed)
    warnings.extend(decoded.warnings)
    result = fe.process(Input(data, name, decoded, lang, opts))
    return _document(name, data, "text", fe.name, result, decoded.encoding, warnings)


def _document(name: str, data: bytes, kind: str, frontend: str, result: Result,
              encoding: str | None, warnings: list[str]) -> Document:
    all_warnings = (*warnings, *result.warnings)
    if not data:
        all_warnings = (*all_warnings, "empty file")
    elif len(result.stream) == 0:
        all_warnings = (*all_warnings, "no content left after normalisation")
    return Document(name=name, data=result.data if result.data is not None else data,
                    kind="binary" if kind == "binary" else "text", frontend=frontend,
                    stream=result.stream, language=result.language,
                    encoding=encoding, warnings=all_warnings)


def read_document(path: Path, *, name: str | None = None, frontend: str | None = None,
                  lang: str | None = None, options: FrontEndOptions | None = None,
                  max_bytes: int | None = DEFAULT_MAX_FILE_BYTES) -> Document:
    """Read a file and :func:`make_document` it.

    Raises :class:`winnow.errors.InputError` when the file cannot be read at
    all (missing, a directory, permission denied, I/O error, larger than
    ``max_bytes``).
    """
    path = Path(path)
    label = name if name is not None else str(path)
    if path.is_dir():
        raise InputError(label, "is a directory (give files)")
    try:
        data = read_regular(path, max_bytes=max_bytes)
    except FileTooLarge as error:
        raise InputError(label, f"larger than {error.limit} bytes; skipped") from error
    except FileNotFoundError as error:
        raise InputError(label, "no such file") from error
    except PermissionError as error:
        raise InputError(label, "permission denied") from error
    except OSError as error:
        raise InputError(label, error.strerror or str(error)) from error
    return make_document(data, label, frontend=frontend, lang=lang, options=options)
