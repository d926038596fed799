"""The HTTP side: reports, job pages, the JSON API and the upload page (aiohttp).

Routes (all read-only except the upload):

* ``GET /`` — the upload page (for people without a MOSS client) and a form
  to open a user id's job list;
* ``POST /upload`` — a job from the upload form, then a redirect to its page;
* ``GET /users/USER/`` — that user id's jobs, newest first;
* ``GET /results/ID/`` — the job's HTML report when it is done, else a page
  with its status (refreshing itself while it is queued or running);
  ``/results/ID/pairs/pair-N.html`` — the report's pair pages;
* ``GET /api/jobs?user=USER``, ``GET /api/jobs/ID``,
  ``GET /api/jobs/ID/pairs`` — JSON: job lists, one job, its ranked pairs
  with their passages (the JSON report's ``pairs`` and ``submissions``).

Every page is rendered by Jinja2 with autoescape on (user ids, comments and
file names are the client's), and sent with headers that forbid framing,
sniffing and, on the server's own pages, any script.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from functools import cache
from typing import Any

import jinja2
from aiohttp import BodyPartReader, web

from winnow.errors import JobRefused
from winnow.serve.intake import Intake
from winnow.serve.languages import MOSS_LANGUAGES, moss_language
from winnow.serve.protocol import CHUNK, Context
from winnow.serve.store import Job

CONTEXT: web.AppKey[Context] = web.AppKey("context", Context)
_PAIR_PAGE = re.compile(r"pair-[0-9]+\.html")
_OWN_CSP = ("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
            "base-uri 'none'; frame-ancestors 'none'")
_FIELD_LIMIT = 4096

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("winnow.serve", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined)
    env.filters["timestamp"] = lambda t: datetime.fromtimestamp(t, UTC).strftime(
        "%Y-%m-%d %H:%M:%S")
    return env


def _page(template: str, status: int = 200, **context: Any) -> web.Response:
    html = _environment().get_template(template).render(**context)
    response = web.Response(text=html, content_type="text/html", status=status)
    response.headers["Content-Security-Policy"] = _OWN_CSP
    return response


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


def public_job(job: Job, ctx: Context) -> dict[str, Any]:
    """What the API shows of a job."""
    return {
        "id": job.id, "user": job.user, "url": ctx.url(job.id), "status": job.status,
        "reason": job.reason, "language": job.language, "directory": job.directory,
        "max_matches": job.max_matches, "show": job.show, "comment": job.comment,
        "source": job.source, "created": job.created, "finished": job.finished,
        "attempts": job.attempts,
        "files": [{"name": f.name, "size": f.size, "base": f.moss_id == 0} for f in job.files],
        "summary": job.summary,
    }


def _job(request: web.Request) -> Job:
    job = request.app[CONTEXT].store.load(request.match_info["id"])
    if job is None:
        raise web.HTTPNotFound(text="no such job")
    return job


async def home(request: web.Request) -> web.Response:
    return _page("home.html.j2", languages=sorted(MOSS_LANGUAGES))


async def user_lookup(request: web.Request) -> web.Response:
    user = request.query.get("user", "")
    if not user:
        raise web.HTTPFound("/")
    raise web.HTTPFound(request.app.router["user"].url_for(user=user))


async def user_jobs(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    user = request.match_info["user"]
    jobs = [job for job in ctx.store.jobs() if job.user == user]
    return _page("user.html.j2", user=user, jobs=list(reversed(jobs)), url=ctx.url)


async def results(request: web.Request) -> web.StreamResponse:
    ctx = request.app[CONTEXT]
    job = _job(request)
    page = ctx.store.report_dir(job.id) / "index.html"
    if job.status == "done" and page.is_file():
        return web.FileResponse(page, headers={"Content-Type": "text/html; charset=utf-8"})
    return _page("job.html.j2", job=job, refresh=job.status in ("queued", "running"))


async def results_redirect(request: web.Request) -> web.Response:
    raise web.HTTPMovedPermanently(f"/results/{request.match_info['id']}/")


async def pair_page(request: web.Request) -> web.StreamResponse:
    ctx = request.app[CONTEXT]
    name = request.match_info["page"]
    job = _job(request)
    path = ctx.store.report_dir(job.id) / "pairs" / name
    if not _PAIR_PAGE.fullmatch(name) or not path.is_file():
        raise web.HTTPNotFound(text="no such page")
    return web.FileResponse(path, headers={"Content-Type": "text/html; charset=utf-8"})


async def api_jobs(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    user = request.query.get("user")
    if not user:
        return web.json_response({"error": "give the user id: /api/jobs?user=USERID"},
                                 status=400)
    jobs = [public_job(job, ctx) for job in ctx.store.jobs() if job.user == user]
    return web.json_response({"user": user, "jobs": jobs})


async def api_job(request: web.Request) -> web.Response:
    return web.json_response(public_job(_job(request), request.app[CONTEXT]))


async def api_pairs(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    job = _job(request)
    if job.status != "done":
        return web.json_response({"id": job.id, "status": job.status, "reason": job.reason,
                                  "error": "the job has no result"}, status=409)
    with open(ctx.store.result_path(job.id), encoding="utf-8") as data:
        result = json.load(data)
    return web.json_response({"id": job.id, "status": job.status,
                              "submissions": result["submissions"], "pairs": result["pairs"]})


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


def _new_intake(ctx: Context, fields: dict[str, str]) -> Intake:
    user = fields.get("user", "")
    if not user or (ctx.users is not None and user not in ctx.users):
        raise JobRefused("user id not allowed on this server")
    language = fields.get("language", "c").lower()
    if moss_language(language) is None:
        raise JobRefused(f"unknown language {language[:40]!r}")
    try:
        max_matches, show = int(fields.get("m") or 10), int(fields.get("n") or 250)
    except ValueError:
        raise JobRefused("-m and -n must be numbers") from None
    if max_matches < 0 or show < 0:
        raise JobRefused("-m and -n must not be negative")
    return Intake(ctx.store, ctx.limits, user, language=language, source="upload",
                  directory=fields.get("directory") == "1", max_matches=max_matches,
                  show=show, comment=fields.get("comment", "")[:1000])


async def _receive(request: web.Request, ctx: Context) -> Intake:
    """Read the upload form; the text fields come before the files."""
    if request.content_type != "multipart/form-data":
        raise JobRefused("send the form as multipart/form-data")
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
            intake = intake or _new_intake(ctx, fields)
            name = urllib.parse.unquote(part.filename)  # browsers send %22 for '"'
            await intake.add(0 if part.name == "base" else len(intake.job.files) + 1,
                             name, _chunks(part))
    except BaseException as error:
        if intake is not None:
            intake.fail(str(error) if isinstance(error, JobRefused) else "the upload broke off")
        raise
    if intake is None or not any(f.moss_id for f in intake.job.files):
        if intake is not None:
            intake.fail("no files were submitted")
        raise JobRefused("no files were submitted")
    return intake


async def upload(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    try:
        intake = await _receive(request, ctx)
    except JobRefused as refusal:
        return _page("error.html.j2", status=400, message=str(refusal))
    except ValueError as error:  # a malformed multipart body
        return _page("error.html.j2", status=400, message=f"bad upload: {error}")
    ctx.runner.enqueue(intake.job)
    raise web.HTTPSeeOther(f"/results/{intake.job.id}/")


def make_app(ctx: Context) -> web.Application:
    """The aiohttp application serving ``ctx``'s jobs."""
    app = web.Application(middlewares=[_headers])
    app[CONTEXT] = ctx
    app.router.add_get("/", home)
    app.router.add_post("/upload", upload)
    app.router.add_get("/users", user_lookup)
    app.router.add_get("/users/{user}/", user_jobs, name="user")
    app.router.add_get("/results/{id}", results_redirect)
    app.router.add_get("/results/{id}/", results)
    app.router.add_get("/results/{id}/pairs/{page}", pair_page)
    app.router.add_get("/api/jobs", api_jobs)
    app.router.add_get("/api/jobs/{id}", api_job)
    app.router.add_get("/api/jobs/{id}/pairs", api_pairs)
    return app


__all__ = ["CONTEXT", "make_app", "public_job"]
