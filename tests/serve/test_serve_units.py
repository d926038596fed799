"""The server's pieces without a server: names, languages, the job store, submissions."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from winnow.frontends import FRONTENDS
from winnow.frontends.languages import find_language
from winnow.serve.client import Query, file_header, stream
from winnow.serve.intake import clean_name
from winnow.serve.jobs import split_name, submissions_of
from winnow.serve.languages import MOSS_LANGUAGES, moss_language
from winnow.serve.store import MAX_ATTEMPTS, JobStore, StoredFile

MOSS_NAMES = (
    "c", "cc", "java", "ml", "pascal", "ada", "lisp", "scheme", "haskell", "fortran", "ascii",
    "vhdl", "verilog", "perl", "matlab", "python", "mips", "prolog", "spice", "vb", "csharp",
    "modula2", "a8086", "javascript", "plsql",
)


def test_every_moss_language_maps_to_a_real_frontend_and_language() -> None:
    assert sorted(MOSS_LANGUAGES) == sorted(MOSS_NAMES)
    for name in MOSS_NAMES:
        language = moss_language(name.upper())
        assert language is not None and language.frontend in FRONTENDS
        assert language.lang is None or find_language(language.lang) is not None, name
    assert moss_language("klingon") is None


@pytest.mark.parametrize(("raw", "shown"), [
    ("a/b.c", "a/b.c"), ("../../etc/passwd", "etc/passwd"), ("/abs/x.c", "abs/x.c"),
    ("a\\b\\c.c", "a/b/c.c"), ("x\x00y\x1b[31m.c", "xy[31m.c"), ("./.././", "file-1"),
    ("", "file-1"),
])
def test_clean_name(raw: str, shown: str) -> None:
    assert clean_name(raw, "file-1") == shown


def test_clean_name_is_bounded() -> None:
    assert len(clean_name("d/" * 1000 + "x.c", "f")) <= 255


def test_split_name() -> None:
    assert split_name("alice/hw/main.c", True) == ("alice/hw", "main.c")
    assert split_name("main.c", True) == ("main.c", "main.c")
    assert split_name("alice/main.c", False) == ("alice/main.c", "main.c")


def test_moss_pl_stream_shape() -> None:
    assert file_header(3, "c", "my file.c", 12) == b"file 3 c 12 my_file.c\n"
    parts = stream(Query("u", [("a.c", b"xy")], base=[("b.c", b"z")], comment="hi"))
    assert parts == [b"file 0 c 1 b.c\n", b"z", b"file 1 c 2 a.c\n", b"xy", b"query 0 hi\n"]


def test_store_recovers_and_sweeps(tmp_path: Path) -> None:
    store = JobStore(tmp_path)
    receiving = store.create("u")
    queued = store.create("u")
    queued.status = "queued"
    store.save(queued)
    worn = store.create("u")
    worn.status, worn.attempts = "running", MAX_ATTEMPTS
    store.save(worn)
    done = store.create("u")
    store.finish(done, "done")

    again = store.recover()
    assert [job.id for job in again] == [queued.id]
    assert store.load(receiving.id).status == "failed"  # type: ignore[union-attr]
    assert "restarts" in (store.load(worn.id).reason or "")  # type: ignore[union-attr]
    assert store.sweep(3600) == 0
    assert store.sweep(3600, now=time.time() + 7200) == 3  # not the queued one
    assert [job.id for job in store.jobs()] == [queued.id]
    assert store.load("../../etc") is None


def test_submissions_of_a_job(tmp_path: Path) -> None:
    store = JobStore(tmp_path)
    job = store.create("u", language="java", directory=True)
    job.files = [StoredFile(0, "Base.java", 1), StoredFile(1, "alice/A.java", 1),
                 StoredFile(2, "alice/A.java", 1), StoredFile(3, "bob/B.java", 1),
                 StoredFile(4, "Loose.java", 1)]
    subs, base = submissions_of(store, job)
    assert [(s.name, [f.path for f in s.files]) for s in subs] == [
        ("alice", ["A.java", "A.java (2)"]), ("bob", ["B.java"]), ("Loose.java", ["Loose.java"])]
    assert [f.path for f in base[0].files] == ["Base.java"]
    assert subs[0].files[1].disk == str(store.file_path(job, 2))
    assert subs[0].files[0].read_options.lang == "java"
    job.directory = False
    subs, _ = submissions_of(store, job)
    assert [s.name for s in subs] == ["alice/A.java", "alice/A.java (2)", "bob/B.java",
                                      "Loose.java"]
