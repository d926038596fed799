"""The JSON API (and the upload page's one endpoint).

* ``POST /api/jobs`` — a new job: a ``multipart/form-data`` body with the
  fields ``user``, ``secret`` (or an ``Authorization`` header), ``language``,
  ``directory``, ``m``, ``n``, ``comment``, ``retention_days``, then the files:
  ``files`` (each a submission's file), ``base`` (starter code) or
  ``archive`` (a zip or tar of the submissions, read within the job's limits).
  Answers 201 with ``{"id", "token", "url", "status_url", "status"}``; a
  browser's form (``Accept: text/html``) is sent on to the job's page.
* ``GET /api/jobs?user=USER[&page=N]`` — the user's jobs (their secret needed);
* ``GET /api/jobs/REF`` — one job with its queue ``position``; REF is the report
  token (enough to read) or the job id (the owner's secret needed);
* ``GET /api/jobs/REF/pairs``, ``/pairs.csv``, ``/report.zip`` — the result as
  JSON, as CSV, and the HTML report as a zip;
* ``DELETE /api/jobs/REF`` — the owner deletes the job and its files;
* ``POST /api/jobs/REF/revoke`` — the owner replaces the report token (the old
  URL stops working);
* ``GET /api/health`` — ``{"status": "ok", "queued", "running", "workers"}``;
* ``GET /api/admin`` — the queue and the workers (the admin's secret).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
import urllib.parse
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from aiohttp import BodyPartReader, web

from winnow.errors import JobRefused
from winnow.serve.access import ADMIN
from winnow.serve.http import (
    CONTEXT,
    PAGE_SIZE,
    challenge,
    job_of,
    page,
    page_number,
    position,
    who,
)
from winnow.serve.intake import Intake
from winnow.serve.languages import moss_language
from winnow.serve.pages import report_files
from winnow.serve.protocol import CHUNK, Context
from winnow.serve.store import Job

_FIELD_LIMIT = 4096


def public_job(job: Job, ctx: Context) -> dict[str, Any]:
    """What the API shows of a job."""
    return {
        "id": job.id, "user": job.user, "url": ctx.url(job), "status": job.status,
        "position": position(ctx, job),
        "reason": job.reason, "language": job.language, "directory": job.directory,
        "max_matches": job.max_matches, "show": job.show, "comment": job.comment,
        "source": job.source, "created": job.created, "finished": job.finished,
        "expires": job.expires, "attempts": job.attempts,
        "files": [{"name": f.name, "size": f.size, "base": f.moss_id == 0} for f in job.files],
        "summary": job.summary,
    }


async def api_jobs(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    user = request.query.get("user")
    if not user:
        return web.json_response({"error": "give the user id: /api/jobs?user=USERID"},
                                 status=400)
    if who(request) not in (user, ADMIN):
        raise challenge("the list of a user's jobs needs that user's secret")
    number = page_number(request)
    jobs, total = ctx.store.user_jobs(user, number * PAGE_SIZE, PAGE_SIZE)
    return web.json_response({"user": user, "total": total, "page": number,
                              "jobs": [public_job(job, ctx) for job in jobs]})


async def api_job(request: web.Request) -> web.Response:
    return web.json_response(public_job(job_of(request), request.app[CONTEXT]))


async def _result(request: web.Request) -> tuple[Job, dict[str, Any]]:
    ctx = request.app[CONTEXT]
    job = job_of(request)
    if job.status != "done":
        raise web.HTTPConflict(text=json.dumps(
            {"id": job.id, "status": job.status, "reason": job.reason,
             "error": "the job has no result"}), content_type="application/json")

    return job, await asyncio.to_thread(ctx.store.read_result, job.id)


async def api_pairs(request: web.Request) -> web.Response:
    job, result = await _result(request)
    return web.json_response({"id": job.id, "status": job.status,
                              "submissions": result["submissions"], "pairs": result["pairs"]})


def pairs_csv(pairs: list[dict[str, Any]]) -> str:
    """The pairs' scalar fields as CSV, one row per pair, in rank order."""
    columns: list[str] = []
    for pair in pairs:
        columns += [key for key, value in pair.items()
                    if key not in columns and not isinstance(value, (list, dict))]
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for pair in pairs:
        writer.writerow({key: _cell(pair.get(key)) for key in columns})
    return out.getvalue()


def _cell(value: Any) -> Any:
    # a spreadsheet runs a cell starting with = + - @: the client's names are data
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


async def api_pairs_csv(request: web.Request) -> web.Response:
    job, result = await _result(request)
    return web.Response(text=pairs_csv(result["pairs"]), content_type="text/csv",
                        headers={"Content-Disposition":
                                 f'attachment; filename="winnow-{job.id}-pairs.csv"'})


def zip_folder(folder: Path) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in report_files(folder):
            archive.writestr(name, data)
    return out.getvalue()


