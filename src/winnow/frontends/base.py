"""The front-end interface: one document's bytes in, a :class:`Stream` out.

A front-end removes what should not distinguish documents (layout, comments,
identifier names, case ...) and knows nothing of hashing (winnowing paper,
section 5.2).  It must give every unit the byte range it came from.

:class:`DocumentFrontEnd` is the interface: ``process``, which
:func:`winnow.frontends.make_document` calls with the already sniffed and
decoded input, the language and the options.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from winnow.frontends.options import DEFAULT_OPTIONS, FrontEndOptions
from winnow.frontends.sniff import Decoded, decode, sniff
from winnow.model import Stream


@dataclass(frozen=True)
class Input:
    """One document as a front-end receives it.

    ``decoded`` is the text (``None`` for binary data); ``lang`` the language
    asked for (``None``: detect); offsets always refer to ``data``.
    """

    data: bytes
    name: str
    decoded: Decoded | None
    lang: str | None = None
    options: FrontEndOptions = DEFAULT_OPTIONS

    def text(self) -> Decoded:
        """``decoded``, or ``data`` sniffed and decoded now when it was not given."""
        return self.decoded if self.decoded is not None else decode(self.data, sniff(self.data))


@dataclass(frozen=True)
class Result:
    """A front-end's answer: the stream, the language it used, what went wrong.

    Front-ends that extract text from a container (PDF, DOCX) set ``data`` to
    the extracted text, which their offsets index, and ``encoding``; ``kind``
    overrides the document kind (``binary`` when extraction failed).
    """

    stream: Stream
    language: str | None = None
    warnings: tuple[str, ...] = field(default=())
    data: bytes | None = None
    encoding: str | None = None
    kind: str | None = None


class DocumentFrontEnd(Protocol):
    """What every front-end provides: :func:`winnow.frontends.make_document`
    drives it."""

    #: Registry name, as given to ``--frontend`` (``text``, ``code``, ``bytes`` ...).
    name: str

    #: True when the front-end reads raw bytes (PDF, DOCX, bytes), not decoded text.
    binary_input: bool

    def process(self, inp: Input) -> Result:
        """Normalise one document; never raises on malformed content."""
        ...
