"""The notebook front-end: Jupyter ``.ipynb`` code cells through the code front-end.

Code cells are lexed in the notebook's language (``metadata.kernelspec`` or
``language_info``; Python by default); markdown cells go through the text
front-end when ``FrontEndOptions.notebook_markdown`` is set.  A notebook's
sources are JSON strings, so every character's offset is mapped back through
the JSON escapes to the ``.ipynb`` bytes; :func:`cell_of` turns an offset into
(cell number, line in cell).  IPython magics and shell escapes (lines starting
with ``%`` or ``!``) are skipped in Python notebooks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from winnow.frontends.base import Input, Result
from winnow.frontends.code import code_stream, resolve_language
from winnow.frontends.mapped import Assembled, char_offsets
from winnow.frontends.options import FrontEndOptions
from winnow.frontends.sniff import Decoded
from winnow.frontends.text import text_stream
from winnow.model import Stream

_DECODER = json.JSONDecoder()
_SOURCE_KEY = re.compile(r'"source"\s*:\s*')
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPE = re.compile(r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[0-9a-fA-F]{4}|u[0-9a-fA-F]{4}|.)")


@dataclass(frozen=True)
class Line:
    """One JSON string of a cell's source: its value and raw body in the JSON text."""

    value: str
    start: int  # character index of the body (after the opening quote)
    end: int  # character index of the closing quote


@dataclass(frozen=True)
class Cell:
    """One cell: type and its source lines as found in the raw JSON."""

    cell_type: str
    lines: tuple[Line, ...]


def _string_at(raw: str, i: int) -> tuple[Line, int]:
    value, end = _DECODER.raw_decode(raw, i)
    return Line(str(value), i + 1, end - 1), end


def _source_strings(raw: str) -> list[tuple[Line, ...]]:
    """Every ``"source": ...`` value in the raw JSON, in order."""
    found = []
    for match in _SOURCE_KEY.finditer(raw):
        i = match.end()
        lines: list[Line] = []
        if raw.startswith('"', i):
            lines.append(_string_at(raw, i)[0])
        elif raw.startswith("[", i):
            i += 1
            while True:
                while raw[i] in " \t\r\n,":
                    i += 1
                if raw[i] != '"':
                    break
                line, i = _string_at(raw, i)
                lines.append(line)
        found.append(tuple(lines))
    return found


def parse_cells(raw: str) -> tuple[list[Cell], dict[str, Any]]:
    """The cells (with raw positions) and metadata of a v4 notebook; ``ValueError``
    if it is not one."""
    try:
        notebook = json.loads(raw)
    except RecursionError as error:  # a ValueError subclass would be caught by callers
        raise ValueError("JSON nested too deeply") from error
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError("no 'cells' list (not an nbformat 4 notebook)")
    found = _source_strings(raw)
    cells: list[Cell] = []
    at = 0
    for number, cell in enumerate(notebook["cells"], start=1):
        if not isinstance(cell, dict):
            raise ValueError(f"cell {number} is not an object")
        text = _cell_text(cell.get("source", ""), number)
        while at < len(found) and "".join(line.value for line in found[at]) != text:
            at += 1
        if at == len(found):
            raise ValueError("cell sources could not be located in the file")
        cells.append(Cell(str(cell.get("cell_type", "")), found[at]))
        at += 1
    metadata = notebook.get("metadata", {})
    return cells, metadata if isinstance(metadata, dict) else {}


def _cell_text(source: object, number: int) -> str:
    """A cell's ``source``: a string or a list of strings (``ValueError`` otherwise)."""
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        return "".join(source)
    raise ValueError(f"cell {number}: source is not text")


def _assemble(raw: str, cells: list[Cell], cell_type: str, skip_magics: bool) -> Assembled:
    """The source of the chosen cells, each character mapped to its bytes in ``raw``.

    Vectorised over the whole file: a JSON escape (``\\n``, ``\\u00e9``, a
    surrogate pair) always decodes to one character, which gets the escape's
    whole span; other characters of a string body map one to one.  Cells are
    separated by a newline (mapped to the closing quote of their last line).
    """
    n = len(raw)
    select = np.zeros(n + 1, dtype=np.int64)
    pieces: list[str] = []
    separators: list[int] = []
    for cell in cells:
        if cell.cell_type != cell_type or not cell.lines:
            continue
        for line in cell.lines:
            if skip_magics and line.value.lstrip().startswith(("%", "!")):
                continue
            select[line.start] += 1
            select[line.end] -= 1
            pieces.append(_LONE_SURROGATE.sub("\ufffd", line.value))
        pieces.append("\n")
        separators.append(cell.lines[-1].end)
    weight = np.cumsum(select[:n]) > 0
    end_at = np.arange(1, n + 1, dtype=np.int64)
    escapes = np.array([m.span() for m in _ESCAPE.finditer(raw)], dtype=np.int64).reshape(-1, 2)
    if escapes.shape[0]:
        inside = np.zeros(n + 1, dtype=np.int64)
        np.add.at(inside, escapes[:, 0] + 1, 1)
        np.add.at(inside, escapes[:, 1], -1)
        weight &= ~(np.cumsum(inside[:n]) > 0)
        end_at[escapes[:, 0]] = escapes[:, 1]
    weight[separators] = True
    chars = np.flatnonzero(weight)
    offsets = char_offsets(raw)
    return Assembled.from_chars("".join(pieces), offsets[chars], offsets[end_at[chars]])


