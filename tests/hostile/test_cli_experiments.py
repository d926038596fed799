"""``winnow experiments``' small hostile cases: a missing --data, -o onto the report,
labelled files that cannot be read, and a ROC AUC that is undefined."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.experiment_fixtures import labelled_sets
from tests.hostile.cli_helpers import winnow
from winnow.experiments import parameters
from winnow.experiments.runner import QUICK

pytest.importorskip("matplotlib")


def test_a_missing_data_folder_is_an_error(tmp_path: Path) -> None:
    result = winnow("experiments", "--quick", "--only", "parameters", "--data",
                    tmp_path / "nowhere", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "nowhere" in result.stderr and "does not exist" in result.stderr
    assert not (tmp_path / "out").exists()


def test_the_figures_never_overwrite_the_report(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = winnow("experiments", "--quick", "--only", "random", "--out", out,
                    "-o", out / "experiments.md")
    assert result.exit_code == 2
    assert "refusing to write" in result.stderr and "experiments.md" in result.stderr
    assert not (out / "experiments.md").exists()


def test_unreadable_labelled_files_are_warned_of(tmp_path: Path) -> None:
    data = labelled_sets(tmp_path / "data")
    prose = data / "clough-stevenson"
    (prose / "cut1.txt").unlink()  # labelled, missing
    (prose / "non2.txt").write_bytes(b"x" * (17 << 20))  # over the 16 MiB file budget
    section = parameters.run(data, QUICK.grids, kinds=("prose",))
    assert len(section.warnings) == 1
    warning = section.warnings[0]
    assert "cut1.txt" in warning and "non2.txt" in warning and "score 0" in warning
    assert any("cut1.txt" in note for note in section.notes)


def test_an_undefined_roc_auc_is_shown_as_undefined(tmp_path: Path) -> None:
    data = labelled_sets(tmp_path / "data")
    shutil.rmtree(data / "soco14-train")
    labels = data / "clough-stevenson" / "labels.csv"
    rows = labels.read_text().splitlines()
    labels.write_text("\n".join([rows[0]] + [r for r in rows[1:] if r.endswith(",1")]) + "\n")
    section = parameters.run(data, QUICK.grids, kinds=("prose",))
    cells = [row[3] for table in section.tables for row in table.rows]
    assert cells and set(cells) == {"undefined"}
    assert not any("ROC AUC" in figure.name for figure in section.figures)
    assert any("undefined" in note for note in section.notes)
