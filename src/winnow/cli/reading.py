"""Reading the files a command names, one :class:`Document` each (``tokens``,
``fingerprint``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from winnow.cli.common import fail, warn
from winnow.errors import WinnowError
from winnow.frontends import FrontEndOptions, read_document
from winnow.model import Document


def read_documents(paths: Iterable[Path], frontend: str | None, lang: str | None,
                   options: FrontEndOptions, failures: list[Path]) -> Iterator[Document]:
    """Each readable path as a :class:`Document`, its warnings on standard error.

    A path that cannot be read is reported, appended to ``failures`` and skipped.
    """
    for path in paths:
        try:
            doc = read_document(path, frontend=frontend, lang=lang, options=options)
        except WinnowError as error:
            fail(error)
            failures.append(path)
            continue
        for message in doc.warnings:
            warn(f"{doc.name}: {message}")
        yield doc
