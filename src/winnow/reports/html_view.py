"""What the HTML report shows, computed from a :class:`ComparisonResult`.

Pure data for the templates: names (real or pseudonyms), rounded percentages, and for
each side of a pair the file's lines cut into *blocks*: runs of consecutive lines
covered by the same set of passages.  A block is rendered as one element carrying the
indices of its passages (``data-p``), so the browser can find a passage's counterpart
in the other pane without any per-line markup.  Text stays plain ``str``: escaping is
the template engine's job (autoescape on).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from winnow.matching.model import (
    ComparisonResult,
    FileKey,
    PairResult,
    Passage,
    Region,
    Submission,
)
from winnow.reports import numbers
from winnow.reports.anonymize import known_files, pseudonyms_of

#: Number of distinct passage colours (``c0`` ... ``c11`` in the stylesheet).
COLOURS = 12
#: Files longer than this many lines show only the passages with some context.
FULL_FILE_LINES = 3000
#: Lines of context kept around passages in long files.
CONTEXT_LINES = 25
#: Characters of one line shown before it is cut (minified files).
MAX_LINE_CHARS = 1000


@dataclass(frozen=True, slots=True)
class Block:
    """Lines ``first..last`` (1-based, inclusive) of a file, or a gap of ``elided`` lines.

    ``passages`` are the indices of the passages covering these lines (smallest first);
    ``colour`` the colour class of the first, ``None`` for unmatched lines.
    """

    first: int
    last: int
    text: str
    gutter: str
    passages: tuple[int, ...]
    colour: int | None
    elided: int = 0

    @property
    def title(self) -> str:
        """Tooltip naming the passages as people count them (from 1)."""
        return "passage " + ", ".join(f"#{p + 1}" for p in self.passages)

    @property
    def data_p(self) -> str:
        """The ``data-p`` attribute value: passage indices separated by spaces."""
        return " ".join(str(p) for p in self.passages)


@dataclass(frozen=True, slots=True)
class FileView:
    """One file of one side of a pair: its display name and its blocks."""

    name: str
    lines: int
    blocks: tuple[Block, ...]
    note: str | None = None


@dataclass(frozen=True, slots=True)
class SideView:
    """One pane: a submission's matched files, and the names of its other files."""

    name: str
    percent: str
    files: tuple[FileView, ...]
    other_files: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PassageRow:
    """One line of a pair's passage table."""

    index: int
    colour: int
    a_file: str
    a_lines: str
    b_file: str
    b_lines: str
    length: int
    fingerprints: int
    #: The unmatched stretches the passage was joined across, as lines of a / of b.
    gaps: str = ""


@dataclass(frozen=True, slots=True)
class PairRow:
    """One row of the overview table (and the header of a pair's own view)."""

    rank: int
    a: str
    b: str
    percent_a: str
    percent_b: str
    lines: str
    similarity: str
    similarity_value: float
    shared: int
    longest: str
    computed: bool
    href: str
    anchor: str
    a_archive: bool = False
    b_archive: bool = False
    cluster: int | None = None
    lines_value: int = -1

    @property
    def row_anchor(self) -> str:
        """The ``id`` of this pair's row in the overview table."""
        return f"row-{self.rank}"


@dataclass(frozen=True, slots=True)
class PairView:
    """Everything a pair's side-by-side view shows."""

    row: PairRow
    scores: tuple[tuple[str, str], ...]
    passages: tuple[PassageRow, ...]
    side_a: SideView
    side_b: SideView
    back: str = ""
    prev: str | None = None
    next: str | None = None


def percent(value: float | None) -> str:
    """A fraction as a whole percentage, rounded down (100 % only when complete;
    :func:`winnow.reports.numbers.percent`, the rule of every output)."""
    return numbers.percent(value)


class Namer:
    """Display names: as given, or stable pseudonyms with ``--anonymize``."""

    def __init__(self, result: ComparisonResult, anonymize: bool, key: bytes | None) -> None:
        self._subs: Mapping[str, Submission] = {s.name: s for s in result.submissions}
        self._pseudo = pseudonyms_of(result, key) if anonymize else None
        self._files = known_files(result) if anonymize else {}

    @property
    def anonymized(self) -> bool:
        """Whether names are replaced."""
        return self._pseudo is not None

    def is_archive(self, name: str) -> bool:
        """Whether ``name`` comes from ``--archive`` (earlier years)."""
        sub = self._subs.get(name)
        return sub is not None and sub.role == "archive"

    def submission(self, name: str) -> str:
        """How submission ``name`` is shown (:func:`visible_name` of it)."""
        return visible_name(name) if self._pseudo is None else self._pseudo.submission(name)

    def file(self, submission: str, path: str) -> str:
        """How file ``path`` of ``submission`` is shown (:func:`visible_name` of it)."""
        if self._pseudo is None:
            return visible_name(path)
        return self._pseudo.file(submission, path, self._files.get(submission, [path]))


