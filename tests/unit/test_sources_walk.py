"""The one directory walker: its policies (the index's and the submissions') on one tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from winnow.model import Skipped
from winnow.sources.walk import (
    LINK_OUT,
    LOOP,
    NOT_FOLLOWED,
    WALKED,
    FileEntry,
    WalkPolicy,
    scan,
)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "t"
    for rel in ("a.txt", "a/x.py", "a/b/y.py", "b.py", ".hidden/h.py", "skip/s.py", "c.zip"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel)
    os.symlink(root / "a" / "b", root / "bee")  # a folder reached twice
    os.symlink(root, root / "a" / "up")  # a loop
    os.symlink(tmp_path, root / "out")  # out of the root
    return root


def _split(root: Path, policy: WalkPolicy) -> tuple[list[str], dict[str, str]]:
    files: list[str] = []
    skipped: dict[str, str] = {}
    for item in scan([root], policy):
        if isinstance(item, FileEntry):
            assert item.path == os.path.join(root, *item.rel.split("/"))
            files.append(item.rel)
        else:
            assert isinstance(item, Skipped)
            skipped[os.path.relpath(item.path, root)] = item.reason
    return files, skipped


def test_files_come_in_name_order_depth_first(tree: Path) -> None:
    files, skipped = _split(tree, WalkPolicy())
    assert files == [".hidden/h.py", "a/b/y.py", "a/x.py", "a.txt", "b.py", "c.zip", "skip/s.py"]
    assert skipped == {"a/up": NOT_FOLLOWED, "bee": NOT_FOLLOWED, "out": NOT_FOLLOWED}


def test_every_folder_once_when_following_every_link(tree: Path) -> None:
    """A folder's entries are all seen before its subfolders are entered: ``bee``
    (a link met in the root) claims ``a/b`` before ``a`` is walked."""
    files, skipped = _split(tree, WalkPolicy(links="always"))
    assert files == [".hidden/h.py", "a/x.py", "a.txt", "b.py", "bee/y.py", "c.zip", "skip/s.py"]
    assert skipped == {"a/b": WALKED, "a/up": LOOP, "out/t": WALKED}


def test_links_inside_followed_loops_cut_patterns_and_names(tree: Path) -> None:
    policy = WalkPolicy(links="inside", hidden=False, ignored=frozenset({"skip"}), once=False,
                        include=("*.py",), exclude=("y.py",),
                        unfiltered=lambda name: name.endswith(".zip"))
    files, skipped = _split(tree, policy)
    assert files == ["a/x.py", "b.py", "c.zip"]  # bee/ walked again: its y.py excluded
    assert skipped == {"a/up": f"{LOOP}; not followed", "out": LINK_OUT}
    assert _split(tree, WalkPolicy(links="inside", once=False))[0].count("bee/y.py") == 1
