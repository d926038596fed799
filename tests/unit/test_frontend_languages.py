"""A file's extension, read from its name as pathlib reads it."""

from __future__ import annotations

import random
from pathlib import PurePath

import pytest

from winnow.frontends.dispatch import choose_frontend
from winnow.frontends.languages import language_for_path, path_suffix

NAMES = ["a.py", "dir/b.Java", "dir/b.py/", "dir/b.py/.", "dir/.", ".py", "dir/.bashrc", "a.",
         "a..", "..", "...", "dir/..", "x.tar.gz", "", "/", "//a.c", "a//b.c", "a\\b.c",
         "a.b/c", "./a.py", "a.py/..", "é.PY", "a b.R", "sub/dir/Main.KT"]


@pytest.mark.parametrize("name", NAMES)
def test_path_suffix_is_pathlibs(name: str) -> None:
    assert path_suffix(name) == PurePath(name).suffix


def test_path_suffix_is_pathlibs_on_random_names() -> None:
    rng = random.Random(5)
    for _ in range(20000):
        name = "".join(rng.choice("ab./") for _ in range(rng.randint(0, 9)))
        assert path_suffix(name) == PurePath(name).suffix, name


def test_the_front_end_and_language_follow_the_extension() -> None:
    language = language_for_path("sub/dir/Main.KT")
    assert language is not None and language.name == "kotlin"
    assert language_for_path("notes.") is None
    assert choose_frontend(b"x", "a/page.HTML") == "html"
    assert choose_frontend(b"x", "a/b.ipynb") == "notebook"
    assert choose_frontend(b"x", "a/b.py/.") == "code"
    assert choose_frontend(b"x", "a/.py") == "text"
