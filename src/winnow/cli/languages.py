"""``winnow languages``: the languages the code front-end knows."""

from __future__ import annotations

from pathlib import Path

import click

from winnow.cli.common import output, write_records
from winnow.cli.options import format_option, output_option
from winnow.frontends import languages

#: Columns of ``winnow languages --format csv``.
CSV_FIELDS = ["language", "extensions", "backend"]


@click.command("languages")
@format_option()
@output_option()
def languages_command(fmt: str, out_path: Path | None) -> None:
    """List the code front-end's languages, their file extensions and backend.

    ``fast``: the table-driven lexers (several MB/s); ``fallback``: Pygments
    (slower).  ``--lang`` also accepts any other Pygments lexer alias.
    """
    rows = [{"language": name, "extensions": " ".join(exts), "backend": backend}
            for name, exts, backend in languages()]
    with output(out_path) as out:
        if fmt != "table":
            write_records(rows, fmt, out, CSV_FIELDS)
            return
        click.echo(f"{'language':<14} {'backend':<9} extensions", file=out)
        for row in rows:
            click.echo(f"{row['language']:<14} {row['backend']:<9} {row['extensions']}",
                       file=out)
        fast = sum(row["backend"] == "fast" for row in rows)
        click.echo(f"{len(rows)} languages ({fast} fast, {len(rows) - fast} fallback)",
                   file=out)
