"""The sif commands as users meet them: one threshold unit, dircmp's statuses and
switches, interesting sets stated in one measure, query's messages, index --info."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.cli.options import FRACTION


def text(seed: int, size: int) -> bytes:
    rng = np.random.default_rng(seed)
    letters = rng.integers(97, 123, size, dtype=np.uint8)
    letters[rng.random(size) < 0.15] = 32
    return letters.tobytes()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# -- one unit for thresholds ------------------------------------------------------------

@pytest.mark.parametrize(("given", "value"), [
    ("0.5", 0.5), ("0", 0.0), ("1", 1.0), (".25", 0.25), ("25%", 0.25), ("100%", 1.0),
    ("0.5%", 0.005),
])
def test_fraction_accepts_fractions_and_explicit_percentages(given: str, value: float) -> None:
    assert FRACTION.convert(given, None, None) == pytest.approx(value)


@pytest.mark.parametrize(("given", "message"), [
    ("25", "did you mean 0.25 (25%)?"), ("50", "did you mean 0.5 (50%)?"),
    ("150", "not a fraction from 0 to 1"), ("-0.1", "not a fraction from 0 to 1"),
    ("nan", "not a fraction"), ("abc", "not a number"), ("120%", "not a fraction"),
])
def test_fraction_refuses_everything_else_with_a_clear_message(given: str,
                                                               message: str) -> None:
    with pytest.raises(click.BadParameter, match=re.escape(message)):
        FRACTION.convert(given, None, None)


@pytest.fixture
def contained_pair(tmp_path: Path) -> tuple[Path, Path]:
    """``a_big.txt`` holds all of ``b_small.txt`` (a quarter of it) and more; plus
    ``c_other.txt``, unrelated.  Returns the folder and its index."""
    root = tmp_path / "pair"
    root.mkdir()
    small = text(5, 10_000)
    (root / "a_big.txt").write_bytes(text(6, 15_000) + small + text(7, 15_000))
    (root / "b_small.txt").write_bytes(small)
    (root / "c_other.txt").write_bytes(text(8, 10_000))
    db = tmp_path / "pair.db"
    assert run("index", str(root), "--db", str(db), "-j", "1", "-q")[0] == 0
    return root, db


@pytest.mark.parametrize("command", ["groups", "query", "scan", "dircmp"])
def test_a_percentage_where_a_fraction_is_expected_is_a_usage_error(
        command: str, contained_pair: tuple[Path, Path]) -> None:
    root, db = contained_pair
    args = {"groups": ["--db", str(db)],
            "query": [str(root / "b_small.txt"), "--db", str(db)],
            "scan": [str(root), "-j", "1"], "dircmp": [str(root), str(root.parent / "x")]}
    (root.parent / "x").mkdir()
    code, out, err = run(command, *args[command], "--threshold", "25")
    assert code == 2 and out == ""
    assert "'--threshold'" in err and "did you mean 0.25 (25%)?" in err


@pytest.mark.parametrize("option", ["--min-similarity", "--cluster-threshold"])
def test_compare_thresholds_take_the_same_unit(option: str, tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text("def f(x):\n    return x + 1\n" * 20)
    files = [str(tmp_path / "a.py"), str(tmp_path / "b.py")]
    code, _, err = run("compare", *files, option, "40", "-q")
    assert code == 2 and "did you mean 0.4 (40%)?" in err
    code, out, _ = run("compare", *files, option, "40%", "-q", "--format", "json")
    assert code == 0 and json.loads(out)["pairs"]


def test_percent_sign_and_fraction_give_the_same_groups(
        contained_pair: tuple[Path, Path]) -> None:
    _, db = contained_pair
    as_fraction = run("groups", "--db", str(db), "--threshold", "0.3", "--format", "csv")
    as_percent = run("groups", "--db", str(db), "--threshold", "30%", "--format", "csv")
    assert as_fraction == as_percent and as_fraction[0] == 0
    groups = list(csv.DictReader(io.StringIO(as_fraction[1])))
    assert {Path(r["path"]).name for r in groups} == {"a_big.txt", "b_small.txt"}
    # 0.3 is 30 %, not 0.3 %: the small file's share of the big one is ~25 %
    assert all(float(r["similarity"]) >= 0.3 for r in groups)


# -- groups --interesting -----------------------------------------------------------------

def test_interesting_rows_state_the_measure_of_the_header(
        contained_pair: tuple[Path, Path]) -> None:
    _, db = contained_pair
    code, out, _ = run("groups", "--db", str(db), "--threshold", "0.5", "--interesting")
    assert code == 0
    rows = out.partition("interesting sets: ")[2]
    assert "every two members share at least 50% of the smaller file's fingerprints" in rows
    block = rows.split("\n\n", 1)[1]
    lines = [line.split() for line in block.splitlines() if line.strip()]
    # the big file is the reference; the small one's row is its share of the smaller file
    assert [(tag, Path(path).name) for tag, path, _ in lines] == [
        ("R100", "a_big.txt"), ("100", "b_small.txt")]
    code, out, _ = run("groups", "--db", str(db), "--threshold", "0.5", "--interesting",
                       "--format", "json")
    interesting = [g for g in json.loads(out)["groups"] if g["kind"] == "interesting"]
    assert interesting and all(m["similarity"] >= 0.5 for g in interesting
                               for m in g["members"])


# -- query ------------------------------------------------------------------------------

def test_query_a_missing_file_says_no_such_file(contained_pair: tuple[Path, Path],
                                                tmp_path: Path) -> None:
    root, db = contained_pair
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    code, out, err = run("query", str(tmp_path / "missing.txt"), str(tmp_path / "dangling"),
                         str(root / "b_small.txt"), "--db", str(db))
    assert code == 1
    assert f"{tmp_path / 'missing.txt'}: no such file\n" in err
    assert f"{tmp_path / 'dangling'}: broken symbolic link\n" in err
    assert "a_big.txt" in out  # the readable query was still answered


def test_query_names_the_best_score_when_nothing_passes(
        contained_pair: tuple[Path, Path]) -> None:
    root, db = contained_pair
    # a quarter of a_big.txt is in b_small.txt: 'contained' is ~25 %, 'contains' 100 %
    code, out, err = run("query", str(root / "a_big.txt"), "--db", str(db))
    assert code == 0 and "0 file(s) at >= 50%" in out
    found = re.search(r"no file at --threshold 0.5 \(contained\); the best is (\S+) at "
                      r"([\d.]+)% contained \(([\d.]+)% under --measure max\)", err)
    assert found, err
    assert Path(found[1]).name == "b_small.txt"
    assert 15 < float(found[2]) < 35 and float(found[3]) == 100.0
    code, out, _ = run("query", str(root / "a_big.txt"), "--db", str(db), "--format", "json")
    best = json.loads(out)["queries"][0]["best_excluded"]
    assert Path(best["match"]).name == "b_small.txt" and best["contains"] == 1.0
    code, out, err = run("query", str(root / "a_big.txt"), "--db", str(db), "--threshold",
                         str(float(found[2]) / 100 - 0.01))
    assert code == 0 and "b_small.txt" in out and err == ""
    code, out, err = run("query", str(root / "a_big.txt"), "--db", str(db),
                         "--measure", "max", "--format", "json")
    assert "b_small.txt" in out and err == ""
    assert json.loads(out)["queries"][0]["best_excluded"] is None


def test_query_says_nothing_when_nothing_shares_a_fingerprint(
        contained_pair: tuple[Path, Path], tmp_path: Path) -> None:
    _, db = contained_pair
    (tmp_path / "new.txt").write_bytes(text(99, 5_000))
    code, out, err = run("query", str(tmp_path / "new.txt"), "--db", str(db))
    assert code == 0 and "0 file(s)" in out and err == ""


# -- index --info -----------------------------------------------------------------------

def test_index_info_is_readable_as_a_table_and_proper_json(
        contained_pair: tuple[Path, Path]) -> None:
    _, db = contained_pair
    code, out, _ = run("index", "--info", "--db", str(db))
    assert code == 0 and "{" not in out and "'" not in out
    fields = dict(line.split(":", 1) for line in out.splitlines())
    assert fields["documents"].strip() == "3 (60.0 kB indexed)"
    assert fields["parameters"].strip() == "sif selection, k = 50, bits = 8, seed 0"
    assert fields["front-end"].strip() == "bytes"
    assert re.fullmatch(r" *\d+ \(one per \d+ bytes\)", fields["fingerprints"])
    assert re.fullmatch(r" *[\d.]+ [kM]B, [\d.]+% of the corpus", fields["index size"])
    code, out, _ = run("index", "--info", "--db", str(db), "--format", "json")
    info = json.loads(out)
    assert code == 0 and info["documents"] == 3 and info["bytes_indexed"] == 60_000
    assert info["params"]["config"]["method"] == "sif"


# -- dircmp -----------------------------------------------------------------------------

@pytest.fixture
def trees(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a", tmp_path / "b"
    (a / "old").mkdir(parents=True)
    (b / "new").mkdir(parents=True)
    kept, moved, twice = text(20, 20_000), text(21, 20_000), text(22, 20_000)
    (a / "kept.txt").write_bytes(kept)
    (b / "kept.txt").write_bytes(kept)
    (b / "new" / "kept-copy.txt").write_bytes(kept)  # present in both, duplicated in B
    (a / "old" / "moved.txt").write_bytes(moved)
    (b / "new" / "moved.txt").write_bytes(moved)  # moved: renamed
    (a / "twice1.txt").write_bytes(twice)
    (a / "twice2.txt").write_bytes(twice)
    (b / "twice1.txt").write_bytes(twice)  # A's second copy is gone, its content kept
    touched = text(23, 30_000)
    (a / "touched.txt").write_bytes(touched)
    (b / "touched.txt").write_bytes(touched + b"\n")  # one byte more
    return a, b


def test_dircmp_tells_copies_from_renames(trees: tuple[Path, Path]) -> None:
    a, b = trees
    code, out, _ = run("dircmp", str(a), str(b), "-j", "1", "-q", "--format", "json")
    assert code == 0
    rows = {(e["status"], e["path_a"], e["path_b"]) for e in json.loads(out)["entries"]}
    assert rows == {("identical", "kept.txt", "kept.txt"),
                    ("copied", "kept.txt", "new/kept-copy.txt"),
                    ("renamed", "old/moved.txt", "new/moved.txt"),
                    ("identical", "twice1.txt", "twice1.txt"),
                    ("copied", "twice2.txt", "twice1.txt"),
                    ("modified", "touched.txt", "touched.txt")}


def test_a_changed_file_is_never_100_percent_similar(trees: tuple[Path, Path]) -> None:
    a, b = trees
    code, out, _ = run("dircmp", str(a), str(b), "-j", "1", "-q", "--format", "csv")
    [row] = [r for r in csv.DictReader(io.StringIO(out)) if r["status"] == "modified"]
    # every fingerprint survives the one-byte edit; the checksums still differ:
    # at most 1 - 1/30001 = 0.999967, written rounded down (never as 1)
    assert code == 0 and row["similarity"] == "0.9999"
    code, out, _ = run("dircmp", str(a), str(b), "-j", "1", "-q")
    assert code == 0 and "modified  touched.txt (99.9% similar)\n" in out


def test_dircmp_changes_only_lists_differences_like_diff_rq(trees: tuple[Path, Path],
                                                            tmp_path: Path) -> None:
    a, b = trees
    code, out, _ = run("dircmp", str(a), str(b), "-j", "1", "-q", "--changes-only")
    assert code == 0 and "identical" not in out and "Folder similarity" not in out
    assert [line.split()[0] for line in out.splitlines()] == [
        "renamed", "copied", "copied", "modified"]
    code, out, _ = run("dircmp", str(a), str(b), "-j", "1", "--changes-only",
                       "--format", "csv")
    assert {r["status"] for r in csv.DictReader(io.StringIO(out))} == {
        "renamed", "copied", "modified"}
    same = tmp_path / "same"
    same.mkdir()
    (same / "kept.txt").write_bytes((a / "kept.txt").read_bytes())
    twin = tmp_path / "twin"
    twin.mkdir()
    (twin / "kept.txt").write_bytes((a / "kept.txt").read_bytes())
    code, out, _ = run("dircmp", str(same), str(twin), "-j", "1", "--changes-only")
    assert code == 0 and out == ""


def test_dircmp_quiet_prints_no_summary(trees: tuple[Path, Path]) -> None:
    a, b = trees
    code, out, err = run("dircmp", str(a), str(b), "-j", "1", "-q")
    assert code == 0 and err == ""
    assert "Folder similarity" not in out and "files;" not in out and "identical" in out
    code, out, err = run("dircmp", str(a), str(b), "-j", "1")
    assert "winnow dircmp:" in err and "Folder similarity" in out
