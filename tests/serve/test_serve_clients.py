"""End to end: the real ``mosspy`` client and a replay of ``moss.pl``'s stream."""

from __future__ import annotations

import gzip
import re
import urllib.request
from pathlib import Path
from typing import Any

import mosspy
import pytest

from tests.serve.conftest import Server, job_id
from tests.serve.corpus import STARTER, batch
from winnow.serve.client import Query, submit

pytestmark = pytest.mark.slow


def pair_names(pairs: list[dict[str, Any]]) -> set[frozenset[str]]:
    return {frozenset((p["file_a"], p["file_b"])) for p in pairs}


def test_mosspy_directory_mode_with_base_files(server: Server, tmp_path: Path) -> None:
    moss = mosspy.Moss("course-42", "python")
    moss.server, moss.port = "127.0.0.1", server.moss_port
    (tmp_path / "starter.py").write_text(STARTER)
    moss.addBaseFile(str(tmp_path / "starter.py"), "starter.py")
    for name, data in batch().items():
        path = tmp_path / "in" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        moss.addFile(str(path), name)
    moss.setDirectoryMode(1)
    moss.setCommentString("week 3")
    url = moss.send()

    assert url.startswith(server.http + "/results/")
    job = server.api(f"/api/jobs/{job_id(url)}")
    assert job["status"] == "done", job  # answered once the report was ready
    assert job["directory"] is True and job["comment"] == "week 3"
    assert [f["name"] for f in job["files"] if f["base"]] == ["starter.py"]
    status, page, _headers = server.get(url.removeprefix(server.http))
    assert status == 200 and b"alice" in page and b"bob" in page
    assert "Content-Security-Policy" in page.decode()
    result = server.api(f"/api/jobs/{job_id(url)}/pairs")
    names = {s["name"] for s in result["submissions"]}
    assert names == {"alice", "bob", "carol", "dave"}  # one submission per folder
    bob = next(s for s in result["submissions"] if s["name"] == "bob")
    assert len(bob["files"]) == 2
    # scores are shares of the whole files, starter code included (docs/compare.md):
    # alice and bob copied the solution, about half of each file after the starter
    top = result["pairs"][0]["similarity"]
    assert top > 0.3
    assert all(p["similarity"] < top / 2 for p in result["pairs"][1:])
    assert frozenset(("alice", "bob")) == pair_names(result["pairs"][:1]).pop()
    # dave handed in the starter code only: with it as base he matches nobody
    assert all("dave" not in pair for pair in pair_names(result["pairs"]))
    assert result["pairs"][0]["passages"], "the top pair has its passages"
    status, _, _ = server.get(url.removeprefix(server.http) + "pairs/pair-1.html")
    assert status == 200


def test_mosspy_download_report_saves_every_pair_page(server: Server, tmp_path: Path) -> None:
    """``mosspy.download_report`` follows the links holding "match" (MOSS's
    ``matchN.html``): every pair page is saved beside the index, whole, and the
    saved pages link to each other by the saved names."""
    moss = mosspy.Moss("course-43", "python")
    moss.server, moss.port = "127.0.0.1", server.moss_port
    for name, data in batch().items():
        path = tmp_path / "in" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        moss.addFile(str(path), name)
    url = moss.send()
    pairs = server.api(f"/api/jobs/{job_id(url)}")["summary"]["pairs"]
    assert pairs >= 3  # directory mode off: every file is a submission

    saved = tmp_path / "saved"
    mosspy.download_report(url, str(saved), connections=4)
    names = sorted(p.name for p in saved.iterdir())
    assert names == sorted(["index.html"] + [f"match{n}.html" for n in range(pairs)])
    index = (saved / "index.html").read_text(encoding="utf-8")
    for n in range(pairs):
        page = (saved / f"match{n}.html").read_text(encoding="utf-8")
        assert f'id="pair-{n + 1}"' in page and "</html>" in page
        assert 'href="index.html#row-' in page  # "all pairs" works in the saved copy
        assert f'href="match{n}.html"' in index
    # what a browser receives: the same page, gzip-encoded
    request = urllib.request.Request(url + "match0.html", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        page = gzip.decompress(response.read())
    status, plain, headers = server.get(url.removeprefix(server.http) + "match0.html")
    assert status == 200 and "Content-Encoding" not in headers and plain == page
    # the saved copy keeps the inline script and stylesheet the page's policy hashes
    saved_page = (saved / "match0.html").read_text(encoding="utf-8")
    for tag in ("script", "style"):
        inline = re.compile(rf"<{tag}>(.*?)</{tag}>", re.S)
        served, kept = inline.search(page.decode()), inline.search(saved_page)
        assert served and kept and served.group(1) == kept.group(1)


def test_moss_pl_stream_files_base_and_names(server: Server) -> None:
    files = [("alice main.py", batch()["alice/main.py"]),
             ("bob main.py", batch()["bob/main.py"]),
             ("dave main.py", batch()["dave/main.py"])]
    query = Query("course-7", files, base=[("starter.py", STARTER.encode())],
                  language="python", max_matches=5, show=20, comment="<b>hw 1</b>")
    lines = submit("127.0.0.1", server.moss_port, query, timeout=300)
    assert lines[0] == "yes" and len(lines) == 2, lines
    job = server.api(f"/api/jobs/{job_id(lines[1])}")
    assert job["status"] == "done" and job["directory"] is False
    assert (job["max_matches"], job["show"], job["comment"]) == (5, 20, "<b>hw 1</b>")
    assert [f["name"] for f in job["files"]] == ["starter.py", "alice_main.py",
                                                 "bob_main.py", "dave_main.py"]
    result = server.api(f"/api/jobs/{job_id(lines[1])}/pairs")
    assert pair_names(result["pairs"]) == {frozenset(("alice_main.py", "bob_main.py"))}

    listing = server.jobs("course-7")
    assert [j["id"] for j in listing] == [job["id"]]
    status, page, _ = server.get("/users/course-7/", auth="course-7")
    assert status == 200 and b"&lt;b&gt;hw 1&lt;/b&gt;" in page and b"<b>hw" not in page


def test_moss_pl_directory_mode_groups_by_folder(server: Server) -> None:
    query = Query("course-8", sorted(batch().items()), language="python", directory=True)
    lines = submit("127.0.0.1", server.moss_port, query, timeout=300)
    result = server.api(f"/api/jobs/{job_id(lines[1])}/pairs")
    assert {s["name"] for s in result["submissions"]} == {"alice", "bob", "carol", "dave"}
    # without base code, everyone shares the starter: dave is paired too
    assert any("dave" in pair for pair in pair_names(result["pairs"]))


def test_unknown_language_is_answered_no(server: Server) -> None:
    assert submit("127.0.0.1", server.moss_port, Query("u", [("a.c", b"x")],
                                                     language="klingon")) == ["no"]


def test_every_moss_language_is_accepted(server: Server) -> None:
    import socket

    for language in mosspy.Moss.languages:
        with socket.create_connection(("127.0.0.1", server.moss_port), timeout=30) as sock:
            sock.sendall(f"moss u\nlanguage {language}\n".encode())
            assert sock.makefile("rb").readline() == b"yes\n", language
            sock.sendall(b"end\n")


def test_report_url_is_the_only_line(server: Server) -> None:
    lines = submit("127.0.0.1", server.moss_port,
                   Query("u", [("a.c", b"int main() { return 0; }\n"), ("b.c", b"int x;\n")]))
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/results/[0-9a-f]{32}/", lines[1])
