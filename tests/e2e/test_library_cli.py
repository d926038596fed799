"""The library and ``winnow compare`` give the same result, pair for pair, with
no options: one resolution of the defaults (``winnow.matching.default_configs``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner

import winnow
from winnow.api import relative_names
from winnow.cli.main import main
from winnow.matching import compare
from winnow.reports.json import result_record
from winnow.sources.submissions import load_submissions

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "python"


def _cli(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "cli.json"
    run = CliRunner().invoke(main, ["compare", "-q", "--format", "json", "-o", str(out), *args])
    assert run.exit_code == 0, run.output
    record: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return record


def _plain(result: winnow.ComparisonResult) -> dict[str, Any]:
    """The result as the JSON output holds it (tuples as lists)."""
    plain: dict[str, Any] = json.loads(json.dumps(result_record(result)))
    return plain


def test_the_library_gives_the_cli_result_on_the_sample(tmp_path: Path) -> None:
    subs, starter = str(SAMPLE / "submissions"), str(SAMPLE / "starter")
    cli = _cli(tmp_path, "--each", subs, "--base", starter)
    by_paths = _plain(winnow.compare_paths([subs], each=True, base=[starter]))
    loaded = _plain(compare(relative_names(load_submissions([subs], each=True)),
                            base=load_submissions([starter], role="base")))
    assert len(cli["pairs"]) == 10  # five submissions, every pair shares the starter's shape
    assert all(pair["passages"] for pair in cli["pairs"])
    for pair_cli, pair_paths, pair_loaded in zip(cli["pairs"], by_paths["pairs"],
                                                loaded["pairs"], strict=True):
        assert pair_paths == pair_cli
        assert pair_loaded == pair_cli
    assert by_paths == cli
    assert loaded == cli


def test_each_front_end_keeps_its_defaults_in_both(tmp_path: Path) -> None:
    """A batch mostly of notes (text) with code in it: the code files get the
    code defaults in both, and ``config`` is the text front-end's."""
    batch = tmp_path / "batch"
    for name in ("alice", "bob"):
        shutil.copytree(SAMPLE / "submissions" / name, batch / name)
    prose = "The quick brown fox jumps over the lazy dog, again and again. " * 8
    for name in ("alice", "bob"):
        for i in range(3):
            (batch / name / f"notes{i}.txt").write_text(f"{name} {i}: {prose}", encoding="utf-8")
    cli = _cli(tmp_path, "--each", str(batch))
    library = _plain(winnow.compare_paths([batch], each=True))
    assert cli["config"]["k"] == 16  # text's defaults: most files are notes
    assert cli["parameters"]["frontend_params"] == {"code": {"k": 10, "t": 10},
                                                    "text": {"k": 16, "t": 23}}
    assert library == cli
