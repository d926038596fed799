"""Names that a spreadsheet would run as formulas are written inert in every CSV."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from tests.hostile.cli_helpers import make_class, winnow

FORMULAS = ("=HYPERLINK(\"x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx")


@pytest.mark.parametrize("name", FORMULAS)
def test_compare_csv_escapes_a_name_that_is_a_formula(name: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    klass = make_class(tmp_path)
    monkeypatch.chdir(klass)
    os.rename("bob", name)
    result = winnow("compare", "-q", "-j", "1", "--format", "csv", "--", "alice", name, "carol")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout_bytes.decode(), newline="")))
    names = {row[key] for row in rows for key in ("file_a", "file_b")}
    assert "'" + name in names
    assert not any(cell[:1] in "=+-@\t\r" for cell in names)
    scores = {(row["file_a"], row["file_b"]): row["similarity"] for row in rows}
    plain = winnow("compare", "-q", "-j", "1", "--format", "json", "--", "alice", name, "carol")
    assert len(scores) == len(json.loads(plain.stdout)["pairs"])


def test_dedup_csv_escapes_ids_that_are_formulas(tmp_path: Path) -> None:
    text = "the quick brown fox jumps over the lazy dog again and again and again"
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": name, "text": text}) + "\n"
                            for name in FORMULAS))
    result = winnow("dedup", "-q", str(data), "--id-field", "id", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout_bytes.decode(), newline="")))
    assert {row["id"] for row in rows} == {"'" + name for name in FORMULAS}
    for row in rows:
        for key in ("id", "representative", "match"):
            assert row[key][:1] == "'"
