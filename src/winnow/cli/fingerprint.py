"""``winnow fingerprint``: show the fingerprints the engine selects for files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from winnow.cli.common import build_config, engine_options, exit_with, fail, warn
from winnow.cli.tokens import build_frontend_options, frontend_options
from winnow.config import WinnowConfig
from winnow.engine import fingerprint
from winnow.errors import WinnowError
from winnow.frontends import default_params, read_document
from winnow.model import Document, Span


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


def print_table(result: dict[str, Any]) -> None:
    fps = result["fingerprints"]
    lang = f" {result['language']}" if result["language"] else ""
    click.echo(
        f"== {result['path']}: {result['size']} bytes, front-end {result['frontend']}{lang}, "
        f"{result['units']} units, {result['kgrams']} k-grams, "
        f"{len(fps)} fingerprints, density {result['density']:.6f}"
    )
    click.echo(f"{'hash':>20}  {'start':>10}  {'end':>10}  lines")
    for fp in fps:
        lines = f"{fp['line_start']}" if fp["line_start"] == fp["line_end"] \
            else f"{fp['line_start']}-{fp['line_end']}"
        click.echo(f"{fp['hash']:>20}  {fp['start']:>10}  {fp['end']:>10}  {lines}")


@click.command("fingerprint")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path, readable=False))
@engine_options
@frontend_options
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="Output format.")
def fingerprint_command(
    files: tuple[Path, ...], k: int | None, t: int | None, method: str, seed: int,
    frontend: str | None, lang: str | None, unit: str, keep: tuple[str, ...], fmt: str
) -> None:
    """Print the fingerprints selected for each FILE, with positions, lines and density.

    Each file goes through its front-end (chosen from the name and content, or
    --frontend/--lang).  A fingerprint covers units [start, end) of the
    normalised stream; "lines" are the 1-based lines of the original it maps to.
    Without -k/-t the front-end's defaults apply (`winnow.frontends.default_params`).
    A file that cannot be read is reported and skipped; the exit code is then 1.
    """
    options = build_frontend_options(unit, keep)
    results: list[dict[str, Any]] = []
    failed = False
    for path in files:
        try:
            doc = read_document(path, frontend=frontend, lang=lang, options=options)
        except WinnowError as error:
            fail(error)
            failed = True
            continue
        for message in doc.warnings:
            warn(f"{doc.name}: {message}")
        config = build_config(k, t, method, seed,
                              defaults=default_params(doc.frontend, options))
        result = describe(doc, config)
        if fmt == "table":
            print_table(result)
        else:
            results.append(result)
    if fmt == "json":
        click.echo(json.dumps(results, indent=2))
    exit_with(1 if failed else 0)
