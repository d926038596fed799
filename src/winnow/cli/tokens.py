"""``winnow tokens``: the normalised stream beside the original ("why did these match?").

Also home of :func:`read_documents`, the file reading ``winnow fingerprint`` shares.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

import click

from winnow.cli.common import exit_with, fail, output, warn, write_records
from winnow.cli.options import (
    build_frontend_options,
    format_option,
    frontend_options,
    output_option,
)
from winnow.cli.outputs import check_outputs
from winnow.errors import EXIT_OK, EXIT_SKIPPED, WinnowError
from winnow.frontends import FrontEndOptions, read_document
from winnow.frontends.notebook import CellMap, cell_map
from winnow.model import Document
from winnow.reports.table import safe

#: Columns of ``winnow tokens --format csv`` (``cell``/``cell_line``: notebooks only).
CSV_FIELDS = ["file", "index", "unit", "label", "start", "end", "line", "text", "cell",
              "cell_line"]


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


def unit_label(doc: Document, unit: int) -> str:
    """How a unit is shown: its label, else the character (text) or byte value."""
    label = doc.stream.labels.get(unit)
    if label is not None:
        return label
    if doc.kind == "binary":
        return f"{unit:02x}"
    return chr(unit) if unit < 0x110000 else str(unit)


def token_rows(doc: Document) -> Iterator[dict[str, Any]]:
    """One row per unit: index, id, label, byte span, 1-based line, original text;
    for notebooks also ``cell`` and ``cell_line`` (1-based)."""
    stream = doc.stream
    cells = _cells(doc)
    for i, (unit, start, end) in enumerate(zip(stream.units.tolist(), stream.starts.tolist(),
                                              stream.ends.tolist(), strict=True)):
        row = {"index": i, "unit": unit, "label": unit_label(doc, unit), "start": start,
               "end": end, "line": doc.line_of(start),
               "text": doc.data[start:end].decode("utf-8", "backslashreplace")}
        if cells is not None:
            where = cells.locate(start)
            row["cell"], row["cell_line"] = where if where is not None else (None, None)
        yield row


def _cells(doc: Document) -> CellMap | None:
    if doc.frontend != "notebook":
        return None
    try:
        return cell_map(doc.data)
    except (ValueError, IndexError):  # not a readable notebook (compared as text)
        return None


def _show_line(text: str, width: int = 60) -> str:
    text = "".join(c if c.isprintable() else repr(c)[1:-1]
                   for c in text.rstrip("\r\n").expandtabs(4))
    return text if len(text) <= width else text[: width - 1] + "…"


def print_side_by_side(doc: Document, out: TextIO) -> None:
    """Each original line that has units, beside the labels of those units."""
    header = (f"== {safe(doc.name)}: front-end {doc.frontend}"
              f"{', language ' + doc.language if doc.language else ''}"
              f"{', encoding ' + doc.encoding if doc.encoding else ''}, {len(doc.stream)} units")
    click.echo(header, file=out)
    by_line: dict[int, list[str]] = {}
    where: dict[int, str] = {}
    for row in token_rows(doc):
        by_line.setdefault(row["line"], []).append(row["label"])
        if row.get("cell") is not None:
            where[row["line"]] = f"cell {row['cell']} line {row['cell_line']}: "
    lines = doc.data.split(b"\n")
    sep = "" if doc.frontend in ("text", "html", "document") and not doc.stream.labels else " "
    for number, labels in by_line.items():
        original = lines[number - 1].decode("utf-8", "backslashreplace") \
            if number - 1 < len(lines) else ""
        shown = _show_line(sep.join(labels), width=10_000)  # control bytes escaped
        click.echo(f"{number:>6} | {_show_line(original):<60} | {where.get(number, '')}"
                   f"{shown}", file=out)


@click.command("tokens")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path, readable=False))
@frontend_options
@format_option()
@output_option()
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
        if fmt == "table":
            for doc in docs:
                print_side_by_side(doc, out)
        else:
            rows = ({"file": doc.name, **row} for doc in docs for row in token_rows(doc))
            write_records(rows, fmt, out, CSV_FIELDS)
    exit_with(EXIT_SKIPPED if failures else EXIT_OK)