#: Unicode bidirectional controls: inside code they can make the text a reader
#: sees differ from what a compiler reads ("Trojan Source", CVE-2021-42574).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

#: Characters a browser could show as a line break (or drop) inside ``<pre>``, shown as
#: visible symbols instead so the line numbers stay aligned with the text; and the
#: bidirectional controls, shown by name (``⟦U+202E⟧``) instead of reordering the line.
_VISIBLE = str.maketrans({"\r": "\u240d", "\x0b": "\u240b", "\x0c": "\u240c",
                          "\x85": "\u2424", "\u2028": "\u2424", "\u2029": "\u2424",
                          "\x00": "\u2400",
                          **{c: f"\u27e6U+{ord(c):04X}\u27e7" for c in BIDI_CONTROLS}})


_INVISIBLE = re.compile("[" + "".join(chr(c) for c in _VISIBLE) + "]")

#: Other control characters (C0, DEL, C1) in a name, shown as ``⟦U+001B⟧``.
_NAME_CONTROLS = str.maketrans({c: f"\u27e6U+{c:04X}\u27e7"
                                for c in [*range(0x20), *range(0x7f, 0xa0)]})


def visible_name(name: str) -> str:
    """A file or submission name as the report shows it: bidirectional controls by
    name as in the code view (``\u202efdp.py`` must not read as ``py.pdf``), and
    every other control character too (HTML escaping is the template's)."""
    return name.translate(_VISIBLE).translate(_NAME_CONTROLS)

#: Lines of each file already split, shared by the pairs of one report.
LineCache = dict[FileKey, list[str]]


def split_lines(text: str) -> list[str]:
    """Lines as :meth:`Document.line_of` counts them (``\\n`` only), without ends."""
    text = text.replace("\r\n", "\n")
    if _INVISIBLE.search(text):
        text = text.translate(_VISIBLE)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if lines and max(map(len, lines)) > MAX_LINE_CHARS:
        lines = [line if len(line) <= MAX_LINE_CHARS else
                 line[:MAX_LINE_CHARS] + f" … [{len(line) - MAX_LINE_CHARS} more characters]"
                 for line in lines]
    return lines


def _segments(
    n_lines: int, ranges: Sequence[tuple[int, int, int]]
) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """Cut lines ``1..n_lines`` at every passage boundary: ``(first, last, passages)``.

    ``ranges`` are ``(passage, first, last)`` with inclusive 1-based lines.
    """
    starts: dict[int, list[int]] = {}
    ends: dict[int, list[int]] = {}
    for index, first, last in ranges:
        first, last = max(1, first), min(n_lines, last)
        if first <= last:
            starts.setdefault(first, []).append(index)
            ends.setdefault(last + 1, []).append(index)
    cuts = sorted({1, n_lines + 1, *starts, *ends})
    active: set[int] = set()
    for lo, hi in itertools.pairwise(cuts):
        active.difference_update(ends.get(lo, ()))
        active.update(starts.get(lo, ()))
        yield lo, hi - 1, tuple(sorted(active))


def _block(lines: Sequence[str], first: int, last: int, passages: tuple[int, ...]) -> Block:
    return Block(first, last, "\n".join(lines[first - 1:last]),
                 "\n".join(str(n) for n in range(first, last + 1)), passages,
                 passages[0] % COLOURS if passages else None)


def blocks(lines: Sequence[str], ranges: Sequence[tuple[int, int, int]]) -> tuple[Block, ...]:
    """The blocks of a file with ``ranges`` ``(passage, first, last)`` highlighted.

    Files over :data:`FULL_FILE_LINES` lines keep only :data:`CONTEXT_LINES` of
    unmatched context around passages; longer unmatched stretches become gaps.
    """
    n = len(lines)
    out: list[Block] = []
    elide = n > FULL_FILE_LINES
    for first, last, passages in _segments(n, ranges):
        if passages or not elide or last - first + 1 <= 2 * CONTEXT_LINES + 1:
            out.append(_block(lines, first, last, passages))
            continue
        head = first + CONTEXT_LINES - 1 if first > 1 else first - 1
        tail = last - CONTEXT_LINES + 1 if last < n else last + 1
        if head >= first:
            out.append(_block(lines, first, head, ()))
        out.append(Block(head + 1, tail - 1, "", "", (), None, elided=tail - 1 - head))
        if tail <= last:
            out.append(_block(lines, tail, last, ()))
    return tuple(out)


