"""The HTTP site of ``winnow serve``: the report pages (:mod:`winnow.serve.http`)
and the JSON API (:mod:`winnow.serve.api`) in one aiohttp application."""

from __future__ import annotations

from aiohttp import web

from winnow.serve.api import add_api
from winnow.serve.guard import Gate
from winnow.serve.http import (
    CONTEXT,
    GATE,
    admin,
    home,
    pair_page,
    results,
    results_redirect,
    security_headers,
    user_jobs,
    user_lookup,
)
from winnow.serve.protocol import Context


def make_app(ctx: Context, gate: Gate | None = None) -> web.Application:
    """The aiohttp application serving ``ctx``'s jobs."""
    app = web.Application(middlewares=[security_headers], client_max_size=1 << 20)
    app[CONTEXT] = ctx
    app[GATE] = gate or Gate(1000, 1000)
    app.router.add_get("/", home)
    app.router.add_get("/users", user_lookup)
    app.router.add_get("/users/{user}/", user_jobs, name="user")
    app.router.add_get("/admin", admin)
    app.router.add_get("/results/{token}", results_redirect)
    app.router.add_get("/results/{token}/", results)
    app.router.add_get("/results/{token}/index.html", results)
    app.router.add_get("/results/{token}/pairs/{page}", pair_page)
    app.router.add_get(r"/results/{token}/{page:/?match[0-9]+\.html}", pair_page)
    add_api(app)
    return app


__all__ = ["make_app"]
