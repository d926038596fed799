"""Worker processes that run jobs within limits, and the queue that feeds them.

Each worker is a process of its own (``spawn``), one job at a time, talking to
the server over a pipe.  It cannot outlive the server: it asks the kernel to
kill it when the server dies (``PR_SET_PDEATHSIG``, through
:func:`winnow.parallel.init_worker`), so even a ``kill -9`` of the server
leaves none behind.  It runs below the server's priority (niceness
:data:`WORKER_NICENESS`), and compiles the comparison's kernels once when it
starts (logged), so the first job costs what later ones do.

The server watches every running job: past its wall time
(:attr:`JobLimits.wall_seconds`) or with the worker's resident memory past
:attr:`JobLimits.memory_bytes` the worker is killed, the job fails with that
reason and a fresh worker takes its place; the other workers go on.  The
worker's data segment is also capped at that much (``RLIMIT_DATA``), so most
jobs over it fail with ``MemoryError`` before they are killed.

Workers start one after the other's warm-up: on a fresh install the first
compiles the kernels (numba writes them to its cache) and the others load them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from winnow.serve.store import Job, JobStore

log = logging.getLogger("winnow.serve")
#: Workers run this much below the server's priority.
WORKER_NICENESS = 5
#: How often a running job is looked at (seconds).
POLL = 0.05
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclass(frozen=True)
class JobLimits:
    """What one job may use (0 = no limit)."""

    wall_seconds: float = 1800.0
    memory_bytes: int = 2 << 30


def _main(conn: Connection, data: str, parent: int, memory: int) -> None:
    """A worker's life: warm up, then run the jobs the server sends."""
    from winnow.parallel import init_worker
    from winnow.serve.jobs import DISK_FULL, disk_full, run_job, warm_up

    init_worker(parent, memory)
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    conn.send(("ready", round(warm_up(), 2)))
    while True:
        try:
            job_id, state = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("done", run_job(data, job_id, state)))
        except MemoryError:
            conn.send(("failed", "over the memory limit of the server's jobs "
                                 f"({memory >> 20} MiB)"))
        except Exception as error:  # the job's own failure: keep the reason
            reason = DISK_FULL if disk_full(error) else f"{type(error).__name__}: {error}"
            conn.send(("failed", reason))


def rss_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


class Worker:
    """One worker process and its end of the pipe."""

    def __init__(self, data: str, limits: JobLimits, number: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_main, args=(child, data, os.getpid(), limits.memory_bytes),
            name=f"winnow-serve-worker-{number}", daemon=True)
        self.process.start()
        child.close()
        self.limits, self.number = limits, number
        self.ready = False
        self.job: str | None = None
        self.since = 0.0

    @property
    def pid(self) -> int | None:
        return self.process.pid

    async def _receive(self, deadline: float | None) -> tuple[str, Any]:
        """The worker's next message; ``("killed", reason)`` when it broke a limit
        or died."""
        limits = self.limits
        while True:
            if self.conn.poll(0):
                try:
                    return self.conn.recv()  # type: ignore[no-any-return]
                except (EOFError, OSError):
                    pass
            if not self.process.is_alive():
                code = self.process.exitcode
                return "killed", f"the worker process ended abruptly (exit code {code})"
            if deadline is not None and time.monotonic() > deadline:
                self.kill()
                return "killed", f"over the time limit of {limits.wall_seconds:g} seconds"
            if limits.memory_bytes and rss_bytes(self.pid or 0) > limits.memory_bytes:
                self.kill()
                return "killed", (f"over the memory limit of {limits.memory_bytes >> 20} MiB "
                                  "(the worker was stopped)")
            await asyncio.sleep(POLL)

    async def start(self) -> bool:
        """Wait for the warm-up; ``False`` if the worker died instead."""
        started = time.monotonic()
        kind, value = await self._receive(None)
        self.ready = kind == "ready"
        if self.ready:
            log.info("worker %d ready in %.1f s (the comparison's kernels compiled in "
                     "%.1f s)", self.number, time.monotonic() - started, value)
        return self.ready

    async def run(self, job: Job) -> tuple[str, Any]:
        """Run one job: ``("done", summary)``, ``("failed", reason)`` or ``("killed", reason)``.
        The job's state goes with it: its ``state.json`` may still be waiting to be written."""
        self.job, self.since = job.id, time.monotonic()
        try:
            self.conn.send((job.id, job.as_dict()))
            wall = self.limits.wall_seconds
            return await self._receive(self.since + wall if wall else None)
        except OSError as error:
            return "killed", f"the worker process could not be reached ({error})"
        finally:
            self.job = None

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.process.kill()
        self.process.join(timeout=5)
        with contextlib.suppress(OSError):
            self.conn.close()


