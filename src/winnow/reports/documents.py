"""Output of ``winnow tokens`` and ``winnow fingerprint``: what the engine sees of each file.

Both listings are read as they are written (a document at a time), and each
has a table, CSV, JSON and JSON Lines writer, registered in
:mod:`winnow.reports.writers`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from winnow.frontends.notebook import CellMap, cell_map
from winnow.model import Document
from winnow.reports.rows import write_csv_rows, write_json_list, write_jsonl_rows
from winnow.reports.table import safe

#: Columns of ``winnow tokens --format csv`` (``cell``/``cell_line``: notebooks only).
TOKEN_COLUMNS = ("file", "index", "unit", "label", "start", "end", "line", "text", "cell",
                 "cell_line")
#: Columns of ``winnow fingerprint --format csv``: one row per fingerprint.
FINGERPRINT_COLUMNS = ("path", "hash", "start", "end", "byte_start", "byte_end",
                       "line_start", "line_end")


# -- tokens -------------------------------------------------------------------------

@dataclass(frozen=True)
class TokenListing:
    """``winnow tokens``: the normalised stream of each document."""

    documents: Iterable[Document]


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


def _side_by_side(doc: Document, out: TextIO) -> None:
    """Each original line that has units, beside the labels of those units."""
    out.write(f"== {safe(doc.name)}: front-end {doc.frontend}"
              f"{', language ' + doc.language if doc.language else ''}"
              f"{', encoding ' + doc.encoding if doc.encoding else ''}, "
              f"{len(doc.stream)} units\n")
    by_line: dict[int, list[str]] = {}
    where: dict[int, str] = {}
    n, copies = doc.stream.repeats
    if copies > 1:
        out.write(f"   (the first {n} units come {copies} times under other ids, the "
                  "structural front-end's weight: shown once)\n")
    for row in token_rows(doc):
        if not doc.stream.shown(row["index"]):
            continue
        by_line.setdefault(row["line"], []).append(row["label"])
        if row.get("cell") is not None:
            where[row["line"]] = f"cell {row['cell']} line {row['cell_line']}: "
    lines = doc.data.split(b"\n")
    sep = "" if doc.frontend in ("text", "html", "document") and not doc.stream.labels else " "
    for number, labels in by_line.items():
        original = lines[number - 1].decode("utf-8", "backslashreplace") \
            if number - 1 < len(lines) else ""
        shown = _show_line(sep.join(labels), width=10_000)  # control bytes escaped
        out.write(f"{number:>6} | {_show_line(original):<60} | {where.get(number, '')}"
                  f"{shown}\n")


def _token_records(listing: TokenListing) -> Iterator[dict[str, Any]]:
    return ({"file": doc.name, **row} for doc in listing.documents for row in token_rows(doc))


def tokens_table(listing: TokenListing, out: TextIO) -> None:
    for doc in listing.documents:
        _side_by_side(doc, out)


def tokens_csv(listing: TokenListing, out: TextIO) -> None:
    write_csv_rows(_token_records(listing), TOKEN_COLUMNS, out)


def tokens_json(listing: TokenListing, out: TextIO) -> None:
    write_json_list(_token_records(listing), out)


def tokens_jsonl(listing: TokenListing, out: TextIO) -> None:
    write_jsonl_rows(_token_records(listing), out)


# -- fingerprint --------------------------------------------------------------------

@dataclass(frozen=True)
class FingerprintListing:
    """``winnow fingerprint``: per document, its summary and its fingerprints
    (``path``, ``size``, ... ``fingerprints``: a list of records with the
    :data:`FINGERPRINT_COLUMNS` but ``path``)."""

    documents: Iterable[dict[str, Any]]


def _fingerprint_table(doc: dict[str, Any], out: TextIO) -> None:
    """One document's summary line, then a row per fingerprint."""
    fps = doc["fingerprints"]
    lang = f" {doc['language']}" if doc["language"] else ""
    out.write(f"== {safe(doc['path'])}: {doc['size']} bytes, front-end {doc['frontend']}"
              f"{lang}, {doc['units']} units, {doc['kgrams']} k-grams, "
              f"{len(fps)} fingerprints, density {doc['density']:.6f}\n")
    out.write(f"{'hash':>20}  {'start':>10}  {'end':>10}  lines\n")
    for fp in fps:
        lines = f"{fp['line_start']}" if fp["line_start"] == fp["line_end"] \
            else f"{fp['line_start']}-{fp['line_end']}"
        out.write(f"{fp['hash']:>20}  {fp['start']:>10}  {fp['end']:>10}  {lines}\n")


def fingerprints_table(listing: FingerprintListing, out: TextIO) -> None:
    for doc in listing.documents:
        _fingerprint_table(doc, out)


def fingerprints_csv(listing: FingerprintListing, out: TextIO) -> None:
    rows = ({"path": doc["path"], **fp} for doc in listing.documents
            for fp in doc["fingerprints"])
    write_csv_rows(rows, FINGERPRINT_COLUMNS, out)


def fingerprints_json(listing: FingerprintListing, out: TextIO) -> None:
    write_json_list(listing.documents, out)


def fingerprints_jsonl(listing: FingerprintListing, out: TextIO) -> None:
    write_jsonl_rows(listing.documents, out)
