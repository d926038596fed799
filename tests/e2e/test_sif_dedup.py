"""``winnow dedup-files`` and the reclaimable bytes of ``groups``: safe by default, every
file checked again before it is touched, the last copy never removed."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.sif import dedup


def text(seed: int, size: int) -> bytes:
    rng = np.random.default_rng(seed)
    return rng.integers(97, 123, size, dtype=np.uint8).tobytes()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p.relative_to(root)): (p.lstat().st_ino, p.read_bytes() if p.is_file() else b"")
            for p in sorted(root.rglob("*"))}


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, str]:
    """Three copies of A (20 kB), two of B (5 kB), one unique file; indexed."""
    root = tmp_path / "t"
    (root / "sub").mkdir(parents=True)
    a, b = text(1, 20_000), text(2, 5_000)
    for name in ("a1", "a2", "sub/a3"):
        (root / name).write_bytes(a)
    for name in ("b1", "sub/b2"):
        (root / name).write_bytes(b)
    (root / "unique").write_bytes(text(3, 7_000))
    db = str(tmp_path / "t.db")
    assert run("index", str(root), "--db", db, "-j", "1", "-q")[0] == 0
    return root, db


def rows_of(out: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(out)))


def test_groups_state_reclaimable_bytes_per_group_and_in_total(tree: tuple[Path, str]) -> None:
    _, db = tree
    code, out, _ = run("groups", "--db", db)
    assert code == 0
    assert "2 groups of identical files; 45.0 kB reclaimable" in out
    assert "     40.0 kB reclaimable\n" in out and "     5.0 kB reclaimable\n" in out
    data = json.loads(run("groups", "--db", db, "--format", "json")[1])
    assert data["reclaimable"] == 45_000
    assert sorted(g["reclaimable"] for g in data["groups"] if g["kind"] == "identical") == [
        5_000, 40_000]


@pytest.mark.parametrize("action", [[], ["--link"], ["--delete"]])
def test_the_default_is_a_dry_run_that_changes_nothing(action: list[str],
                                                       tree: tuple[Path, str]) -> None:
    root, db = tree
    before = snapshot(root)
    code, out, err = run("dedup-files", "--db", db, *action)
    assert code == 0 and err == "" and snapshot(root) == before
    assert "45.0 kB reclaimable" in out
    if action:
        assert "dry run, nothing was changed (--apply acts)" in out
    code, out, _ = run("dedup-files", "--db", db, *action, "--format", "csv")
    rows = rows_of(out)
    assert [r["status"] for r in rows].count("kept") == 2
    assert {r["status"] for r in rows} == {"kept", "planned"}
    assert sum(int(r["freed"]) for r in rows) == 45_000


def test_link_apply_makes_hard_links_and_a_second_run_finds_nothing(
        tree: tuple[Path, str]) -> None:
    root, db = tree
    code, out, err = run("dedup-files", "--db", db, "--link", "--apply", "--format", "json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["freed"] == 45_000 and data["skipped"] == 0
    assert (root / "a1").stat().st_ino == (root / "a2").stat().st_ino == \
        (root / "sub" / "a3").stat().st_ino
    assert (root / "b1").stat().st_ino == (root / "sub" / "b2").stat().st_ino
    assert (root / "a2").read_bytes() == text(1, 20_000)
    assert not [p for p in root.rglob("*winnow-dedup*")]  # no temporary name left
    code, out, _ = run("dedup-files", "--db", db, "--link", "--format", "csv")
    rows = rows_of(out)
    assert code == 0 and sum(int(r["freed"]) for r in rows) == 0
    assert {r["status"] for r in rows} == {"kept", "same-file"}


def test_delete_apply_keeps_one_copy_and_updates_the_index(tree: tuple[Path, str]) -> None:
    root, db = tree
    code, out, _ = run("dedup-files", "--db", db, "--delete", "--apply", "--keep", "newest",
                       "--format", "csv")
    assert code == 0
    left = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert len(left) == 3 and "unique" in left
    assert sorted((root / name).read_bytes()[:5] for name in left) == sorted(
        [text(1, 20_000)[:5], text(2, 5_000)[:5], text(3, 7_000)[:5]])
    assert sum(int(r["freed"]) for r in rows_of(out)) == 45_000
    assert "documents:      3 " in run("index", "--info", "--db", db)[1]


def test_the_last_copy_is_never_deleted_when_the_others_changed(
        tree: tuple[Path, str]) -> None:
    root, db = tree
    (root / "a1").write_bytes(b"edited since indexing")
    (root / "a2").write_bytes(b"edited too")
    code, out, err = run("dedup-files", "--db", db, "--delete", "--apply", "--format", "csv")
    assert code == 1
    assert f"{root / 'a1'}: changed since it was indexed" in err
    group_a = [r for r in rows_of(out) if r["group"] == "1"]
    assert [(Path(r["path"]).name, r["status"]) for r in group_a] == [
        ("a3", "kept"), ("a1", "skipped"), ("a2", "skipped")]
    assert (root / "sub" / "a3").read_bytes() == text(1, 20_000)


def test_content_is_compared_byte_for_byte_before_acting(tree: tuple[Path, str]) -> None:
    root, db = tree
    victim = root / "a2"
    st = victim.stat()
    data = bytearray(victim.read_bytes())
    data[10_000] ^= 1  # same size, same mtime: only reading the bytes can tell
    victim.write_bytes(bytes(data))
    os.utime(victim, ns=(st.st_atime_ns, st.st_mtime_ns))
    code, out, _ = run("dedup-files", "--db", db, "--delete", "--format", "csv")
    assert code == 0  # a dry run checks what needs no reading
    assert {r["status"] for r in rows_of(out)} == {"kept", "planned"}
    code, _, err = run("dedup-files", "--db", db, "--delete", "--apply")
    assert code == 1 and f"{victim}: content differs from the kept copy's" in err
    assert victim.read_bytes() == bytes(data) and (root / "a1").exists()


def test_a_file_changed_while_being_checked_is_left_alone(
        tree: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    root, db = tree
    compare = dedup.same_bytes

    def racing(path_a: str, state_a: dedup.FileState, path_b: str,
               state_b: dedup.FileState) -> bool:
        equal = compare(path_a, state_a, path_b, state_b)
        with open(path_b, "ab") as handle:  # another process writes after the check
            handle.write(b"late")
        return equal

    monkeypatch.setattr(dedup, "same_bytes", racing)
    code, out, err = run("dedup-files", "--db", db, "--delete", "--apply", "--format", "csv")
    assert code == 1 and "changed while being checked" in err
    assert {r["status"] for r in rows_of(out)} == {"kept", "skipped"}
    assert len([p for p in root.rglob("*") if p.is_file()]) == 6


def test_symbolic_links_are_never_followed(tree: tuple[Path, str], tmp_path: Path) -> None:
    root, db = tree
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "b2").write_bytes(text(2, 5_000))
    os.utime(outside / "b2", ns=((root / "sub" / "b2").stat().st_atime_ns,
                                 (root / "sub" / "b2").stat().st_mtime_ns))
    shutil.rmtree(root / "sub")
    (root / "sub").symlink_to(outside)  # a folder on the path now leads elsewhere
    (root / "a2").unlink()
    (root / "a2").symlink_to(root / "a1")
    code, _, err = run("dedup-files", "--db", db, "--delete", "--apply", "--format", "csv")
    assert code == 1
    assert f"{root / 'a2'}: a symbolic link (never followed)" in err
    assert f"{root / 'sub' / 'b2'}: a folder on its path is a symbolic link" in err
    assert (outside / "b2").exists() and (root / "a2").is_symlink() and (root / "a1").exists()


@pytest.mark.skipif(os.stat("/dev/shm").st_dev == os.stat(tempfile.gettempdir()).st_dev
                    if os.path.isdir("/dev/shm") else True,
                    reason="needs a second file system (/dev/shm) beside the temporary folder")
def test_hard_links_never_cross_file_systems(tmp_path: Path) -> None:
    root = tmp_path / "t"
    root.mkdir()
    data = text(4, 9_000)
    (root / "here").write_bytes(data)
    with tempfile.TemporaryDirectory(dir="/dev/shm") as shm:
        (Path(shm) / "there").write_bytes(data)
        db = str(tmp_path / "x.db")
        assert run("index", str(root), shm, "--db", db, "-j", "1", "-q")[0] == 0
        code, out, err = run("dedup-files", "--db", db, "--link", "--format", "csv")
        assert code == 1 and "on another file system than the kept copy" in err
        assert [r["status"] for r in rows_of(out)] == ["kept", "skipped"]
        code, _, _ = run("dedup-files", "--db", db, "--link", "--apply")
        assert code == 1 and (Path(shm) / "there").stat().st_nlink == 1


def test_usage_errors(tree: tuple[Path, str]) -> None:
    _, db = tree
    code, _, err = run("dedup-files", "--db", db, "--link", "--delete")
    assert code == 2 and "choose one" in err
    code, _, err = run("dedup-files", "--db", db, "--apply")
    assert code == 2 and "apply needs the link or delete action" in err


def test_paths_restrict_the_groups(tree: tuple[Path, str]) -> None:
    root, db = tree
    code, out, _ = run("dedup-files", str(root / "sub"), "--db", db, "--format", "csv")
    assert code == 0 and rows_of(out) == []  # a3 and b2 have no copy under sub/
    code, out, _ = run("dedup-files", str(root / "a1"), str(root / "sub"), "--db", db,
                       "--format", "csv")
    assert [Path(r["path"]).name for r in rows_of(out)] == ["a1", "a3"]
