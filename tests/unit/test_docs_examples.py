"""Docs that cannot drift: every Python example and command of README.md and
docs/*.md runs (or says why it cannot), and the sample outputs are what the
examples print.  How blocks are read and marked: ``tests/unit/docs_examples.py``.

When a sample differs, the failure shows a diff; after a change that moves
scores or outputs on purpose, rerun with ``WINNOW_DOCS_UPDATE=1`` to write
the new samples into the pages (a ``...`` line of a sample is kept, with the
lines before it), and review the diff.
"""

from __future__ import annotations

import difflib
import glob
import io
import os
import shlex
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.unit.docs_examples import (
    PAGES,
    ROOT,
    Block,
    blocks,
    command_lines,
    make_workspace,
    matches,
    normalise,
    sessions,
)
from winnow.cli.main import main

UPDATE = os.environ.get("WINNOW_DOCS_UPDATE") == "1"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    make_workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path


def run_command(block: Block, line: str, *, stderr: bool = False) -> str:
    """Run one ``winnow ...`` line in this process; its standard output (then
    its standard error, with ``stderr``, as a terminal shows both)."""
    args = shlex.split(line, comments=True)
    assert args and args[0] == "winnow", (
        f"{block.where}: `{line}` is not a winnow command: make it one, or mark the "
        "block <!-- not runnable: REASON -->")
    args = [os.path.expanduser(arg) for arg in args]
    expanded = [match for arg in args[1:]
                for match in (sorted(glob.glob(arg)) if "*" in arg else [arg]) or [arg]]
    result = CliRunner().invoke(main, expanded)
    assert result.exit_code == 0, (
        f"{block.where}: `{line}` exited {result.exit_code}:\n{result.stderr[-3000:]}"
        f"{'' if result.exception is None else repr(result.exception)}")
    return result.stdout + (result.stderr if stderr else "")


def run_python(block: Block, namespace: dict[str, Any]) -> str:
    """Run a Python block in the page's namespace; what it printed."""
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(compile(block.text, block.where, "exec"), namespace)  # the docs' own code
    return printed.getvalue()


def sample_problem(block: Block, sample: str, printed: str, tmp: Path,
                   offset: int = 0) -> str | None:
    """``None`` when ``printed`` matches ``sample`` (lines ``offset`` on of
    ``block``), else a diff; with ``WINNOW_DOCS_UPDATE=1`` the sample is rewritten."""
    want, got = normalise(sample), normalise(printed, tmp)
    if matches(want, got):
        return None
    if UPDATE:
        update_sample(block, offset, sample, got)
    diff = "\n".join(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                          "documented", "printed", lineterm=""))
    return f"{block.where}: the sample differs from what the example prints:\n{diff}"


def update_sample(block: Block, offset: int, sample: str, got: str) -> None:
    """Write ``got`` over ``sample`` in the page, as long as the sample was
    (up to its ``...`` line, which stays)."""
    lines = sample.splitlines()
    cut = next((i for i, line in enumerate(lines) if line.strip() == "..."), None)
    new = got.splitlines() if cut is None else [*got.splitlines()[:cut], lines[cut]]
    path = ROOT / block.page
    page = path.read_text(encoding="utf-8").split("\n")
    first = block.line + offset  # 0-based index of the sample's first line
    assert page[first:first + len(lines)] == lines, f"{block.where} moved"
    page[first:first + len(lines)] = new
    path.write_text("\n".join(page), encoding="utf-8")


@pytest.mark.parametrize("page", PAGES)
def test_the_examples_of_a_page_run_and_print_their_samples(page: str,
                                                            workspace: Path) -> None:
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    printed: str | None = None
    problems: list[str] = []
    for block in blocks(page):
        if block.is_output:
            assert printed is not None, f"{block.where}: an output sample after no example"
            problems.append(sample_problem(block, block.text, printed, workspace) or "")
            continue
        printed = None
        if block.kind == "text" or block.skip_reason is not None:
            continue
        if block.kind == "python":
            printed = run_python(block, namespace)
        elif sessions(block.text):
            lines = block.text.splitlines()
            for command, sample in sessions(block.text):
                offset = lines.index(f"$ {command}") + 1
                printed_here = run_command(block, command, stderr=True)
                problems.append(sample_problem(block, sample, printed_here, workspace,
                                               offset) or "")
        else:
            printed = "".join(run_command(block, line) for line in command_lines(block.text))
    problems = [problem for problem in problems if problem]
    assert not problems, "\n\n".join(problems)


def test_examples_run_unless_marked_with_a_reason() -> None:
    """Most examples run; the others are marked, each with its reason."""
    examples = [b for page in PAGES for b in blocks(page) if b.kind != "text"]
    runnable = [b for b in examples if b.skip_reason is None]
    assert len(runnable) >= 10, [b.where for b in runnable]
    for block in examples:
        assert block.marker is None or block.skip_reason or block.is_output, (
            f"{block.where}: unknown marker {block.marker!r}")


@pytest.mark.parametrize(("expected", "actual", "ok"), [
    ("a\nb", "a\nb", True), ("a\n...", "a\nb\nc", True), ("a\n...\nd", "a\nb\nd", True),
    ("a\n...", "a", True), ("a\nb", "a\nc", False), ("a\n...\nd", "a\nb\nc", False),
])
def test_a_sample_may_leave_lines_out(expected: str, actual: str, ok: bool) -> None:
    assert matches(expected, actual) is ok


def test_times_and_the_temporary_folder_are_normalised(tmp_path: Path) -> None:
    text = f"wrote {tmp_path}/x.html in 1.5 s  \n\n"
    assert normalise(text, tmp_path) == "wrote <tmp>/x.html in <time> s"
