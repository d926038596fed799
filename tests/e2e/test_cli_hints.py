"""What a new user trips over, answered by the command line: a usage error with the fix
for a missing path and for one folder given without ``--each``, ``--frontend auto``,
the extras' install hints (from the checkout), the PDF hint in ``compare``, and a port
in use for ``serve``."""

from __future__ import annotations

import importlib.util
import json
import socket
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner

import winnow
from winnow.cli.main import main
from winnow.errors import DISTRIBUTION, install_hint

CODE = ("def mean(xs):\n    total = 0\n    for x in xs:\n        total += x\n"
        "    return total / len(xs)\n\n\nprint(mean([1, 2, 3]))\n") * 3


def _class(tmp_path: Path) -> Path:
    for name in ("ann", "ben"):
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "main.py").write_text(CODE)
    return tmp_path / "class"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_one_folder_without_each_is_a_usage_error_naming_each(tmp_path: Path) -> None:
    folder = _class(tmp_path)
    code, out, err = run("compare", str(folder), "-q")
    assert code == 2 and out == ""
    assert f"winnow compare --each {folder}" in err and "one submission" in err
    code, out, _ = run("compare", "--each", str(folder), "-q", "--format", "csv")
    assert code == 0 and "ann" in out and "ben" in out
    # one folder with --archive has something to compare against: no error
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "x.py").write_text(CODE)
    code, _, _ = run("compare", str(folder / "ann"), "--archive", str(tmp_path / "old"), "-q")
    assert code == 0


def test_a_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    code, out, err = run("compare", "--each", str(tmp_path / "nosuchdir"), "-q")
    assert code == 2 and out == "" and "no such file or folder" in err
    code, _, err = run("compare", str(tmp_path / "a.py"), str(tmp_path / "b.py"), "-q")
    assert code == 2 and "no such file or folder" in err
    # one missing among real ones is still skipped input, exit 1 (named in a warning)
    folder = _class(tmp_path)
    code, _, err = run("compare", str(folder / "ann"), str(folder / "ben"),
                       str(tmp_path / "gone"), "-q")
    assert code == 1 and "gone" in err


def test_compare_takes_frontend_auto_as_index_does(tmp_path: Path) -> None:
    folder = _class(tmp_path)
    auto = run("compare", "--each", str(folder), "--frontend", "auto", "-q", "--format", "json")
    plain = run("compare", "--each", str(folder), "-q", "--format", "json")
    assert auto[0] == 0 and auto[1] == plain[1]
    assert run("compare", "--each", str(folder), "--frontend", "nonsense")[0] == 2


def test_extras_hints_install_from_the_checkout() -> None:
    assert install_hint("serve") == "pip install -e '.[serve]' in winnow's source folder"
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert f'name = "{DISTRIBUTION}"' in pyproject and DISTRIBUTION != "winnow"


def test_a_pdf_without_the_documents_extra_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pypdf", None)  # import pypdf now fails
    result = winnow.compare_texts({"a": {"paper.pdf": b"%PDF-1.4 whatever"}, "b": CODE,
                                   "c": CODE})
    reasons = [i.reason for i in result.issues if "paper.pdf" in i.path]
    assert reasons and "binary file" in reasons[0]
    assert install_hint("documents") in reasons[0]


@pytest.mark.skipif(importlib.util.find_spec("aiohttp") is None, reason="no serve extra")
def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = run("serve", "--http-port", str(port), "--moss-port", "0",
                           "--data", str(tmp_path / "data"))
    assert code == 3
    assert err.strip().splitlines() == [
        f"winnow: error: 127.0.0.1: port 0 or {port} is in use (another server?); "
        "choose others with --moss-port/--http-port"]


