"""``winnow fingerprint``: show the fingerprints the engine selects for files."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

import click

from winnow.cli.common import (
    EXIT_OK,
    EXIT_SKIPPED,
    build_config,
    engine_options,
    exit_with,
    format_option,
    output,
    output_option,
    write_records,
)
from winnow.cli.outputs import check_outputs
from winnow.cli.tokens import build_frontend_options, frontend_options, read_documents
from winnow.config import WinnowConfig
from winnow.engine import fingerprint
from winnow.frontends import default_params
from winnow.model import Document, Span
from winnow.reports.table import safe

#: Columns of ``winnow fingerprint --format csv``: one row per fingerprint.
CSV_FIELDS = ["path", "hash", "start", "end", "byte_start", "byte_end", "line_start",
              "line_end"]


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


def print_table(result: dict[str, Any], out: TextIO) -> None:
    """One document's summary line, then a row per fingerprint."""
    fps = result["fingerprints"]
    lang = f" {result['language']}" if result["language"] else ""
    click.echo(
        f"== {safe(result['path'])}: {result['size']} bytes, front-end {result['frontend']}{lang}, "
        f"{result['units']} units, {result['kgrams']} k-grams, "
        f"{len(fps)} fingerprints, density {result['density']:.6f}", file=out
    )
    click.echo(f"{'hash':>20}  {'start':>10}  {'end':>10}  lines", file=out)
    for fp in fps:
        lines = f"{fp['line_start']}" if fp["line_start"] == fp["line_end"] \
            else f"{fp['line_start']}-{fp['line_end']}"
        click.echo(f"{fp['hash']:>20}  {fp['start']:>10}  {fp['end']:>10}  {lines}", file=out)


def write_results(results: Iterable[dict[str, Any]], fmt: str, out: TextIO) -> None:
    """``table``; ``csv`` (one row per fingerprint, :data:`CSV_FIELDS`); ``json`` (a list
    of documents); ``jsonl`` (one document per line, as in ``json``)."""
    if fmt == "table":
        for result in results:
            print_table(result, out)
    elif fmt == "csv":
        rows = ({"path": r["path"], **fp} for r in results for fp in r["fingerprints"])
        write_records(rows, fmt, out, CSV_FIELDS)
    elif fmt == "jsonl":
        for result in results:
            out.write(json.dumps(result) + "\n")
    else:
        write_records(results, fmt, out, [])


@click.command("fingerprint")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path, readable=False))
@engine_options
@frontend_options
@format_option()
@output_option
def fingerprint_command(
    files: tuple[Path, ...], k: int | None, t: int | None, method: str,
    anchors: tuple[str, ...], seed: int, frontend: str | None, lang: str | None, unit: str,
    keep: tuple[str, ...], fmt: str, out_path: Path | None,
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
    options = build_frontend_options(unit, keep)
    failures: list[Path] = []

    def described(docs: Iterable[Document]) -> Iterator[dict[str, Any]]:
        for doc in docs:
            config = build_config(k, t, method, seed, anchors=anchors,
                                  defaults=default_params(doc.frontend, options))
            yield describe(doc, config)

    with output(out_path) as out:
        write_results(described(read_documents(files, frontend, lang, options, failures)),
                      fmt, out)
    exit_with(EXIT_SKIPPED if failures else EXIT_OK)