def _file_view(result: ComparisonResult, namer: Namer, submission: str, path: str,
               ranges: Sequence[tuple[int, int, int]], cache: LineCache) -> FileView:
    name = namer.file(submission, path)
    try:
        doc = result.document(submission, path)
    except KeyError:
        return FileView(name, 0, (), "original text not available")
    if doc.kind == "binary":
        return FileView(name, 0, (), f"binary file ({len(doc.data)} bytes), not shown")
    lines = cache.get((submission, path))
    if lines is None:
        lines = cache[(submission, path)] = split_lines(result.text(submission, path))
    return FileView(name, len(lines), blocks(lines, ranges))


def _side(result: ComparisonResult, namer: Namer, submission: str, coverage: float | None,
          regions: Sequence[tuple[int, Region]], cache: LineCache) -> SideView:
    by_file: dict[str, list[tuple[int, int, int]]] = {}
    for index, region in regions:
        by_file.setdefault(region.file, []).append((index, *region.lines))
    try:
        order = [f.path for f in result.submission(submission).files]
    except KeyError:
        order = []
    matched = [p for p in order if p in by_file] + sorted(set(by_file) - set(order))
    files = tuple(_file_view(result, namer, submission, p, by_file[p], cache) for p in matched)
    others = tuple(namer.file(submission, p) for p in order if p not in by_file)
    return SideView(namer.submission(submission), percent(coverage), files, others)


def _lines(region: Region) -> str:
    first, last = region.lines
    return str(first) if first == last else f"{first}–{last}"


def _passage_row(namer: Namer, pair: PairResult, passage: Passage) -> PassageRow:
    return PassageRow(passage.index, passage.index % COLOURS,
                      namer.file(pair.a, passage.a.file), _lines(passage.a),
                      namer.file(pair.b, passage.b.file), _lines(passage.b),
                      passage.length, passage.fingerprints, _gaps(passage))


def _gaps(passage: Passage) -> str:
    """``passage``'s gaps for the passage table: ``a-lines / b-lines`` each
    (``–`` on a side where nothing was inserted), or empty."""
    def side(region: Region) -> str:
        return "–" if region.units.start == region.units.end else _lines(region)
    return "; ".join(f"{side(a)} / {side(b)}" for a, b in passage.gaps)


def pair_row(namer: Namer, pair: PairResult, rank: int, single_file: bool) -> PairRow:
    """The overview row of the pair ranked ``rank`` (1-based)."""
    if pair.lines_a is None or pair.lines_b is None:
        lines = "–"
    else:
        lines = str(pair.lines_a) if pair.lines_a == pair.lines_b else (
            f"{pair.lines_a} / {pair.lines_b}")
    anchor = f"pair-{rank}"
    href = f"#{anchor}" if single_file else f"pairs/{anchor}.html"
    return PairRow(rank, namer.submission(pair.a), namer.submission(pair.b),
                   percent(pair.coverage_a), percent(pair.coverage_b), lines,
                   percent(pair.similarity), min(1.0, max(0.0, pair.similarity)), pair.shared,
                   "–" if pair.longest is None else str(pair.longest),
                   pair.passages_computed, href, anchor,
                   namer.is_archive(pair.a), namer.is_archive(pair.b),
                   lines_value=max(pair.lines_a or 0, pair.lines_b or 0)
                   if pair.lines_a is not None or pair.lines_b is not None else -1)


def _scores(pair: PairResult) -> tuple[tuple[str, str], ...]:
    return (
        ("similarity (what the passages cover)", f"{pair.similarity:.3f}"),
        ("score (orders the pairs)", f"{pair.score:.3f}"),
        ("shared fingerprints", str(pair.shared)),
        ("containment a in b", f"{pair.containment_a:.3f}"),
        ("containment b in a", f"{pair.containment_b:.3f}"),
        ("resemblance (Jaccard)", f"{pair.jaccard:.3f}"),
        ("IDF-weighted overlap", f"{pair.weighted:.3f}"),
        ("rarity of shared fragments", f"{pair.rarity:.3f}"),
        ("longest passage (units)", "–" if pair.longest is None else str(pair.longest)),
    )


def pair_view(result: ComparisonResult, namer: Namer, pair: PairResult, rank: int,
              single_file: bool, cache: LineCache | None = None) -> PairView:
    """The side-by-side view of one pair (``cache`` keeps split files between pairs)."""
    cache = {} if cache is None else cache
    passages = sorted(pair.passages, key=lambda p: p.index)
    return PairView(
        pair_row(namer, pair, rank, single_file),
        _scores(pair),
        tuple(_passage_row(namer, pair, p) for p in passages),
        _side(result, namer, pair.a, pair.coverage_a, [(p.index, p.a) for p in passages], cache),
        _side(result, namer, pair.b, pair.coverage_b, [(p.index, p.b) for p in passages], cache),
    )
