"""The documents front-end: text extracted from PDF and DOCX files.

Extraction uses ``pypdf`` and ``python-docx`` (the optional extra
``pip install winnow[documents]``).  The extracted text (UTF-8, pages
separated by form feeds, paragraphs by newlines) becomes the document's
``data``, and the text front-end's offsets index it: a PDF's own bytes are
compressed streams, so showing a match means showing the extracted text.
A missing extra or a corrupt file never raises: the file is compared as bytes
and the warning says why (naming the extra when it is missing).
"""

from __future__ import annotations

import io
import logging
import warnings
from pathlib import PurePath

from winnow.frontends.base import Input, Result
from winnow.frontends.bytes import BytesFrontEnd
from winnow.frontends.text import text_stream
from winnow.model import Stream
from winnow.sources.sniff import Decoded

EXTRA_HINT = "pip install 'winnow[documents]'"


class MissingExtra(Exception):
    """An optional dependency is not installed."""


def extract_pdf(data: bytes) -> str:
    """Text of every page, pages separated by form feeds."""
    try:
        from pypdf import PdfReader
    except ImportError as error:
        raise MissingExtra(f"reading PDF needs pypdf: {EXTRA_HINT}") from error
    log = logging.getLogger("pypdf")
    level = log.level
    log.setLevel(logging.CRITICAL)  # its complaints become our one warning
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(io.BytesIO(data), strict=False)
            return "\f".join(page.extract_text() or "" for page in reader.pages)
    finally:
        log.setLevel(level)


def extract_docx(data: bytes) -> str:
    """Text of every paragraph (and table cell), one per line."""
    try:
        import docx
    except ImportError as error:
        raise MissingExtra(f"reading DOCX needs python-docx: {EXTRA_HINT}") from error
    document = docx.Document(io.BytesIO(data))
    lines = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            lines.extend(cell.text for cell in row.cells)
    return "\n".join(lines)


def extract(data: bytes, name: str) -> str:
    """Extracted text by file type (``%PDF`` magic or ``.pdf``; otherwise DOCX)."""
    if data.startswith(b"%PDF") or PurePath(name).suffix.lower() == ".pdf":
        return extract_pdf(data)
    return extract_docx(data)


class DocumentsFrontEnd:
    """PDF and DOCX files through text extraction and the text front-end."""

    name = "document"
    binary_input = True

    def stream(self, data: bytes, name: str) -> Stream:
        return self.process(Input(data, name, None)).stream

    def process(self, inp: Input) -> Result:
        try:
            text = extract(inp.data, inp.name)
        except MissingExtra as error:
            return self._as_bytes(inp, f"{error}; compared as bytes")
        except Exception as error:
            reason = f"cannot extract text ({type(error).__name__}: {error}); compared as bytes"
            return self._as_bytes(inp, reason)
        utf8 = text.encode("utf-8", "surrogatepass")
        stream = text_stream(Decoded(utf8, "utf-8"), inp.options)
        return Result(stream, None, (), data=utf8, encoding="utf-8", kind="text")

    @staticmethod
    def _as_bytes(inp: Input, reason: str) -> Result:
        return Result(BytesFrontEnd().stream(inp.data, inp.name), None, (reason,),
                      kind="binary")
