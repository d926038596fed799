"""``winnow compare --report`` / ``--anonymize``: order of outputs, errors, pseudonym key."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from winnow.cli.main import main
from winnow.errors import ReportError

SUBS = Path(__file__).resolve().parents[2] / "examples" / "python" / "submissions"
NAMES = sorted(p.name for p in SUBS.iterdir())


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WINNOW_ANONYMIZE_KEY", "test-key")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["compare", "-j", "1", "-q", "--each", str(SUBS), *args])


def test_report_is_written_before_the_table(tmp_path: Path) -> None:
    result = run("--report", str(tmp_path / "r.html"))
    assert result.exit_code == 0, result.stderr
    assert "report written" in result.stderr and "Clusters" in result.stdout


def test_an_unwritable_report_path_fails_before_the_work(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    given = str(tmp_path / "file" / "report") + "/"
    result = run("--report", given, "--format", "csv")
    assert result.exit_code == 3
    assert f"{given.rstrip('/')}" in result.stderr  # as the user wrote it
    assert result.stdout == ""  # refused before any work


def test_a_report_that_fails_while_written_keeps_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import winnow.reports.html as html

    def broken(*args: object, **kwargs: object) -> Path:
        raise ReportError(str(tmp_path / "r"), "No space left on device")

    monkeypatch.setattr(html, "write_report", broken)
    result = run("--report", str(tmp_path / "r"), "--format", "csv")
    assert result.exit_code == 3
    assert f"error: {tmp_path / 'r'}: " in result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][:3] == ["file_a", "file_b", "similarity"] and len(rows) > 1


def test_anonymize_writes_the_key_beside_the_report_never_inside(tmp_path: Path) -> None:
    result = run("--report", str(tmp_path / "report"), "--anonymize", "--format", "json")
    assert result.exit_code == 0, result.stderr
    key = tmp_path / "report.pseudonyms.csv"
    assert key.stat().st_mode & 0o077 == 0  # it names the students
    rows = list(csv.DictReader(io.StringIO(key.read_text(encoding="utf-8"))))
    subs = {r["submission"].rsplit("/", 1)[-1]: r["pseudonym"] for r in rows if not r["file"]}
    assert sorted(subs) == NAMES and all(p.startswith("student-") for p in subs.values())
    assert any(r["file"] and r["pseudonym"].startswith("file-") for r in rows)
    index = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert all(p in index for p in subs.values()) and not any(n in index for n in NAMES)
    assert not list((tmp_path / "report").rglob("*.csv"))
    data = json.loads(result.stdout)  # --anonymize alone leaves the output as it was
    assert {Path(s["name"]).name for s in data["submissions"]} == set(NAMES)
    inside = run("--report", str(tmp_path / "report"), "--anonymize",
                 "--pseudonyms", str(tmp_path / "report" / "key.csv"))
    assert inside.exit_code == 2 and "inside the report" in inside.stderr


@pytest.mark.parametrize("fmt", ["json", "csv", "table"])
def test_anonymize_all_applies_to_the_output_too(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"pairs.{fmt}"
    result = run("--anonymize-all", "--format", fmt, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    assert "student-" in text and not any(n in text for n in NAMES)
    key = tmp_path / "pairs.pseudonyms.csv"
    rows = list(csv.DictReader(io.StringIO(key.read_text(encoding="utf-8"))))
    assert all(r["pseudonym"] in text for r in rows if not r["file"])
    if fmt == "json":
        data = json.loads(text)
        files = {f["path"] for s in data["submissions"] for f in s["files"]}
        assert files and all(f.startswith("file-") for f in files)
        shown = {q[side]["file"] for p in data["pairs"] for q in p["passages"] for side in "ab"}
        assert shown <= files


def test_anonymize_needs_somewhere_to_apply_and_to_put_the_key(tmp_path: Path) -> None:
    nothing = run("--anonymize")
    assert nothing.exit_code == 2 and "--anonymize applies to --report" in nothing.stderr
    stdout = run("--anonymize-all")
    assert stdout.exit_code == 2 and "--pseudonyms" in stdout.stderr
    key = tmp_path / "k.csv"
    given = run("--anonymize-all", "--pseudonyms", str(key), "--format", "csv")
    assert given.exit_code == 0 and key.exists() and "student-" in given.stdout
    alone = run("--pseudonyms", str(key))
    assert alone.exit_code == 2
