"""``winnow tokens``: the normalised stream beside the original ("why did these match?")."""

from __future__ import annotations

from pathlib import Path

import click

from winnow.cli.common import exit_with, output
from winnow.cli.options import (
    build_frontend_options,
    format_option,
    frontend_options,
    output_option,
)
from winnow.cli.outputs import check_outputs
from winnow.cli.reading import read_documents
from winnow.errors import EXIT_OK, EXIT_SKIPPED
from winnow.reports.documents import TokenListing
from winnow.reports.writers import write


@click.command("tokens")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path, readable=False))
@frontend_options
@format_option(result="winnow.reports.documents.TokenListing")
@output_option()
def tokens_command(files: tuple[Path, ...], frontend: str | None, lang: str | None, unit: str,
                   frontend_options: tuple[str, ...], fmt: str,
                   out_path: Path | None) -> None:
    """Show each FILE's normalised stream beside the original text.

    The table shows every original line with the units it produced; csv,
    json and jsonl give one record per unit (file, index, unit, label, start,
    end, line, text; start/end are byte offsets, line is 1-based; notebooks
    add cell and cell_line).  A file that cannot be read is reported and
    skipped; the exit code is then 1.
    """
    check_outputs([out_path], inputs=files)
    options = build_frontend_options(unit, frontend_options)
    failures: list[Path] = []
    docs = read_documents(files, frontend, lang, options, failures)
    with output(out_path) as out:
        write(TokenListing(docs), fmt, out)
    exit_with(EXIT_SKIPPED if failures else EXIT_OK)
