"""The server's pieces without a server: names, languages, the job store, submissions."""

from __future__ import annotations

import gzip
import time
from pathlib import Path

import pytest

from tests.report_fixtures import build_result, program
from winnow.frontends import FRONTENDS
from winnow.frontends.languages import find_language
from winnow.reports.html import write_report
from winnow.serve.client import Query, file_header, stream
from winnow.serve.intake import clean_name
from winnow.serve.jobs import split_name, submissions_of
from winnow.serve.languages import MOSS_LANGUAGES, moss_language
from winnow.serve.pages import accepts_gzip, compress_report, page_names, read_page, report_files
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


def test_expired_jobs_failed_uploads_and_per_job_retention(tmp_path: Path) -> None:
    store = JobStore(tmp_path)
    now = time.time()
    cut = store.create("u")
    store.finish(cut, "failed", "the connection ended before the query")  # never ran
    ran = store.create("u")
    ran.attempts = 1
    store.finish(ran, "failed", "over the time limit of 2 seconds")
    short = store.create("u", expires=now + 3 * 86400)
    store.finish(short, "done")
    kept = store.create("u")
    store.finish(kept, "done")
    assert store.expired(0, 0, now) == []
    # failed uploads go after failed_age; a job that ran is kept for the owner to see
    assert [j.id for j in store.expired(0, 3600, now + 7200)] == [cut.id]
    # a job's own retention wins over the server's
    assert {j.id for j in store.expired(0, 0, now + 4 * 86400)} == {short.id}
    assert store.sweep(86400, now + 2 * 86400) == 4  # all, by the server's 1 day
    assert store.by_id == {} and store.user_jobs("u") == ([], 0)


def test_index_pages_newest_first_and_tokens(tmp_path: Path) -> None:
    store = JobStore(tmp_path)
    made = [store.create("u", created=1000.0 + i) for i in range(5)]
    page, total = store.user_jobs("u", 1, 2)
    assert total == 5 and [j.id for j in page] == [made[3].id, made[2].id]
    old = made[0].token
    assert store.by_report_token(old) is made[0]
    new = store.new_token(made[0])
    assert new != old and store.by_report_token(old) is None
    assert store.by_report_token(new) is made[0]
    store.save(made[0])
    again = JobStore(tmp_path)  # the index is rebuilt from the states on disk
    assert again.by_report_token(new) is not None and len(again.by_id) == 5


def test_a_worker_runs_the_state_it_is_given_not_a_stale_one(tmp_path: Path) -> None:
    from winnow.serve.jobs import run_job

    store = JobStore(tmp_path)
    job = store.create("u", language="c")  # state.json: no files yet
    for index, text in enumerate((b"int a = 1;\nint b = 2;\n", b"int a = 1;\nint b = 2;\n")):
        store.file_path(job, index).write_bytes(text)
        job.files.append(StoredFile(index + 1, f"{index}.c", len(text)))
    # the server holds the files; the writer thread has not written them yet
    assert store.load(job.id).files == []  # type: ignore[union-attr]
    summary = run_job(str(tmp_path), job.id, job.as_dict())
    assert summary["submissions"] == 2 and summary["pairs"] == 1


