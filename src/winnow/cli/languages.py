"""``winnow languages``: the languages the code front-end knows."""

from __future__ import annotations

from pathlib import Path

import click

from winnow.cli.common import output
from winnow.cli.options import format_option, output_option
from winnow.frontends import languages
from winnow.reports.listings import LanguageListing
from winnow.reports.writers import write


@click.command("languages")
@format_option(result="winnow.reports.listings.LanguageListing")
@output_option()
def languages_command(fmt: str, out_path: Path | None) -> None:
    """List the code front-end's languages, their file extensions and backend.

    ``fast``: the table-driven lexers (several MB/s); ``fallback``: Pygments
    (slower).  ``--lang`` also accepts any other Pygments lexer alias.
    """
    with output(out_path) as out:
        write(LanguageListing(languages()), fmt, out)
