"""The HTTP side: pages, reports and who may see them (aiohttp); the JSON API
is :mod:`winnow.serve.api`.

Pages:

* ``GET /`` — the upload page (it posts to ``POST /api/jobs``) and a form to
  open a user's job list;
* ``GET /users/USER/`` — that user's jobs, newest first, a page at a time:
  only with the user's secret (Basic authentication; the browser asks);
* ``GET /results/TOKEN/`` — the job's HTML report when it is done, else a page
  with its status and queue position (refreshing itself while it waits);
  ``/results/TOKEN/index.html`` and ``/results/TOKEN/matchN.html`` — the
  report's pages, named as MOSS names them (so ``mosspy.download_report`` saves
  them all); the older ``/results/TOKEN/pairs/pair-N.html`` (N = rank, the name of
  ``winnow compare --report``) is still answered.  TOKEN is the job's report token:
  the URL is the capability.  Pages are kept gzip-compressed
  (:mod:`winnow.serve.pages`) and sent so, or decompressed for clients that do
  not accept gzip;
* ``GET /admin`` — the queue and the workers, with the admin's secret.

Every page is rendered by Jinja2 with autoescape on (user ids, comments and
file names are the client's), and sent with headers that forbid framing,
sniffing and, on the server's own pages, any script.  A request that changes
something (``POST``, ``DELETE``) from another site's page is refused
(``Origin`` / ``Sec-Fetch-Site``).
"""

from __future__ import annotations

import asyncio
import urllib.parse
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import cache
from typing import Any

import jinja2
from aiohttp import web

from winnow.serve.access import ADMIN, credentials
from winnow.serve.guard import Gate
from winnow.serve.languages import MOSS_LANGUAGES
from winnow.serve.pages import accepts_gzip, page_names, read_page
from winnow.serve.protocol import Context
from winnow.serve.store import Job, valid_id, valid_token

CONTEXT: web.AppKey[Context] = web.AppKey("context", Context)
GATE: web.AppKey[Gate] = web.AppKey("gate", Gate)
_OWN_CSP = ("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
            "base-uri 'none'; frame-ancestors 'none'")
PAGE_SIZE = 100

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("winnow.serve", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             auto_reload=False)  # read once: no disk work per request
    env.filters["timestamp"] = lambda t: datetime.fromtimestamp(t, UTC).strftime(
        "%Y-%m-%d %H:%M:%S")
    return env


def page(template: str, status: int = 200, **context: Any) -> web.Response:
    html = _environment().get_template(template).render(**context)
    response = web.Response(text=html, content_type="text/html", status=status)
    response.headers["Content-Security-Policy"] = _OWN_CSP
    return response


