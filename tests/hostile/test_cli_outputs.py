"""Outputs never overwrite what a run reads, and are written whole or not at all.

Every command that writes ``-o FILE`` (and ``compare --report``) refuses, before
any work and with exit 2, a target that is one of its inputs, the index or
another output; the target is left byte for byte as it was, and the class's
results are the same as without the refused option.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.hostile.cli_helpers import compare_pairs, make_class, pairs_of, program, winnow

CLI = [sys.executable, "-c", "from winnow.cli.main import main; main()"]


@pytest.fixture
def klass(tmp_path: Path) -> Path:
    return make_class(tmp_path)


@pytest.fixture
def index(klass: Path, tmp_path: Path) -> Path:
    db = tmp_path / "class.db"
    assert winnow("index", "-q", "-j", "1", "--db", db, klass).exit_code == 0
    return db


def snapshot(*paths: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in paths}


# Each case: (arguments, the file the refused output names), built from the class
# folder and the index; the command must exit 2 naming that file and change nothing.
Case = Callable[[Path, Path, Path], tuple[list[str | Path], Path]]


def _page(path: Path) -> Path:
    path.write_text("<p>a submitted page</p>\n", encoding="utf-8")
    return path


def _labels(klass: Path, tmp: Path) -> Path:
    labels = tmp / "labels.csv"
    labels.write_text("file_a,file_b,label\nalice/main.py,bob/main.py,1\n"
                      "alice/main.py,dave/main.py,0\n", encoding="utf-8")
    return labels


CASES: dict[str, Case] = {
    "tokens onto its file": lambda k, db, tmp: (
        ["tokens", k / "alice/main.py", "-o", k / "alice/main.py"], k / "alice/main.py"),
    "fingerprint onto its file": lambda k, db, tmp: (
        ["fingerprint", k / "bob/main.py", "-o", k / "bob/main.py"], k / "bob/main.py"),
    "index --info onto the index": lambda k, db, tmp: (
        ["index", "--info", "--db", db, "-o", db], db),
    "query onto the index": lambda k, db, tmp: (
        ["query", k / "alice/main.py", "--db", db, "-o", db], db),
    "query onto its file": lambda k, db, tmp: (
        ["query", k / "alice/main.py", "--db", db, "-o", k / "alice/main.py"],
        k / "alice/main.py"),
    "scan onto its index": lambda k, db, tmp: (
        ["scan", "-q", "-j", "1", k, "--db", db, "-o", db], db),
    "groups onto the index's log": lambda k, db, tmp: (
        ["groups", "--db", db, "-o", f"{db}.wal"], db),
    "dircmp onto a file it compares": lambda k, db, tmp: (
        ["dircmp", "-q", "-j", "1", k / "alice", k / "bob", "-o", k / "bob/main.py"],
        k / "bob/main.py"),
    "compare onto a submission's file": lambda k, db, tmp: (
        ["compare", "-q", "--each", k, "-o", k / "carol/main.py"], k / "carol/main.py"),
    "compare report onto a submission's file": lambda k, db, tmp: (
        ["compare", "-q", "--each", k, "--report", _page(k / "dave/notes.html")],
        k / "dave/notes.html"),
    "compare report folder onto a submission's file": lambda k, db, tmp: (
        ["compare", "-q", "--each", k, "--report", k / "dave/main.py"], k / "dave/main.py"),
    "compare report folder onto a submission": lambda k, db, tmp: (
        ["compare", "-q", "--each", k, "--report", k / "dave"], k / "dave"),
    "compare output and report on one file": lambda k, db, tmp: (
        ["compare", "-q", "--each", k, "-o", tmp / "same.html", "--report",
         tmp / "same.html"], tmp / "same.html"),
    "compare onto a new file in a submission": lambda k, db, tmp: (
        ["compare", "-q", "--each", k, "-o", k / "carol/pairs.csv"], k / "carol/pairs.csv"),
    "dircmp onto a new file in a folder it compares": lambda k, db, tmp: (
        ["dircmp", "-q", "-j", "1", k / "alice", k / "bob", "-o", k / "bob/x.txt"],
        k / "bob/x.txt"),
    "dedup-files onto the index": lambda k, db, tmp: (
        ["dedup-files", "--db", db, "-o", db], db),
    "dedup-files onto an indexed file": lambda k, db, tmp: (
        ["dedup-files", "--db", db, "-o", k / "dave/main.py"], k / "dave/main.py"),
    "dedup-files onto a new file in a folder it dedups": lambda k, db, tmp: (
        ["dedup-files", "--db", db, k / "dave", "-o", k / "dave/list.txt"],
        k / "dave/list.txt"),
    "evaluate onto its labels": lambda k, db, tmp: (
        ["evaluate", _labels(k, tmp), "--root", k, "-q", "-o", tmp / "labels.csv"],
        tmp / "labels.csv"),
    "evaluate onto a labelled file": lambda k, db, tmp: (
        ["evaluate", _labels(k, tmp), "--root", k, "-q", "-o", k / "dave/main.py"],
        k / "dave/main.py"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_output_onto_an_input_or_the_index_is_refused(
        name: str, klass: Path, index: Path, tmp_path: Path) -> None:
    args, named = CASES[name](klass, index, tmp_path)
    before = compare_pairs(klass)
    watched = [p for p in klass.rglob("*") if p.is_file()] + [index]
    watched += [p for p in tmp_path.glob("*.csv")]
    kept = snapshot(*watched)
    result = winnow(*args)
    assert result.exit_code == 2, result.output + result.stderr
    assert "refusing to write" in result.stderr
    assert named.name in result.stderr or str(named) in result.stderr
    assert snapshot(*watched) == kept, "a refused run changed a file"
    assert not (tmp_path / "same.html").exists()
    assert compare_pairs(klass) == before


@pytest.mark.parametrize("through", ["path", "link"])
def test_dedup_files_never_writes_its_report_onto_the_kept_copy(
        klass: Path, tmp_path: Path, through: str) -> None:
    """The kept copy of a group is neither deleted nor overwritten by ``-o``."""
    (klass / "eve").mkdir()
    (klass / "eve" / "main.py").write_bytes((klass / "alice" / "main.py").read_bytes())
    db = tmp_path / "dups.db"
    assert winnow("index", "-q", "-j", "1", "--db", db, klass).exit_code == 0
    target = klass / "alice" / "main.py"
    if through == "link":
        (tmp_path / "out.txt").symlink_to(target)
        target = tmp_path / "out.txt"
    kept = snapshot(*[p for p in klass.rglob("*") if p.is_file()], db)
    result = winnow("dedup-files", "--db", db, "--delete", "--apply", "-o", target)
    assert result.exit_code == 2, result.output + result.stderr
    assert "refusing to write" in result.stderr and "main.py" in result.stderr
    assert snapshot(*kept) == kept, "a refused run deleted or changed a file"
    listed = winnow("dedup-files", "--db", db)
    assert listed.exit_code == 0 and "eve/main.py" in listed.stdout


def test_an_output_through_a_link_to_an_input_is_refused(klass: Path, tmp_path: Path) -> None:
    link = tmp_path / "out.csv"
    link.symlink_to(klass / "alice" / "main.py")
    kept = snapshot(klass / "alice" / "main.py")
    result = winnow("compare", "-q", "--each", klass, "-o", link)
    assert result.exit_code == 2
    assert "alice" in result.stderr or "out.csv" in result.stderr
    assert snapshot(klass / "alice" / "main.py") == kept


def test_an_unwritable_output_fails_before_the_work(klass: Path, tmp_path: Path) -> None:
    """Checked before indexing: the index a scan would build is never created."""
    db = tmp_path / "new.db"
    result = winnow("scan", "-q", "-j", "1", klass, "--db", db, "-o",
                    tmp_path / "missing" / "groups.txt")
    assert result.exit_code == 3
    assert "missing/groups.txt" in result.stderr and "does not exist" in result.stderr
    assert not db.exists(), "the index was built before the output was checked"


def test_a_failed_write_leaves_the_old_file_whole(klass: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "pairs.csv"
    out.write_text("the previous result\n", encoding="utf-8")
    out.chmod(0o640)
    import winnow.cli.compare as compare_cli

    def broken(result: object, fmt: str, handle: object) -> None:
        handle.write("half a line")  # type: ignore[attr-defined]
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(compare_cli, "write", broken)
    result = winnow("compare", "-q", "-j", "1", "--each", klass, "-o", out)
    assert result.exit_code == 3
    assert out.read_text(encoding="utf-8") == "the previous result\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class", "pairs.csv"]
    monkeypatch.undo()
    assert winnow("compare", "-q", "-j", "1", "--format", "csv", "--each", klass,
                  "-o", out).exit_code == 0
    assert pairs_of(out.read_text(encoding="utf-8")) == compare_pairs(klass)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640, "a replaced file keeps its mode"


@pytest.fixture
def umask() -> Iterator[Callable[[int], None]]:
    old = os.umask(0o022)
    os.umask(old)
    yield os.umask
    os.umask(old)


@pytest.mark.parametrize("mask", [0o077, 0o022])
def test_new_outputs_and_report_pages_follow_the_umask(
        mask: int, klass: Path, tmp_path: Path, umask: Callable[[int], None]) -> None:
    umask(mask)
    out, report = tmp_path / "pairs.csv", tmp_path / "report"
    result = winnow("compare", "-q", "-j", "1", "--each", klass, "-o", out,
                    "--report", report)
    assert result.exit_code == 0, result.stderr
    pages = [out, report / "index.html", *(report / "pairs").glob("*.html")]
    assert len(pages) > 2
    assert {stat.S_IMODE(p.stat().st_mode) for p in pages} == {0o666 & ~mask}


def test_a_special_file_target_is_written_in_place(klass: Path) -> None:
    assert winnow("compare", "-q", "-j", "1", "--each", klass, "-o", os.devnull).exit_code == 0
    assert Path(os.devnull).exists() and not Path(os.devnull).is_file()


def test_a_closed_standard_output_is_one_clear_error(klass: Path) -> None:
    done = subprocess.run([*CLI, "compare", "-q", "-j", "1", "--each", str(klass)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          pass_fds=(), close_fds=True, timeout=120,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 3, done.stderr
    assert "standard output" in done.stderr and "Traceback" not in done.stderr


def test_a_reader_that_stops_early_ends_the_run_quietly(tmp_path: Path) -> None:
    """``compare | head -c 1`` with many pairs: exit 0, no traceback."""
    folder = tmp_path / "big"
    for i in range(40):
        (folder / f"s{i:02d}").mkdir(parents=True)
        (folder / f"s{i:02d}" / "main.py").write_text(program(1 + i % 3), encoding="utf-8")
    reader = subprocess.Popen(["head", "-c", "1"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL)
    done = subprocess.run([*CLI, "compare", "-q", "-j", "1", "--format", "jsonl", "-n", "0",
                           "--each", str(folder)], stdout=reader.stdin,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    assert reader.stdin is not None
    reader.stdin.close()
    reader.wait(timeout=30)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr


def test_an_output_through_a_link_replaces_the_file_and_keeps_the_link(
        klass: Path, tmp_path: Path) -> None:
    real = tmp_path / "results" / "pairs.csv"
    real.parent.mkdir()
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "latest.csv"
    link.symlink_to(real)
    result = winnow("compare", "-q", "-j", "1", "--format", "csv", "--each", klass, "-o", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and link.resolve() == real
    assert pairs_of(real.read_text(encoding="utf-8")) == compare_pairs(klass)
    assert sorted(p.name for p in real.parent.iterdir()) == ["pairs.csv"]
