"""Kernel pseudo-files are refused by name, like devices and FIFOs, never read."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.hostile.content_support import cli, compare_run, make_class, others


@pytest.mark.skipif(not os.path.isfile("/proc/self/status"), reason="no /proc")
@pytest.mark.parametrize("special", ["/proc/self/status", "/proc/self/environ"])
def test_compare_refuses_a_proc_file_by_name(tmp_path: Path, special: str) -> None:
    klass = make_class(tmp_path, {})
    _, plain = compare_run(klass, str(tmp_path / "missing.txt"))  # as many submissions
    result = cli("compare", "-q", "-j", "1", "--format", "json", "--each", str(klass), special)
    assert result.exit_code == 1, result.output
    assert special in result.stderr and "pseudo-file" in result.stderr
    assert "VmRSS" not in result.stdout and "PATH=" not in result.stdout
    assert others(json.loads(result.stdout)) == others(plain)