class Runner:
    """Jobs queued to ``workers`` worker processes."""

    def __init__(self, store: JobStore, workers: int, limits: JobLimits | None = None) -> None:
        self.store = store
        self.count = max(1, workers)
        self.limits = limits or JobLimits()
        self.queue: deque[str] = deque()
        self.more = asyncio.Event()
        self.ended: dict[str, asyncio.Event] = {}
        self.workers: list[Worker | None] = [None] * self.count
        self.tasks: list[asyncio.Task[None]] = []
        #: Set once the first worker has started: the others start after it, so on a
        #: fresh install one compiles the kernels and the rest load them from the cache.
        self.first = asyncio.Event()

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._serve(n)) for n in range(self.count)]

    def enqueue(self, job: Job) -> None:
        """Queue ``job`` (saved as ``queued`` first, so a restart finds it)."""
        job.status = "queued"
        self.store.save_soon(job)
        self.ended.setdefault(job.id, asyncio.Event())
        self.queue.append(job.id)
        self.more.set()

    def position(self, job_id: str) -> int | None:
        """1 for the next job to run, ``None`` if ``job_id`` is not queued."""
        try:
            return self.queue.index(job_id) + 1
        except ValueError:
            return None

    def cancel(self, job_id: str) -> None:
        """Take ``job_id`` off the queue, or stop the worker running it."""
        with contextlib.suppress(ValueError):
            self.queue.remove(job_id)
            event = self.ended.pop(job_id, None)
            if event is not None:  # a MOSS client waiting for it is answered now
                event.set()
        for worker in self.workers:
            if worker is not None and worker.job == job_id:
                worker.kill()

    async def wait(self, job_id: str, timeout: float) -> None:
        """Return when job ``job_id`` has ended, or after ``timeout`` seconds."""
        event = self.ended.get(job_id)
        if event is not None and timeout > 0:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await event.wait()

    def state(self) -> dict[str, Any]:
        """The queue and the workers, for the admin view."""
        now = time.monotonic()
        return {"queued": list(self.queue), "workers": [
            {"number": n, "pid": w.pid if w else None, "ready": bool(w and w.ready),
             "job": w.job if w else None,
             "seconds": round(now - w.since, 1) if w and w.job else None,
             "rss_mib": round(rss_bytes(w.pid or 0) / 2**20, 1) if w else None}
            for n, w in enumerate(self.workers)]}

    async def _next(self) -> str:
        while not self.queue:
            self.more.clear()
            await self.more.wait()
        return self.queue.popleft()

    async def _serve(self, number: int) -> None:
        data = str(self.store.root.parent)
        if number:
            await self.first.wait()
        while True:
            worker = Worker(data, self.limits, number)
            self.workers[number] = worker
            try:
                started = await worker.start()
                self.first.set()
                if not started:
                    log.error("worker %d died while starting", number)
                    await asyncio.sleep(5)
                    continue
                while worker.process.is_alive():
                    job_id = await self._next()
                    try:
                        await self._run(worker, job_id)
                    except Exception:  # pragma: no cover - a bug must not stop the queue
                        log.exception("job %s", job_id)
                    finally:
                        event = self.ended.pop(job_id, None)
                        if event is not None:
                            event.set()
            finally:
                worker.kill()

    async def _run(self, worker: Worker, job_id: str) -> None:
        job = self.store.get(job_id)
        if job is None:
            return
        job.status = "running"
        job.attempts += 1
        self.store.save_soon(job)  # written in order, before the job's end is
        kind, value = await worker.run(job)
        if self.store.get(job_id) is None:
            return  # deleted while it ran
        if kind == "done":
            job.summary = value
            await self.store.finish_async(job, "done")
        else:
            if kind == "killed":
                from winnow.serve.jobs import remove_output

                await asyncio.to_thread(remove_output, self.store, job_id)
            await self.store.finish_async(job, "failed", str(value))
        log.info("job %s %s%s", job_id, job.status, f": {job.reason}" if job.reason else "")

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for worker in self.workers:
            if worker is not None:
                worker.kill()
