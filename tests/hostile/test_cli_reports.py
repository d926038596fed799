"""Hostile names in the HTML report, hostile labels files, and winnow's own crashes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.cli_helpers import compare_pairs, make_class, program, winnow


@pytest.fixture
def klass(tmp_path: Path) -> Path:
    return make_class(tmp_path)


@pytest.mark.parametrize("name", ["\u202efdp.py", "eve\u2066x\u2069.py", "a\x1b[31mred.py"])
def test_control_characters_in_names_are_shown_by_name_in_the_report(
        name: str, klass: Path, tmp_path: Path) -> None:
    """``\\u202efdp.py`` must not read as ``py.pdf``: each control is written as
    ``⟦U+202E⟧``, as in the code view; the class's pairs are unchanged."""
    eve = tmp_path / "eve"
    eve.mkdir()
    (eve / "plain.py").write_text(program(1), encoding="utf-8")  # a copy of alice's
    before = compare_pairs(klass, eve)
    (eve / "plain.py").rename(eve / name)
    report = tmp_path / "report.html"
    result = winnow("compare", "-q", "-j", "1", "--each", klass, eve, "--report", report,
                    "-o", tmp_path / "pairs.csv")
    assert result.exit_code == 0, result.output
    page = report.read_text(encoding="utf-8")
    controls = [c for c in name if not c.isprintable()]
    assert controls and not any(c in page for c in controls)
    for c in controls:
        assert f"\u27e6U+{ord(c):04X}\u27e7" in page
    shown = name
    for c in controls:
        shown = shown.replace(c, f"\u27e6U+{ord(c):04X}\u27e7")
    assert shown in page
    after = [tuple(cell.replace(name, "plain.py") for cell in row)
             for row in compare_pairs(klass, eve)]
    assert after == before  # the same pairs and scores, whatever the name


def _labels(tmp: Path, *rows: str) -> Path:
    path = tmp / "labels.csv"
    path.write_text("file_a,file_b,label\n" + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(("row", "message"), [
    ("alice/main.py,../secret.py,1", "line 3: '../secret.py' is not a path inside --root"),
    ("alice/main.py,/etc/hostname,1", "line 3: '/etc/hostname' is not a path inside --root"),
    ("bob/main.py,alice/main.py,0", "labelled 0, but 1 on line 2"),
])
def test_evaluate_refuses_labels_outside_the_root_or_contradicting(
        row: str, message: str, klass: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.py").write_text(program(1), encoding="utf-8")
    labels = _labels(tmp_path, "alice/main.py,bob/main.py,1", row, "alice/main.py,dave/main.py,0")
    result = winnow("evaluate", labels, "--root", klass, "-q", "-j", "1")
    assert result.exit_code == 2, result.output
    assert "labels.csv: line 3: " in result.stderr and message in result.stderr


def test_evaluate_refuses_a_labelled_link_out_of_the_root(klass: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.py").write_text(program(1), encoding="utf-8")
    (klass / "eve").mkdir()
    (klass / "eve" / "main.py").symlink_to(tmp_path / "secret.py")
    labels = _labels(tmp_path, "alice/main.py,eve/main.py,1", "alice/main.py,dave/main.py,0")
    result = winnow("evaluate", labels, "--root", klass, "-q", "-j", "1")
    assert result.exit_code == 2
    assert "eve/main.py: leads outside --root" in result.stderr


def test_evaluate_scores_the_class_alone_as_before(klass: Path, tmp_path: Path) -> None:
    labels = _labels(tmp_path, "alice/main.py,bob/main.py,1", "alice/main.py,dave/main.py,0",
                     "bob/main.py,alice/main.py,1")  # a repeated pair with the same label
    result = winnow("evaluate", labels, "--root", klass, "-q", "-j", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["overall"]["roc_auc"] == 1.0


def test_an_internal_error_is_one_line_and_exit_3(klass: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import winnow.cli.compare as compare_cli

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a defect")

    monkeypatch.setattr(compare_cli, "run_compare", broken)
    result = winnow("compare", "-q", "--each", klass)
    assert result.exit_code == 3
    lines = result.stderr.strip().splitlines()
    assert lines == ["winnow: error: internal error (KeyError: 'a defect'); "
                     "rerun with --debug for the traceback"]
    debug = winnow("--debug", "compare", "-q", "--each", klass)
    assert debug.exit_code == 3
    assert "Traceback (most recent call last)" in debug.stderr
    assert "raise KeyError" in debug.stderr


def test_a_stop_swallowed_by_compiled_code_ends_the_run_as_the_signal_asks(
        klass: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM's handler raising inside a numba kernel comes back as a
    SystemError caused by the SystemExit: the run exits 143, not 3."""
    import winnow.cli.compare as compare_cli

    def stopped_inside_a_kernel(*args: object, **kwargs: object) -> None:
        try:
            raise SystemExit(143)
        except SystemExit as stop:
            raise SystemError("<function winnow_fused> returned a result with an "
                              "exception set") from stop

    monkeypatch.setattr(compare_cli, "run_compare", stopped_inside_a_kernel)
    result = winnow("compare", "-q", "--each", klass)
    assert result.exit_code == 143
    assert "internal error" not in result.stderr

    def plain_defect(*args: object, **kwargs: object) -> None:
        try:
            raise ValueError("first")
        except ValueError as first:
            raise SystemError("second") from first

    monkeypatch.setattr(compare_cli, "run_compare", plain_defect)
    assert winnow("compare", "-q", "--each", klass).exit_code == 3


def test_the_exit_codes_of_a_real_process(klass: Path, tmp_path: Path) -> None:
    """Outside the test runner too: a refused output is 2, the class is untouched."""
    target = klass / "alice" / "main.py"
    kept = target.read_bytes()
    done = subprocess.run([sys.executable, "-m", "winnow", "compare", "-q", "--each",
                           str(klass), "-o", str(target)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 2, done.stderr
    assert "main.py" in done.stderr and target.read_bytes() == kept
