"""Passages hold the evidence the scores count, and count only what they hold."""

from __future__ import annotations

from winnow.api import compare_texts
from winnow.matching import CompareOptions

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


def _pair(**options: object) -> tuple[object, ...]:
    result = compare_texts({"one.java": ONE, "two.java": TWO}, base={"Greet.java": HANDOUT},
                           options=CompareOptions(**options))  # type: ignore[arg-type]
    (pair,) = result.pairs
    return pair, result


def test_every_shared_fingerprint_lies_in_a_passage_with_starter_code() -> None:
    pair, _ = _pair()
    assert pair.shared > 0
    assert sum(p.fingerprints for p in pair.passages) == pair.shared
    # the loop header after the handout's `main(...) {` is shared and not
    # starter code: the passage starts on its line, not after it
    assert pair.passages[0].a.lines[0] == 2
    assert pair.coverage_a >= pair.containment_a


def test_a_passage_counts_no_more_fingerprints_than_fit_in_it() -> None:
    # two channels: k = 10 (tokens) and k = 6 (literals kept)
    for base in (True, False):
        result = compare_texts({"one.java": ONE, "two.java": TWO},
                               base={"Greet.java": HANDOUT} if base else None)
        for passage in result.pairs[0].passages:
            span = passage.a.units.end - passage.a.units.start
            assert 0 < passage.fingerprints <= max(0, span - 9) + max(0, span - 5)
