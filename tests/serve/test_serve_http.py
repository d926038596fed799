"""The upload page, the pages' escaping and headers, and the API's refusals."""

from __future__ import annotations

import asyncio
import urllib.parse
from typing import Any

import aiohttp
import pytest

from tests.serve.conftest import Server, job_id
from tests.serve.corpus import batch

pytestmark = pytest.mark.slow

EVIL = "<script>alert(1)</script>"


async def _post(url: str, fields: dict[str, str], files: list[tuple[str, str, bytes]],
                headers: dict[str, str]) -> tuple[int, str, str]:
    form = aiohttp.FormData()
    for key, value in fields.items():
        form.add_field(key, value)
    for field, name, data in files:
        form.add_field(field, data, filename=name, content_type="text/plain")
    async with aiohttp.ClientSession() as session, session.post(
            url, data=form, allow_redirects=False, headers=headers) as response:
        return response.status, response.headers.get("Location", ""), await response.text()


def post(server: Server, fields: dict[str, str], files: list[tuple[str, str, bytes]],
         html: bool = True, headers: dict[str, str] | None = None) -> tuple[int, str, str]:
    """POST /api/jobs as the upload page's form does (``html``) or as a script;
    the user's secret is added unless ``fields`` has one."""
    fields = dict(fields)
    if fields.get("user") and "secret" not in fields:
        fields["secret"] = server.secret(fields["user"])
    headers = dict(headers or {})
    headers.setdefault("Accept", "text/html" if html else "application/json")
    return asyncio.run(_post(server.http + "/api/jobs", fields, files, headers))


def test_upload_page_makes_a_job_and_names_are_escaped(server: Server) -> None:
    status, page, headers = server.get("/")
    assert status == 200 and b'action="/api/jobs"' in page
    assert "script-src" not in headers["Content-Security-Policy"]  # no script at all
    assert headers["X-Frame-Options"] == "DENY"

    user = f"u{EVIL}"
    files = [("files", name, data) for name, data in batch().items()]
    files.append(("files", "../../../../evil/passwd", b"root:x:0:0\n"))
    fields = {"user": user, "language": "python", "directory": "1", "comment": EVIL}
    status, location, _ = post(server, fields, files)
    assert status == 303 and location.startswith("/results/")
    job = server.wait_job(job_id(location))
    assert job["status"] == "done" and job["source"] == "api"
    assert "evil/passwd" in [f["name"] for f in job["files"]]  # shown, never a path
    assert not (server.data.parent / "evil").exists()
    assert not (server.data / "evil").exists()

    listing = f"/users/{urllib.parse.quote(user, safe='')}/"
    status, page, _ = server.get(listing, auth=user)
    assert status == 200 and EVIL.encode() not in page
    assert b"&lt;script&gt;alert(1)&lt;/script&gt;" in page
    status, page, _ = server.get(location)
    assert status == 200 and b"<script>alert" not in page


def test_upload_refusals(server: Server) -> None:
    one = [("files", "a.py", b"print(1)\n")]
    status, _, text = post(server, {"user": "x", "language": "cobol"}, one)
    assert status == 400 and "unknown language" in text
    status, _, text = post(server, {"user": "", "language": "c"}, one)
    assert status == 400 and "give a user id and its secret" in text
    status, _, text = post(server, {"user": "x", "secret": "guess", "language": "c"}, one)
    assert status == 400 and "give a user id and its secret" in text
    status, _, text = post(server, {"user": "x", "language": "c"}, [])  # url-encoded
    assert status == 400 and "multipart/form-data" in text
    status, _, text = post(server, {"user": "x", "language": "c"}, [("base", "s.py", b"1")])
    assert status == 400 and "no files were submitted" in text
    assert [j["reason"] for j in server.jobs("x")] == ["no files were submitted"]


def test_upload_over_the_size_limit(server_factory: Any) -> None:
    server: Server = server_factory("--max-file-mb", "0.01")
    status, _, text = post(server, {"user": "big", "language": "c"},
                           [("files", "a.c", b"x" * 20_000)])
    assert status == 400 and "file over the size limit of 10485 bytes" in text
    jobs = server.jobs("big")
    assert [j["status"] for j in jobs] == ["failed"]


def test_unknown_and_malformed_ids(server: Server) -> None:
    for path in ("/results/0123456789abcdef0123456789abcdef/", "/results/..%2F..%2Fetc/",
                 "/api/jobs/nope", "/api/jobs/0123456789abcdef0123",
                 "/results/0123456789abcdef0123456789abcdef/pairs/pair-1.html"):
        assert server.get(path)[0] == 404, path
    status, body, _ = server.get("/api/jobs")
    assert status == 400 and b"user" in body
