"""Load test of ``winnow serve`` on loopback: many MOSS clients at once.

Starts ``winnow serve`` (ports chosen by the system, a temporary data folder),
waits for it and for one warm-up job, then lets CLIENTS clients connect at the
same moment, each submitting FILES Python files with the byte stream
``moss.pl`` sends (:mod:`winnow.serve.client`).  Each client's files are
winnow's own modules, a quarter of them copied from another of its files with
the identifiers renamed, so every job has pairs to find.  Bounded: the clients
give up after --timeout seconds and the server is always stopped.

Prints: jobs (submissions) per second over the whole run, the time from
connecting until the report's URL arrives (median, 90th percentile, max), and
the server's memory (peak PSS and RSS of the server and its worker processes,
sampled every 50 ms).  With --reply-wait 0 the URL is answered at once and
the run also waits for every job to finish; jobs/s then counts finished jobs.

    .venv/bin/python benchmarks/serve_load.py [--clients 50] [--files 20]
        [--workers 2] [--reply-wait 600] [--record]

``--record`` adds the figures at the top of ``benchmarks/serve_load.results.md``.

``--listing N`` measures something else: N finished jobs of 40 users are
written to the data folder, the server is started on it, and each of
``GET /api/jobs?user=U`` (100 jobs of a user, with its secret), ``/users/U/``,
a listing without the secret and ``GET /`` is timed 30 times (median, max).

``--store`` measures what one job of FILES files keeps on disk: it is sent,
and the job's folder is weighed (``du``-style, allocated bytes) by part: the
uploaded files, the HTML report, the JSON result.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness import ROOT, tree_memory_kib, uptime
from history import commit, record, stamp
from winnow.serve.client import Query, submit

_READY = re.compile(r"MOSS protocol on [^:]+:(\d+), reports on (http://\S+)/")


def batches(clients: int, files: int) -> list[list[tuple[str, bytes]]]:
    """Per client, ``files`` files: winnow modules, every fourth a renamed copy."""
    sources = sorted(p for p in (ROOT / "src" / "winnow").rglob("*.py")
                     if p.stat().st_size > 2000)
    out = []
    for c in range(clients):
        chosen: list[tuple[str, bytes]] = []
        for i in range(files):
            if i % 4 == 3:
                text = chosen[i - 2][1].replace(b"self", b"me").replace(b"path", b"where")
            else:
                text = sources[(c * 7 + i) % len(sources)].read_bytes()
            chosen.append((f"student{i:02d}.py", text))
        out.append(chosen)
    return out


class Sampler(threading.Thread):
    """Peak memory of a process tree until stopped."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_rss, self.peak_pss = pid, 0, 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.wait(0.05):
            rss, pss = tree_memory_kib(self.pid)
            self.peak_rss, self.peak_pss = max(self.peak_rss, rss), max(self.peak_pss, pss)


def start(data: str, workers: int, reply_wait: float, log: Path) -> tuple[subprocess.Popen[bytes],
                                                                           int, str]:
    winnow = str(Path(sys.executable).with_name("winnow"))
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [winnow, "serve", "--data", data, "--moss-port", "0", "--http-port", "0",
             "--workers", str(workers), "--reply-wait", str(reply_wait)],
            stdout=out, stderr=out, stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        found = _READY.search(log.read_text(errors="replace"))
        if found:
            return proc, int(found.group(1)), found.group(2)
        time.sleep(0.05)
    stop(proc)
    sys.exit(f"server did not start:\n{log.read_text(errors='replace')}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def job_status(http: str, url: str) -> dict[str, object]:
    job_id = url.rstrip("/").rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{http}/api/jobs/{job_id}", timeout=30) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def one_client(port: int, files: list[tuple[str, bytes]], barrier: threading.Barrier,
               timeout: float, n: int) -> tuple[float, str]:
    barrier.wait()
    started = time.perf_counter()
    lines = submit("127.0.0.1", port, Query(f"load-{n}", files, language="python"),
                   timeout=timeout)
    if len(lines) != 2 or not lines[1].startswith("http"):
        raise RuntimeError(f"client {n}: {lines}")
    return time.perf_counter() - started, lines[1]


def wait_all(http: str, urls: list[str], timeout: float) -> list[dict[str, object]]:
    deadline = time.monotonic() + timeout
    while True:
        jobs = [job_status(http, url) for url in urls]
        if all(j["status"] in ("done", "failed") for j in jobs) or time.monotonic() > deadline:
            return jobs
        time.sleep(0.2)


