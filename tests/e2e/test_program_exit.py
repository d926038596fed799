"""The ``winnow`` program as users run it (``python -m winnow``): what it prints
when it ends, beyond its results."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "python" / "submissions"


def winnow(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "winnow", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=240, check=False)


@pytest.mark.parametrize("command", [
    ["index", str(SAMPLE), "--db", "s.db", "-q"],
    ["query", str(SAMPLE / "alice" / "textstats.py"), "--db", "s.db"],
    ["groups", "--db", "s.db"],
    ["compare", "--each", str(SAMPLE), "-q", "-n", "3"],
])
def test_the_program_ends_without_reports_of_leaked_objects(
    command: list[str], tmp_path: Path
) -> None:
    if command[0] != "index":
        assert winnow("index", str(SAMPLE), "--db", "s.db", "-q", cwd=tmp_path).returncode == 0
    done = winnow(*command, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "leaked" not in done.stderr, done.stderr[:500]
