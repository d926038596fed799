"""Running jobs: a queue in the server, a pool of worker processes doing the work.

A job becomes the calls ``winnow compare`` makes: its files become
:class:`~winnow.sources.submissions.SubmissionSource` objects (one per file, or
in directory mode one per folder; MOSS id 0 = base code), the front-end's
default ``k``/``t`` apply, MOSS ``-m`` is ``max_occurrences`` and ``-n`` is
``top``; then :func:`winnow.matching.compare` and the HTML and JSON writers of
:mod:`winnow.reports`.  Workers are separate processes (``spawn``): the event
loop that answers clients is never blocked, and a worker that dies takes only
its own job with it (failed, with the reason).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from winnow.serve.languages import moss_language
from winnow.serve.store import Job, JobStore

log = logging.getLogger("winnow.serve")
#: Workers run this much below the server's priority.
WORKER_NICENESS = 5


def split_name(name: str, directory: bool) -> tuple[str, str]:
    """(submission, path inside it) of a file: in directory mode the folder is the
    submission (a file in no folder is one by itself), else the file is."""
    if directory and "/" in name:
        folder, _, inner = name.rpartition("/")
        return folder, inner
    return name, name.rsplit("/", 1)[-1]


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name} ({n})"
    taken.add(candidate)
    return candidate


def submissions_of(store: JobStore, job: Job) -> tuple[list[Any], list[Any]]:
    """The job's submissions and base code, as ``load_submissions`` would give them."""
    from winnow.sources.submissions import ReadOptions, SourceFile, SubmissionSource

    language = moss_language(job.language)
    if language is None:
        raise ValueError(f"unknown language {job.language!r}")
    read = ReadOptions(frontend=language.frontend, lang=language.lang)
    groups: dict[str, list[SourceFile]] = {}
    inner_taken: dict[str, set[str]] = {}
    base: list[SourceFile] = []
    names: set[str] = set()
    for index, stored in enumerate(job.files):
        disk = str(store.file_path(job, index))
        if stored.moss_id == 0:
            base.append(SourceFile(stored.name, stored.name, read, size=stored.size, disk=disk))
            continue
        sub, inner = split_name(stored.name, job.directory)
        if not job.directory:
            sub = _unique(sub, names)
        inner = _unique(inner, inner_taken.setdefault(sub, set()))
        groups.setdefault(sub, []).append(
            SourceFile(inner, f"{sub}/{inner}" if job.directory else sub, read,
                       size=stored.size, disk=disk))
    subs = [SubmissionSource(name, "new", tuple(files)) for name, files in groups.items()]
    bases = [SubmissionSource("base", "base", tuple(base))] if base else []
    return subs, bases


def run_job(data: str, job_id: str) -> dict[str, Any]:
    """Compare job ``job_id`` under ``data`` and write its reports (in a worker)."""
    from winnow.matching import CompareOptions, compare
    from winnow.reports.html import write_report
    from winnow.reports.writers import write

    store = JobStore(data)
    job = store.load(job_id)
    if job is None:
        raise ValueError("the job's state is missing")
    started = time.perf_counter()
    subs, base = submissions_of(store, job)
    options = CompareOptions(max_occurrences=job.max_matches, top=job.show)
    # no config: each file gets its front-end's defaults, as `winnow compare` gives them
    result = compare(subs, None, options, base=base, jobs=1)
    write_report(result, store.report_dir(job_id))
    tmp = store.result_path(job_id).with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        write(result, "json", out)
    tmp.replace(store.result_path(job_id))
    skipped = sum(issue.skipped for issue in result.issues)
    return {"submissions": len(result.submissions), "pairs": len(result.pairs),
            "skipped": skipped, "seconds": round(time.perf_counter() - started, 3)}


def _warm() -> None:
    """Start a worker: below the server's priority (so the loop that answers clients
    gets the CPU first), with the comparison imported (so the first job does not pay)."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    import winnow.matching
    import winnow.reports.html  # noqa: F401


class Runner:
    """Jobs queued to ``workers`` processes; :meth:`wait` follows one job to its end."""

    def __init__(self, store: JobStore, workers: int) -> None:
        self.store = store
        self.workers = max(1, workers)
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.ended: dict[str, asyncio.Event] = {}
        self.pool = self._pool()
        self.tasks: list[asyncio.Task[None]] = []

    def _pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_warm)
        pool.submit(int)  # starts the workers now, not with the first job
        return pool

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._consume()) for _ in range(self.workers)]

    def enqueue(self, job: Job) -> None:
        """Queue ``job`` (saved as ``queued`` first, so a restart finds it)."""
        job.status = "queued"
        self.store.save(job)
        self.ended.setdefault(job.id, asyncio.Event())
        self.queue.put_nowait(job.id)

    async def wait(self, job_id: str, timeout: float) -> None:
        """Return when job ``job_id`` has ended, or after ``timeout`` seconds."""
        event = self.ended.get(job_id)
        if event is not None and timeout > 0:
            try:
                async with asyncio.timeout(timeout):
                    await event.wait()
            except TimeoutError:
                pass

    async def _consume(self) -> None:
        while True:
            job_id = await self.queue.get()
            try:
                await self._run(job_id)
            except Exception:  # pragma: no cover - a bug must not stop the queue
                log.exception("job %s", job_id)
            finally:
                event = self.ended.pop(job_id, None)
                if event is not None:
                    event.set()

    async def _run(self, job_id: str) -> None:
        job = self.store.load(job_id)
        if job is None:
            return
        job.status = "running"
        job.attempts += 1
        self.store.save(job)
        pool = self.pool
        try:
            summary = await asyncio.get_running_loop().run_in_executor(
                pool, run_job, str(self.store.root.parent), job_id)
        except BrokenProcessPool:
            if self.pool is pool:
                self.pool = self._pool()
            self.store.finish(job, "failed", "the worker process ended abruptly "
                                             "(out of memory?)")
        except Exception as error:  # the job's own failure: keep the reason
            self.store.finish(job, "failed", f"{type(error).__name__}: {error}")
        else:
            job.summary = summary
            self.store.finish(job, "done")
        log.info("job %s %s", job_id, job.status)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        processes = list(getattr(self.pool, "_processes", {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=5)


def report_ready(store: JobStore, job_id: str) -> Path | None:
    """The job's report page, when it has one."""
    page = store.report_dir(job_id) / "index.html"
    return page if page.is_file() else None