async def api_report_zip(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    job, _ = await _result(request)
    data = await asyncio.to_thread(zip_folder, ctx.store.report_dir(job.id))
    return web.Response(body=data, content_type="application/zip",
                        headers={"Content-Disposition":
                                 f'attachment; filename="winnow-{job.id}-report.zip"'})


async def api_delete(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    job = job_of(request, owner=True)
    ctx.runner.cancel(job.id)
    ctx.store.delete(job)
    return web.json_response({"deleted": job.id})


async def api_revoke(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    job = job_of(request, owner=True)
    ctx.store.new_token(job)
    await ctx.store.save_async(job)
    return web.json_response({"id": job.id, "url": ctx.url(job)})


async def api_health(request: web.Request) -> web.Response:
    state = request.app[CONTEXT].runner.state()
    return web.json_response({
        "status": "ok", "queued": len(state["queued"]),
        "running": sum(w["job"] is not None for w in state["workers"]),
        "workers": sum(w["ready"] for w in state["workers"])})


async def api_admin(request: web.Request) -> web.Response:
    if who(request) != ADMIN:
        raise challenge(f"the admin view needs the secret of {ADMIN}")
    return web.json_response(request.app[CONTEXT].runner.state())


# --- new jobs ------------------------------------------------------------------------

async def _field(part: BodyPartReader) -> str:
    data = bytearray()
    while chunk := await part.read_chunk(1024):
        data += chunk
        if len(data) > _FIELD_LIMIT:
            raise JobRefused(f"form field {part.name!r} is too long")
    return data.decode("utf-8", "replace").strip()


async def _chunks(part: BodyPartReader) -> AsyncIterator[bytes]:
    while chunk := await part.read_chunk(CHUNK):
        yield chunk


def _number(fields: dict[str, str], name: str, default: float) -> float:
    try:
        value = float(fields.get(name) or default)
    except ValueError:
        raise JobRefused(f"{name} must be a number") from None
    if value < 0:
        raise JobRefused(f"{name} must not be negative")
    return value


async def _new_intake(request: web.Request, fields: dict[str, str]) -> Intake:
    ctx = request.app[CONTEXT]
    user = who(request, fields.get("user"), fields.get("secret"))
    if user is None or not ctx.allowed(user):
        raise JobRefused("give a user id and its secret (ask the server's admin for one)")
    language = fields.get("language", "c").lower()
    if moss_language(language) is None:
        raise JobRefused(f"unknown language {language[:40]!r}")
    days = _number(fields, "retention_days", 0)
    return await Intake.open(
        ctx.store, ctx.limits, user, language=language, source="api",
        directory=fields.get("directory") in ("1", "true", "on"),
        max_matches=int(_number(fields, "m", 10)), show=int(_number(fields, "n", 250)),
        comment=fields.get("comment", "")[:1000],
        expires=time.time() + days * 86400 if days else None)


async def _receive(request: web.Request) -> Intake:
    """Read the form; the text fields come before the files."""
    if request.content_type != "multipart/form-data":
        raise JobRefused("send the job as multipart/form-data")
    fields: dict[str, str] = {}
    intake: Intake | None = None
    reader = await request.multipart()
    try:
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                raise JobRefused("nested multipart is not accepted")
            if part.filename is None:
                fields[part.name or ""] = await _field(part)
                continue
            if not part.filename:  # an empty file input
                await part.release()
                continue
            intake = intake or await _new_intake(request, fields)
            name = urllib.parse.unquote(part.filename)  # browsers send %22 for '"'
            if part.name == "archive":
                await intake.add_archive(name, _chunks(part))
            else:
                await intake.add(0 if part.name == "base" else len(intake.job.files) + 1,
                                 name, _chunks(part))
    except BaseException as error:
        if intake is not None:
            await intake.fail(str(error) if isinstance(error, JobRefused)
                              else "the upload broke off")
        raise
    if intake is None or not any(f.moss_id for f in intake.job.files):
        if intake is not None:
            await intake.fail("no files were submitted")
        raise JobRefused("no files were submitted")
    return intake


def _wants_html(request: web.Request) -> bool:
    accept = request.headers.get("Accept", "")
    return "text/html" in accept and "application/json" not in accept


async def api_submit(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    html = _wants_html(request)
    try:
        intake = await _receive(request)
    except JobRefused as refusal:
        status = 507 if "disk is full" in str(refusal) else 400
        if html:
            return page("error.html.j2", status=status, message=str(refusal))
        return web.json_response({"error": str(refusal)}, status=status)
    except ValueError as error:  # a malformed multipart body
        if html:
            return page("error.html.j2", status=400, message=f"bad upload: {error}")
        return web.json_response({"error": f"bad upload: {error}"}, status=400)
    job = intake.job
    ctx.runner.enqueue(job)
    url = ctx.url(job)
    if html:
        raise web.HTTPSeeOther(f"/results/{job.token}/")
    return web.json_response({"id": job.id, "token": job.token, "url": url,
                              "status_url": f"{url.rsplit('/results/', 1)[0]}/api/jobs/"
                                            f"{job.token}", "status": job.status},
                             status=201)


def add_api(app: web.Application) -> None:
    app.router.add_get("/api/health", api_health)
    app.router.add_get("/api/admin", api_admin)
    app.router.add_get("/api/jobs", api_jobs)
    app.router.add_post("/api/jobs", api_submit)
    app.router.add_get("/api/jobs/{ref}", api_job)
    app.router.add_delete("/api/jobs/{ref}", api_delete)
    app.router.add_post("/api/jobs/{ref}/revoke", api_revoke)
    app.router.add_get("/api/jobs/{ref}/pairs", api_pairs)
    app.router.add_get("/api/jobs/{ref}/pairs.csv", api_pairs_csv)
    app.router.add_get("/api/jobs/{ref}/report.zip", api_report_zip)
