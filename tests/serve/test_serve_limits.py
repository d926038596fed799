"""Jobs that cannot hurt the server: kill -9, time and memory limits, a full disk."""

from __future__ import annotations

import contextlib
import errno
import os
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.serve.conftest import Server, job_id
from tests.serve.corpus import batch, random_program
from winnow.serve import jobs
from winnow.serve.access import ADMIN
from winnow.serve.client import Query, submit
from winnow.serve.jobs import DISK_FULL, run_job
from winnow.serve.store import JobStore, StoredFile

pytestmark = pytest.mark.slow


def heavy_files(count: int = 400) -> list[tuple[str, bytes]]:
    """A batch that takes a worker over a second and about 300 MiB (400 files;
    2,000 take well over the 2 s limit below even on a quiet machine: 1.4 s
    and 2.9 s for 400 and 1,200 files in one process)."""
    rng = random.Random(7)
    return [(f"s{i}.py", random_program(rng, 300)) for i in range(count)]


def small_job(server: Server, user: str) -> dict[str, Any]:
    url = submit("127.0.0.1", server.moss_port,
                 Query(user, sorted(batch().items()), language="python", directory=True),
                 timeout=300)[1]
    return server.wait_job(job_id(url), timeout=300)


def ready_workers(server: Server, count: int, timeout: float = 120) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        workers = server.api("/api/admin", auth=ADMIN)["workers"]
        if sum(w["ready"] for w in workers) == count:
            return [int(w["pid"]) for w in workers]
        time.sleep(0.1)
    raise AssertionError("the workers did not start")


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                parent = int(stat.rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_kill_9_of_the_server_leaves_no_worker(server_factory: Any) -> None:
    server: Server = server_factory("--workers", "2", "--reply-wait", "0")
    workers = ready_workers(server, 2)
    submit("127.0.0.1", server.moss_port, Query("busy", heavy_files(), language="python"))
    assert server.proc is not None
    family = descendants(server.proc.pid)
    assert set(workers) <= family
    os.kill(server.proc.pid, signal.SIGKILL)  # the server alone, not its group
    server.proc.wait(timeout=10)
    killed = time.monotonic()
    while any(running(pid) for pid in family) and time.monotonic() - killed < 5:
        time.sleep(0.05)
    left = [pid for pid in family if running(pid)]
    assert not left, f"still running {time.monotonic() - killed:.1f} s after kill -9: {left}"


def test_a_job_over_its_time_limit_fails_while_others_complete(server_factory: Any) -> None:
    server: Server = server_factory("--workers", "2", "--job-seconds", "2",
                                    "--reply-wait", "0")
    ready_workers(server, 2)
    heavy = submit("127.0.0.1", server.moss_port, Query("heavy", heavy_files(2000),
                                                         language="python"))[1]
    with ThreadPoolExecutor(3) as pool:
        small = list(pool.map(lambda n: small_job(server, f"small-{n}"), range(3)))
    job = server.wait_job(job_id(heavy), timeout=120)
    assert job["status"] == "failed" and job["reason"] == "over the time limit of 2 seconds"
    assert not (server.data / "jobs" / job["id"] / "report").exists()
    assert [j["status"] for j in small] == ["done"] * 3
    assert small_job(server, "after")["status"] == "done"  # a fresh worker took its place


def test_a_job_over_its_memory_limit_fails_while_others_complete(server_factory: Any) -> None:
    server: Server = server_factory("--workers", "1", "--job-memory-mb", "220",
                                    "--reply-wait", "0")
    ready_workers(server, 1)
    heavy = submit("127.0.0.1", server.moss_port, Query("heavy", heavy_files(),
                                                         language="python"))[1]
    job = server.wait_job(job_id(heavy), timeout=120)
    assert job["status"] == "failed" and "over the memory limit" in job["reason"], job
    assert "220 MiB" in job["reason"]
    assert small_job(server, "small")["status"] == "done"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB tmpfs (root only)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
                          capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {made.stderr.decode(errors='replace')}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_reported_and_leaves_no_partial_output(
        server_factory: Any, small_disk: Path) -> None:
    server: Server = server_factory(data=small_disk / "data")
    server.secret("big")  # the secrets file first: the disk is about to fill
    big = [(f"f{i}.c", b"int x = %d;\n" % i * 50_000) for i in range(10)]  # 5.5 MB
    lines = submit("127.0.0.1", server.moss_port, Query("big", big))
    assert lines == ["yes", "error: the server's disk is full; the job was not stored"]
    [job] = server.jobs("big")
    assert job["status"] == "failed" and "disk is full" in job["reason"]
    assert not list((server.data / "jobs" / job["id"] / "files").glob("*"))
    # over HTTP: 507 with the reason, for a script and for the upload page
    from tests.serve.test_serve_http import post

    status, _, text = post(server, {"user": "big", "language": "c"},
                           [("files", name, data) for name, data in big], html=False)
    assert status == 507 and "disk is full" in text
    status, _, text = post(server, {"user": "big", "language": "c"},
                           [("files", name, data) for name, data in big])
    assert status == 507 and "disk is full" in text and "<html" in text
    assert all(j["status"] == "failed" for j in server.jobs("big"))
    # the disk has room again; the server goes on
    assert small_job(server, "after")["status"] == "done"


def test_a_full_disk_while_writing_the_report_removes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = JobStore(tmp_path)
    job = store.create("u", language="c")
    for index, text in enumerate((b"int a;\n", b"int b;\n")):
        store.file_path(job, index).write_bytes(text)
        job.files.append(StoredFile(index + 1, f"{index}.c", len(text)))
    store.save(job)

    def half_written(result: Any, path: Path, **options: Any) -> None:
        Path(path).mkdir(parents=True)
        (Path(path) / "index.html").write_text("<html>partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("winnow.reports.html.write_report", half_written)
    with pytest.raises(OSError, match="disk is full") as caught:
        run_job(str(tmp_path), job.id)
    assert caught.value.errno == errno.ENOSPC and str(caught.value).endswith(DISK_FULL)
    assert jobs.disk_full(caught.value)
    assert not store.report_dir(job.id).exists() and not store.result_path(job.id).exists()
