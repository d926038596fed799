"""Jobs on disk, indexed in memory: the event loop never reads the disk to answer.

A job's folder is ``DATA/jobs/ID``: ``state.json`` (a :class:`Job`, replaced
atomically on every change), ``files/NNNNNN`` (the submitted files, numbered
in order of arrival: a name sent by a client is shown, never used as a path),
``report/`` (the HTML report, its pages gzip-compressed: :mod:`winnow.serve.pages`)
and ``result.json.gz`` (the JSON report, gzip-compressed; ``result.json`` in jobs
of earlier versions).  Job ids
are random (80 bits) and name the job in the API, where its owner's secret is
needed; the report's URL holds a second random value, the job's ``token``
(128 bits), which its owner can replace (revoking the old URL).

:class:`JobStore` reads every state once, when it is opened, into an index kept
in memory (by id, by token, by user); afterwards listings and lookups are
answered from the index.  States are written by one writer thread, in order
(:meth:`JobStore.save_soon`), so a burst of jobs costs the loop nothing.

Statuses: ``receiving`` (the client is still sending), ``queued``,
``running``, ``done``, ``failed`` (with a ``reason``).  After a restart
(:meth:`JobStore.recover`) a job that was still receiving is failed, and a
queued or running one is queued again, so no job is ever lost silently.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import secrets
import shutil
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

_ID = re.compile(r"[0-9a-f]{20}")
_TOKEN = re.compile(r"[0-9a-f]{32}")
STATUSES = ("receiving", "queued", "running", "done", "failed")
#: A job interrupted by this many restarts is failed instead of run again.
MAX_ATTEMPTS = 3


@dataclass
class StoredFile:
    """One submitted file: its MOSS id (0 = base file), shown name and size."""

    moss_id: int
    name: str
    size: int


@dataclass
class Job:
    """The state of one job (what ``state.json`` holds)."""

    id: str
    user: str
    token: str = field(default_factory=lambda: secrets.token_hex(16))
    language: str = "c"
    directory: bool = False
    max_matches: int = 10
    show: int = 250
    comment: str = ""
    source: str = "moss"
    status: str = "receiving"
    reason: str | None = None
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    finished: float | None = None
    expires: float | None = None  #: deleted after this time (None: kept)
    attempts: int = 0
    files: list[StoredFile] = field(default_factory=list)
    summary: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        known = {f.name for f in fields(cls)}
        values = {key: value for key, value in data.items() if key in known}
        values["files"] = [StoredFile(**f) for f in values.get("files", [])]
        return cls(**values)

    @property
    def total_bytes(self) -> int:
        return sum(f.size for f in self.files)


def valid_id(job_id: str) -> bool:
    """Whether ``job_id`` has the shape of a job id (so it is safe in a path)."""
    return _ID.fullmatch(job_id) is not None


def valid_token(token: str) -> bool:
    """Whether ``token`` has the shape of a report token."""
    return _TOKEN.fullmatch(token) is not None


def _write_state(folder: Path, data: dict[str, Any]) -> None:
    """Write one state atomically (a crash leaves the old or the new state)."""
    if not folder.is_dir():
        return  # deleted meanwhile
    fd, tmp = tempfile.mkstemp(prefix=".state-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, folder / "state.json")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class JobStore:
    """The jobs under ``root/jobs``, with an index in memory."""

    def __init__(self, root: str | os.PathLike[str], *, index: bool = True) -> None:
        self.root = Path(root) / "jobs"
        self.root.mkdir(parents=True, exist_ok=True)
        self.by_id: dict[str, Job] = {}
        self.by_token: dict[str, str] = {}
        self.by_user: dict[str, dict[str, None]] = {}  # insertion-ordered ids
        self._writer: ThreadPoolExecutor | None = None
        if index:
            for job in sorted(self._read_all(), key=lambda job: job.created):
                self._add(job)

    # --- paths ---------------------------------------------------------------------

    def folder(self, job_id: str) -> Path:
        if not valid_id(job_id):
            raise ValueError(f"not a job id: {job_id!r}")
        return self.root / job_id

    def file_path(self, job: Job, index: int) -> Path:
        """Where the ``index``-th file of ``job`` (0-based, arrival order) is kept."""
        return self.folder(job.id) / "files" / f"{index:06d}"

    def report_dir(self, job_id: str) -> Path:
        return self.folder(job_id) / "report"

    def result_path(self, job_id: str) -> Path:
        """Where the JSON report is written (gzip-compressed); see :meth:`read_result`."""
        return self.folder(job_id) / "result.json.gz"

    def read_result(self, job_id: str) -> Any:
        """The JSON report of ``job_id`` (blocking), compressed or as earlier versions
        wrote it; :class:`OSError` when there is none."""
        path = self.result_path(job_id)
        try:
            with gzip.open(path, "rt", encoding="utf-8") as data:
                return json.load(data)
        except FileNotFoundError:
            with open(path.with_suffix(""), encoding="utf-8") as data:
                return json.load(data)

    # --- the index -----------------------------------------------------------------

    def _add(self, job: Job) -> None:
        self.by_id[job.id] = job
        self.by_token[job.token] = job.id
        self.by_user.setdefault(job.user, {})[job.id] = None

    def _forget(self, job: Job) -> None:
        self.by_id.pop(job.id, None)
        self.by_token.pop(job.token, None)
        ids = self.by_user.get(job.user)
        if ids is not None:
            ids.pop(job.id, None)
            if not ids:
                del self.by_user[job.user]

    def get(self, job_id: str) -> Job | None:
        """The job ``job_id`` from the index."""
        return self.by_id.get(job_id)

    def by_report_token(self, token: str) -> Job | None:
        job_id = self.by_token.get(token)
        return None if job_id is None else self.by_id.get(job_id)

    def user_jobs(self, user: str, offset: int = 0, limit: int = 100) -> tuple[list[Job], int]:
        """A page of ``user``'s jobs, newest first, and how many there are."""
        ids = list(self.by_user.get(user, {}))
        ids.reverse()
        return [self.by_id[i] for i in ids[offset:offset + limit]], len(ids)

    def jobs(self) -> Iterator[Job]:
        """Every job of the index, oldest first."""
        yield from sorted(self.by_id.values(), key=lambda job: job.created)

    def new_token(self, job: Job) -> str:
        """Give ``job`` a new report token (the old URL stops working)."""
        self.by_token.pop(job.token, None)
        job.token = secrets.token_hex(16)
        self.by_token[job.token] = job.id
        return job.token

    # --- writing -------------------------------------------------------------------

    def prepare(self, user: str, **options: Any) -> Job:
        """A new job in status ``receiving``, in memory only (see :meth:`open`)."""
        job = Job(id=secrets.token_hex(10), user=user, **options)
        while job.id in self.by_id:  # pragma: no cover - 80 random bits
            job.id = secrets.token_hex(10)
        return job

    def materialize(self, job: Job) -> None:
        """Make ``job``'s folder and save it (blocking: call in a thread)."""
        (self.root / job.id / "files").mkdir(parents=True)
        self.save(job)

    def open(self, job: Job) -> None:
        """Index a prepared job (on the loop: the index is the loop's alone)."""
        self._add(job)

    def create(self, user: str, **options: Any) -> Job:
        """A new job in status ``receiving``, indexed and saved (blocking)."""
        job = self.prepare(user, **options)
        self.materialize(job)
        self._add(job)
        return job

    def save(self, job: Job) -> None:
        """Write ``job``'s state now (blocking: in a thread, or before the loop runs)."""
        job.updated = time.time()
        _write_state(self.folder(job.id), job.as_dict())

    def save_soon(self, job: Job) -> Future[None]:
        """Write ``job``'s state on the writer thread (states are written in order)."""
        job.updated = time.time()
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="winnow-state")
        return self._writer.submit(_write_state, self.folder(job.id), job.as_dict())

    async def save_async(self, job: Job) -> None:
        await asyncio.wrap_future(self.save_soon(job))

    def finish(self, job: Job, status: str, reason: str | None = None) -> None:
        """Mark ``job`` done or failed (with ``reason``) and save it (blocking)."""
        job.status, job.reason, job.finished = status, reason, time.time()
        self.save(job)

    async def finish_async(self, job: Job, status: str, reason: str | None = None) -> None:
        job.status, job.reason, job.finished = status, reason, time.time()
        await self.save_async(job)

    def drop_files(self, job: Job) -> None:
        """Delete the submitted files of ``job`` (a refused or broken upload)."""
        shutil.rmtree(self.folder(job.id) / "files", ignore_errors=True)

    def delete(self, job: Job) -> None:
        """Forget ``job`` now; its folder is removed on the writer thread."""
        self._forget(job)
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="winnow-state")
        self._writer.submit(shutil.rmtree, self.folder(job.id), True)

    def flush(self) -> None:
        """Wait for every pending write (at shutdown)."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None

    # --- start-up and retention ----------------------------------------------------

    def _read_all(self) -> Iterator[Job]:
        for name in os.listdir(self.root):
            if not valid_id(name):
                continue
            try:
                text = (self.root / name / "state.json").read_text(encoding="utf-8")
                job = Job.from_dict(json.loads(text))
            except (OSError, ValueError, TypeError):
                continue
            if job.id == name:
                yield job

    def load(self, job_id: str) -> Job | None:
        """The job ``job_id`` read from disk (workers), ``None`` when there is none."""
        if not valid_id(job_id):
            return None
        try:
            text = (self.root / job_id / "state.json").read_text(encoding="utf-8")
            return Job.from_dict(json.loads(text))
        except (OSError, ValueError, TypeError):
            return None

    def recover(self) -> list[Job]:
        """After a restart: fail jobs cut off while receiving; return the jobs to run
        again (queued or running), oldest first, failing those interrupted too often."""
        again: list[Job] = []
        for job in self.jobs():
            if job.status == "receiving":
                self.drop_files(job)
                self.finish(job, "failed", "the server stopped before the upload ended")
            elif job.status in ("queued", "running"):
                if job.attempts >= MAX_ATTEMPTS:
                    self.finish(job, "failed",
                                f"interrupted by {job.attempts} server restarts; not run again")
                else:
                    job.status = "queued"
                    self.save(job)
                    again.append(job)
        return again

    def expired(self, max_age: float, failed_age: float, now: float | None = None) -> list[Job]:
        """Finished jobs past their own ``expires``, older than ``max_age`` seconds
        (0 = no limit), or failed uploads older than ``failed_age`` (0 = no limit)."""
        now = now if now is not None else time.time()
        out = []
        for job in self.by_id.values():
            if job.status not in ("done", "failed"):
                continue
            age = now - job.created
            if ((job.expires is not None and job.expires < now)
                    or (max_age > 0 and age > max_age)
                    or (failed_age > 0 and job.status == "failed" and not job.attempts
                        and age > failed_age)):
                out.append(job)
        return out

    def sweep(self, max_age: float, now: float | None = None, failed_age: float = 0) -> int:
        """Delete the :meth:`expired` jobs; return how many."""
        gone = self.expired(max_age, failed_age, now)
        for job in gone:
            self.delete(job)
        return len(gone)
