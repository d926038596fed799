"""CSV report: one row per reported pair, best first.

The header is :data:`~winnow.reports.records.PAIR_COLUMNS` (stable, documented
in ``docs/compare.md``): ``file_a,file_b,similarity`` first, then the other
scores.  Fractions are written with 6 decimals; a score that was not computed
(no passages for the pair) is an empty cell.  A name that a spreadsheet would
take for a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return) is written with a leading ``'``, as the report's marks export
does (:func:`winnow.reports.anonymize.spreadsheet_safe`).  ``columns``
(``winnow compare --columns``) writes some of the columns, in its order.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO, TextIO, TypeVar

import numpy as np
import numpy.typing as npt

from winnow.matching.model import ComparisonResult
from winnow.parallel import usable_cores
from winnow.reports.anonymize import spreadsheet_safe
from winnow.reports.records import (
    PAIR_COLUMNS,
    PASSAGE_COLUMNS,
    checked_columns,
    cluster_of,
    pair_scores,
)
from winnow.reports.rows import is_terminal
from winnow.reports.table import safe

T = TypeVar("T")

#: Pairs formatted at a time on the fast path (:func:`_scores_only_lines`).
CHUNK = 65536

#: Threads that format chunks at once (:func:`_ahead`).
FORMATTERS = 2

#: The fractions of a pair without passages, as :meth:`PairList.score_columns`
#: names them, in :data:`PAIR_COLUMNS` order.
_FRACTIONS = ("similarity", "containment_a", "containment_b", "jaccard", "weighted", "rarity",
              "score")


def write_csv(result: ComparisonResult, out: TextIO,
              columns: Sequence[str] = PAIR_COLUMNS) -> None:
    """Write the pairs of ``result`` as CSV to ``out``, the cells of ``columns``
    (names of :data:`PAIR_COLUMNS`, each once, in the order wanted:
    :class:`ValueError` otherwise); to a terminal,
    names have their control characters escaped
    (:func:`winnow.reports.table.safe`).

    Rows are written as the pairs are read (every pair of a class may be
    hundreds of thousands); the pairs without passages, when the sequence
    offers their scores as arrays (``score_columns``), without an object per
    pair."""
    columns = checked_columns(columns)  # each once: the compiled rows' room counts on it
    terminal = is_terminal(out)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    clusters = cluster_of(result)
    pairs = result.pairs
    head = getattr(pairs, "with_passages", len(pairs)) if hasattr(pairs, "score_columns") \
        else len(pairs)
    for pair in (pairs[j] for j in range(head)):
        row = pair_scores(pair, clusters)
        cells = ["" if value is None else f"{value:.6f}" if isinstance(value, float)
                 else spreadsheet_safe(str(value))
                 for value in (row[column] for column in columns)]
        out.write(_line([_cell(safe(cell) if terminal else cell) for cell in cells]))
    if head == len(pairs):
        return
    names: list[str] = pairs.names  # type: ignore[attr-defined]
    fields = [_field(name, terminal) for name in names]
    found = [clusters.get(name) for name in names]
    cluster = np.array([-1 if c is None else c for c in found], dtype=np.int64)
    rows = _ScoreRows(fields, cluster, columns)
    sink = None if terminal or rows.names is None else _byte_sink(out)

    def chunk(start: int) -> str | memoryview:
        at, scores = pairs.score_columns(start, min(start + CHUNK, len(pairs)))  # type: ignore[attr-defined]
        return rows.text(at, scores) if sink is None else rows.encoded(at, scores)

    for text in _ahead(chunk, range(head, len(pairs), CHUNK)):
        if isinstance(text, memoryview) and sink is not None:
            sink.write(text)
        else:
            out.write(text)  # type: ignore[arg-type]


def _ahead(make: Callable[[int], T], starts: range) -> Iterator[T]:
    """``make(start)`` for each of ``starts``, in order, made by threads
    (one per usable core, up to :data:`FORMATTERS`) while the caller writes
    the ones made: the compiled formatter and the writes release the GIL,
    so they overlap.  One chunk, or none, is made here."""
    if len(starts) < 2:
        yield from (make(start) for start in starts)
        return
    threads = max(1, min(FORMATTERS, usable_cores()))
    with ThreadPoolExecutor(threads, thread_name_prefix="winnow-csv") as pool:
        pending = deque(pool.submit(make, start) for start in starts[:threads])
        for following in starts[threads:]:
            done = pending.popleft().result()
            pending.append(pool.submit(make, following))
            yield done
        while pending:
            yield pending.popleft().result()


def _byte_sink(out: TextIO) -> BinaryIO | None:
    """The byte stream under ``out`` (flushed), when text written to ``out``
    would reach it as its UTF-8 bytes unchanged: a :class:`io.TextIOWrapper`
    in UTF-8 on a system whose lines end in ``\\n`` (``winnow``'s ``-o FILE``
    and standard output).  Rows written there skip a decode and an encode of
    every byte (a tenth of a second per 100 MB).  ``None`` otherwise."""
    if not isinstance(out, io.TextIOWrapper) or os.linesep != "\n":
        return None
    try:
        if codecs.lookup(out.encoding).name != "utf-8":
            return None
    except LookupError:
        return None
    out.flush()
    raw: BinaryIO = out.buffer
    return raw


def _field(name: str, terminal: bool) -> str:
    """``name`` as a CSV cell: inert for spreadsheets, quoted when needed."""
    cell = spreadsheet_safe(name)
    return _cell(safe(cell) if terminal else cell)


def _cell(text: str) -> str:
    """``text`` quoted as the CSV writer quotes, and also when it holds a carriage
    return (the writer's lines end in ``\\n`` alone, so it would leave a ``\\r`` bare)."""
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def micros(values: npt.NDArray[np.float64]) -> npt.NDArray[np.int64] | None:
    """``values`` in millionths, rounded as ``f"{v:.6f}"`` prints them, or
    ``None`` when one is negative, not finite or 1000 or more: by a compiled
    pass (:func:`winnow.reports._csv_kernel.fraction_micros`), the few
    fractions within 10^-6 of a half rounded by Python's formatting itself."""
    from winnow.reports._csv_kernel import fraction_micros

    values = np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty(values.shape[0], dtype=np.int64)
    ties = np.empty(values.shape[0], dtype=np.int64)
    n_ties = fraction_micros(values, out, ties)
    if n_ties < 0:
        return None
    for i in ties[:n_ties].tolist():
        out[i] = int(f"{float(values[i]):.6f}".replace(".", ""))
    return out


class _ScoreRows:
    """The CSV text of pairs without passages, from their score arrays, the
    cells of ``columns``: by the compiled writer
    (:mod:`winnow.reports._csv_kernel`), or line by line in Python when a
    name is not UTF-8 or a score out of its range."""

    def __init__(self, fields: list[str], cluster: npt.NDArray[np.int64],
                 columns: tuple[str, ...] = PAIR_COLUMNS) -> None:
        from winnow.reports._csv_kernel import (
            CLUSTER,
            EMPTY,
            FRACTION,
            NAME_A,
            NAME_B,
            SHARED,
            row_extra,
        )

        self.fields, self.cluster, self.columns = np.array(fields, dtype=object), cluster, columns
        #: the fractions written, each once, in the order of their cells
        self.fractions = [name for name in columns if name in _FRACTIONS]
        kinds = {"file_a": NAME_A, "file_b": NAME_B, "shared": SHARED, "cluster": CLUSTER,
                 **dict.fromkeys(PASSAGE_COLUMNS, EMPTY),
                 **{name: FRACTION + c for c, name in enumerate(self.fractions)}}
        self.layout = np.array([kinds[name] for name in columns], dtype=np.int64)
        self.extra = row_extra(self.layout)
        try:
            encoded = [field.encode("utf-8") for field in fields]
        except UnicodeEncodeError:  # a name with undecodable bytes (surrogates)
            self.names: npt.NDArray[np.uint8] | None = None
            return
        self.lengths = np.array([len(e) for e in encoded], dtype=np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(self.lengths)]).astype(np.int64)
        self.names = np.frombuffer(b"".join(encoded) or b"\0", dtype=np.uint8)

    def text(self, rows: npt.NDArray[np.int64], columns: dict[str, npt.NDArray[Any]]) -> str:
        """The CSV text of the pairs ``rows`` of the score ``columns``."""
        raw = self._compiled(rows, columns)
        if raw is None:
            return "".join(self._lines(rows, columns))
        return str(raw, "utf-8")

    def encoded(self, rows: npt.NDArray[np.int64],
                columns: dict[str, npt.NDArray[Any]]) -> memoryview:
        """:meth:`text` in UTF-8 (every name is UTF-8 here)."""
        raw = self._compiled(rows, columns)
        if raw is None:
            return memoryview("".join(self._lines(rows, columns)).encode("utf-8"))
        return raw

    def _lines(self, rows: npt.NDArray[np.int64],
               columns: dict[str, npt.NDArray[Any]]) -> list[str]:
        arrays = {name: column[rows] for name, column in columns.items()}
        a = arrays["a"].astype(np.int64, copy=False)
        b = arrays["b"].astype(np.int64, copy=False)
        same: npt.NDArray[np.int64] = np.where(
            (self.cluster[a] == self.cluster[b]) & (self.cluster[a] >= 0), self.cluster[a], -1)
        return _scores_only_lines(arrays, self.fields, same, self.columns)

    def _compiled(self, rows: npt.NDArray[np.int64],
                  columns: dict[str, npt.NDArray[Any]]) -> memoryview | None:
        """The rows' UTF-8 bytes by the compiled writer, or ``None`` when a name
        is not UTF-8 or a score is out of its range."""
        if self.names is None:
            return None
        micro = np.empty((len(self.fractions), rows.shape[0]), dtype=np.int64)
        for c, name in enumerate(self.fractions):
            scaled = micros(columns[name][rows])
            if scaled is None:
                return None
            micro[c] = scaled
        a = columns["a"][rows].astype(np.int64, copy=False)
        b = columns["b"][rows].astype(np.int64, copy=False)
        from winnow.reports._csv_kernel import score_rows

        size = self.extra * a.shape[0]
        size += int(self.lengths[a].sum()) if "file_a" in self.columns else 0
        size += int(self.lengths[b].sum()) if "file_b" in self.columns else 0
        raw = np.empty(size, dtype=np.uint8)
        end = score_rows(raw, self.names, self.offsets, a, b, micro,
                         columns["shared"][rows].astype(np.int64, copy=False), self.cluster,
                         self.layout)
        return memoryview(raw.data)[:end]


