"""A generated class of submissions and CLI runners for the hostile-input tests of the CLI."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

from click.testing import CliRunner, Result

from winnow.cli.main import main

STUDENTS = ("alice", "bob", "carol", "dave")


def program(seed: int, lines: int = 40) -> str:
    """A small Python program made of ``lines`` random arithmetic statements."""
    rng = random.Random(seed)
    names = [f"v{i}" for i in range(8)]
    body = ["def solve(data):", "    total = 0"]
    for _ in range(lines):
        a, b = rng.sample(names, 2)
        op = rng.choice("+-*")
        body.append(f"    {a} = {b} {op} {rng.randrange(1, 99)} if data else {a}")
        if rng.random() < 0.3:
            body.append(f"    total += {a} * {rng.randrange(2, 9)}")
    body += ["    return total", "", "print(solve([1, 2, 3]))", ""]
    return "\n".join(body)


def make_class(root: Path) -> Path:
    """``root/class``: alice wrote a program, bob copied it, carol copied half of it
    and dave wrote his own; one folder per student (compare with ``--each``)."""
    folder = root / "class"
    original = program(1)
    half = original.splitlines()[: len(original.splitlines()) // 2]
    texts = {"alice": original, "bob": original.replace("total", "acc"),
             "carol": "\n".join(half + program(3, 20).splitlines()[2:]), "dave": program(4)}
    for name, text in texts.items():
        (folder / name).mkdir(parents=True)
        (folder / name / "main.py").write_text(text, encoding="utf-8")
    return folder


def winnow(*args: str | Path) -> Result:
    """``winnow ARGS`` in this process (one worker, no progress bar where it applies)."""
    return CliRunner().invoke(main, [str(a) for a in args])


def pairs_of(csv_text: str) -> list[tuple[str, str, str]]:
    """``(a, b, similarity)`` rows of ``winnow compare --format csv``."""
    rows = csv.DictReader(io.StringIO(csv_text))
    return [(row["file_a"], row["file_b"], row["similarity"]) for row in rows]


def compare_pairs(folder: Path, *extra: str | Path) -> list[tuple[str, str, str]]:
    """The pairs of ``winnow compare --each folder`` (exit 0 required)."""
    result = winnow("compare", "-q", "-j", "1", "--format", "csv", "--each", folder, *extra)
    assert result.exit_code == 0, result.output + result.stderr
    return pairs_of(result.stdout)