def test_index_of_nothing_leaves_no_empty_database(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    code, _, err = run("index", str(tmp_path / "nonexistent"), "--db", str(db), "-q")
    assert code == 1 and "no such file or directory" in err and not db.exists()
    folder = _class(tmp_path)
    assert run("index", str(folder), "--db", str(db), "-q")[0] == 0 and db.exists()


def test_dircmp_and_scan_summaries_name_their_own_command(tmp_path: Path) -> None:
    folder = _class(tmp_path)
    code, _, err = run("dircmp", str(folder / "ann"), str(folder / "ben"), "-j", "1")
    assert code == 0 and "winnow dircmp: 2 files" in err and "winnow index" not in err
    code, _, err = run("scan", str(folder), "-j", "1")
    assert code == 0 and "winnow scan: 2 files" in err and "winnow index" not in err


def _duplicates(tmp_path: Path) -> tuple[Path, Path]:
    """Two groups of copies: a small pair first by path, three large copies after."""
    root = tmp_path / "files"
    (root / "a").mkdir(parents=True)
    (root / "z").mkdir()
    small, large = b"small file, copied once\n" * 4, bytes(range(256)) * 40
    for name in ("x.txt", "y.txt"):
        (root / "a" / name).write_bytes(small)
    for name in ("p.bin", "q.bin", "r.bin"):
        (root / "z" / name).write_bytes(large)
    db = tmp_path / "f.db"
    assert run("index", str(root), "--db", str(db), "-q", "-j", "1")[0] == 0
    return root, db


def test_groups_and_dedup_files_list_the_largest_reclaimable_first(tmp_path: Path) -> None:
    root, db = _duplicates(tmp_path)
    code, out, _ = run("groups", "--db", str(db), "--format", "json")
    groups = json.loads(out)["groups"]
    assert code == 0 and [g["reclaimable"] for g in groups] == [2 * 10240, 96]
    assert [g["group"] for g in groups] == [1, 2]
    code, out, _ = run("groups", "--db", str(db), "--format", "json", "--sort", "path")
    assert [g["reclaimable"] for g in json.loads(out)["groups"]] == [96, 2 * 10240]
    code, out, _ = run("dedup-files", "--db", str(db), "--format", "csv")
    lines = out.splitlines()[1:]
    assert code == 0 and lines[0].startswith("1,") and "z/p.bin" in lines[0]
    assert lines[-1].startswith("2,") and "a/y.txt" in lines[-1]
    code, out, _ = run("dedup-files", "--db", str(db), "--format", "csv", "--sort", "path")
    assert out.splitlines()[1].startswith("1,") and "a/x.txt" in out.splitlines()[1]
    code, out, _ = run("scan", str(root), "-j", "1", "-q", "--format", "json")
    assert [g["reclaimable"] for g in json.loads(out)["groups"]] == [2 * 10240, 96]


class _Stages:
    """Records what ``dedup`` would show on a terminal: ``(stage, done, total)``."""

    seen: ClassVar[list[tuple[str, int, int]]] = []

    def __init__(self, enabled: bool, units: dict[str, str] | None = None) -> None:
        self.units = units or {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        self.seen.append((stage, done, total))

    def close(self) -> None:
        pass


@pytest.mark.parametrize("keep", [False, True])
def test_dedup_shows_every_stage_of_a_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          keep: bool) -> None:
    monkeypatch.setattr("winnow.cli.dedup.ProgressBar", _Stages)
    _Stages.seen = []
    records = [{"text": CODE}, {"text": CODE + "# again"}] + [
        {"text": f"record {i} " * 30} for i in range(3000)]
    data = tmp_path / "r.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records))
    extra = ["--keep", "representative", "-o", str(tmp_path / "out.jsonl")] if keep else []
    code, _, _ = run("dedup", str(data), "-j", "1", *extra)
    assert code == 0
    stages = [s for s, _, _ in _Stages.seen]
    order = list(dict.fromkeys(stages))
    assert order == ["records", "pairs", "clustering", "writing"]
    assert _Stages.seen[-1] == ("writing", len(records), len(records))
    assert ("clustering", 1, 1) in _Stages.seen and ("pairs", 1, 1) in _Stages.seen
    assert stages.count("writing") >= 2  # counted as it goes, not only at the end


def test_names_are_relative_to_the_each_folder_everywhere(tmp_path: Path) -> None:
    folder = _class(tmp_path)
    given = str(folder)
    for fmt in ("table", "csv", "json", "jsonl"):
        code, out, _ = run("compare", "--each", given, "-q", "--format", fmt)
        assert code == 0 and "ann" in out and given not in out, fmt
    code, _, _ = run("compare", "--each", given, "-q", "--report", str(tmp_path / "r.html"))
    page = (tmp_path / "r.html").read_text()
    assert code == 0 and 'data-a="ann"' in page and given not in page
    code, out, _ = run("compare", "--each", given, "-q", "--format", "csv", "--full-paths")
    assert code == 0 and f"{given}/ann,{given}/ben" in out
    # single files: relative to the folder they share, still distinct
    code, out, _ = run("compare", str(folder / "ann" / "main.py"), str(folder / "ben" / "main.py"),
                       "-q", "--format", "csv")
    assert code == 0 and out.splitlines()[1].startswith("ann/main.py,ben/main.py,")


def test_relative_names_strip_only_the_shared_folders() -> None:
    from winnow.api import relative_names
    from winnow.sources.submissions import SubmissionSource

    def names(*given: str) -> list[str]:
        return [s.name for s in relative_names([SubmissionSource(n, "new", ()) for n in given])]

    assert names("/data/soco/java/005.java", "/data/soco/java/007.java") == ["005.java",
                                                                         "007.java"]
    assert names("c/2024/ann", "c/2023/ann") == ["2024/ann", "2023/ann"]
    assert names("ann", "ben") == ["ann", "ben"] and names() == []
    assert names("x/a/b", "x/a") == ["a/b", "a"]  # never empty