def notebook_language(metadata: dict[str, Any]) -> str:
    """The notebook's language from its metadata (Python if it says nothing)."""
    for key in ("kernelspec", "language_info"):
        section = metadata.get(key)
        if isinstance(section, dict):
            name = section.get("language") or section.get("name")
            if isinstance(name, str) and name:
                return name
    return "python"


def notebook_stream(decoded: Decoded, name: str, options: FrontEndOptions
                    ) -> tuple[Stream, str, list[str]]:
    """Tokens of the code cells (and markdown if asked), offsets into the .ipynb."""
    raw = decoded.text()
    cells, metadata = parse_cells(raw)
    language, backend, warnings = resolve_language(name + ".cell", b"",
                                                   notebook_language(metadata))
    code = _assemble(raw, cells, "code", language == "python")
    cstream = code_stream(Decoded(code.utf8, "utf-8"), language, backend, options)
    starts, ends = code.source_spans(cstream.starts, cstream.ends)
    parts = [(cstream.units.astype(np.uint32), starts, ends)]
    literal_parts = [cstream.literal_units]
    labels = dict(cstream.labels)
    if not any(cell.cell_type == "code" and cell.lines for cell in cells):
        warnings.append("notebook has no code cells")
    if options.notebook_markdown:
        md = _assemble(raw, cells, "markdown", False)
        tstream = text_stream(Decoded(md.utf8, "utf-8"), options)
        mstarts, mends = md.source_spans(tstream.starts, tstream.ends)
        parts.append((tstream.units.astype(np.uint32), mstarts, mends))
        literal_parts.append(tstream.units.astype(np.uint32))
        labels.update(tstream.labels)
    units = np.concatenate([p[0] for p in parts])
    all_starts = np.concatenate([p[1] for p in parts])
    order = np.argsort(all_starts, kind="stable")
    all_ends = np.concatenate([p[2] for p in parts])
    literals = None
    present = [part for part in literal_parts if part is not None]
    if len(present) == len(literal_parts):
        literals = np.concatenate(present, dtype=np.uint32)[order]
    stream = Stream(units[order], decoded.original(all_starts[order]),
                    decoded.original(all_ends[order]), labels, literals)
    return stream, language, warnings


@dataclass(frozen=True)
class CellMap:
    """Where each source line of a notebook lies: byte ranges in the .ipynb."""

    starts: np.ndarray[Any, np.dtype[np.int64]]
    ends: np.ndarray[Any, np.dtype[np.int64]]
    cells: np.ndarray[Any, np.dtype[np.int64]]
    lines: np.ndarray[Any, np.dtype[np.int64]]

    def locate(self, offset: int) -> tuple[int, int] | None:
        """(1-based cell number, 1-based line in that cell) of a byte offset,
        or ``None`` outside every cell source."""
        at = int(np.searchsorted(self.starts, offset, side="right")) - 1
        if at < 0 or offset >= self.ends[at]:
            return None
        return int(self.cells[at]), int(self.lines[at])


def cell_map(data: bytes) -> CellMap:
    """The :class:`CellMap` of a UTF-8 notebook (``ValueError`` if it is not one)."""
    raw = data.decode("utf-8", "replace")
    offsets = char_offsets(raw)
    cells, _ = parse_cells(raw)
    rows = [(int(offsets[line.start]), int(offsets[line.end]), number, line_no)
            for number, cell in enumerate(cells, start=1)
            for line_no, line in enumerate(cell.lines, start=1)]
    table = np.array(rows, dtype=np.int64).reshape(-1, 4)
    return CellMap(table[:, 0], table[:, 1], table[:, 2], table[:, 3])


def cell_of(data: bytes, offset: int) -> tuple[int, int] | None:
    """(1-based cell number, 1-based line in that cell) of a byte offset in a
    UTF-8 notebook, or ``None`` outside every cell source."""
    return cell_map(data).locate(offset)


class NotebookFrontEnd:
    """Jupyter notebooks (nbformat 4)."""

    name = "notebook"
    binary_input = False

    def process(self, inp: Input) -> Result:
        decoded = inp.text()
        try:
            stream, language, warnings = notebook_stream(decoded, inp.name, inp.options)
        except (ValueError, IndexError) as error:
            reason = f"not a readable notebook ({error}); compared as text"
            return Result(text_stream(decoded, inp.options), None, (reason,))
        return Result(stream, language, tuple(warnings))


__all__ = ["CellMap", "NotebookFrontEnd", "cell_map", "cell_of"]
