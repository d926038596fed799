"""Measurement history lives in ``benchmarks/<benchmark>.results.md``, newest entry first."""

from __future__ import annotations

import importlib.util
import itertools
import re
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
RESULTS = sorted(BENCHMARKS.glob("*.results.md"))
WHEN = re.compile(r"^## (\d{4}-\d\d-\d\d)(?:\D{0,3}(\d\d:\d\d) UTC)?", re.MULTILINE)


def load_history() -> ModuleType:
    spec = importlib.util.spec_from_file_location("history", BENCHMARKS / "history.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_results_files_follow_one_naming() -> None:
    odd = [p.name for p in BENCHMARKS.iterdir()
           if p.is_file() and "result" in p.name and not p.name.endswith(".results.md")]
    assert not odd, f"name measurement history <benchmark>.results.md: {odd}"
    assert RESULTS


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: p.name)
def test_results_files_put_the_newest_entry_first(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ") and "Newest first" in text.split("\n## ")[0]
    when = [(day, time or "") for day, time in WHEN.findall(text)]
    days = [day for day, _ in when]
    assert days == sorted(days, reverse=True), f"{path.name}: entries out of order {days}"
    for (day_a, time_a), (day_b, time_b) in itertools.pairwise(when):
        if day_a == day_b and time_a and time_b:
            assert time_a >= time_b, f"{path.name}: {day_a} {time_a} above {time_b}"


def test_record_inserts_above_the_newest_entry(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    history = load_history()
    monkeypatch.setattr(history, "HERE", tmp_path)
    path = history.record("demo", "2026-01-01 10:00 UTC", "first run")
    assert path == tmp_path / "demo.results.md"
    history.record("demo", "2026-01-02 09:00 UTC", "second run")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# benchmarks/demo.py results\n\nNewest first.\n\n## 2026-01-02")
    assert text.index("second run") < text.index("## 2026-01-01") < text.index("first run")
    assert text.endswith("first run\n")
