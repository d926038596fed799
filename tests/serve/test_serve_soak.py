"""Soak test on loopback: abusive clients while a good job and ``GET /`` go on.

The server runs in a process of its own under ``ulimit -n 1024``.  From other
loopback addresses (127.0.0.2-5) come 2,000 connections that start a job and
hang up, 1,100 that connect and stay silent (half on each port) and 50 that
trickle one byte every half second; from 127.0.0.1 a ``moss.pl``-style job
and ``GET /`` every 50 ms.  Bounded: every client gives up after its own
timeout and the whole test after about a minute.
"""

from __future__ import annotations

import contextlib
import resource
import socket
import statistics
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.serve.conftest import Server, job_id
from tests.serve.corpus import batch
from winnow.serve.client import Query, file_header, submit

pytestmark = pytest.mark.slow

HANG_UPS, IDLE, TRICKLING = 2000, 1100, 50
DEADLINE = 8.0  # the server's --upload-deadline in this test


@pytest.fixture(autouse=True)
def other_loopback_addresses() -> None:
    """The abusive clients come from 127.0.0.2-5 (all of 127/8 is loopback on Linux)."""
    try:
        with socket.socket() as probe:
            probe.bind(("127.0.0.5", 0))
    except OSError:
        pytest.skip("this system has no loopback addresses beyond 127.0.0.1")


