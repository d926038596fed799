"""``winnow fingerprint``: show the fingerprints the engine selects for files."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import click

from winnow.cli.common import exit_with, output
from winnow.cli.options import (
    build_config,
    build_frontend_options,
    engine_options,
    format_option,
    frontend_options,
    output_option,
)
from winnow.cli.outputs import check_outputs
from winnow.cli.reading import read_documents
from winnow.config import WinnowConfig
from winnow.engine import fingerprint
from winnow.errors import EXIT_OK, EXIT_SKIPPED
from winnow.frontends import default_params
from winnow.model import Document, Span
from winnow.reports.documents import FingerprintListing
from winnow.reports.writers import write


def describe(doc: Document, config: WinnowConfig) -> dict[str, Any]:
    """Fingerprints of one document, as plain data.

    ``start``/``end`` are unit positions in the normalised stream; ``byte_start``
    /``byte_end`` the bytes of the original they cover and ``line_start``/
    ``line_end`` their 1-based lines (through the front-end's offset map).
    """
    units = doc.stream.units
    selected = fingerprint(units, config)
    n_kgrams = max(0, len(doc.stream) - config.k + 1)
    prints = []
    for h, p in zip(selected["hash"].tolist(), selected["pos"].tolist(), strict=True):
        span = doc.stream.byte_span(Span(p, p + config.k))
        first, last = doc.lines_of(span)
        prints.append({"hash": h, "start": p, "end": p + config.k, "byte_start": span.start,
                       "byte_end": span.end, "line_start": first, "line_end": last})
    return {
        "path": doc.name,
        "size": len(doc.data),
        "kind": doc.kind,
        "frontend": doc.frontend,
        "language": doc.language,
        "units": len(doc.stream),
        "kgrams": n_kgrams,
        "density": (len(selected) / n_kgrams) if n_kgrams else 0.0,
        "config": config.as_dict(),
        "warnings": list(doc.warnings),
        "fingerprints": prints,
    }


@click.command("fingerprint")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path, readable=False))
@engine_options
@frontend_options
@format_option(result="winnow.reports.documents.FingerprintListing")
@output_option()
def fingerprint_command(
    files: tuple[Path, ...], k: int | None, t: int | None, method: str,
    anchors: tuple[str, ...], seed: int, frontend: str | None, lang: str | None, unit: str,
    frontend_options: tuple[str, ...], fmt: str, out_path: Path | None,
) -> None:
    """Print the fingerprints selected for each FILE, with positions, lines and density.

    Each file goes through its front-end (chosen from the name and content, or
    --frontend/--lang).  A fingerprint covers units [start, end) of the
    normalised stream; "lines" are the 1-based lines of the original it maps to.
    Without -k/-t the front-end's defaults apply (`winnow.frontends.default_params`).
    csv has one row per fingerprint; json and jsonl one record per file, with
    its density, parameters and fingerprints.  A file that cannot be read is
    reported and skipped; the exit code is then 1.
    """
    check_outputs([out_path], inputs=files)
    options = build_frontend_options(unit, frontend_options)
    failures: list[Path] = []

    def described(docs: Iterable[Document]) -> Iterator[dict[str, Any]]:
        for doc in docs:
            config = build_config(k, t, method, seed, anchors=anchors,
                                  defaults=default_params(doc.frontend, options))
            yield describe(doc, config)

    with output(out_path) as out:
        write(FingerprintListing(described(read_documents(files, frontend, lang, options,
                                                          failures))), fmt, out)
    exit_with(EXIT_SKIPPED if failures else EXIT_OK)
