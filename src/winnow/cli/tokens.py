"""``winnow tokens``: the normalised stream beside the original ("why did these match?").

Also home of the front-end options every file-reading command shares
(:func:`frontend_options`, :func:`build_frontend_options`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click

from winnow.cli.common import (
    EXIT_OK,
    EXIT_SKIPPED,
    exit_with,
    fail,
    format_option,
    output,
    output_option,
    warn,
)
from winnow.cli.outputs import check_outputs
from winnow.errors import WinnowError
from winnow.frontends import FRONTENDS, FrontEndOptions, read_document
from winnow.frontends.code import resolve_language
from winnow.model import Document
from winnow.reports.documents import TokenListing
from winnow.reports.writers import write

F = TypeVar("F", bound=Callable[..., Any])

def _known_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--lang`` checked once, up front: an unknown language is a usage error (exit 2)."""
    from winnow.frontends import is_text_lang

    if value is not None and not is_text_lang(value):
        try:
            resolve_language("", b"", value)
        except WinnowError as error:
            raise click.BadParameter(str(error)) from error
    return value


def frontend_options(func: F) -> F:
    """``--frontend``, ``--lang``, ``--unit`` and the keep-switches."""
    options = [
        click.option("--frontend", type=click.Choice(sorted(FRONTENDS)), default=None,
                     help="Front-end (default: from the file name, #! line and content)."),
        click.option("--lang", default=None, callback=_known_lang,
                     help="Source language for the code front-end (see `winnow languages`; "
                          "any Pygments alias also works)."),
        click.option("--unit", type=click.Choice(["chars", "words"]), default="chars",
                     show_default=True, help="Text unit: characters or words."),
        click.option("--keep", "keep", multiple=True,
                     type=click.Choice(["case", "punctuation", "whitespace", "identifiers",
                                        "literals", "markdown"]),
                     help="Keep what the front-end normally drops (repeatable)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def build_frontend_options(unit: str, keep: tuple[str, ...]) -> FrontEndOptions:
    """The :class:`FrontEndOptions` for the shared command-line options."""
    return FrontEndOptions(
        unit="words" if unit == "words" else "chars",
        keep_case="case" in keep, keep_punctuation="punctuation" in keep,
        keep_whitespace="whitespace" in keep, keep_identifiers="identifiers" in keep,
        keep_literals="literals" in keep, notebook_markdown="markdown" in keep,
    )


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


@click.command("tokens")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path, readable=False))
@frontend_options
@format_option()
@output_option
def tokens_command(files: tuple[Path, ...], frontend: str | None, lang: str | None, unit: str,
                   keep: tuple[str, ...], fmt: str, out_path: Path | None) -> None:
    """Show each FILE's normalised stream beside the original text.

    The table shows every original line with the units it produced; csv,
    json and jsonl give one record per unit (file, index, unit, label, start,
    end, line, text; start/end are byte offsets, line is 1-based; notebooks
    add cell and cell_line).  A file that cannot be read is reported and
    skipped; the exit code is then 1.
    """
    check_outputs([out_path], inputs=files)
    options = build_frontend_options(unit, keep)
    failures: list[Path] = []
    docs = read_documents(files, frontend, lang, options, failures)
    with output(out_path) as out:
        write(TokenListing(docs), fmt, out)
    exit_with(EXIT_SKIPPED if failures else EXIT_OK)
