"""Every command exits with the codes docs/cli.md documents, on real runs.

0 done; 1 some input could not be read or used (named on standard error, the
rest processed); 2 usage error (bad option or value, or parameters other than
an index's); 3 failed for a reason outside the input (output not writable,
index in use).  ``evaluate`` uses 2 for every library error it meets.
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
