"""Submissions from files, folders and archives; bad entries become problems."""

from __future__ import annotations

import itertools
import os
import zipfile
from pathlib import Path

import pytest

from winnow.sources.submissions import (
    ReadOptions,
    SourceFile,
    dominant_frontend,
    load_submission,
    load_submissions,
)


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_single_file_submission(tmp_path: Path) -> None:
    path = _tree(tmp_path, {"a.py": "x = 1\n"}) / "a.py"
    sub = load_submission(str(path))
    assert sub.name == str(path)
    assert [f.path for f in sub.files] == ["a.py"]
    assert sub.files[0].read() == b"x = 1\n"
    assert sub.problems == ()


def test_folder_submission_walks_in_order_and_skips_hidden(tmp_path: Path) -> None:
    root = _tree(tmp_path / "s", {
        "b.py": "b", "a/z.py": "z", "a/y.py": "y", ".git/config": "c",
        "__pycache__/m.pyc": "p", "__MACOSX/._b.py": "m", ".DS_Store": "d",
    })
    sub = load_submission(str(root), name="student")
    assert sub.name == "student"
    assert [f.path for f in sub.files] == ["a/y.py", "a/z.py", "b.py"]


def test_include_and_exclude_globs(tmp_path: Path) -> None:
    root = _tree(tmp_path / "s", {"a.py": "", "b.txt": "", "tests/test_a.py": ""})
    opts = ReadOptions(include=("*.py",), exclude=("tests/*",))
    assert [f.path for f in load_submission(str(root), read_options=opts).files] == ["a.py"]


def test_each_makes_one_submission_per_entry(tmp_path: Path) -> None:
    root = _tree(tmp_path / "class", {"ann/a.py": "a", "bob/b.py": "b", "cid.py": "c",
                                      ".hidden/x.py": "x"})
    subs = load_submissions([str(root)], each=True)
    assert [s.name for s in subs] == [str(root / n) for n in ("ann", "bob", "cid.py")]
    assert [len(s.files) for s in subs] == [1, 1, 1]
    (root / "grades.csv").write_text("x")
    only_py = load_submissions([str(root)], each=True, read_options=ReadOptions(
        include=("*.py",)))
    assert [Path(s.name).name for s in only_py] == ["ann", "bob", "cid.py"]


def test_archive_submission_and_archive_inside_a_folder(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "s.zip", "w") as archive:
        archive.writestr("src/main.c", "int main;")
        archive.writestr("../../evil.c", "evil")
    sub = load_submission(str(tmp_path / "s.zip"))
    assert [f.path for f in sub.files] == ["src/main.c"]
    assert sub.files[0].read() == b"int main;"
    assert any("unsafe" in p.reason for p in sub.problems)
    folder = tmp_path / "student"
    folder.mkdir()
    (tmp_path / "s.zip").rename(folder / "project.zip")
    nested = load_submission(str(folder))
    assert [f.path for f in nested.files] == ["project.zip/src/main.c"]


def test_symlink_loop_and_broken_links_are_problems(tmp_path: Path) -> None:
    root = _tree(tmp_path / "s", {"a.py": "a"})
    os.symlink(root, root / "again")               # a directory loop
    os.symlink(tmp_path / "missing", root / "gone.py")  # broken
    sub = load_submission(str(root))
    assert [f.path for f in sub.files] == ["a.py"]
    reasons = {Path(p.path).name: p.reason for p in sub.problems}
    assert "loop" in reasons["again"]
    assert "out of the submission" in reasons["gone.py"]  # it points out: never stat-ed
    os.symlink(tmp_path / "l2", tmp_path / "l1")
    os.symlink(tmp_path / "l1", tmp_path / "l2")
    looped = load_submission(str(tmp_path / "l1"))
    assert looped.files == ()
    assert looped.problems[0].reason == "symbolic link loop"


