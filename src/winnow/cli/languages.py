"""``winnow languages``: the languages the code front-end knows."""

from __future__ import annotations

import csv
import json
from typing import IO

import click

from winnow.frontends import languages


@click.command("languages")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "jsonl"]),
              default="table", show_default=True, help="Output format.")
@click.option("-o", "--output", type=click.File("w"), default="-", help="Write to FILE.")
def languages_command(fmt: str, output: IO[str]) -> None:
    """List the code front-end's languages, their file extensions and backend.

    ``fast``: the table-driven lexers (several MB/s); ``fallback``: Pygments
    (slower).  ``--lang`` also accepts any other Pygments lexer alias.
    """
    rows = [{"language": name, "extensions": " ".join(exts), "backend": backend}
            for name, exts, backend in languages()]
    if fmt == "table":
        click.echo(f"{'language':<14} {'backend':<9} extensions", file=output)
        for row in rows:
            click.echo(f"{row['language']:<14} {row['backend']:<9} {row['extensions']}",
                       file=output)
        fast = sum(row["backend"] == "fast" for row in rows)
        click.echo(f"{len(rows)} languages ({fast} fast, {len(rows) - fast} fallback)",
                   file=output)
    elif fmt == "csv":
        writer = csv.DictWriter(output, fieldnames=["language", "extensions", "backend"])
        writer.writeheader()
        writer.writerows(rows)
    elif fmt == "jsonl":
        for row in rows:
            output.write(json.dumps(row) + "\n")
    else:
        output.write(json.dumps(rows, indent=2) + "\n")