def _scores_only_lines(arrays: dict[str, npt.NDArray[Any]], fields: npt.NDArray[np.object_],
                       same: npt.NDArray[np.int64],
                       columns: tuple[str, ...] = PAIR_COLUMNS) -> list[str]:
    """CSV lines of pairs without passages (their passage cells empty), the
    cells of ``columns``, in Python."""
    n = arrays["a"].shape[0]
    cells: dict[str, list[str]] = {
        "file_a": fields[arrays["a"]].tolist(), "file_b": fields[arrays["b"]].tolist(),
        "shared": [str(value) for value in arrays["shared"].tolist()],
        "cluster": ["" if value < 0 else str(value) for value in same.tolist()],
        **{name: [f"{value:.6f}" for value in arrays[name].tolist()]
           for name in _FRACTIONS if name in columns},
        **dict.fromkeys(PASSAGE_COLUMNS, [""] * n),
    }
    return [_line(row) for row in zip(*(cells[name] for name in columns), strict=True)]


def _line(cells: Sequence[str]) -> str:
    """The CSV line of ``cells`` (each quoted as needed already); one empty cell
    is written ``""``, as the CSV writer writes it, so that it reads as a row."""
    return '""\n' if len(cells) == 1 and cells[0] == "" else ",".join(cells) + "\n"
