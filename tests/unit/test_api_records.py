"""``winnow.dedup_records`` (records held in memory, through ``winnow dedup``'s
pipeline) and ``dir(winnow)`` listing the lazily imported names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import winnow
from winnow.errors import InvalidConfig

BASE = ("def total(values):\n    acc = 0\n    for v in values:\n        acc += v * v\n"
        "    return acc\n\n") * 5
OTHER = ("The committee met on Tuesday to discuss the budget for the coming year; "
         "members asked for a breakdown of travel costs. ") * 4


def test_dir_lists_the_lazy_names_without_importing_them() -> None:
    names = dir(winnow)
    for lazy in ("compare", "compare_texts", "compare_paths", "dedup_records", "fingerprint"):
        assert lazy in names
    assert names == sorted(names) and "__version__" in names
    code = "import sys, winnow; dir(winnow); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_dedup_records_finds_copies_and_containment_by_id() -> None:
    records = {"a": BASE, "b": BASE + "print(total([1, 2]))\n", "c": OTHER,
               "d": BASE + OTHER * 3, "e": "short"}
    rows = winnow.dedup_records(records, k=10, t=20)
    assert {r.id for r in rows} == {"a", "b", "c", "d"}  # c: contained in d
    assert len({r.cluster for r in rows}) == 1
    kept = [r for r in rows if r.kept]
    assert len(kept) == 1 and rows[0] is kept[0]
    assert all(r.representative == kept[0].id and r.source == "<records>" for r in rows)
    assert {r.id: r.line for r in rows} == {"a": 1, "b": 2, "c": 3, "d": 4}
    assert next(r for r in rows if r.id == "b").similarity > 0.75  # 13 of 17 word pairs
    assert next(r for r in rows if r.id == "c").containment == 1.0
    assert winnow.dedup_records({"x": BASE, "y": OTHER}, k=10, t=20) == []


def test_dedup_records_matches_the_command_on_the_same_texts(tmp_path: Path) -> None:
    texts = [BASE, OTHER, BASE + "# end\n", OTHER + "Adjourned.", "unrelated words " * 9]
    rows = winnow.dedup_records(texts, k=10, t=20)
    assert sorted(r.id for r in rows) == ["0", "1", "2", "3"]
    src = tmp_path / "r.jsonl"
    src.write_text("".join(json.dumps({"id": str(i), "text": t}) + "\n"
                           for i, t in enumerate(texts)))
    exe = Path(sys.executable).with_name("winnow")
    run = subprocess.run([str(exe), "dedup", str(src), "--id-field", "id", "-k", "10", "-t",
                          "20", "-q", "-j", "1", "--format", "json"],
                         capture_output=True, text=True, check=True)
    command = json.loads(run.stdout)
    command = command if isinstance(command, list) else command.get("rows", command)
    assert sorted((r["id"], r["cluster"], r["kept"]) for r in command) == sorted(
        (r.id, r.cluster, r.kept) for r in rows)


def test_dedup_records_refuses_bad_settings() -> None:
    with pytest.raises(InvalidConfig, match="similarity"):
        winnow.dedup_records(["x", "y"], similarity=40)
