"""Malformed, truncated, hostile and oversized streams, while a good job completes."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.serve.conftest import Server, job_id
from tests.serve.corpus import batch
from winnow.serve.client import Query, file_header, submit

pytestmark = pytest.mark.slow

HEAD = b"moss %s\ndirectory 0\nX 0\nmaxmatches 10\nshow 250\nlanguage c\n"


def raw(port: int, user: str, payload: bytes, *, hang_up: bool = False) -> list[str]:
    """Send the header and ``payload`` (from a thread, ignoring send errors); return
    the lines answered until the server closes.  ``hang_up``: close right after."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(HEAD % user.encode())
        reader = sock.makefile("rb")
        lines = [reader.readline().decode().rstrip("\n")]

        def send() -> None:
            with contextlib.suppress(OSError):
                sock.sendall(payload)

        sender = threading.Thread(target=send)
        sender.start()
        if hang_up:
            sender.join()
            return lines
        with contextlib.suppress(OSError):  # reset after the answer
            lines += [line.decode().rstrip("\n") for line in reader]
        sender.join()
        return lines


def good_job(server: Server) -> dict[str, Any]:
    files = sorted(batch().items())
    lines = submit("127.0.0.1", server.moss_port, Query("good", files, language="python",
                                                       directory=True), timeout=300)
    return server.wait_job(job_id(lines[1]))


def files(count: int, size: int) -> bytes:
    return b"".join(file_header(i, "c", f"f{i}.c", size) + b"x" * size
                    for i in range(1, count + 1))


BAD: dict[str, tuple[Callable[[Server], list[str]], str]] = {
    # SIZE smaller than the bytes sent: the rest is read as a command
    "size-short": (lambda s: raw(s.moss_port, "size-short",
                                file_header(1, "c", "a.c", 5) + b"int main() {}\nquery 0 x\n"),
                   "error: unexpected command after the files"),
    "unknown-command": (lambda s: raw(s.moss_port, "unknown-command", b"frobnicate 1 2\n"),
                        "error: unknown command: 'frobnicate'"),
    "bad-number": (lambda s: raw(s.moss_port, "bad-number",
                                b"file 1 c lots a.c\n"), "error: file size is not a number"),
    "too-many-files": (lambda s: raw(s.moss_port, "too-many-files",
                                    files(10_000, 8) + b"query 0 x\n"),
                       "error: too many files: the limit is 5000 files per job"),
    "over-size": (lambda s: raw(s.moss_port, "over-size",
                               file_header(1, "c", "big.c", 100 << 20) + bytes(100 << 20)),
                  "error: file over the size limit of 4194304 bytes"),
    "line-too-long": (lambda s: raw(s.moss_port, "line-too-long", b"x" * 100_000 + b"\n"),
                      "error: command line too long"),
    "no-files": (lambda s: raw(s.moss_port, "no-files", b"query 0 x\n"),
                 "error: no files were submitted"),
}


def test_bad_streams_are_answered_while_a_good_job_completes(server_factory: Any) -> None:
    """With the default idle timeout: a short one here dropped clients that had
    sent everything whenever the loaded machine stalled the server's event loop
    for that long (the idle timer fired before the read), so the good job
    failed now and then; the silent client has a test of its own, below."""
    server: Server = server_factory()
    with ThreadPoolExecutor(len(BAD) + 2) as pool:
        good = pool.submit(good_job, server)
        cut = pool.submit(raw, server.moss_port, "cut",
                          file_header(1, "c", "a.c", 1000) + b"int half", hang_up=True)
        answers = {name: pool.submit(run, server) for name, (run, _) in BAD.items()}
        done = good.result(timeout=300)
        cut.result(timeout=60)
        seen = {name: future.result(timeout=120) for name, future in answers.items()}
    for name, (_, expected) in BAD.items():
        assert seen[name][0] == "yes", (name, seen[name])
        assert len(seen[name]) == 2 and seen[name][1].startswith(expected), (name, seen[name])
    assert done["status"] == "done", done
    assert done["summary"]["submissions"] == 4 and done["summary"]["pairs"] >= 1
    assert server.alive()

    # every half-received job is failed with its reason and keeps no files
    for user in ("cut", "size-short", "too-many-files", "over-size"):
        jobs = server.jobs(user)
        assert [j["status"] for j in jobs] == ["failed"], (user, jobs)
        assert not list((server.data / "jobs" / jobs[0]["id"] / "files").glob("*"))
    reason = server.jobs("cut")[0]["reason"]
    assert reason == "the connection ended before the query"
    # and the server still takes work
    assert good_job(server)["status"] == "done"


def test_refused_user_id(server_factory: Any, tmp_path: Any) -> None:
    (tmp_path / "users.txt").write_text("# allowed\nalice\n")
    server: Server = server_factory("--users", str(tmp_path / "users.txt"))
    query = Query("mallory", [("a.c", b"int x;\n"), ("b.c", b"int y;\n")])
    # moss.pl reads the answer to `language`, sends its files, then prints what the
    # query is answered: the refusal comes there, and nothing is stored
    assert submit("127.0.0.1", server.moss_port, query) == [
        "yes", "error: user id not allowed on this server"]
    ok = submit("127.0.0.1", server.moss_port, Query("alice", query.files))
    assert ok[0] == "yes" and ok[1].startswith(server.http)
    assert server.jobs("mallory") == []


def test_a_silent_client_is_dropped_after_the_idle_timeout(server_factory: Any) -> None:
    """SIZE larger than the bytes sent: the server waits, then drops the silent
    client with the reason, and fails its job (alone on its server, so nothing
    else can stall the timer)."""
    server: Server = server_factory("--idle-timeout", "1")
    lines = raw(server.moss_port, "size-long",
                file_header(1, "c", "a.c", 500) + b"int x;\nquery 0 x\n")
    assert lines == ["yes", "error: the client sent nothing for 1 seconds"], lines
    jobs = server.jobs("size-long")
    assert [j["status"] for j in jobs] == ["failed"], jobs
    assert not list((server.data / "jobs" / jobs[0]["id"] / "files").glob("*"))
    assert server.alive()
