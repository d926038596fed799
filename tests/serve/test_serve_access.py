"""Who may read what: secrets, report tokens, revocation, DELETE, the admin view."""

from __future__ import annotations

import base64
import time
from pathlib import Path

import pytest

from tests.serve.conftest import Server, job_id
from tests.serve.corpus import batch
from winnow.serve.access import ADMIN, Secrets, credentials, read_users
from winnow.serve.client import Query, submit

pytestmark = pytest.mark.slow


def basic(user: str, secret: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{secret}".encode()).decode()


def get_as(server: Server, path: str, user: str, secret: str) -> tuple[int, bytes]:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(server.http + path,
                                     headers={"Authorization": basic(user, secret)})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_listings_need_the_users_secret_and_reveal_nothing_without(server: Server) -> None:
    query = Query("course-9", sorted(batch().items()), language="python", directory=True,
                  comment="week 9 alice")
    url = submit("127.0.0.1", server.moss_port, query, timeout=300)[1]
    job = server.wait_job(job_id(url))
    assert job["status"] == "done"
    secret = server.secret("course-9")
    other = server.secret("someone-else")
    for path in ("/users/course-9/", "/api/jobs?user=course-9"):
        for auth in (None, ("course-9", "wrong"), ("someone-else", other),
                     ("course-9", secret[:-1])):
            status, body = (server.get(path)[:2] if auth is None
                            else get_as(server, path, *auth))
            assert status == 401, (path, auth, status)
            for secret_bit in (b"alice", job["id"].encode(), job_id(url).encode(), b"week"):
                assert secret_bit not in body, (path, auth, secret_bit)
        status, body = get_as(server, path, "course-9", secret)
        assert status == 200 and b"alice" in body and job_id(url).encode() in body
    # the job id alone is not a capability; the report's token is
    assert server.get(f"/api/jobs/{job['id']}")[0] == 401
    assert get_as(server, f"/api/jobs/{job['id']}", "course-9", secret)[0] == 200
    assert server.get(f"/api/jobs/{job_id(url)}")[0] == 200
    # the admin sees every user's jobs and the queue
    admin = server.secret(ADMIN)
    assert get_as(server, "/api/jobs?user=course-9", ADMIN, admin)[0] == 200
    assert server.get("/admin")[0] == 401
    status, page = get_as(server, "/admin", ADMIN, admin)
    assert status == 200 and b"Workers" in page
    state = server.api("/api/admin", auth=ADMIN)
    assert len(state["workers"]) == 2 and all(w["pid"] for w in state["workers"])


def test_revoked_report_url_and_deleted_job(server: Server) -> None:
    url = submit("127.0.0.1", server.moss_port,
                 Query("owner", [("a.c", b"int x;\n"), ("b.c", b"int x;\n")]))[1]
    token = job_id(url)
    job = server.wait_job(token)
    folder = server.data / "jobs" / job["id"]
    assert (folder / "report" / "index.html.gz").is_file()  # kept compressed
    # the token alone cannot revoke or delete: the owner's secret is needed
    assert server.get(f"/api/jobs/{token}/revoke", method="POST")[0] == 401
    assert server.get(f"/api/jobs/{token}", method="DELETE")[0] == 401
    assert server.get(f"/api/jobs/{token}", auth="intruder", method="DELETE")[0] == 401
    status, body, _ = server.get(f"/api/jobs/{token}/revoke", auth="owner", method="POST")
    assert status == 200
    new_url = __import__("json").loads(body)["url"]
    assert job_id(new_url) != token
    assert server.get(url.removeprefix(server.http))[0] == 404  # the old URL is dead
    assert server.get(new_url.removeprefix(server.http))[0] == 200
    status, _, _ = server.get(f"/api/jobs/{job['id']}", auth="owner", method="DELETE")
    assert status == 200
    assert server.get(new_url.removeprefix(server.http))[0] == 404
    assert server.jobs("owner") == []
    deadline = time.monotonic() + 10
    while folder.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not folder.exists()  # its files, state and report are gone


def test_secrets_file_keeps_digests_only(tmp_path: Path) -> None:
    secrets = Secrets(tmp_path)
    secret = secrets.issue("alice")
    assert secret not in (tmp_path / "secrets.json").read_text()
    assert (tmp_path / "secrets.json").stat().st_mode & 0o777 == 0o600
    assert Secrets(tmp_path).check("alice", secret)
    assert not Secrets(tmp_path).check("alice", secret + "x")
    assert not Secrets(tmp_path).check("bob", secret)
    again = secrets.issue("alice")  # a new secret replaces the old
    assert Secrets(tmp_path).check("alice", again)
    assert not Secrets(tmp_path).check("alice", secret)
    assert secrets.revoke("alice") and not Secrets(tmp_path).check("alice", again)


def test_credentials_and_users_file(tmp_path: Path) -> None:
    assert credentials(basic("a", "s:t")) == ("a", "s:t")
    assert credentials("Bearer a:s") == ("a", "s")
    assert credentials("Basic !!!") is None and credentials("Digest x") is None
    assert credentials(basic("a", "")) is None and credentials(None) is None
    users = tmp_path / "users.txt"
    users.write_text("# staff\nalice  # the lecturer\n\nbob\n  # carol\n")
    assert read_users(users) == {"alice", "bob"}


def test_admin_name_cannot_submit(server: Server) -> None:
    lines = submit("127.0.0.1", server.moss_port, Query(ADMIN, [("a.c", b"int x;\n")]))
    assert lines == ["yes", "error: user id not allowed on this server"]
