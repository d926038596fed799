"""One option vocabulary: old spellings still work for one release, with a
deprecation message on standard error; -m/--max-df has one type everywhere;
commands do not import each other."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.cli.main import COMMANDS, load_command
from winnow.cli.options import MAX_DF, build_frontend_options
from winnow.cli.vocabulary import RENAMED, renamed_args
from winnow.config import max_df_count

SRC = Path(__file__).resolve().parents[2] / "src" / "winnow" / "cli"
TEXT = ("It was the best of times, it was the worst of times, it was the age of wisdom, "
        "it was the age of foolishness, it was the epoch of belief. ")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("command", "old", "new"), [
    ("compare", ["--similarity", "dice"], ["--score", "dice"]),
    ("compare", ["--similarity=dice"], ["--score", "dice"]),
    ("compare", ["-m", "5", "--max-occurrences", "7"], ["-m", "5", "--max-df", "7"]),
    ("compare", ["--keep", "case", "--keep", "markdown"],
     ["--frontend-option", "keep_case=true", "--frontend-option", "notebook_markdown=true"]),
    ("compare", ["--engine", "in-memory"], ["--pair-engine", "in-memory"]),
    ("dedup", ["--similarity", "0.5", "--containment", "0.9"],
     ["--min-similarity", "0.5", "--min-containment", "0.9"]),
    ("dedup", ["--keep", "representative"], ["--keep-records", "representative"]),
    ("dedup-files", ["--keep", "oldest"], ["--keep-copy", "oldest"]),
    ("groups", ["--size-ratio", "0.5"], ["--min-size-ratio", "0.5"]),
    ("evaluate", ["--cluster-threshold=0.7"], ["--min-cluster-similarity", "0.7"]),
    ("compare", ["a", "--", "--similarity"], ["a", "--", "--similarity"]),
    ("index", ["--keep", "x"], ["--keep", "x"]),
])
def test_old_spellings_become_the_new_ones(command: str, old: list[str], new: list[str]) -> None:
    assert renamed_args(command, old) == new


def test_every_new_spelling_is_an_option_of_its_command() -> None:
    for command, renamed in RENAMED.items():
        options = {opt for param in load_command(command).params for opt in param.opts}
        for item in renamed:
            assert item.new in options, (command, item.new)
            assert item.old not in options, (command, item.old)


def test_an_old_spelling_works_and_says_it_is_deprecated(tmp_path: Path) -> None:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(TEXT * 3)
    files = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    code, new_out, new_err = run("compare", *files, "--score", "dice", "--format", "json",
                                 "-q")
    assert code == 0 and "deprecated" not in new_err
    code, old_out, old_err = run("compare", *files, "--similarity", "dice", "--format",
                                 "json", "-q")
    assert code == 0
    assert "`winnow compare --similarity` is deprecated" in old_err and "--score" in old_err
    assert json.loads(old_out)["parameters"] == json.loads(new_out)["parameters"]
    assert json.loads(old_out)["parameters"]["similarity"] == "dice"


def test_old_keep_switch_means_the_front_end_option(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Hello World, hello world.\n")
    old = run("tokens", str(tmp_path / "a.txt"), "--keep", "case", "--format", "json")
    new = run("tokens", str(tmp_path / "a.txt"), "--frontend-option", "keep_case=true",
              "--format", "json")
    plain = run("tokens", str(tmp_path / "a.txt"), "--format", "json")
    assert old[0] == new[0] == 0 and old[1] == new[1] != plain[1]
    assert "deprecated" in old[2] and "deprecated" not in new[2]


@pytest.mark.parametrize(("text", "value"), [
    ("50", 50), ("1", 1), ("0", 0), ("0.25", 0.25), ("25%", 0.25), ("100%", 0), ("7.0", 7)])
def test_max_df_takes_a_count_a_share_or_zero(text: str, value: float) -> None:
    converted = MAX_DF.convert(text, None, None)
    assert converted == value and type(converted) is type(value)


@pytest.mark.parametrize("text", ["-1", "2.5", "abc", "150%", "0%", "nan"])
def test_max_df_refuses_anything_else(text: str) -> None:
    with pytest.raises(click.BadParameter):
        MAX_DF.convert(text, None, None)


def test_a_share_becomes_a_count_of_the_documents() -> None:
    assert max_df_count(0.001, 100_000) == 100
    assert max_df_count(0.25, 10) == 3
    assert max_df_count(0.001, 10) == 2  # a fingerprint can still pair two documents
    assert max_df_count(0, 40) == 40 and max_df_count(7, 40) == 7


def test_every_command_takes_the_same_max_df_type() -> None:
    types = {name: param.type for name in ("compare", "evaluate", "groups", "scan", "dedup")
             for param in load_command(name).params if "--max-df" in param.opts}
    assert len(types) == 5 and set(types.values()) == {MAX_DF}
    assert all("-m" in param.opts for name in types for param in load_command(name).params
               if "--max-df" in param.opts)


def test_dedup_takes_a_share_of_the_records(tmp_path: Path) -> None:
    # not identical (identical records are clustered whatever the cap)
    records = [{"text": TEXT * 2 + end} for end in ("alpha omega", "the end", "fin du texte")]
    data = tmp_path / "c.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records))
    capped = run("dedup", str(data), "-m", "0.5", "-q")  # 2 of 3 records: nothing pairs
    free = run("dedup", str(data), "-m", "0", "-q")
    assert capped[0] == free[0] == 0
    assert capped[1] == "" and len(free[1].splitlines()) == 3


def test_groups_take_a_share_of_the_files(tmp_path: Path) -> None:
    for name in "abc":
        (tmp_path / f"{name}.txt").write_text(TEXT * 20 + f"and file {name} ends here")
    db = str(tmp_path / "w.db")
    assert run("index", str(tmp_path), "--db", db, "-q", "-j", "1")[0] == 0
    capped = json.loads(run("groups", "--db", db, "-m", "50%", "--format", "json")[1])
    free = json.loads(run("groups", "--db", db, "-m", "0", "--format", "json")[1])
    assert capped["options"]["max_df"] == 2 and free["options"]["max_df"] == 3  # of 3 files
    assert free["counts"]["similar"] == 1 and capped["counts"]["similar"] == 0


def test_front_end_options_share_one_parser() -> None:
    options = build_frontend_options("chars", ("keep_case=yes", "unit=words"))
    assert options.keep_case and options.unit == "words" and not options.keep_literals
    with pytest.raises(click.UsageError, match="keep_case wants true or false"):
        build_frontend_options("chars", ("keep_case=maybe",))


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}


def test_commands_do_not_import_each_other() -> None:
    command_modules = {target.split(":")[0] for target, _ in COMMANDS.values()}
    for module in command_modules:
        path = SRC / f"{module.rsplit('.', 1)[1]}.py"
        assert not (_imported(path) & (command_modules - {module})), module


def test_dedup_s_old_similarity_is_its_threshold(tmp_path: Path) -> None:
    other = ("Call me Ishmael. Some years ago, never mind how long precisely, having little "
             "or no money in my purse, and nothing particular to interest me on shore. ")
    records = [{"text": TEXT * 2}, {"text": TEXT + other}]  # half of each is shared
    data = tmp_path / "c.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records))
    old = run("dedup", str(data), "--similarity", "0.99", "--containment", "0.99", "-q")
    new = run("dedup", str(data), "--min-similarity", "0.99", "--min-containment", "0.99",
              "-q")
    loose = run("dedup", str(data), "--min-similarity", "0.1", "-q")
    assert old[0] == new[0] == loose[0] == 0
    assert old[1] == new[1] != loose[1]
    assert "`winnow dedup --similarity` is deprecated" in old[2] and "--min-similarity" in old[2]
    assert "`winnow dedup --containment` is deprecated" in old[2]