def test_links_out_of_the_submission_are_not_followed(tmp_path: Path) -> None:
    secret = _tree(tmp_path / "elsewhere", {"secret.txt": "password"}) / "secret.txt"
    root = _tree(tmp_path / "s", {"a.py": "a", "lib/b.py": "b"})
    os.symlink(secret, root / "leak.txt")
    os.symlink(secret.parent, root / "leakdir")
    os.symlink(root / "lib" / "b.py", root / "inside.py")
    sub = load_submission(str(root))
    assert [f.path for f in sub.files] == ["a.py", "inside.py", "lib/b.py"]
    assert {Path(p.path).name for p in sub.problems} == {"leak.txt", "leakdir"}
    assert all("out of the submission" in p.reason for p in sub.problems)
    linked = tmp_path / "linked"
    os.symlink(root, linked)  # the submission itself may be a link
    assert len(load_submission(str(linked)).files) == 3


def test_fifo_and_empty_submission(tmp_path: Path) -> None:
    root = tmp_path / "s"
    root.mkdir()
    os.mkfifo(root / "pipe")
    sub = load_submission(str(root))
    assert sub.files == ()
    assert "not a regular file" in sub.problems[0].reason
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "empty submission" in load_submission(str(empty)).problems[0].reason


def test_unreadable_file_raises_input_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _tree(tmp_path, {"a.py": "x"}) / "a.py"
    file = load_submission(str(path)).files[0]

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr("winnow.sources.submissions.read_regular", denied)
    with pytest.raises(Exception, match="permission denied") as error:
        file.read()
    assert str(path) in str(error.value)


def test_document_uses_the_read_options(tmp_path: Path) -> None:
    file = SourceFile("x.py", "x.py", ReadOptions(frontend="bytes"), data=b"abc")
    doc = file.document()
    assert doc.frontend == "bytes" and len(doc.stream) == 3


def test_dominant_frontend(tmp_path: Path) -> None:
    root = _tree(tmp_path / "s", {"a.py": "", "b.py": "", "c.txt": ""})
    subs = load_submissions([str(root)])
    assert dominant_frontend(subs, ReadOptions()) == "code"
    assert dominant_frontend(subs, ReadOptions(frontend="text")) == "text"
    assert dominant_frontend([], ReadOptions()) == "text"


def test_each_entry_linking_out_of_the_folder_is_not_followed(tmp_path: Path) -> None:
    """``--each`` over a folder holding a student's symbolic link to a private
    folder (unzip recreates links) read that folder into the report."""
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key.txt").write_text("password=hunter2\n")
    batch = tmp_path / "batch"
    (batch / "alice").mkdir(parents=True)
    (batch / "alice" / "a.py").write_text("x = 1\n")
    (batch / "mallory").symlink_to(secret)
    (batch / "eve.txt").symlink_to(secret / "key.txt")
    (batch / "alias").symlink_to("alice")  # inside the folder: followed
    subs = {s.name.rsplit("/", 1)[-1]: s for s in load_submissions([str(batch)], each=True)}
    assert [f.path for f in subs["alias"].files] == ["a.py"]
    for name in ("mallory", "eve.txt"):
        assert subs[name].files == ()
        assert "symbolic link out of the folder" in subs[name].problems[0].reason


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
def test_a_folder_nested_deeper_than_the_recursion_limit(tmp_path: Path) -> None:
    """The walk recursed once per folder: 1,500 nested folders (an unzipped
    student tree can hold them) raised RecursionError and aborted the batch."""
    import sys

    depth = sys.getrecursionlimit() + 500
    fds = [os.open(tmp_path, os.O_RDONLY)]
    try:
        for _ in range(depth):  # relative to a folder fd: no path grows past PATH_MAX
            os.mkdir("d", dir_fd=fds[-1])
            fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
        leaf = os.open("deep.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fds[-1])
        os.write(leaf, b"x = 1\n")
        os.close(leaf)
        (tmp_path / "top.py").write_text("y = 2\n")
        sub = load_submission(str(tmp_path))
        assert [f.path.rsplit("/", 1)[-1] for f in sub.files] == ["deep.py", "top.py"]
        assert sub.files[0].path.count("/") == depth
    finally:  # remove bottom-up here: shutil.rmtree (pytest's cleanup) recurses too
        if len(fds) == depth + 1:
            os.unlink("deep.py", dir_fd=fds[-1])
        for parent, child in reversed(list(itertools.pairwise(fds))):
            os.close(child)
            os.rmdir("d", dir_fd=parent)
        os.close(fds[0])
