"""Every command exits with the codes docs/cli.md documents, on real runs.

0 done; 1 some input could not be read or used (named on standard error, the
rest processed); 2 usage error (bad option or value, or parameters other than
an index's); 3 failed for a reason outside the input (output not writable,
index in use).  An error leaves with its own code whichever command raised it,
and a reader that stops early ends every command the same way.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.errors import (
    IndexBusy,
    IndexMismatch,
    InputError,
    OutputError,
    WinnowError,
)

ROOT = Path(__file__).resolve().parents[2]
CODE = "def mean(xs):\n    total = 0\n    for x in xs:\n        total += x\n" \
       "    return total / len(xs)\n"
OTHER = "class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, x):\n" \
        "        self.items.append(x)\n"
UNWRITABLE = "/nonexistent-folder/out.txt"

Case = tuple[str, int, Callable[[Path], list[str]]]


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two copies of one program and another, their index, a labels file."""
    root = tmp_path_factory.mktemp("exit")
    (root / "s").mkdir()
    (root / "s" / "a.py").write_text(CODE * 20)
    (root / "s" / "b.py").write_text(CODE * 20)
    (root / "s" / "c.py").write_text(OTHER * 20)
    (root / "t").mkdir()
    (root / "labels.csv").write_text("file_a,file_b,label\ns/a.py,s/b.py,1\ns/a.py,s/c.py,0\n"
                                     "s/b.py,s/c.py,0\n")
    (root / "gone.csv").write_text("file_a,file_b,label\ns/a.py,s/zz.py,1\ns/a.py,s/c.py,0\n")
    (root / "bad.csv").write_text("a,b\nx,y\n")
    assert run("index", str(root / "s"), "--db", str(root / "w.db"), "-q", "-j", "1")[0] == 0
    (root / "d").mkdir()  # two copies, one touched after indexing: dedup skips it
    for name in ("x", "y"):
        (root / "d" / name).write_text(CODE * 20)
    assert run("index", str(root / "d"), "--db", str(root / "d.db"), "-q", "-j", "1")[0] == 0
    os.utime(root / "d" / "y", (1, 1))
    records = [{"text": OTHER * 3}, {"text": CODE * 3}, {"text": OTHER * 3 + "# one more"}]
    (root / "c.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (root / "bad.jsonl").write_text('{"text": "fine"}\nnot JSON\n')
    return root


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stderr


def db(w: Path) -> list[str]:
    return ["--db", str(w / "w.db")]


def s(w: Path, *names: str) -> list[str]:
    return [str(w / "s" / name) for name in names]


CASES: list[Case] = [
    # compare
    ("compare", 0, lambda w: [*s(w, "a.py", "b.py"), "-q"]),
    ("compare", 1, lambda w: [*s(w, "a.py", "missing.py", "b.py"), "-q"]),
    ("compare", 2, lambda w: [*s(w, "a.py", "b.py"), "--min-similarity", "40"]),
    ("compare", 3, lambda w: [*s(w, "a.py", "b.py"), "-q", "-o", UNWRITABLE]),
    # evaluate
    ("evaluate", 0, lambda w: [str(w / "labels.csv"), "--root", str(w), "-q", "-j", "1"]),
    ("evaluate", 1, lambda w: [str(w / "gone.csv"), "--root", str(w), "-q", "-j", "1"]),
    ("evaluate", 2, lambda w: [str(w / "bad.csv"), "--root", str(w), "-q"]),
    ("evaluate", 3, lambda w: [str(w / "labels.csv"), "--root", str(w), "-q", "-j", "1",
                               "-o", UNWRITABLE]),
    # fingerprint, tokens, languages
    ("fingerprint", 0, lambda w: s(w, "a.py")),
    ("fingerprint", 1, lambda w: s(w, "a.py", "missing.py")),
    ("fingerprint", 2, lambda w: [*s(w, "a.py"), "-k", "0"]),
    ("fingerprint", 3, lambda w: [*s(w, "a.py"), "-o", UNWRITABLE]),
    ("tokens", 0, lambda w: s(w, "a.py")),
    ("tokens", 1, lambda w: s(w, "a.py", "missing.py")),
    ("tokens", 2, lambda w: [*s(w, "a.py"), "--no-such-option"]),
    ("tokens", 3, lambda w: [*s(w, "a.py"), "-o", UNWRITABLE]),
    ("languages", 0, lambda w: []),
    ("languages", 2, lambda w: ["--no-such-option"]),
    ("languages", 3, lambda w: ["-o", UNWRITABLE]),
    # the sif commands
    ("index", 0, lambda w: [str(w / "s"), *db(w), "-q"]),
    ("index", 1, lambda w: [str(w / "s"), str(w / "missing"), *db(w), "-q"]),
    ("index", 2, lambda w: [str(w / "s"), *db(w), "-k", "30", "-q"]),  # not the index's
    ("index", 3, lambda w: ["--info", *db(w), "-o", UNWRITABLE]),
    ("query", 0, lambda w: [*s(w, "a.py"), *db(w)]),
    ("query", 1, lambda w: [*s(w, "missing.py", "a.py"), *db(w)]),
    ("query", 2, lambda w: [*s(w, "a.py"), *db(w), "--threshold", "50"]),
    ("query", 3, lambda w: [*s(w, "a.py"), *db(w), "-o", UNWRITABLE]),
    ("groups", 0, lambda w: db(w)),
    ("groups", 1, lambda w: ["--db", str(w / "labels.csv")]),  # not an index
    ("groups", 2, lambda w: [*db(w), "--threshold", "50"]),
    ("groups", 3, lambda w: [*db(w), "-o", UNWRITABLE]),
    ("scan", 0, lambda w: [str(w / "s"), "-q", "-j", "1"]),
    ("scan", 1, lambda w: [str(w / "s"), str(w / "missing"), "-q", "-j", "1"]),
    ("scan", 2, lambda w: [str(w / "s"), "--size-ratio", "2"]),
    ("scan", 3, lambda w: [str(w / "s"), "-q", "-j", "1", "-o", UNWRITABLE]),
    ("dircmp", 0, lambda w: [str(w / "s"), str(w / "t"), "-q", "-j", "1"]),
    ("dircmp", 1, lambda w: [str(w / "s"), str(w / "missing"), "-q"]),
    ("dircmp", 2, lambda w: [str(w / "s"), str(w / "t"), "--threshold", "50"]),
    ("dircmp", 3, lambda w: [str(w / "s"), str(w / "t"), "-q", "-j", "1", "-o", UNWRITABLE]),
    ("dedup-files", 0, lambda w: db(w)),
    ("dedup-files", 1, lambda w: ["--db", str(w / "d.db"), "--link"]),
    ("dedup-files", 2, lambda w: [*db(w), "--apply"]),
    ("dedup-files", 3, lambda w: [*db(w), "-o", UNWRITABLE]),
    # dedup: records of corpora
    ("dedup", 0, lambda w: [str(w / "c.jsonl"), "-q"]),
    ("dedup", 1, lambda w: [str(w / "c.jsonl"), str(w / "bad.jsonl"), "-q"]),
    ("dedup", 2, lambda w: [str(w / "c.jsonl"), "--similarity", "50"]),
    ("dedup", 3, lambda w: [str(w / "c.jsonl"), "-q", "-o", UNWRITABLE]),
    # contamination: evaluation items in a corpus
    ("contamination", 0, lambda w: [str(w / "c.jsonl"), "--corpus", str(w / "c.jsonl"), "-q"]),
    ("contamination", 1, lambda w: [str(w / "c.jsonl"), "--corpus", str(w / "bad.jsonl"),
                                    "-q"]),
    ("contamination", 2, lambda w: [str(w / "c.jsonl"), "--corpus", str(w / "c.jsonl"),
                                    "-k", "20"]),
    ("contamination", 3, lambda w: [str(w / "c.jsonl"), "--corpus", str(w / "c.jsonl"), "-q",
                                    "-o", UNWRITABLE]),
    ("experiments", 0, lambda w: ["--only", "lowentropy", "--quick", "--out", str(w / "exp")]),
    ("experiments", 1, lambda w: ["--only", "html", "--quick", "--corpus", str(w / "s"),
                                  "--out", str(w / "exp")]),  # no HTML pages there
    ("experiments", 2, lambda w: ["--only", "nonsense"]),
    ("experiments", 3, lambda w: ["--only", "lowentropy", "--quick", "--out", str(w / "exp"),
                                  "-o", UNWRITABLE]),
    # serve runs until stopped (0 on SIGINT/SIGTERM, tested in tests/serve)
    ("serve", 2, lambda w: ["--moss-port", "abc"]),
    ("serve", 3, lambda w: ["--data", str(w / "labels.csv" / "data"), "--moss-port", "0",
                            "--http-port", "0"]),
]


def documented_codes() -> set[int]:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return {int(code) for code in re.findall(r"^\| (\d) \|", section, re.MULTILINE)}


def test_the_codes_tested_are_the_documented_ones() -> None:
    assert documented_codes() == {0, 1, 2, 3}
    assert {command for command, _, _ in CASES} == set(main.commands), \
        "a command has no exit-code cases"


@pytest.mark.parametrize(("command", "code", "args"), CASES,
                         ids=[f"{c}-{code}" for c, code, _ in CASES])
def test_exit_code(command: str, code: int, args: Callable[[Path], list[str]],
                   work: Path) -> None:
    got, err = run(command, *args(work))
    assert got == code, err
    if code:  # every failure says why, on standard error
        assert "winnow: error: " in err or "Error: " in err or "winnow: warning: " in err


@pytest.fixture
def busy_index(work: Path) -> Iterator[Path]:
    """The index held open for writing by another process (DuckDB's single writer)."""
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\nfrom winnow.index import FingerprintIndex\n"
         f"with FingerprintIndex({str(work / 'w.db')!r}):\n"
         "    print('open', flush=True)\n    time.sleep(60)\n"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        yield work
    finally:
        holder.kill()
        holder.wait(timeout=30)
        if holder.stdout is not None:
            holder.stdout.close()


@pytest.mark.parametrize("command", ["index", "query", "groups", "dedup-files"])
def test_an_index_in_use_is_exit_3(command: str, busy_index: Path) -> None:
    w = busy_index
    args = {"index": [str(w / "s"), "-q"], "query": s(w, "a.py"), "groups": [],
            "dedup-files": []}[command]
    got, err = run(command, *args, *db(w))
    assert got == 3 and "in use by another winnow process" in err


# --- one mapping: the group's, whichever command raised --------------------------------

#: Where each command's work can be made to fail: the first library call it makes.
FAIL_AT: dict[str, tuple[str, list[str]]] = {
    "compare": ("winnow.cli.compare.run_compare", ["a.py", "b.py", "-q"]),
    "evaluate": ("winnow.cli.evaluate.run_evaluation", ["labels.csv", "--root", ".", "-q"]),
    "fingerprint": ("winnow.cli.fingerprint.check_outputs", ["a.py"]),
    "tokens": ("winnow.cli.tokens.check_outputs", ["a.py"]),
    "languages": ("winnow.cli.languages.languages", []),
    "index": ("winnow.cli.index.check_outputs", ["s", "-q"]),
    "query": ("winnow.cli.query.check_outputs", ["a.py"]),
    "groups": ("winnow.cli.groups.check_outputs", []),
    "scan": ("winnow.cli.scan.check_outputs", ["s"]),
    "dircmp": ("winnow.cli.dircmp.check_outputs", ["s", "t"]),
    "dedup-files": ("winnow.cli.dedup_files.FingerprintIndex", []),
    "dedup": ("winnow.cli.dedup.check_outputs", ["records.jsonl", "-q"]),
    "contamination": ("winnow.cli.contamination.check_outputs",
                      ["items.jsonl", "--corpus", "records.jsonl", "-q"]),
    "experiments": ("winnow.cli.experiments.check_outputs", ["--quick"]),
    "serve": ("winnow.serve.app.serve", ["--moss-port", "0", "--http-port", "0"]),
}

ERRORS = [InputError("in.py", "unreadable"), IndexMismatch("other parameters"),
          IndexBusy("in use"), OutputError("out.csv", "not writable")]


def test_every_command_can_be_made_to_fail() -> None:
    assert set(FAIL_AT) == set(main.commands)


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("command", sorted(FAIL_AT))
def test_an_error_leaves_with_its_own_code_from_every_command(
        command: str, error: WinnowError, monkeypatch: pytest.MonkeyPatch) -> None:
    target, args = FAIL_AT[command]

    def fails(*_: object, **__: object) -> None:
        raise error

    monkeypatch.setattr(target, fails)
    got, err = run(command, *args)
    assert got == error.exit_code, err
    assert err.strip().splitlines()[-1] == f"winnow: error: {error}"


# --- a reader that stops early: every command alike ------------------------------------

@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Forty small programs: every output below is far beyond a pipe's 64 KiB."""
    root = tmp_path_factory.mktemp("many")
    for i in range(40):
        (root / f"p{i:02d}.py").write_text(CODE * (5 + i % 4) + OTHER * (i % 3), "utf-8")
    return root


@pytest.mark.parametrize("args", [
    ["compare", "-q", "-j", "1", "-n", "0", "--format", "jsonl"],
    ["tokens", "--format", "jsonl"],
    ["tokens"],
], ids=["compare", "tokens-jsonl", "tokens-table"])
def test_a_reader_that_stops_after_one_line_ends_every_command_alike(
        args: list[str], many: Path, tmp_path: Path) -> None:
    """``winnow ... | head -1`` through a real pipe: exit 0, nothing on standard error."""
    files = sorted(str(path) for path in many.iterdir())
    with (tmp_path / "stderr").open("w+b") as err:
        writer = subprocess.Popen([sys.executable, "-m", "winnow", *args, *files],
                                  stdout=subprocess.PIPE, stderr=err)
        assert writer.stdout is not None
        head = subprocess.run(["head", "-1"], stdin=writer.stdout, capture_output=True,
                              timeout=120, check=True)
        writer.stdout.close()  # head, the only reader, has gone
        code = writer.wait(timeout=120)
        err.seek(0)
        message = err.read().decode()
    assert code == 0, message
    assert head.stdout.count(b"\n") == 1 and message == ""


@pytest.mark.parametrize("args", [
    ["--help"], ["--version"], ["languages"], ["tokens", "--help"],
    ["tokens", "{a}"], ["compare", "-q", "-j", "1", "{a}", "{b}"],
], ids=lambda args: "-".join(args[:2]).replace("{", "").replace("}", ""))
def test_a_reader_gone_before_the_first_write_ends_every_command_alike(
        args: list[str], work: Path) -> None:
    """Standard output a pipe whose reader has closed: exit 0, nothing on standard error."""
    paths = {"{a}": s(work, "a.py")[0], "{b}": s(work, "b.py")[0]}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "winnow",
                               *(paths.get(arg, arg) for arg in args)],
                              stdout=write_end, stderr=subprocess.PIPE, text=True,
                              timeout=120, check=False)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (0, "")


def test_a_failed_write_to_the_output_file_names_it(work: Path) -> None:
    """``-o /dev/full``: the write itself fails (no space), after the checks."""
    for command, args in (("tokens", s(work, "a.py")), ("compare", [*s(work, "a.py", "b.py"),
                                                                   "-q"])):
        got, err = run(command, *args, "-o", "/dev/full")
        assert got == 3, err
        assert "winnow: error: /dev/full: No space left on device" in err, err
