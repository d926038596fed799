"""Errors as the command line shows them: the class decides the exit code, every
missing extra is a MissingExtra, a bad combination of inputs is no internal error."""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.errors import EXIT_USAGE, MissingExtra


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stderr


def test_parquet_inputs_whose_columns_differ_are_a_usage_error(tmp_path: Path) -> None:
    text = "the quick brown fox jumps over the lazy dog and runs far away " * 4
    pq.write_table(pa.table({"id": ["a", "b"], "text": [text, text]}), tmp_path / "a.parquet")
    pq.write_table(pa.table({"id": ["c"], "text": [text], "n": [1]}), tmp_path / "b.parquet")
    code, err = run("dedup", str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet"),
                    "--id-field", "id", "--keep-records", "representative", "-q",
                    "-o", str(tmp_path / "kept.parquet"))
    assert code == EXIT_USAGE, err
    assert "b.parquet: its columns (" in err and "differ from" in err
    assert "internal error" not in err and "Traceback" not in err


def test_a_missing_ray_is_a_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from winnow.sharded.runners import RayRunner

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(MissingExtra, match=r"pip install -e '\.\[ray\]'"):
        RayRunner(None, 1)


def test_a_bad_config_leaves_with_its_own_code_and_one_message(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("some text " * 30)
    code, err = run("fingerprint", str(tmp_path / "a.txt"), "-k", "5", "-t", "3")
    assert code == EXIT_USAGE
    assert err.count("t (guarantee threshold) must be >= k") == 1
