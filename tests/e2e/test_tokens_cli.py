"""`winnow tokens` and `winnow fingerprint --lang/--frontend` end to end."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner

from winnow.cli.main import main
from winnow.frontends.options import DEFAULT_PARAMS

FIXTURES = Path(__file__).parent.parent / "fixtures" / "frontends"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_table_shows_lines_beside_labels() -> None:
    code, out, _ = run("tokens", str(FIXTURES / "original.py"))
    assert code == 0
    lines = out.splitlines()
    assert "front-end code, language python" in lines[0]
    row = next(line for line in lines if line.lstrip().startswith("11 |"))
    assert "def reorder_report(items, threshold, warehouse):" in row
    assert row.rstrip().endswith("| def ID ( ID , ID , ID ) :")
    assert not any(line.lstrip().startswith("12 |") for line in lines)  # a comment line


def test_jsonl_records_map_to_original_bytes() -> None:
    path = FIXTURES / "original.c"
    code, out, _ = run("tokens", "--format", "jsonl", str(path))
    assert code == 0
    data = path.read_bytes()
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0]["label"] == "#include"
    for record in records:
        assert data[record["start"]:record["end"]].decode() == record["text"]
        assert data[:record["start"]].count(b"\n") + 1 == record["line"]


def test_csv_and_options(tmp_path: Path) -> None:
    src = tmp_path / "prose.txt"
    src.write_text("Hello hello, World\n")
    code, out, _ = run("tokens", "--format", "csv", "--unit", "words", str(src))
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["label"] for r in rows] == ["hello", "hello", "world"]
    assert rows[0]["unit"] == rows[1]["unit"]
    out_file = tmp_path / "t.json"
    code, _, _ = run("tokens", "--format", "json", "--keep", "case", "-o", str(out_file),
                     str(src))
    assert code == 0
    assert "".join(r["label"] for r in json.loads(out_file.read_text())) == "HellohelloWorld"


def test_lang_overrides_the_extension(tmp_path: Path) -> None:
    src = tmp_path / "script.txt"
    src.write_text("local x = 1 -- note\n")
    code, out, _ = run("tokens", "--lang", "lua", "--format", "json", str(src))
    assert code == 0
    assert [r["label"] for r in json.loads(out)] == ["local", "ID", "=", "NUM"]
    code, _, err = run("tokens", "--lang", "no-such-language", str(src))
    assert code == 2 and "unknown language" in err  # docs/frontends.md: a usage error


def test_warnings_reach_the_user(tmp_path: Path) -> None:
    src = tmp_path / "bad.py"
    src.write_bytes(b"\x00\x01binary\x00")
    code, out, err = run("tokens", str(src))
    assert code == 0
    assert "looks binary" in err and "front-end bytes" in out


def test_fingerprint_reports_lines_with_frontend_defaults() -> None:
    path = FIXTURES / "Original.java"
    code, out, _ = run("fingerprint", "--format", "json", str(path))
    assert code == 0
    (record,) = json.loads(out)
    assert (record["frontend"], record["language"]) == ("code", "java")
    k = DEFAULT_PARAMS["code"][0]
    assert record["config"]["k"] == k
    n_lines = path.read_bytes().count(b"\n")
    for fp in record["fingerprints"]:
        assert 1 <= fp["line_start"] <= fp["line_end"] <= n_lines
        assert fp["end"] - fp["start"] == k
    code, out, _ = run("fingerprint", "--frontend", "bytes", "-k", "20", "-t", "40",
                       "--format", "json", str(path))
    (record,) = json.loads(out)
    assert record["frontend"] == "bytes" and record["units"] == path.stat().st_size


def test_languages_lists_every_issue_language() -> None:
    code, out, _ = run("languages", "--format", "json")
    assert code == 0
    rows = {r["language"]: r for r in json.loads(out)}
    required = ["python", "java", "c", "cpp", "csharp", "javascript", "typescript", "go",
                "rust", "kotlin", "scala", "swift", "ruby", "php", "haskell", "ocaml", "r",
                "matlab", "julia", "lua", "perl", "shell", "sql", "pascal", "fortran",
                "prolog", "scheme", "lisp", "verilog", "vhdl", "asm"]
    assert set(required) <= set(rows)
    assert rows["python"]["backend"] == "fast" and rows["ruby"]["backend"] == "fallback"
    assert ".py" in rows["python"]["extensions"].split()
    code, out, _ = run("languages")
    assert code == 0 and out.splitlines()[-1].startswith(f"{len(rows)} languages")


def test_fast_backend_is_exactly_the_table_driven_lexers() -> None:
    from winnow.frontends.languages import FAST_LANGUAGES, LANGUAGES
    from winnow.frontends.lexfast import FAST_LEXERS

    assert set(FAST_LEXERS) == FAST_LANGUAGES
    assert {lang.name for lang in LANGUAGES} >= FAST_LANGUAGES


def test_notebook_rows_name_cell_and_line(tmp_path: Path) -> None:
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1,
         "source": ["def f(x):\n", "    return x\n"]},
    ], "metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(nb, indent=1))
    plain = tmp_path / "p.py"
    plain.write_text("x = 1\n")
    code, out, _ = run("tokens", "--format", "csv", str(path), str(plain))
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["label"], r["cell"], r["cell_line"]) for r in rows[:7]] == [
        ("def", "2", "1"), ("ID", "2", "1"), ("(", "2", "1"), ("ID", "2", "1"),
        (")", "2", "1"), (":", "2", "1"), ("return", "2", "2")]
    assert rows[-1]["file"].endswith("p.py") and rows[-1]["cell"] == ""
    code, out, _ = run("tokens", str(path))
    assert "cell 2 line 2: return ID" in out


def test_table_escapes_control_characters(tmp_path: Path) -> None:
    src = tmp_path / "esc.py"
    src.write_bytes(b"x = 1 \x1b[31m\n")
    code, out, _ = run("tokens", str(src))
    assert code == 0
    assert "\x1b" not in out and "\\x1b" in out


def test_tokens_and_languages_write_to_output_file(tmp_path: Path) -> None:
    path = FIXTURES / "original.py"
    _, expected, _ = run("tokens", "--format", "json", str(path))
    target = tmp_path / "tokens.json"
    code, out, _ = run("tokens", "--format", "json", "-o", str(target), str(path))
    assert code == 0 and out == ""
    assert json.loads(target.read_text()) == json.loads(expected)
    target = tmp_path / "languages.csv"
    code, out, _ = run("languages", "--format", "csv", "-o", str(target))
    assert code == 0 and out == ""
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert {"language": "python", "extensions": ".py .pyw .pyi", "backend": "fast"} in rows


def test_tokens_skips_a_missing_file_with_exit_code_1(tmp_path: Path) -> None:
    path = FIXTURES / "original.py"
    code, out, err = run("tokens", "--format", "jsonl", str(tmp_path / "missing.py"), str(path))
    assert code == 1 and "winnow: error: " in err and "missing.py" in err
    assert json.loads(out.splitlines()[0])["file"] == str(path)


def test_unknown_lang_is_a_usage_error_before_any_file_is_read() -> None:
    for command in ("tokens", "fingerprint"):
        code, out, err = run(command, "--lang", "no-such-language", str(FIXTURES / "original.py"))
        assert code == 2 and out == ""
        assert "unknown language 'no-such-language'" in err