def _same_origin(request: web.Request) -> bool:
    """Whether a browser sent the request from this server's own pages (clients
    that are not browsers send neither header)."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    return origin is None or urllib.parse.urlsplit(origin).netloc == request.host


@web.middleware
async def security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    if request.method not in ("GET", "HEAD", "OPTIONS") and not _same_origin(request):
        return web.json_response({"error": "refused: the request came from another site"},
                                 status=403)
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Cache-Control", "no-store")
    return response


# --- who is asking ---------------------------------------------------------------

def who(request: web.Request, user: str | None = None, secret: str | None = None) -> str | None:
    """The user the request proves to be (its ``Authorization``, or ``user`` and
    ``secret`` from a form), :data:`ADMIN` for the admin, else ``None``."""
    ctx = request.app[CONTEXT]
    if ctx.secrets is None:
        return None
    found = credentials(request.headers.get("Authorization"))
    if found is None and user and secret:
        found = (user, secret)
    if found is not None and ctx.secrets.check(*found):
        return found[0]
    return None


def challenge(text: str) -> web.HTTPUnauthorized:
    """401 asking the browser for a user id and secret."""
    return web.HTTPUnauthorized(text=text, headers={
        "WWW-Authenticate": 'Basic realm="winnow serve: user id and secret", charset="UTF-8"'})


def owns(request: web.Request, job: Job) -> bool:
    return who(request) in (job.user, ADMIN)


def job_of(request: web.Request, owner: bool = False) -> Job:
    """The job named by ``{ref}``: its report token (enough to read it) or its id
    (only for its owner or the admin).  ``owner``: the owner's secret is needed
    either way.  404 for any other request, so nothing tells ids apart."""
    store = request.app[CONTEXT].store
    ref = request.match_info["ref"]
    job = None
    if valid_token(ref):
        job = store.by_report_token(ref)
        if job is not None and owner and not owns(request, job):
            raise challenge("this needs the secret of the job's owner")
    elif valid_id(ref):
        job = store.get(ref)
        if job is not None and not owns(request, job):
            raise challenge("this needs the secret of the job's owner")
    if job is None:
        raise web.HTTPNotFound(text="no such job")
    return job


def position(ctx: Context, job: Job) -> int | None:
    return ctx.runner.position(job.id) if job.status == "queued" else None


# --- pages ---------------------------------------------------------------------------

async def home(request: web.Request) -> web.Response:
    return page("home.html.j2", languages=sorted(MOSS_LANGUAGES))


async def user_lookup(request: web.Request) -> web.Response:
    user = request.query.get("user", "")
    if not user:
        raise web.HTTPFound("/")
    raise web.HTTPFound(request.app.router["user"].url_for(user=user))


def page_number(request: web.Request) -> int:
    try:
        return max(0, int(request.query.get("page", "0")))
    except ValueError:
        raise web.HTTPBadRequest(text="page must be a number") from None


async def user_jobs(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    user = request.match_info["user"]
    if who(request) not in (user, ADMIN):
        raise challenge("the list of a user's jobs needs that user's secret")
    number = page_number(request)
    jobs, total = ctx.store.user_jobs(user, number * PAGE_SIZE, PAGE_SIZE)
    return page("user.html.j2", user=user, jobs=jobs, url=ctx.url, page=number,
                more=(number + 1) * PAGE_SIZE < total, total=total)


async def _report_page(request: web.Request, job: Job, name: str) -> web.Response:
    """The report page ``name`` of ``job`` (read off the loop), or 404."""
    folder = request.app[CONTEXT].store.report_dir(job.id)
    gzip_ok = accepts_gzip(request.headers.get("Accept-Encoding"))
    found = await asyncio.to_thread(read_page, folder, name, gzip_ok)
    if found is None:
        raise web.HTTPNotFound(text="no such page")
    body, packed = found
    response = web.Response(body=body, headers={"Content-Type": "text/html; charset=utf-8",
                                                "Vary": "Accept-Encoding"})
    if packed:
        response.headers["Content-Encoding"] = "gzip"
    return response


async def results(request: web.Request) -> web.StreamResponse:
    ctx = request.app[CONTEXT]
    job = _by_token(request)
    if job.status == "done":
        return await _report_page(request, job, "index.html")
    return page("job.html.j2", job=job, refresh=job.status in ("queued", "running"),
                position=position(ctx, job))


def _by_token(request: web.Request) -> Job:
    job = request.app[CONTEXT].store.by_report_token(request.match_info["token"])
    if job is None:
        raise web.HTTPNotFound(text="no such report")
    return job


async def results_redirect(request: web.Request) -> web.Response:
    _by_token(request)
    raise web.HTTPMovedPermanently(f"/results/{request.match_info['token']}/")


async def pair_page(request: web.Request) -> web.StreamResponse:
    """``matchN.html`` (also after a doubled slash: ``mosspy`` asks for
    ``URL/matchN.html`` where the URL already ends in ``/``) or ``pairs/pair-N.html``.
    Under ``pairs/`` every page name answers, so the relative links of a page
    opened by its old name (``index.html#row-N``, ``matchN.html``) still lead on."""
    job = _by_token(request)
    name = request.match_info["page"].lstrip("/")
    if job.status != "done" or not page_names(name):
        raise web.HTTPNotFound(text="no such page")
    return await _report_page(request, job, name)


async def admin(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    if who(request) != ADMIN:
        raise challenge(f"the admin view needs the secret of {ADMIN}")
    state = ctx.runner.state()
    queued = [ctx.store.get(job_id) for job_id in state["queued"]]
    gate = request.app[GATE]
    return page("admin.html.j2", workers=state["workers"], queued=[j for j in queued if j],
                jobs=len(ctx.store.by_id), connections=gate.count, refused=gate.refused,
                limit=gate.total)


__all__ = ["CONTEXT", "GATE", "admin", "home", "pair_page", "results", "results_redirect",
           "security_headers",
           "user_jobs", "user_lookup"]
