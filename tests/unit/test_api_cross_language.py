"""``compare_paths`` compares files in several languages across languages, as
``winnow compare`` does: the same pairs, scores and note."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import winnow
from tests.unit.test_structural_frontend import JAVA_REVERSE, PYTHON_REVERSE
from winnow.cli import main
from winnow.reports.json import result_record


def _files(tmp_path: Path) -> list[str]:
    (tmp_path / "a.java").write_text(JAVA_REVERSE, encoding="utf-8")
    (tmp_path / "b.py").write_text(PYTHON_REVERSE, encoding="utf-8")
    (tmp_path / "c.py").write_text(PYTHON_REVERSE.replace("10", "16"), encoding="utf-8")
    return [str(tmp_path / n) for n in ("a.java", "b.py", "c.py")]


def test_compare_paths_across_languages_is_the_command(tmp_path: Path) -> None:
    files = _files(tmp_path)
    result = winnow.compare_paths(files)
    assert result.parameters["cross_language"] == {
        "languages": ["java", "python"], "alphabet": "winnow-neutral-1",
        "frontend": "structural"}
    out = tmp_path / "cli.json"
    done = CliRunner().invoke(main, ["compare", *files, "-q", "--format", "json", "-o", str(out)])
    assert done.exit_code == 0, done.output
    cli = json.loads(out.read_text(encoding="utf-8"))
    assert json.loads(json.dumps(result_record(result))) == cli  # pair for pair, same note
    java_python = [p for p in result.pairs if {p.a, p.b} == {"a.java", "b.py"}]
    assert java_python and java_python[0].similarity > 0.3  # matched across languages


def test_one_language_or_a_chosen_front_end_is_not_across_languages(tmp_path: Path) -> None:
    files = _files(tmp_path)
    assert "cross_language" not in winnow.compare_paths(files[1:]).parameters
    assert "cross_language" not in winnow.compare_paths(files, frontend="code").parameters
    forced = winnow.compare_paths(files[1:], cross_language=True)
    assert forced.parameters["cross_language"]["languages"] == ["python"]
