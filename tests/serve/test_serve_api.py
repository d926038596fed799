"""The JSON API (archives, CSV, report zip, health, queue position) and the smaller
points of issue 23 (the report's back link, Latin-1 names, Origin checks, refusals
seen by mosspy, the log of the kernels' compilation)."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
import socket
import tarfile
import urllib.parse
import zipfile
from typing import Any

import aiohttp
import mosspy
import pytest

from tests.serve.conftest import Server, job_id
from tests.serve.corpus import batch
from tests.serve.test_serve_limits import heavy_files
from winnow.serve.api import pairs_csv
from winnow.serve.client import Query, file_header, submit

pytestmark = pytest.mark.slow


def zipped(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def tarred(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


async def _post(url: str, fields: dict[str, str], files: list[tuple[str, str, bytes]],
                headers: dict[str, str]) -> tuple[int, dict[str, Any] | str]:
    form = aiohttp.FormData()
    for key, value in fields.items():
        form.add_field(key, value)
    for field, name, data in files:
        form.add_field(field, data, filename=name, content_type="application/octet-stream")
    async with aiohttp.ClientSession() as session, session.post(
            url, data=form, headers=headers, allow_redirects=False) as response:
        text = await response.text()
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, text


def api_post(server: Server, user: str, files: list[tuple[str, str, bytes]],
             headers: dict[str, str] | None = None, **fields: str) -> tuple[int, Any]:
    form = {"user": user, "secret": server.secret(user), "language": "python", **fields}
    return asyncio.run(_post(server.http + "/api/jobs", form, files, headers or {}))


@pytest.mark.parametrize("packed", ["zip", "tar.gz"])
def test_post_an_archive_then_status_csv_and_report_zip(server: Server, packed: str) -> None:
    data = zipped(batch()) if packed == "zip" else tarred(batch())
    status, answer = api_post(server, "api-user", [("archive", f"class.{packed}", data)],
                              directory="1", comment="via the API")
    assert status == 201, answer
    assert set(answer) == {"id", "token", "url", "status_url", "status"}
    assert answer["url"] == f"{server.http}/results/{answer['token']}/"
    job = server.wait_job(answer["token"])
    assert job["status"] == "done" and job["source"] == "api"
    assert sorted(f["name"] for f in job["files"]) == sorted(batch())
    assert server.api(answer["status_url"].removeprefix(server.http))["id"] == answer["id"]

    status, body, headers = server.get(f"/api/jobs/{answer['token']}/pairs.csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    assert {rows[0]["file_a"], rows[0]["file_b"]} == {"alice", "bob"}
    assert len(rows) == job["summary"]["pairs"]

    status, body, _ = server.get(f"/api/jobs/{answer['token']}/report.zip")
    names = zipfile.ZipFile(io.BytesIO(body)).namelist()
    assert status == 200 and "index.html" in names and "match0.html" in names
    assert not any(name.endswith(".gz") for name in names)  # kept compressed, not shipped so
    index = zipfile.ZipFile(io.BytesIO(body)).read("index.html")
    assert index.startswith(b"<!DOCTYPE html>") and b'href="match0.html"' in index
    health = server.api("/api/health")
    assert health["status"] == "ok" and health["workers"] in (1, 2)  # ready ones
    assert health["queued"] == 0 and health["running"] == 0


def test_refusals_of_the_api(server: Server) -> None:
    status, answer = api_post(server, "x", [("archive", "a.zip", b"not a zip at all")])
    assert status == 400 and "a.zip" in answer["error"]
    status, answer = api_post(server, "x", [("files", "a.py", b"1\n")],
                              headers={"Origin": "http://evil.example"})
    assert status == 403 and "another site" in answer["error"]
    status, answer = api_post(server, "x", [("files", "a.py", b"1\n")],
                              headers={"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    status, answer = api_post(server, "x", [("files", "a.py", b"1\n")],
                              headers={"Origin": server.http})  # the upload page itself
    assert status == 201
    assert server.get(f"/api/jobs/{answer['token']}/pairs")[0] in (200, 409)


def test_queued_job_shows_its_position(server_factory: Any) -> None:
    server: Server = server_factory("--workers", "1", "--reply-wait", "0")
    first = submit("127.0.0.1", server.moss_port, Query("busy", heavy_files(),
                                                        language="python"))[1]
    second = submit("127.0.0.1", server.moss_port, Query("next", sorted(batch().items()),
                                                         language="python"))[1]
    third = submit("127.0.0.1", server.moss_port, Query("next", sorted(batch().items()),
                                                        language="python"))[1]
    seen = [server.api(f"/api/jobs/{job_id(url)}") for url in (first, second, third)]
    assert seen[0]["position"] in (None, 1)  # running, or next to run
    assert seen[2]["position"] == seen[1]["position"] + 1, seen
    status, page, _ = server.get(third.removeprefix(server.http))
    assert status == 200 and f"Position in the queue: {seen[2]['position']}".encode() in page
    assert server.wait_job(job_id(third), timeout=300)["position"] is None


@pytest.mark.parametrize("name", ["match0.html", "pairs/pair-1.html"])
def test_pair_page_links_back_to_the_report(server: Server, name: str) -> None:
    """The MOSS name and the old name both answer the top pair's page, whose
    "all pairs" link leads back to the report."""
    url = submit("127.0.0.1", server.moss_port, Query("u", sorted(batch().items()),
                                                      language="python", directory=True))[1]
    pair = url + name
    status, page, _ = server.get(pair.removeprefix(server.http))
    assert status == 200 and b'<section class="pair" id="pair-1">' in page
    back = re.search(rb'class="back" href="([^"]+)"', page)
    assert back, page[:500]
    target = urllib.parse.urljoin(pair, back.group(1).decode())
    if name == "match0.html":  # the pages lie beside the index, as MOSS's do
        assert target.startswith(url + "index.html#row-1"), target
    status, index, _ = server.get(target.removeprefix(server.http))
    assert status == 200 and b"alice" in index
    after = re.search(rb'rel="next" href="([^"]+)"', page)
    assert after, page[:500]
    target = urllib.parse.urljoin(pair, after.group(1).decode())
    status, second, _ = server.get(target.removeprefix(server.http))
    assert status == 200 and b'<section class="pair" id="pair-2">' in second


def test_latin1_file_name_stays_one_name(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.moss_port), timeout=60) as sock:
        sock.sendall(b"moss latin\nlanguage c\n")
        reader = sock.makefile("rb")
        assert reader.readline() == b"yes\n"
        body = b"int x;\n"
        sock.sendall(b"file 1 c %d caf\xe9.c\n" % len(body) + body
                     + file_header(2, "c", "b.c", len(body)) + body + b"query 0 \n")
        url = reader.readline().decode().strip()
    job = server.wait_job(job_id(url))
    assert [f["name"] for f in job["files"]] == ["café.c", "b.c"]


def test_mosspy_sees_a_refused_user_id(server_factory: Any, tmp_path: Any) -> None:
    (tmp_path / "users.txt").write_text("alice # the only one\n")
    server: Server = server_factory("--users", str(tmp_path / "users.txt"))
    (tmp_path / "a.py").write_text("print(1)\n")
    moss = mosspy.Moss("mallory", "python")
    moss.server, moss.port = "127.0.0.1", server.moss_port
    moss.addFile(str(tmp_path / "a.py"))
    assert moss.send() == "error: user id not allowed on this server"
    moss = mosspy.Moss("alice", "python")
    moss.server, moss.port = "127.0.0.1", server.moss_port
    moss.addFile(str(tmp_path / "a.py"))
    assert moss.send().startswith(server.http + "/results/")


def test_log_says_the_workers_compiled_before_the_first_job(server: Server) -> None:
    submit("127.0.0.1", server.moss_port, Query("u", [("a.c", b"int x;\n")]))
    log = server.log.read_text()
    ready = log.find("worker 0 ready")
    assert ready >= 0 and "kernels compiled in" in log
    assert ready < log.find(" done")


def test_pairs_csv_neutralises_formulas() -> None:
    text = pairs_csv([{"file_a": "=cmd|' /C calc'!A0", "file_b": "b", "similarity": 0.5,
                       "passages": [1, 2]}])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows == [{"file_a": "'=cmd|' /C calc'!A0", "file_b": "b", "similarity": "0.5"}]


def test_ipv6_loopback(server_factory: Any) -> None:
    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback")
    server: Server = server_factory("--host", "::1")
    assert server.http.startswith("http://[::1]:")
    lines = submit("::1", server.moss_port, Query("v6", [("a.c", b"int x;\n"),
                                                         ("b.c", b"int x;\n")]))
    assert lines[0] == "yes" and lines[1].startswith(server.http + "/results/")
    assert server.wait_job(job_id(lines[1]))["status"] == "done"
