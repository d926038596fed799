"""The HTML pair page says why a pair shows no passage, truthfully."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tests.report_fixtures import build_result, program
from winnow.reports.html import write_report


def test_a_computed_pair_without_passages_is_not_said_to_rank_below_top(
    tmp_path: Path,
) -> None:
    result = build_result(
        {"alice": {"a.py": program("a", 20)}, "bob": {"b.py": program("a", 20, 3)},
         "carol": {"c.py": program("c", 5, 900)}},
        [("alice", "bob", [("a.py", 3, 10, "b.py", 1, 8)]), ("alice", "carol", [])])
    pairs = [dataclasses.replace(p, passages_computed=True, coverage_a=0.0, coverage_b=0.0,
                                 lines_a=0, lines_b=0, longest=0)
             if p.b == "carol" else p for p in result.pairs]
    page = write_report(dataclasses.replace(result, pairs=tuple(pairs)),
                        tmp_path / "r.html").read_text()
    assert 'id="pair-2"' in page
    assert "No passage was found for this pair" in page
    assert "ranks below" not in page
