"""``winnow experiments`` end to end: the report, its plots and the printed figures."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.experiment_fixtures import html_corpus, labelled_sets
from winnow.cli.main import main
from winnow.experiments import EXPERIMENTS
from winnow.experiments import runner as experiments_runner
from winnow.experiments.runner import Settings, run_experiments

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    root = tmp_path_factory.mktemp("experiments")
    corpus = html_corpus(root / "html")
    data = labelled_sets(root / "data")
    result = CliRunner().invoke(main, [
        "experiments", "--quick", "--corpus", str(corpus), "--data", str(data),
        "--out", str(root / "out"), "--format", "json"])
    assert result.exit_code == 0, result.output
    return root / "out", json.loads(result.stdout)


def test_the_report_has_every_section_in_order(quick_run: tuple[Path, list]) -> None:
    out, _ = quick_run
    report = (out / "experiments.md").read_text(encoding="utf-8")
    titles = re.findall(r"^## (\d)\. ", report, re.MULTILINE)
    assert titles == [str(i) for i in range(1, 8)]
    assert "Not run" not in report
    assert "winnow experiments --out docs" in report
    # every table that compares has the paper's column
    for header in ("| paper |", "paper's measured density", "| once |"):
        assert header in report


def test_every_linked_plot_exists_as_a_png(quick_run: tuple[Path, list]) -> None:
    out, _ = quick_run
    report = (out / "experiments.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\((experiments/[\w-]+\.png)\)", report)
    assert len(linked) >= 9  # frequency, lower bound, sif, 6 parameter plots
    for name in linked:
        assert (out / name).read_bytes().startswith(PNG)


def test_the_printed_figures_match_the_report(quick_run: tuple[Path, list]) -> None:
    _, records = quick_run
    assert {r["experiment"] for r in records} == set(EXPERIMENTS)
    by_name = {(r["experiment"], r["figure"]): r for r in records}
    winnowing = by_name[("random", "winnowing density")]
    assert winnowing["paper"] == 0.019902
    assert abs(float(winnowing["measured"]) - 2 / 101) < 0.002  # type: ignore[arg-type]
    assert by_name[("html", "winnowing longest run with no fingerprint")]["measured"] <= 148


def test_only_one_experiment_as_csv(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, [
        "experiments", "--quick", "--only", "lowentropy", "--out", str(tmp_path),
        "--format", "csv", "-o", str(tmp_path / "figures.csv")])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO((tmp_path / "figures.csv").read_text())))
    assert rows and {r["experiment"] for r in rows} == {"lowentropy"}
    assert list(rows[0]) == ["experiment", "figure", "measured", "paper"]
    report = (tmp_path / "experiments.md").read_text(encoding="utf-8")
    assert re.findall(r"^## .*$", report, re.MULTILINE) == ["## 3. Low entropy"]


def test_missing_corpus_and_data_are_skipped_with_a_note(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(experiments_runner, "DEFAULT_CORPUS", tmp_path / "absent")
    sections = run_experiments(["html", "frequency", "parameters"],
                               Settings(quick=True, data=None))
    assert all(s.skipped for s in sections)
    assert "experiments-corpus.sh" in (sections[0].skipped or "")


def test_help_does_not_import_the_experiments_or_matplotlib() -> None:
    code = ("import sys; from winnow.cli.main import main; "
            "heavy = [m for m in sys.modules if m.startswith(('matplotlib', "
            "'winnow.experiments.runner'))]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_committed_report_is_a_full_run_with_its_plots() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs"
    report = (docs / "experiments.md").read_text(encoding="utf-8")
    assert "This run: full sizes" in report and "Not run" not in report
    assert re.findall(r"^## (\d)\. ", report, re.MULTILINE) == [str(i) for i in range(1, 8)]
    for name in re.findall(r"\]\((experiments/[\w-]+\.png)\)", report):
        assert (docs / name).read_bytes().startswith(PNG)


def test_a_corpus_without_pages_is_an_error_naming_it(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["experiments", "--only", "html", "--corpus", str(empty),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert f"{empty}: holds no .html pages" in result.output
