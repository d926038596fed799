"""Plain data shared by the pipeline stages: documents and their normalised streams.

One position convention everywhere: half-open spans ``[start, end)``.  Positions
in the *normalised stream* (unit indices) are mapped to byte offsets and 1-based
line numbers of the original file only at the edge, through :class:`Stream`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

import numpy as np
import numpy.typing as npt

Kind = Literal["text", "binary"]

#: A submission's part in a comparison: ``new``, a submission of this batch;
#: ``archive`` (``--archive``, earlier years), compared with new submissions
#: only, never with each other; ``base`` (``--base``), the starter code whose
#: fingerprints are never counted as shared.  Results hold ``new`` and
#: ``archive`` submissions only.
Role = Literal["new", "archive", "base"]


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range ``[start, end)``."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"span end {self.end} < start {self.start}")

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class Stream:
    """A front-end's output: code units for the engine and where each came from.

    ``units[i]`` is a byte or a token id; ``starts[i]`` and ``ends[i]`` are the
    ``[start, end)`` byte range of that unit in the original file, in order
    (``starts`` non-decreasing, except in the structural front-end's
    reordered streams).  ``labels`` optionally names each distinct unit
    value for display (``winnow tokens``).  ``literal_units``, from the code
    front-end when it collapsed literals, is the same stream with each literal
    (string, number, character) a unit of its own text: the second channel of
    ``winnow compare`` (docs/compare.md); ``None`` elsewhere.  ``repeats``
    ``(n, copies)``: the first ``n * copies`` units are ``copies`` copies of
    the first ``n`` under other ids (the structural front-end weighs its
    neutral tokens so); displays show them once.
    """

    units: npt.NDArray[np.integer]
    starts: npt.NDArray[np.int64]
    ends: npt.NDArray[np.int64]
    labels: dict[int, str] = field(default_factory=dict)
    literal_units: npt.NDArray[np.integer] | None = None
    repeats: tuple[int, int] = (0, 1)

    def __post_init__(self) -> None:
        n = self.units.shape[0]
        if self.starts.shape != (n,) or self.ends.shape != (n,):
            raise ValueError("units, starts and ends must have the same length")
        if self.literal_units is not None and self.literal_units.shape != (n,):
            raise ValueError("literal_units must have one entry per unit")

    def __len__(self) -> int:
        return int(self.units.shape[0])

    def shown(self, index: int) -> bool:
        """Whether unit ``index`` is shown: not a repeated copy (``repeats``)."""
        n, copies = self.repeats
        return not n <= index < n * copies

    def byte_span(self, units: Span) -> Span:
        """Bytes of the original covered by the units ``[units.start, units.end)``."""
        if len(units) == 0:
            at = int(self.starts[units.start]) if units.start < len(self) else 0
            return Span(at, at)
        # the structural front-end may reorder units: the bytes of all of them
        piece = slice(units.start, units.end)
        return Span(int(self.starts[piece].min()), int(self.ends[piece].max()))


@dataclass(frozen=True)
class Document:
    """One input file after sniffing and its front-end.

    ``name`` is the path as the user gave it (or the member path inside an
    archive); ``data`` the original bytes, which every span indexes.
    """

    name: str
    data: bytes
    kind: Kind
    frontend: str
    stream: Stream
    language: str | None = None
    encoding: str | None = None
    warnings: tuple[str, ...] = ()

    @cached_property
    def line_starts(self) -> npt.NDArray[np.int64]:
        """Byte offset at which each line starts (line 1 starts at 0)."""
        buf = np.frombuffer(self.data, dtype=np.uint8)
        newlines = np.flatnonzero(buf == ord("\n")).astype(np.int64) + 1
        return np.concatenate([np.zeros(1, dtype=np.int64), newlines])

    def line_of(self, offset: int) -> int:
        """The 1-based line holding byte ``offset``."""
        return int(np.searchsorted(self.line_starts, offset, side="right"))

    def lines_of(self, span: Span) -> tuple[int, int]:
        """First and last 1-based line touched by the byte span (inclusive)."""
        last = max(span.start, span.end - 1)
        return self.line_of(span.start), self.line_of(last)


@dataclass(frozen=True)
class Skipped:
    """Something left out (a file, a folder, a link ...) and why: by a walk, a
    read or a worker.  Plain data, so it crosses process boundaries (exceptions
    with extra constructor arguments do not)."""

    path: str
    reason: str
