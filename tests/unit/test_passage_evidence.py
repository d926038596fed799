"""Passages hold the evidence the scores count, and count only what they hold."""

from __future__ import annotations

from typing import Any

import pytest

from winnow.api import compare_texts
from winnow.matching import CompareOptions, ComparisonResult, PairResult
from winnow.reports.records import passage_record, region_record

HANDOUT = """public class Greet {
    public static void main(String[] args) {
        System.out.println("Hello there");
        System.out.println("Hello there");
        System.out.println("Hello there");
    }
}
"""

ONE = """public class Greet {
    public static void main(String[] args){
        for(int i = 0; i < 3; i++){
            System.out.println("Hello There");
        }
    }
}
"""

TWO = """// my own version
public class Greet {

    public static void main(String[] args) {
        for (int i = 0; i < 3; i++) {
            System.out.println("Hello There");
        }
    }
}
"""


def _pair(**options: Any) -> tuple[PairResult, ComparisonResult]:
    result = compare_texts({"one.java": ONE, "two.java": TWO}, base={"Greet.java": HANDOUT},
                           options=CompareOptions(**options))
    (pair,) = result.pairs
    return pair, result


def test_passages_count_only_their_own_fingerprints_and_the_shown_share() -> None:
    pair, _ = _pair()
    assert pair.shared > 0
    # k-grams that join the handout's `main(...) {` to the loop are not starter
    # code and are counted, but the passage leaves the handout's lines out
    assert 0 < sum(p.fingerprints for p in pair.passages) < pair.shared
    assert pair.passages[0].a.lines[0] == 3
    assert pair.similarity <= max(pair.coverage_a, pair.coverage_b)


def test_a_passage_counts_no_more_fingerprints_than_fit_in_it() -> None:
    # two channels: k = 10 (tokens) and k = 6 (literals kept)
    for base in (True, False):
        result = compare_texts({"one.java": ONE, "two.java": TWO},
                               base={"Greet.java": HANDOUT} if base else None)
        for passage in result.pairs[0].passages:
            span = passage.a.units.end - passage.a.units.start
            assert 0 < passage.fingerprints <= max(0, span - 9) + max(0, span - 5)


STATS = """def mean(values):
    total = 0
    for v in values:
        total += v
    return total / len(values)


def spread(values):
    m = mean(values)
    return max(abs(v - m) for v in values)


print(mean([1, 2, 3]), spread([4, 5, 6]))
"""

RENAMED = STATS.replace("values", "xs").replace("total", "acc").replace("spread", "width") + """

def histogram(xs, bins=10):
    low, high = min(xs), max(xs)
    counts = [0] * bins
    for x in xs:
        counts[min(bins - 1, int((x - low) / (high - low or 1) * bins))] += 1
    return counts
"""

UNRELATED = """import sys

for line in sys.stdin:
    words = line.split()
    if words and words[0] == "quit":
        break
    print(len(words), sorted(words))
"""


def test_an_unrelated_submission_or_notes_leave_the_pair_as_it_was() -> None:
    pair = {"a.py": STATS, "b.py": RENAMED}
    notes = {f"note{i}.txt": f"Remember to bring the lab book on day {i}." * 5
             for i in range(5)}
    alone = compare_texts(pair)
    more = compare_texts({**pair, "c.py": UNRELATED, "notes": notes})
    first = next(p for p in alone.pairs if {p.a, p.b} == {"a.py", "b.py"})
    again = next(p for p in more.pairs if {p.a, p.b} == {"a.py", "b.py"})
    assert first.similarity == again.similarity and first.passages == again.passages
    assert (first.coverage_a, first.coverage_b) == (again.coverage_a, again.coverage_b)
    # only the rarity term of the score may move: idf depends on the class size
    assert first.shared == again.shared and first.containment_a == again.containment_a


def test_the_worked_example_of_docs_compare() -> None:
    """docs/compare.md, "Worked example": the README's three files."""
    result = compare_texts({
        "alice": "def mean(xs):\n    total = 0\n    for x in xs:\n        total += x\n"
                 "    return total / len(xs)\n\nprint(mean([1, 2, 3]))\n",
        "bob": "def average(values):\n    s = 0\n    for v in values:\n        s += v\n"
               "    return s / len(values)\n\nprint(average([4, 5, 6]))\n",
        "carol": "import statistics\n\nprint(statistics.mean([1, 2, 3]))\n",
    }, frontend="code", lang="python")
    units = {s.name: s.units for s in result.submissions}
    assert (units["alice"], units["carol"]) == (37, 17)
    pairs = {(p.a, p.b): p for p in result.pairs}
    carol = pairs[("alice", "carol")]
    (passage,) = carol.passages
    assert result.passage_text(carol, passage) == ("mean([1, 2, 3]))", "mean([1, 2, 3]))")
    assert passage.length == 11
    assert (carol.coverage_a, carol.coverage_b) == (11 / 37, 11 / 17)
    share_a, share_b = (11 + 11) / (37 + 37), (11 + 11) / (17 + 17)
    assert carol.similarity == pytest.approx(((share_a ** 4 + share_b ** 4) / 2) ** 0.25)
    assert round(carol.similarity, 3) == 0.550 and round(2 * 22 / (74 + 34), 2) == 0.41
    bob = pairs[("alice", "bob")]
    assert (bob.coverage_a, bob.coverage_b) == (1.0, 1.0)
    assert bob.similarity == pytest.approx((37 + 29) / 74) and round(bob.similarity, 3) == 0.892
    assert [(p.a, p.b) for p in result.pairs][:2] == [("alice", "bob"), ("alice", "carol")]
    assert (round(bob.score, 3), round(carol.score, 3)) == (0.844, 0.274)


AREA = """def area(w, h):
    if w < 0 or h < 0:
        raise ValueError('negative size')
    result = w * h
    return result


def perimeter(w, h):
    total = 2 * (w + h)
    return total
"""


def test_a_short_insertion_joins_one_passage_and_is_shown_as_a_gap() -> None:
    copy = AREA.replace("    result = w * h\n", "    log(w)\n    result = w * h\n")
    result = compare_texts({"a.py": AREA, "b.py": copy})
    (pair,) = result.pairs
    (passage,) = pair.passages
    (gap,) = passage.gaps
    in_a, in_b = gap
    assert in_a.units.start == in_a.units.end  # nothing inserted in a
    assert "log(w" in result.region_text("b.py", in_b)
    assert passage.length == passage.a.units.end - passage.a.units.start
    assert passage.length < passage.b.units.end - passage.b.units.start
    assert pair.coverage_b == 1.0  # the joined passage counts, its gap included
    record = passage_record(passage)
    assert record["gaps"] == [{"a": region_record(in_a), "b": region_record(in_b)}]
