"""A real file and a copy with renamed identifiers and new layout share their passage.

Fingerprints (winnowing, k=12, t=20) of the two code streams are intersected,
and the shared k-grams are mapped back through the front-end's offsets to
1-based lines of each original file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import winnow
from winnow.frontends import read_document
from winnow.model import Document, Span

FIXTURES = Path(__file__).parent.parent / "fixtures" / "frontends"
K, T = 12, 20


def matched_lines(doc: Document, other: Document) -> set[int]:
    """Lines of ``doc`` covered by k-grams whose fingerprint ``other`` shares."""
    mine = winnow.select_fingerprints(winnow.kgram_hashes(doc.stream.units, K), T - K + 1,
                                      "winnow")
    theirs = winnow.select_fingerprints(winnow.kgram_hashes(other.stream.units, K), T - K + 1,
                                        "winnow")
    shared = np.isin(mine["hash"], theirs["hash"])
    lines: set[int] = set()
    for pos in mine["pos"][shared].tolist():
        first, last = doc.lines_of(doc.stream.byte_span(Span(pos, pos + K)))
        lines.update(range(first, last + 1))
    return lines


@pytest.mark.parametrize(
    ("original", "copy", "language", "passage_a", "passage_b", "extra_a", "extra_b"),
    [
        # reorder_report (lines 11-25) copied as make_listing (lines 11-25)
        ("original.py", "copied.py", "python", (11, 25), (11, 25), set(), set()),
        # runningBalance (14-24) copied as balances (11-24, braces on their own lines)
        ("Original.java", "Copied.java", "java", (14, 24), (11, 24), set(), set()),
        # insert_sorted (10-27) copied as add (9-18); the struct (4-7) was copied too
        ("original.c", "copied.c", "c", (10, 27), (9, 18), {4, 5, 6, 7}, {4}),
    ],
)
def test_shared_passage_maps_back_to_the_right_lines(
    original: str, copy: str, language: str, passage_a: tuple[int, int],
    passage_b: tuple[int, int], extra_a: set[int], extra_b: set[int],
) -> None:
    a = read_document(FIXTURES / original)
    b = read_document(FIXTURES / copy)
    assert a.language == b.language == language
    lines_a, lines_b = matched_lines(a, b), matched_lines(b, a)
    span_a = set(range(passage_a[0], passage_a[1] + 1))
    span_b = set(range(passage_b[0], passage_b[1] + 1))
    # Nothing outside the copied code matches ...
    assert lines_a <= span_a | extra_a
    assert lines_b <= span_b | extra_b
    # ... and the copied code matches from its first line to its last (k=12
    # tokens may leave a trailing closing brace uncovered).
    assert min(lines_a & span_a) == passage_a[0]
    assert max(lines_a & span_a) >= passage_a[1] - 1
    assert min(lines_b & span_b) == passage_b[0]
    assert len(lines_b & span_b) >= 0.8 * len(span_b)


def test_unrelated_files_share_nothing() -> None:
    a = read_document(FIXTURES / "original.py")
    b = read_document(FIXTURES / "original.c")
    assert matched_lines(a, b) == set()
