"""Jobs on disk: one folder per job with a JSON state file, its files and its report.

A job's folder is ``DATA/jobs/ID``: ``state.json`` (a :class:`Job`, replaced
atomically on every change), ``files/NNNNNN`` (the submitted files, numbered
in order of arrival: a name sent by a client is shown, never used as a path),
``report/`` (the HTML report) and ``result.json`` (the JSON report).  Job ids
are random (80 bits): a report's URL is as hard to guess as MOSS's.

Statuses: ``receiving`` (the client is still sending), ``queued``,
``running``, ``done``, ``failed`` (with a ``reason``).  After a restart
(:meth:`JobStore.recover`) a job that was still receiving is failed, and a
queued or running one is queued again, so no job is ever lost silently.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

_ID = re.compile(r"[0-9a-f]{20}")
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


class JobStore:
    """The jobs under ``root/jobs``."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root) / "jobs"
        self.root.mkdir(parents=True, exist_ok=True)

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
        return self.folder(job_id) / "result.json"

    def create(self, user: str, **options: Any) -> Job:
        """A new job in status ``receiving``, saved."""
        while True:
            job_id = secrets.token_hex(10)
            try:
                (self.root / job_id / "files").mkdir(parents=True)
                break
            except FileExistsError:  # pragma: no cover - 80 random bits
                continue
        job = Job(id=job_id, user=user, **options)
        self.save(job)
        return job

    def save(self, job: Job) -> None:
        """Write ``job``'s state atomically (a crash leaves the old or the new state)."""
        job.updated = time.time()
        folder = self.folder(job.id)
        fd, tmp = tempfile.mkstemp(prefix=".state-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(job.as_dict(), out, ensure_ascii=False)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, folder / "state.json")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def load(self, job_id: str) -> Job | None:
        """The job ``job_id``, or ``None`` when there is none (or its state is unreadable)."""
        if not valid_id(job_id):
            return None
        try:
            text = (self.root / job_id / "state.json").read_text(encoding="utf-8")
            return Job.from_dict(json.loads(text))
        except (OSError, ValueError, TypeError):
            return None

    def jobs(self) -> Iterator[Job]:
        """Every readable job, oldest first."""
        found = [job for name in os.listdir(self.root) if (job := self.load(name)) is not None]
        yield from sorted(found, key=lambda job: job.created)

    def finish(self, job: Job, status: str, reason: str | None = None) -> None:
        """Mark ``job`` done or failed (with ``reason``) and save it."""
        job.status, job.reason, job.finished = status, reason, time.time()
        self.save(job)

    def drop_files(self, job: Job) -> None:
        """Delete the submitted files of ``job`` (a refused or broken upload)."""
        shutil.rmtree(self.folder(job.id) / "files", ignore_errors=True)

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

    def sweep(self, max_age: float, now: float | None = None) -> int:
        """Delete finished jobs older than ``max_age`` seconds; return how many."""
        limit = (now if now is not None else time.time()) - max_age
        removed = 0
        for job in self.jobs():
            if job.status in ("done", "failed") and job.created < limit:
                shutil.rmtree(self.folder(job.id), ignore_errors=True)
                removed += 1
        return removed
