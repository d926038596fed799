"""A ``winnow serve`` process on loopback for the tests, always stopped afterwards."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from winnow.serve.access import Secrets

_READY = re.compile(r"MOSS protocol on \S+:(\d+), reports on (http://\S+)/")


class Server:
    """One server process (its own process group, so its workers stop with it)."""

    def __init__(self, data: Path, log: Path, *args: str, fds: int | None = None) -> None:
        self.data, self.log, self.args, self.fds = data, log, args, fds
        self.proc: subprocess.Popen[bytes] | None = None
        self.moss_port = 0
        self.http = ""
        self.secrets: dict[str, str] = {}

    def start(self, timeout: float = 60.0) -> Server:
        self.log.write_bytes(b"")
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "winnow", "serve", "--data", str(self.data),
                 "--moss-port", "0", "--http-port", "0", *self.args],
                stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True,
                preexec_fn=None if self.fds is None else partial(_limit_fds, self.fds))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = _READY.search(self.log.read_text(errors="replace"))
            if found:
                self.moss_port, self.http = int(found.group(1)), found.group(2)
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.kill()
        raise AssertionError(f"server did not start:\n{self.log.read_text(errors='replace')}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the server and its workers at once (a crash)."""
        if self.proc is not None:
            with_group(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
            self.proc = None

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 20 s."""
        if self.proc is None:
            return
        with_group(self.proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=20)
        self.kill()

    def secret(self, user: str) -> str:
        """Issue a secret for ``user`` (the running server reads it when it is used)."""
        if user not in self.secrets:
            self.secrets[user] = Secrets(self.data).issue(user)
        return self.secrets[user]

    def get(self, path: str, auth: str | None = None,
            method: str = "GET") -> tuple[int, bytes, dict[str, str]]:
        """``auth``: a user whose secret is sent (issued on first use)."""
        request = urllib.request.Request(self.http + path, method=method)
        if auth is not None:
            token = base64.b64encode(f"{auth}:{self.secret(auth)}".encode()).decode()
            request.add_header("Authorization", f"Basic {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read(), dict(error.headers)

    def api(self, path: str, auth: str | None = None) -> Any:
        status, body, _ = self.get(path, auth)
        assert status == 200, (path, status, body[:300])
        return json.loads(body)

    def jobs(self, user: str) -> list[dict[str, Any]]:
        """``user``'s jobs, newest first (with the user's secret)."""
        return self.api(f"/api/jobs?user={urllib.parse.quote(user)}", auth=user)["jobs"]

    def wait_job(self, job_id: str, timeout: float = 120.0) -> dict[str, Any]:
        """The job once it is done or failed."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            job: dict[str, Any] = self.api(f"/api/jobs/{job_id}")
            if job["status"] in ("done", "failed"):
                return job
            time.sleep(0.1)
        raise AssertionError(f"job {job_id} did not end in {timeout} s")


def _limit_fds(count: int) -> None:
    """``ulimit -n COUNT`` in the server's process (soft and hard)."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


def with_group(pid: int, number: int) -> None:
    """Send ``number`` to the process group of the server we started (pid = pgid)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, number)


def job_id(url: str) -> str:
    """The report token of a report URL (it names the job in ``/api/jobs/REF``)."""
    found = re.search(r"/results/([0-9a-f]{32})/$", url)
    assert found, url
    return found.group(1)


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Any]:
    """``make(*args)`` starts a server on ``tmp_path/data``; all are stopped at the end."""
    started: list[Server] = []

    def make(*args: str, fds: int | None = None, data: Path | None = None) -> Server:
        server = Server(data or tmp_path / "data", tmp_path / f"server-{len(started)}.log",
                        *args, fds=fds)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def server(server_factory: Any) -> Server:
    return server_factory()  # type: ignore[no-any-return]