def test_intake_writes_small_and_large_files_whole(tmp_path: Path) -> None:
    import asyncio

    from winnow.serve.intake import WRITE_EVERY, Intake, Limits

    big = bytes(range(256)) * (WRITE_EVERY * 5 // 2 // 256)  # 2.5 buffers
    small = b"int x;\n"

    async def chunks(data: bytes):  # type: ignore[no-untyped-def]
        for at in range(0, len(data), 65536):
            yield data[at:at + 65536]

    async def main() -> Intake:
        intake = await Intake.open(JobStore(tmp_path), Limits(), "u")
        await intake.add(1, "big.c", chunks(big))
        await intake.add(2, "small.c", chunks(small))
        await intake.add(3, "empty.c", chunks(b""))
        return intake

    intake = asyncio.run(main())
    store, job = intake.store, intake.job
    assert [(f.name, f.size) for f in job.files] == [
        ("big.c", len(big)), ("small.c", len(small)), ("empty.c", 0)]
    assert store.file_path(job, 0).read_bytes() == big
    assert store.file_path(job, 1).read_bytes() == small
    assert store.file_path(job, 2).read_bytes() == b""


# --- the report's pages on disk (winnow.serve.pages) -------------------------------------

def _report(tmp_path: Path) -> Path:
    subs = {"alice": {"a.py": program("a", 20)}, "bob": {"b.py": program("a", 20, 3)},
            "carol": {"c.py": program("a", 12, 7)}}
    result = build_result(subs, [("alice", "bob", [("a.py", 3, 10, "b.py", 1, 8)]),
                                 ("alice", "carol", [("a.py", 1, 6, "c.py", 1, 6)])])
    folder = tmp_path / "report"
    write_report(result, folder, moss_names=True)
    return folder


def test_moss_names_put_match_pages_beside_the_index(tmp_path: Path) -> None:
    folder = _report(tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == ["index.html", "match0.html",
                                                        "match1.html"]
    index = (folder / "index.html").read_text()
    assert 'href="match0.html"' in index and 'href="match1.html"' in index
    assert "pairs/pair-" not in index
    first, second = ((folder / f"match{n}.html").read_text() for n in (0, 1))
    assert 'id="pair-1"' in first and 'id="pair-2"' in second
    assert 'class="back" href="index.html#row-1"' in first
    assert 'rel="next" href="match1.html"' in first and 'rel="prev" href="match0.html"' in second


def test_compressed_pages_are_read_back_as_written(tmp_path: Path) -> None:
    folder = _report(tmp_path)
    written = {p.name: p.read_bytes() for p in folder.iterdir()}
    before = sum(len(data) for data in written.values())
    compress_report(folder)
    assert sorted(p.name for p in folder.iterdir()) == sorted(n + ".gz" for n in written)
    assert sum(p.stat().st_size for p in folder.iterdir()) < before / 3
    for name, data in written.items():
        assert read_page(folder, name, gzip_ok=False) == (data, False)
        packed, is_gzip = read_page(folder, name, gzip_ok=True) or (b"", False)
        assert is_gzip and gzip.decompress(packed) == data
    assert read_page(folder, "pair-2.html", False) == (
        written["match1.html"], False)  # the old name of the same page
    assert read_page(folder, "match7.html", False) is None
    assert dict(report_files(folder)) == written


def test_old_reports_are_still_read(tmp_path: Path) -> None:
    (tmp_path / "pairs").mkdir()
    (tmp_path / "index.html").write_bytes(b"<p>index</p>")
    (tmp_path / "pairs" / "pair-1.html").write_bytes(b"<p>one</p>")
    assert read_page(tmp_path, "index.html", True) == (b"<p>index</p>", False)
    assert read_page(tmp_path, "pair-1.html", True) == (b"<p>one</p>", False)
    assert read_page(tmp_path, "pair-2.html", True) is None


@pytest.mark.parametrize(("name", "where"), [
    ("index.html", ["index.html"]), ("match0.html", ["match0.html"]),
    ("pair-3.html", ["match2.html", "pairs/pair-3.html"]), ("pair-0.html", []),
    ("../state.json", []), ("match1.html.gz", []), ("match-1.html", []), ("", []),
])
def test_page_names(name: str, where: list[str]) -> None:
    assert page_names(name) == where


@pytest.mark.parametrize(("header", "ok"), [
    (None, False), ("", False), ("identity", False), ("gzip", True), ("gzip, deflate, br", True),
    ("br;q=1.0, gzip;q=0.8", True), ("gzip;q=0", False), ("*", True), ("GZIP", True),
    ("gzip;q=x", False),
])
def test_accepts_gzip(header: str | None, ok: bool) -> None:
    assert accepts_gzip(header) is ok


def test_result_is_read_compressed_or_as_written_before(tmp_path: Path) -> None:
    store = JobStore(tmp_path)
    new, old = store.create("u"), store.create("u")
    with gzip.open(store.result_path(new.id), "wt", encoding="utf-8") as out:
        out.write('{"pairs": [1]}')
    store.result_path(old.id).with_suffix("").write_text('{"pairs": [2]}')
    assert store.read_result(new.id) == {"pairs": [1]}
    assert store.read_result(old.id) == {"pairs": [2]}
    with pytest.raises(OSError):
        store.read_result(store.create("u").id)
