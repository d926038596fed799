"""Jobs survive the server: killed mid-job, mid-upload, and reports served again."""

from __future__ import annotations

import os
import random
import signal
import socket
import time
from typing import Any

import pytest

from tests.serve.conftest import Server, job_id
from tests.serve.corpus import batch, random_program
from winnow.serve.client import Query, file_header, submit

pytestmark = pytest.mark.slow


def wait_status(server: Server, user: str, status: str, timeout: float = 120) -> str:
    """The id of ``user``'s only job once it has ``status``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        jobs = server.jobs(user)
        if jobs and jobs[0]["status"] == status:
            return job_id(jobs[0]["url"])
        time.sleep(0.02)
    raise AssertionError(f"no job of {user} became {status}")


def test_killed_mid_job_the_job_runs_again_after_restart(server_factory: Any) -> None:
    args = ("--workers", "1", "--reply-wait", "0")
    server: Server = server_factory(*args)
    finished = submit("127.0.0.1", server.moss_port,
                      Query("u", sorted(batch().items()), language="python"))[1]
    first = server.wait_job(job_id(finished))
    assert first["status"] == "done"
    status, before, _ = server.get(f"/results/{job_id(finished)}/")
    assert status == 200

    rng = random.Random(7)  # a job big enough to be caught running
    heavy = [(f"s{i}.py", random_program(rng, 300)) for i in range(400)]
    submit("127.0.0.1", server.moss_port, Query("heavy", heavy, language="python"))
    heavy_id = wait_status(server, "heavy", "running")
    state = server.data / "jobs" / server.api(f"/api/jobs/{heavy_id}")["id"] / "state.json"
    deadline = time.monotonic() + 30  # the state is written off the event loop
    while '"running"' not in state.read_text() and time.monotonic() < deadline:
        time.sleep(0.02)
    server.kill()

    again: Server = server_factory(*args)
    job = again.wait_job(heavy_id, timeout=300)
    assert job["status"] == "done" and job["attempts"] == 2, job
    assert job["summary"]["submissions"] == 400
    status, after, _ = again.get(f"/results/{job_id(finished)}/")
    assert status == 200 and after == before  # the finished report, served again


def test_killed_mid_upload_the_job_is_failed_with_a_reason(server_factory: Any) -> None:
    server: Server = server_factory()
    with socket.create_connection(("127.0.0.1", server.moss_port), timeout=30) as sock:
        sock.sendall(b"moss cut\nlanguage c\n")
        assert sock.makefile("rb").readline() == b"yes\n"
        sock.sendall(file_header(1, "c", "a.c", 10) + b"int x = 1;" + file_header(2, "c", "b.c",
                                                                                 10) + b"int")
        cut_id = wait_status(server, "cut", "receiving")
        server.kill()
    again: Server = server_factory()
    job = again.api(f"/api/jobs/{cut_id}")
    assert job["status"] == "failed"
    assert job["reason"] == "the server stopped before the upload ended"


def test_retention_deletes_old_jobs_at_start(server_factory: Any) -> None:
    server: Server = server_factory()
    url = submit("127.0.0.1", server.moss_port,
                 Query("old", [("a.c", b"int x;\n"), ("b.c", b"int y;\n")]))[1]
    job = server.wait_job(job_id(url))
    assert job["status"] == "done"
    assert (server.data / "jobs" / job["id"]).is_dir()
    server.stop()
    time.sleep(1.0)
    again: Server = server_factory("--retention-days", str(0.5 / 86400))  # half a second
    assert again.get(f"/api/jobs/{job_id(url)}")[0] == 404
    deadline = time.monotonic() + 10  # the folder goes on the writer thread
    while (again.data / "jobs" / job["id"]).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not (again.data / "jobs" / job["id"]).exists()


def test_sigterm_stops_the_server_with_exit_0(server: Server) -> None:
    assert server.proc is not None
    proc = server.proc
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=30) == 0, server.log.read_text(errors="replace")
