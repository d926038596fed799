"""Submissions with hostile names: not UTF-8, terminal escapes, markup, formulas.

Every output must be written (no crash), name them recognisably, and never pass a
terminal escape or markup through.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from winnow.cli.main import main

PROGRAM = "".join(
    f"def step_{i}(values, bound):\n"
    f"    total = {i}\n"
    f"    for item in values:\n"
    f"        if item > bound:\n"
    f"            total += item * {i}\n"
    f"    return total\n\n" for i in range(12)
)
LATIN1 = os.fsdecode(b"caf\xe9")  # a folder name that is not UTF-8 (Latin-1 e-acute)
ESCAPE = "\x1b[31mred\x1b[0m"


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    root = tmp_path / "subs"
    for name in (LATIN1, ESCAPE, "=HYPERLINK(x)", "plain"):
        folder = root / name
        folder.mkdir(parents=True)
        (folder / f"{name}.py").write_text(PROGRAM)
    return root


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["compare", "-j", "1", "-q", *args])


@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv", "table"])
def test_every_format_writes_non_utf8_and_escape_names(batch: Path, tmp_path: Path,
                                                       fmt: str) -> None:
    out = tmp_path / f"out.{fmt}"
    result = run("--each", str(batch), "--format", fmt, "-o", str(out))
    assert result.exit_code == 0, result.output + result.stderr
    text = out.read_text(encoding="utf-8")  # valid UTF-8
    assert "caf\\xe9" in (text.replace("\\\\", "\\") if fmt.startswith("json") else text)
    if fmt == "json":
        data = json.loads(text)
        assert any(s["name"].endswith("caf\\xe9") for s in data["submissions"])
        assert any(f["path"] == "caf\\xe9.py" for s in data["submissions"] for f in s["files"])
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(text)))
        assert len(rows) == 1 + 6 and all(len(r) == len(rows[0]) for r in rows)
    if fmt == "table":
        assert "\x1b" not in text


def test_html_report_with_non_utf8_names(batch: Path, tmp_path: Path) -> None:
    for report in (tmp_path / "one.html", tmp_path / "folder"):
        for extra in (["--anonymize"], []):
            result = run("--each", str(batch), "--report", str(report), "--format", "csv",
                         *extra)
            assert result.exit_code == 0, result.output + result.stderr
    page = (tmp_path / "one.html").read_text(encoding="utf-8")
    assert "caf\\xe9" in page


@pytest.mark.parametrize("command", ["fingerprint", "tokens", "compare"])
def test_terminal_escapes_in_names_never_reach_the_terminal(tmp_path: Path,
                                                             command: str) -> None:
    evil = tmp_path / f"{ESCAPE}\nfake.py"
    evil.write_text(PROGRAM)
    missing = tmp_path / f"gone{ESCAPE}.py"
    result = CliRunner().invoke(main, [command, str(evil), str(missing)],
                                color=True)  # as on a terminal: click keeps escapes
    assert result.exit_code == 1, result.output
    assert "red" in result.stdout + result.stderr and "gone" in result.stderr
    assert "\x1b" not in result.stdout and "\x1b" not in result.stderr
