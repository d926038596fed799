"""Running jobs: a queue in the server, a pool of worker processes doing the work.

A job becomes the calls ``winnow compare`` makes: its files become
:class:`~winnow.sources.submissions.SubmissionSource` objects (one per file, or
in directory mode one per folder; MOSS id 0 = base code), the front-end's
default ``k``/``t`` apply, MOSS ``-m`` is ``max_occurrences`` and ``-n`` is
``top``; then :func:`winnow.matching.compare` and the HTML and JSON writers of
:mod:`winnow.reports`.  :func:`run_job` runs in a worker process
(:mod:`winnow.serve.workers`); a job that fails leaves no partial report, and
one that meets a full disk says so (:data:`DISK_FULL`).
"""

from __future__ import annotations

import errno
import gzip
import io
import shutil
import time
from typing import Any

from winnow.serve.languages import moss_language
from winnow.serve.pages import compress_report
from winnow.serve.store import Job, JobStore

#: The reason of a job that met a full disk.
DISK_FULL = "the server's disk is full; the job's partial output was removed"
#: The answer to an upload that met a full disk.
DISK_FULL_UPLOAD = "the server's disk is full; the job was not stored"


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


def disk_full(error: BaseException) -> bool:
    """Whether ``error`` (or an error it was raised from) is the disk being full."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def remove_output(store: JobStore, job_id: str) -> None:
    """Delete whatever report a failed job left."""
    shutil.rmtree(store.report_dir(job_id), ignore_errors=True)
    for path in (store.result_path(job_id), store.result_path(job_id).with_suffix(".tmp")):
        path.unlink(missing_ok=True)


def run_job(data: str, job_id: str, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """Compare job ``job_id`` under ``data`` and write its reports (in a worker).

    ``state``: the job as the server holds it (its ``state.json`` may not be
    written yet); without it the job is read from disk.  On any failure the
    partial output is removed; a full disk raises :class:`OSError` ``ENOSPC``
    with :data:`DISK_FULL` as its message."""
    store = JobStore(data, index=False)
    try:
        return _run(store, job_id, state)
    except BaseException as error:
        remove_output(store, job_id)
        if disk_full(error):
            raise OSError(errno.ENOSPC, DISK_FULL) from None
        raise


def _run(store: JobStore, job_id: str, state: dict[str, Any] | None) -> dict[str, Any]:
    from winnow.matching import CompareOptions, compare
    from winnow.reports.html import write_report
    from winnow.reports.writers import write

    job = Job.from_dict(state) if state is not None else store.load(job_id)
    if job is None or job.id != job_id:
        raise ValueError("the job's state is missing")
    started = time.perf_counter()
    subs, base = submissions_of(store, job)
    options = CompareOptions(max_occurrences=job.max_matches, top=job.show)
    # no config: each file gets its front-end's defaults, as `winnow compare` gives them
    result = compare(subs, None, options, base=base, jobs=1)
    write_report(result, store.report_dir(job_id), moss_names=True)  # as mosspy expects
    compress_report(store.report_dir(job_id))
    tmp = store.result_path(job_id).with_suffix(".tmp")
    with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                               compresslevel=6, mtime=0) as packed, \
            io.TextIOWrapper(packed, encoding="utf-8") as out:
        write(result, "json", out)
    tmp.replace(store.result_path(job_id))
    skipped = sum(issue.skipped for issue in result.issues)
    return {"submissions": len(result.submissions), "pairs": len(result.pairs),
            "skipped": skipped, "seconds": round(time.perf_counter() - started, 3)}


def warm_up() -> float:
    """Compare two tiny files once, so that the kernels are compiled before the
    first job (a fresh install compiles them once); return the seconds it took."""
    from winnow.matching import CompareOptions, compare
    from winnow.sources.submissions import ReadOptions, SourceFile, SubmissionSource

    started = time.perf_counter()
    read = ReadOptions(frontend="code", lang="c")
    text = b"int main(void) { int total = 0; for (int i = 0; i < 10; i++) total += i; }\n"
    subs = [SubmissionSource(name, "new", (SourceFile(name, name, read, size=len(text),
                                                      data=text),))
            for name in ("a.c", "b.c")]
    compare(subs, None, CompareOptions(), jobs=1)
    return time.perf_counter() - started