def listing(count: int) -> None:
    """Time the listings of a server holding ``count`` jobs (``--listing``)."""
    import base64

    from winnow.serve.access import Secrets
    from winnow.serve.store import Job, StoredFile

    load_before = uptime()
    with tempfile.TemporaryDirectory(prefix="winnow-serve-listing-") as tmp:
        jobs = Path(tmp) / "data" / "jobs"
        for n in range(count):
            job = Job(id=os.urandom(10).hex(), user=f"user-{n % 40}", status="done",
                      files=[StoredFile(i, f"student{i}.py", 1000) for i in range(20)],
                      summary={"pairs": 3})
            (jobs / job.id / "files").mkdir(parents=True)
            (jobs / job.id / "state.json").write_text(json.dumps(job.as_dict()))
        auth = base64.b64encode(
            f"user-7:{Secrets(Path(tmp) / 'data').issue('user-7')}".encode()).decode()
        began = time.perf_counter()
        proc, _, http = start(str(Path(tmp) / "data"), 1, 0.0, Path(tmp) / "server.log")
        print(f"{count} jobs: the server answered {time.perf_counter() - began:.2f} s "
              "after it was started")
        try:
            for path, secret in (("/api/jobs?user=user-7", True), ("/users/user-7/", True),
                                 ("/api/jobs?user=user-8", False), ("/", False)):
                times = []
                for _ in range(30):
                    request = urllib.request.Request(http + path)
                    if secret:
                        request.add_header("Authorization", f"Basic {auth}")
                    took = time.perf_counter()
                    try:
                        with urllib.request.urlopen(request, timeout=30) as response:
                            response.read()
                    except urllib.error.HTTPError as error:
                        error.read()
                    times.append(time.perf_counter() - took)
                print(f"GET {path}{' (with the secret)' if secret else ''}: median "
                      f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")
        finally:
            stop(proc)
    print(f"before: {load_before}; after: {uptime()}")


def _allocated(path: Path) -> tuple[int, int]:
    """Files and bytes allocated on disk under ``path`` (what ``du`` counts)."""
    found = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else [path]
    return len(found), sum(p.stat().st_blocks * 512 for p in found if p.exists())


def store_size(files: int, timeout: float) -> None:
    work = batches(1, files)[0]
    sent = sum(len(data) for _, data in work)
    with tempfile.TemporaryDirectory(prefix="winnow-serve-store-") as tmp:
        data = Path(tmp) / "data"
        proc, port, http = start(str(data), 1, 600.0, Path(tmp) / "server.log")
        try:
            _, url = one_client(port, work, threading.Barrier(1), timeout, 0)
            job = job_status(http, url)
        finally:
            stop(proc)
        folder = data / "jobs" / str(job["id"])
        parts = {name: _allocated(folder / name)
                 for name in ("files", "report", "result.json.gz", "state.json")}
        total = _allocated(folder)
    summary = job["summary"] or {}
    line = (f"one job of {files} files ({sent / 1000:.1f} kB sent, "
            f"{summary.get('pairs')} pairs): the job's folder holds {total[0]} files, "
            f"{total[1] / 1e6:.2f} MB; " + ", ".join(
                f"{name} {count} files {size / 1e6:.2f} MB"
                for name, (count, size) in parts.items()))
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reply-wait", type=float, default=600.0)
    parser.add_argument("--timeout", type=float, default=540.0)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--listing", type=int, metavar="N",
                        help="time the job listings of a server holding N jobs instead")
    parser.add_argument("--store", action="store_true",
                        help="weigh the data folder after one job of FILES files instead")
    args = parser.parse_args()
    if args.listing:
        listing(args.listing)
        return
    if args.store:
        store_size(args.files, args.timeout)
        return
    work = batches(args.clients, args.files)
    load_before = uptime()
    with tempfile.TemporaryDirectory(prefix="winnow-serve-load-") as tmp:
        proc, port, http = start(str(Path(tmp) / "data"), args.workers, args.reply_wait,
                                 Path(tmp) / "server.log")
        try:
            sampler = Sampler(proc.pid)
            sampler.start()
            warm = time.perf_counter()
            one_client(port, work[0], threading.Barrier(1), args.timeout, -1)
            warm_s = time.perf_counter() - warm
            barrier = threading.Barrier(args.clients)
            began = time.perf_counter()
            with ThreadPoolExecutor(args.clients) as pool:
                futures = [pool.submit(one_client, port, files, barrier, args.timeout, n)
                           for n, files in enumerate(work)]
                answers = [f.result(timeout=args.timeout + 60) for f in futures]
            jobs = wait_all(http, [url for _, url in answers], args.timeout)
            wall = time.perf_counter() - began
            sampler.halt.set()
            sampler.join()
        finally:
            stop(proc)
    report(args, answers, jobs, wall, warm_s, sampler, load_before)


def report(args: argparse.Namespace, answers: list[tuple[float, str]],
           jobs: list[dict[str, object]], wall: float, warm_s: float, sampler: Sampler,
           load_before: str) -> None:
    waits = sorted(seconds for seconds, _ in answers)
    done = sum(job["status"] == "done" for job in jobs)
    with_pairs = sum(bool(job["summary"] and job["summary"]["pairs"])  # type: ignore[index]
                     for job in jobs)
    p90 = waits[max(0, round(0.9 * len(waits)) - 1)]
    line = (f"{args.clients} clients x {args.files} files, {args.workers} workers, "
            f"--reply-wait {args.reply_wait:g}: {done}/{len(jobs)} jobs done "
            f"({with_pairs} with pairs) in {wall:.1f} s = {done / wall:.2f} jobs/s "
            f"({done * args.files / wall:.1f} files/s); time to URL median "
            f"{statistics.median(waits):.2f} s, p90 {p90:.2f} s, max {waits[-1]:.2f} s; "
            f"server memory peak PSS {sampler.peak_pss / 1024:.0f} MiB, RSS "
            f"{sampler.peak_rss / 1024:.0f} MiB (server + workers); warm-up job "
            f"{warm_s:.2f} s")
    print(line)
    print(f"before: {load_before}; after: {uptime()}")
    if args.record:
        record("serve_load", f"{stamp()}, {commit()}",
               f"`{' '.join(sys.argv[1:]) or '(defaults)'}`; {load_before} (before), "
               f"{uptime()} (after)\n\n{line}")


if __name__ == "__main__":
    main()
