"""One rounding rule and one cluster numbering in every output of ``compare``."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

from tests.report_fixtures import build_result, program
from winnow.matching.model import ComparisonResult
from winnow.reports.html import write_report
from winnow.reports.json import write_json
from winnow.reports.numbers import cluster_number, percent
from winnow.reports.table import write_table
from winnow.reports.writers import write


def test_percent_rounds_down_at_the_shown_precision() -> None:
    assert percent(0.908, 1) == "90.8%" and percent(0.908) == "90%"
    assert percent(0.3099, 1) == "30.9%" and percent(0.31) == "31%"
    assert percent(0.29) == "29%"  # 0.29 * 100 is 28.999...: not 28
    assert percent(0.99996, 1) == "99.9%" and percent(1.0, 1) == "100.0%"
    assert percent(None) == "–" and percent(None, missing="-") == "-"
    assert cluster_number(0) == 1


def _result() -> ComparisonResult:
    subs = {n: {f"{n}.py": program(n, 30)} for n in "abc"}
    result = build_result(subs, [("a", "b", [("a.py", 1, 40, "b.py", 1, 40)]),
                                 ("b", "c", [("b.py", 1, 5, "c.py", 1, 5)])],
                          clusters=[["a", "b"]])
    pairs = (replace(result.pairs[0], similarity=0.908, coverage_a=0.999, coverage_b=0.309),
             *result.pairs[1:])
    return replace(result, pairs=pairs)


def test_table_csv_json_and_html_agree_on_numbers(tmp_path: Path) -> None:
    result = _result()
    table = io.StringIO()
    write_table(result, table)
    text = table.getvalue()
    assert "90.8%" in text and "a (99%)" in text and "b (30%)" in text
    assert "  1. a, b" in text
    out = io.StringIO()
    write(result, "csv", out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert rows[0]["similarity"] == "0.908000" and rows[0]["cluster"] == "1"
    assert rows[1]["cluster"] == ""
    data = io.StringIO()
    write_json(result, data)
    record = json.loads(data.getvalue())
    assert record["pairs"][0]["cluster"] == 1 and record["clusters"][0]["number"] == 1
    assert record["pairs"][0]["coverage_a"] == 0.999  # a fraction, as given
    page = write_report(result, tmp_path / "r.html").read_text()
    assert "<b>Cluster 1</b>" in page and "(99%)" in page and "(30%)" in page
    assert ">90%<" in page and "91%" not in page and "(100%)" not in page


def test_sif_shares_become_fractions_rounded_down() -> None:
    from winnow.reports.numbers import share

    assert share(0.52) == 0.52 and share(0.1234) == 0.1234 and share(0.0) == 0.0
    assert share(0.12349) == 0.1234 and share(0.29) == 0.29  # 0.29 is 0.28999...
    assert share(0.999967) == 0.9999 and share(1.0) == 1.0
    assert share(1.5) == 1.5  # sif's occurrence count can pass 1