@pytest.fixture
def many_fds() -> Iterator[None]:
    """This process needs more than 1,100 descriptors for the idle clients."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
    if want < IDLE + 400:
        pytest.skip(f"the descriptor limit ({hard}) is too low for {IDLE} idle clients")
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def connect(port: int, source: str, timeout: float = 10.0) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def hang_ups(port: int, count: int, source: str) -> int:
    """``count`` clients that start a job, send half a file and hang up."""
    started = 0
    for _ in range(count):
        with contextlib.suppress(OSError), connect(port, source) as sock:
            sock.sendall(b"moss hang\nlanguage c\n" + file_header(1, "c", "a.c", 1000)
                         + b"int half")
            started += 1
    return started


def idle(port: int, count: int, source: str, hold: threading.Event) -> int:
    """``count`` clients that connect and say nothing until ``hold`` is set."""
    socks = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            socks.append(connect(port, source))
    hold.wait(120)
    for sock in socks:
        sock.close()
    return len(socks)


def trickle(ports: list[int], count: int, source: str) -> list[float]:
    """``count`` clients sending one byte every half second; the seconds until the
    server dropped each (or 60 s, the test's bound)."""
    payload = b"moss trickle\nlanguage c\n" + file_header(1, "c", "t.c", 10**6)
    http = b"POST /api/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n"
    socks = [connect(ports[i % 2], source) for i in range(count)]
    began = time.monotonic()
    dropped: dict[int, float] = {}
    for step in range(120):
        for i, sock in enumerate(socks):
            if i in dropped:
                continue
            data = payload if i % 2 == 0 else http
            try:
                sock.sendall(data[step % len(data):step % len(data) + 1])
            except OSError:
                dropped[i] = time.monotonic() - began
        if len(dropped) == count:
            break
        time.sleep(0.5)
    for sock in socks:
        sock.close()
    return [dropped.get(i, 60.0) for i in range(count)]


def home_times(http: str, stop: threading.Event) -> list[float]:
    times = []
    while not stop.is_set() and len(times) < 2000:
        began = time.perf_counter()
        try:
            with urllib.request.urlopen(http + "/", timeout=10) as response:
                response.read()
                ok = response.status == 200
        except OSError:
            ok = False
        times.append(time.perf_counter() - began if ok else 10.0)
        time.sleep(0.05)
    return times


def test_soak_abusive_clients_while_a_good_job_and_get_go_on(
        server_factory: Any, many_fds: None) -> None:
    server: Server = server_factory("--idle-timeout", "5", "--upload-deadline", str(DEADLINE),
                                    "--reply-wait", "120", fds=1024)
    http_port = int(server.http.rsplit(":", 1)[1])
    stop, hold = threading.Event(), threading.Event()
    with ThreadPoolExecutor(16) as pool:
        gets = pool.submit(home_times, server.http, stop)
        hostile = [pool.submit(hang_ups, server.moss_port, HANG_UPS // 4, "127.0.0.2")
                   for _ in range(4)]
        idlers = [pool.submit(idle, port, IDLE // 2, source, hold)
                  for port, source in ((server.moss_port, "127.0.0.3"),
                                       (http_port, "127.0.0.4"))]
        trickling = pool.submit(trickle, [server.moss_port, http_port], TRICKLING,
                                "127.0.0.5")
        time.sleep(1.0)  # the abuse is under way
        good = submit("127.0.0.1", server.moss_port,
                      Query("good", sorted(batch().items()), language="python",
                            directory=True), timeout=120)
        drops = trickling.result(timeout=90)
        started = sum(f.result(timeout=120) for f in hostile)
        stop.set()
        hold.set()
        times = gets.result(timeout=30)
        held = [f.result(timeout=30) for f in idlers]

    assert good[0] == "yes" and len(good) == 2, good
    job = server.api(f"/api/jobs/{job_id(good[1])}")
    assert job["status"] == "done" and job["summary"]["submissions"] == 4, job
    assert started >= HANG_UPS // 2, started  # the abuse really happened
    assert sum(held) >= IDLE // 2, held
    p95 = statistics.quantiles(times, n=20)[-1]
    print(f"soak: {started} hang-ups, {sum(held)} idle held, GET / x{len(times)} p95 "
          f"{p95 * 1000:.1f} ms max {max(times) * 1000:.1f} ms, trickling dropped after "
          f"{min(drops):.1f}-{max(drops):.1f} s, log {server.log.stat().st_size} bytes")
    assert len(times) >= 20 and p95 < 0.2, (p95, sorted(times)[-10:])
    # trickling clients are dropped by the whole-upload deadline, not kept forever
    assert max(drops) < DEADLINE + 6, drops
    # and the server still answers, with logs that did not flood the disk
    assert server.get("/")[0] == 200 and server.alive()
    assert server.log.stat().st_size < 1 << 20, server.log.stat().st_size


def test_connections_over_the_per_address_limit_are_refused(server_factory: Any) -> None:
    server: Server = server_factory("--max-per-address", "2")
    http_port = int(server.http.rsplit(":", 1)[1])
    for port, refusal in ((server.moss_port, b"error: too many connections from 127.0.0.2"),
                          (http_port, b"HTTP/1.1 503 Service Unavailable")):
        held = [connect(port, "127.0.0.2") for _ in range(2)]
        time.sleep(0.3)  # both are counted
        with connect(port, "127.0.0.2") as extra:
            assert extra.recv(200).startswith(refusal)
        assert server.get("/")[0] == 200  # another address is served
        for sock in held:
            sock.close()
        time.sleep(0.5)  # the server has seen them close
    with connect(http_port, "127.0.0.2") as again:  # released: served again
        again.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert again.recv(100).startswith(b"HTTP/1.1 200")


def test_gate_and_log_rate_limit() -> None:
    import logging

    from winnow.serve.guard import BURST, Gate, RateLimit

    gate = Gate(3, 2)
    assert gate.admit("a") is None and gate.admit("a") is None
    assert "too many connections from a" in (gate.admit("a") or "")
    assert gate.admit("b") is None
    assert "busy" in (gate.admit("c") or "")
    gate.release("a")
    assert gate.admit("c") is None and gate.refused == 2
    limit = RateLimit()
    record = logging.LogRecord("winnow.serve", logging.INFO, "", 0, "client %s", ("x",), None)
    passed = sum(limit.filter(record) for _ in range(BURST * 10))
    assert passed == BURST


def test_a_trickling_upload_is_dropped_at_the_deadline_with_its_reason(
        server_factory: Any) -> None:
    server: Server = server_factory("--upload-deadline", "2", "--idle-timeout", "5")
    payload = b"x" * 1000
    with connect(server.moss_port, "127.0.0.1", timeout=20) as sock:
        sock.sendall(b"moss slow\nlanguage c\n" + file_header(1, "c", "slow.c", 1000))
        reader = sock.makefile("rb")
        assert reader.readline() == b"yes\n"
        began = time.monotonic()
        answer = b""
        for byte in payload:  # one byte every 0.2 s: never idle, never done
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break
            sock.settimeout(0.2)
            with contextlib.suppress(TimeoutError):
                answer = sock.recv(200)
                break
        took = time.monotonic() - began
    assert answer == b"error: the upload took longer than 2 seconds\n", answer
    assert took < 4, took
    [job] = server.jobs("slow")
    assert job["status"] == "failed" and job["reason"] == "the upload took longer than 2 seconds"
