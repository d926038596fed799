"""The -m cap as a share of the class, and the code many submissions share."""

from __future__ import annotations

import random

import pytest

from tests.report_fixtures import student_function
from winnow.api import compare_texts
from winnow.matching import CompareOptions
from winnow.matching.common import many_threshold
from winnow.pairs.counting import resolve_cap


def test_the_cap_is_a_count_or_a_share_of_the_class() -> None:
    assert resolve_cap(10, 300) == 10 and resolve_cap(0, 300) == 300
    assert resolve_cap(0.25, 9) == 3 and resolve_cap(1 / 3, 30) == 10
    assert resolve_cap(0.01, 9) == 2  # never below 2: pairs must survive
    # the default: 40 % of the class, at least 10, at most 200 -- never
    # below a third of a class of up to 600
    assert [resolve_cap(None, n) for n in (2, 9, 25, 30, 300, 755, 5000)] == [
        10, 10, 10, 12, 120, 200, 200]
    assert all(resolve_cap(None, n) >= n / 3 for n in range(1, 601))
    assert [many_threshold(n) for n in (2, 9, 12, 300)] == [3, 3, 3, 75]


def _class() -> dict[str, str]:
    solution = "\n\n".join(student_function(random.Random(99), f"solve_{i}") for i in range(5))
    texts = {}
    for i in range(9):
        own = "\n\n".join(student_function(random.Random(i), f"own_{i}_{j}") for j in range(3))
        texts[f"s{i}.py"] = own + "\n\n" + solution + "\n" if i % 3 == 0 else own + "\n"
    return texts


def test_a_solution_a_third_of_the_class_shares_is_evidence_and_is_listed() -> None:
    result = compare_texts(_class())
    first = result.shared_code[0]
    assert sorted(first.submissions) == ["s0.py", "s3.py", "s6.py"] and not first.ignored
    assert "def solve_1" in result.region_text(first.submissions[0], first.region)
    top = {(p.a, p.b) for p in result.pairs[:3]}
    assert top == {("s0.py", "s3.py"), ("s0.py", "s6.py"), ("s3.py", "s6.py")}
    # a count below the group hides it from the scores, and says so
    capped = compare_texts(_class(), options=CompareOptions(max_occurrences=2))
    assert capped.shared_code[0].ignored
    assert all(p.score < 0.5 for p in capped.pairs)


def test_common_as_base_makes_the_shared_solution_starter_code() -> None:
    plain = compare_texts(_class())
    based = compare_texts(_class(), options=CompareOptions(common_as_base=True))
    assert based.shared_code and all(c.as_base for c in based.shared_code)
    before = {(p.a, p.b): p for p in plain.pairs}
    after = {(p.a, p.b): p for p in based.pairs}
    pair = ("s0.py", "s3.py")
    assert before[pair].similarity > 0.5
    assert pair not in after or after[pair].similarity < 0.5 * before[pair].similarity
    with pytest.raises(KeyError):
        based.region_text("nobody", based.shared_code[0].region)
