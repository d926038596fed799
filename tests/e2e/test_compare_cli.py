"""``winnow compare`` end to end on the bundled sample submissions (examples/python).

alice wrote the program; bob renamed every identifier; carol moved the helper
functions into another file in another order; dave added comments; erin wrote
her own; all started from examples/python/starter.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from winnow.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python"
SUBS = EXAMPLES / "submissions"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["compare", "-j", "1", "-q", *args])


def functions(path: Path) -> dict[str, tuple[int, int]]:
    """Top-level function name -> (first line, last line), 1-based."""
    tree = ast.parse(path.read_text())
    return {node.name: (node.lineno, node.end_lineno or node.lineno)
            for node in tree.body if isinstance(node, ast.FunctionDef)}


def compare_json(*args: str) -> dict[str, Any]:
    result = run("--format", "json", *args)
    assert result.exit_code == 0, result.output + result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def pair(data: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    names = {a, b}  # named relative to the --each folder
    found = [p for p in data["pairs"] if {p["file_a"], p["file_b"]} == names]
    assert len(found) == 1, f"pair {a}/{b} not reported"
    p = found[0]
    if p["file_a"] != a:  # orient the passages as (a, b)
        for passage in p["passages"]:
            passage["a"], passage["b"] = passage["b"], passage["a"]
    return p


def covers(region: dict[str, Any], lines: tuple[int, int], share: float = 0.8) -> bool:
    first, last = region["lines"]
    overlap = min(last, lines[1]) - max(first, lines[0]) + 1
    return overlap >= share * (lines[1] - lines[0] + 1)


@pytest.fixture(scope="module")
def with_base() -> dict[str, Any]:
    return compare_json("--each", str(SUBS), "--base", str(EXAMPLES / "starter"))


@pytest.fixture(scope="module")
def without_base() -> dict[str, Any]:
    return compare_json("--each", str(SUBS))


def test_renamed_identifiers_are_detected_with_line_ranges(
    with_base: dict[str, Any], without_base: dict[str, Any]
) -> None:
    p = pair(with_base, "alice", "bob")
    # bob renamed every identifier and four dictionary keys (string literals,
    # which the literal channel sees): nearly, not exactly, identical
    assert 0.9 < pair(without_base, "alice", "bob")["similarity"] < 1.0
    # with --base, scores are shares of the whole files that matched outside
    # the starter code (which is about a sixth of alice): lower, and close
    # to the passages' coverage
    assert 0.7 < p["similarity"] < pair(without_base, "alice", "bob")["similarity"]
    assert abs(p["containment_a"] - p["coverage_a"]) < 0.1
    alice = functions(SUBS / "alice" / "textstats.py")
    bob = functions(SUBS / "bob" / "textstats.py")
    longest = p["passages"][0]
    # One passage from split_words/tokenize to the end of build_report/make_summary.
    # It may start on the line after `def split_words(text):`, whose tokens
    # (`def ID ( ID ) :` once names are normalised) follow load_text in the
    # starter code too, so they are excluded with it.
    a_first, a_last = longest["a"]["lines"]
    b_first, b_last = longest["b"]["lines"]
    assert a_first in (alice["split_words"][0], alice["split_words"][0] + 1)
    assert b_first - bob["tokenize"][0] == a_first - alice["split_words"][0]
    assert a_last == alice["build_report"][1]
    assert b_last == bob["make_summary"][1]


def test_reordered_functions_in_another_file_are_each_found(with_base: dict[str, Any]) -> None:
    p = pair(with_base, "alice", "carol")
    assert p["similarity"] > 0.7
    alice = functions(SUBS / "alice" / "textstats.py")
    carol = functions(SUBS / "carol" / "analysis.py")
    for name in ("split_words", "count_syllables", "word_frequencies", "flesch_score"):
        assert any(
            covers(q["a"], alice[name]) and q["b"]["file"] == "analysis.py"
            and covers(q["b"], carol[name]) for q in p["passages"]
        ), f"{name} not matched to its moved copy"
    report = functions(SUBS / "carol" / "textstats.py")["build_report"]
    assert any(q["b"]["file"] == "textstats.py" and covers(q["b"], report)
               for q in p["passages"])


def test_added_comments_do_not_hide_a_copy(with_base: dict[str, Any]) -> None:
    p = pair(with_base, "alice", "dave")
    assert p["similarity"] > 0.7 and p["coverage_b"] > 0.75  # shares of the whole files
    dave = functions(SUBS / "dave" / "textstats.py")
    assert covers(p["passages"][0]["b"], (dave["split_words"][0], dave["build_report"][1]), 0.95)


def test_independent_solution_ranks_last(with_base: dict[str, Any]) -> None:
    erin = "erin"
    copies = [p for p in with_base["pairs"] if erin not in (p["file_a"], p["file_b"])]
    independent = [p for p in with_base["pairs"] if erin in (p["file_a"], p["file_b"])]
    assert min(p["score"] for p in copies) > 5 * max(p["score"] for p in independent)
    # what the passages show: the copies at least three times erin's share
    assert min(p["similarity"] for p in copies) > 3 * max(
        p["similarity"] for p in independent)
    assert with_base["pairs"][-len(independent):] == independent
    assert with_base["clusters"][0]["members"] == ["alice", "bob", "carol", "dave"]


def test_starter_code_is_excluded_with_base(
    with_base: dict[str, Any], without_base: dict[str, Any]
) -> None:
    main_lines = functions(SUBS / "alice" / "textstats.py")["main"]
    plain = pair(without_base, "alice", "erin")
    assert any(covers(q["a"], main_lines) for q in plain["passages"])
    based = pair(with_base, "alice", "erin")
    for q in based["passages"]:
        first, last = q["a"]["lines"]
        assert last < main_lines[0] or first > main_lines[1]
    assert based["similarity"] < plain["similarity"]


def test_byte_ranges_point_at_the_original_text(with_base: dict[str, Any]) -> None:
    p = pair(with_base, "alice", "dave")
    q = p["passages"][0]
    text = (SUBS / "alice" / "textstats.py").read_bytes()
    start, end = q["a"]["bytes"]
    assert text[start:end].startswith(b"words = []")  # see the renamed-identifiers test
    assert text[start:end].endswith(b"return report")
    assert text[:start].count(b"\n") + 1 == q["a"]["lines"][0]
    assert text[:end].count(b"\n") + 1 == q["a"]["lines"][1]
    dave = (SUBS / "dave" / "textstats.py").read_bytes()
    start, end = q["b"]["bytes"]
    assert dave[start:end].startswith(b"words = []") and b"# a word just ended" in dave[start:end]


def test_csv_header_and_rows() -> None:
    result = run("--format", "csv", "--each", str(SUBS), "--base", str(EXAMPLES / "starter"))
    assert result.exit_code == 0
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["file_a", "file_b", "similarity", "coverage_a", "coverage_b", "lines_a",
                       "lines_b", "shared", "containment_a", "containment_b", "jaccard",
                       "weighted", "rarity", "longest", "passages", "cluster", "score"]
    assert len(rows) == 11 and float(rows[1][2]) >= float(rows[-1][2])


def _csv_rows(*args: str) -> list[dict[str, str]]:
    result = run("--format", "csv", "--each", str(SUBS), "-n", "0", *args)
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


@pytest.mark.parametrize("passages_top", ["0", "1"])  # 1: the compiled rows too
def test_csv_columns_are_the_full_csv_s_cells_in_the_order_named(passages_top: str) -> None:
    full = _csv_rows("--passages-top", passages_top)
    chosen = ["score", "file_b", "cluster", "file_a", "shared", "longest", "similarity",
              "coverage_a", "rarity"]
    result = run("--format", "csv", "--each", str(SUBS), "-n", "0", "--passages-top",
                 passages_top, "--columns", ",".join(chosen))
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == chosen and len(rows) == len(full) + 1 == 11
    assert rows[1:] == [[row[name] for name in chosen] for row in full]
    assert rows[1][5] != ""
    assert (rows[-1][5] == "") == (passages_top == "1")  # 1: the last pair has no passages


@pytest.mark.parametrize("passages_top", ["0", "1"])
def test_a_csv_column_of_empty_cells_still_reads_as_one_row_per_pair(passages_top: str) -> None:
    full = _csv_rows("--passages-top", passages_top)
    result = run("--format", "csv", "--each", str(SUBS), "-n", "0", "--passages-top",
                 passages_top, "--columns", "cluster")
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[1:] == [[row["cluster"]] for row in full] and len(rows) == 11
    assert [""] in rows[1:] and '\n""\n' in result.stdout


def test_csv_columns_without_a_passage_column_skip_the_passages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    full = _csv_rows()

    def with_passages(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the passages were computed")

    # the result of a pair with passages is made there (the others by PairList)
    monkeypatch.setattr(sys.modules["winnow.matching.compare"], "pair_result", with_passages)
    rows = _csv_rows("--columns", "file_a,file_b,score,containment_a,cluster")
    assert [list(row.values()) for row in rows] == [
        [row[name] for name in ("file_a", "file_b", "score", "containment_a", "cluster")]
        for row in full]
    with pytest.raises(AssertionError, match="passages were computed"):
        _csv_rows("--columns", "file_a,file_b,similarity")


@pytest.mark.parametrize(("args", "message"), [
    (["--columns", "file_a,size"], "no column 'size'"),
    (["--columns", "file_a,file_b,file_a"], "file_a named twice"),
    (["--columns", ""], "at least one column"),
    (["--columns", "file_a", "--format", "json"], "--columns goes with --format csv"),
])
def test_bad_csv_columns_are_usage_errors(args: list[str], message: str) -> None:
    result = run("--format", "csv", "--each", str(SUBS), *args)
    assert result.exit_code == 2 and message in result.output


def test_jsonl_output_file_and_table(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("--format", "jsonl", "-o", str(out), "-n", "2", "--each", str(SUBS)).exit_code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["parameters"]["top"] == 2
    assert [x["type"] for x in lines].count("pair") == 2
    table = run("--each", str(SUBS))
    assert "submission a (coverage)" in table.stdout and "Clusters" in table.stdout


def test_html_report_is_written(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = run("--each", str(SUBS), "--base", str(EXAMPLES / "starter"), "--report", str(page))
    assert result.exit_code == 0 and page.exists()
    assert "alice" in page.read_text()


def test_bad_input_is_named_and_the_rest_compared(tmp_path: Path) -> None:
    batch = tmp_path / "batch"
    batch.mkdir()
    shutil.copytree(SUBS / "alice", batch / "good1")
    shutil.copytree(SUBS / "bob", batch / "good2")
    (batch / "binary").mkdir()
    (batch / "binary" / "prog.py").write_bytes(bytes(range(256)) * 20)
    (batch / "broken.zip").write_bytes(b"PK\x03\x04 not a zip at all")
    (batch / "empty").mkdir()
    (batch / "ghost.py").symlink_to(tmp_path / "nowhere.py")
    (batch / "loop").symlink_to(batch / "loop")
    result = run("--format", "csv", "--each", str(batch))
    assert result.exit_code == 1
    for name in ("prog.py", "broken.zip", "empty", "ghost.py", "loop"):
        assert str(batch / name) in result.stderr or name in result.stderr, name
    assert "symbolic link loop" in result.stderr and "binary" in result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[1][:2] == ["good1", "good2"]  # relative to the --each folder
    full = run("--format", "csv", "--each", str(batch), "--full-paths")
    rows = list(csv.reader(io.StringIO(full.stdout)))
    assert rows[1][:2] == [str(batch / "good1"), str(batch / "good2")]
    assert float(rows[1][2]) > 0.95


def test_zip_path_traversal_is_refused(tmp_path: Path) -> None:
    import stat
    import zipfile

    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as archive:
        archive.write(SUBS / "alice" / "textstats.py", "textstats.py")
        archive.writestr("../../escaped.py", "print('outside')\n")
        archive.writestr("/tmp/absolute.py", "print('absolute')\n")
        link = zipfile.ZipInfo("link.py")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    result = run("--format", "json", str(evil), str(SUBS / "bob"))
    assert result.exit_code == 1
    assert "unsafe member path" in result.stderr and "symbolic link" in result.stderr
    assert not (tmp_path.parent / "escaped.py").exists()
    data = json.loads(result.stdout)
    assert [f["path"] for f in data["submissions"][0]["files"]] == ["textstats.py"]
    assert data["pairs"][0]["similarity"] > 0.9


@pytest.mark.parametrize("args", [["-m", "-1"], ["-k", "10", "-t", "5"], ["-m", "2.5"],
                                  ["-m", "nan"], ["-m", "1e400"], ["-m", "inf"]])
def test_bad_options_are_usage_errors(args: list[str]) -> None:
    assert run(*args, str(SUBS / "alice"), str(SUBS / "bob")).exit_code == 2


JAVA = EXAMPLES.parent / "java"


def _line_of(path: Path, text: str) -> int:
    lines = path.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_java_renamed_and_moved_method_is_found_and_starter_excluded() -> None:
    data = compare_json("--each", str(JAVA / "submissions"), "--base", str(JAVA / "starter"))
    by_pair = {(Path(p["file_a"]).name, Path(p["file_b"]).name): p for p in data["pairs"]}
    copy = by_pair[("ana", "ben")]
    assert copy["similarity"] > 0.6 and data["pairs"][0] is copy
    ana = JAVA / "submissions" / "ana" / "Grades.java"
    ben = JAVA / "submissions" / "ben" / "Grades.java"
    letter = (_line_of(ana, "public char letter"), _line_of(ana, "public String summary") - 1)
    to_letter = (_line_of(ben, "public char toLetter"), _line_of(ben, "public double mean") - 1)
    assert any(covers(q["a"], letter, 0.7) and covers(q["b"], to_letter, 0.7)
               for q in copy["passages"])
    main_line = _line_of(ana, "public static void main")
    assert all(q["a"]["lines"][1] < main_line for q in copy["passages"])
    for names, p in by_pair.items():
        if "cho" in names:
            assert p["similarity"] < 0.1


def test_progress_bar_shows_each_stage(capsys: pytest.CaptureFixture[str]) -> None:
    from winnow.cli.progress import ProgressBar

    bar = ProgressBar(enabled=True)
    for done in range(1, 4):
        bar("fingerprint", done, 3)
    bar("passages", 1, 2)
    bar.close()
    err = capsys.readouterr().err
    assert "fingerprint" in err and "passages" in err
    quiet = ProgressBar(enabled=False)
    quiet("fingerprint", 1, 1)
    assert capsys.readouterr().err == ""


def test_json_shape_is_the_documented_contract(with_base: dict[str, Any]) -> None:
    assert set(with_base) == {"format", "version", "config", "parameters", "stats", "skipped",
                              "submissions", "pairs", "clusters", "shared_code", "issues"}
    assert (with_base["format"], with_base["version"]) == ("winnow-compare", 2)
    pair_keys = {"file_a", "file_b", "similarity", "coverage_a", "coverage_b", "lines_a",
                 "lines_b", "shared", "containment_a", "containment_b", "jaccard", "weighted",
                 "rarity", "longest", "passages", "cluster", "passages_computed", "score"}
    assert all(set(p) == pair_keys for p in with_base["pairs"])
    passage = with_base["pairs"][0]["passages"][0]
    assert set(passage) == {"index", "length", "fingerprints", "a", "b", "gaps"}
    assert set(passage["a"]) == {"file", "units", "bytes", "lines"}
    assert set(with_base["clusters"][0]) == {"number", "members", "pairs", "max_similarity"}
    assert set(with_base["submissions"][0]) == {"name", "role", "units", "fingerprints", "files"}
