"""The documents front-end: text extracted from PDF and DOCX files.

Extraction uses ``pypdf`` and ``python-docx`` (the optional extra
``pip install -e '.[documents]'``).  The extracted text (UTF-8, pages
separated by form feeds, paragraphs by newlines) becomes the document's
``data``, and the text front-end's offsets index it: a PDF's own bytes are
compressed streams, so showing a match means showing the extracted text.
A missing extra or a corrupt file never raises: the file is compared as bytes
and the warning says why (naming the extra when it is missing).

What extraction produces is bounded by :data:`MAX_EXTRACTED_BYTES`: a DOCX
whose XML parts decompress to more (counted while decompressing, in chunks,
before any parser sees them), or a PDF whose text grows past it page by page,
raises :class:`~winnow.errors.ContentTooLarge` (the file is skipped).
pypdf itself caps each decompressed stream (75 MB).
"""

from __future__ import annotations

import io
import logging
import warnings
import zipfile
from pathlib import PurePath

from winnow.errors import ContentTooLarge, InputError, MissingExtra, install_hint
from winnow.frontends.base import Input, Result
from winnow.frontends.bytes import BytesFrontEnd
from winnow.frontends.sniff import Decoded
from winnow.frontends.text import text_stream

EXTRA_HINT = install_hint("documents")


#: The most bytes a document may expand to: a DOCX's XML parts, decompressed,
#: or a PDF's extracted text (UTF-8).  Real coursework is far below this.
MAX_EXTRACTED_BYTES = 32 << 20


def extract_pdf(data: bytes, name: str = "document.pdf",
                limit: int = MAX_EXTRACTED_BYTES) -> str:
    """Text of every page, pages separated by form feeds (at most ``limit`` bytes)."""
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
            pages: list[str] = []
            size = 0
            for page in reader.pages:
                pages.append(page.extract_text() or "")
                size += len(pages[-1].encode("utf-8", "surrogatepass")) + 1
                if size > limit:
                    raise ContentTooLarge(name, f"PDF text larger than {limit} bytes; skipped")
            return "\f".join(pages)
    finally:
        log.setLevel(level)


def xml_size(data: bytes, limit: int) -> int:
    """Bytes the XML parts of the zip ``data`` decompress to, counted in chunks
    (never trusting the headers) and stopping once past ``limit``."""
    total = 0
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if not info.filename.lower().endswith((".xml", ".rels")):
                continue
            with archive.open(info) as stream:
                while chunk := stream.read(1 << 20):
                    total += len(chunk)
                    if total > limit:
                        return total
    return total


def extract_docx(data: bytes, name: str = "document.docx",
                 limit: int = MAX_EXTRACTED_BYTES) -> str:
    """Text of every paragraph (and table cell), one per line; a DOCX whose XML
    expands past ``limit`` bytes raises :class:`ContentTooLarge`."""
    if xml_size(data, limit) > limit:
        raise ContentTooLarge(name, f"DOCX expands to more than {limit} bytes of XML "
                                    "(a decompression bomb?); skipped")
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
        return extract_pdf(data, name)
    return extract_docx(data, name)


class DocumentsFrontEnd:
    """PDF and DOCX files through text extraction and the text front-end."""

    name = "document"
    binary_input = True

    def process(self, inp: Input) -> Result:
        try:
            text = extract(inp.data, inp.name)
        except MissingExtra as error:
            return self._as_bytes(inp, f"{error}; compared as bytes")
        except InputError:  # over a budget: the file is skipped, not compared
            raise
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
