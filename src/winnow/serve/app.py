"""Running the server: the MOSS port and the HTTP port on one asyncio loop.

:func:`serve` binds both ports (``127.0.0.1`` unless told otherwise), queues
again the jobs a stopped server left unfinished, deletes jobs older than the
retention period (at start and every hour), and runs until SIGINT or SIGTERM.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from aiohttp import web

from winnow.serve.http import make_app
from winnow.serve.intake import Limits
from winnow.serve.jobs import Runner
from winnow.serve.protocol import LINE_LIMIT, Context, handle
from winnow.serve.store import JobStore

log = logging.getLogger("winnow.serve")
SWEEP_EVERY = 3600.0
#: Connections the MOSS port lets wait to be accepted (many clients start at once).
BACKLOG = 1024


@dataclass(frozen=True)
class Settings:
    """Everything ``winnow serve`` is told."""

    data: Path
    host: str = "127.0.0.1"
    moss_port: int = 7690
    http_port: int = 8080
    url: str | None = None  #: the reports' base URL (default: http://HOST:HTTP_PORT)
    workers: int = 2
    reply_wait: float = 600.0
    idle_timeout: float = 120.0
    retention_days: float = 0.0  #: 0 = keep every job
    users: frozenset[str] | None = None
    limits: Limits = field(default_factory=Limits)


def base_url(host: str, port: int) -> str:
    """``http://HOST:PORT`` for a bound address (a wildcard becomes this machine's name)."""
    if host in ("", "0.0.0.0", "::"):
        host = socket.getfqdn()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


async def _sweep(store: JobStore, days: float) -> None:
    while True:
        removed = store.sweep(days * 86400)
        if removed:
            log.info("retention: deleted %d jobs older than %g days", removed, days)
        await asyncio.sleep(SWEEP_EVERY)


async def serve(settings: Settings, ready: Callable[[int, int, str], None]) -> None:
    """Run the server until SIGINT/SIGTERM; ``ready(moss_port, http_port, url)`` once
    both ports are bound (the ports are the real ones when 0 was asked for)."""
    store = JobStore(settings.data)
    again = store.recover()
    runner = Runner(store, settings.workers)
    root = [settings.url or ""]
    ctx = Context(store, runner, settings.limits, lambda job_id: f"{root[0]}/results/{job_id}/",
                  settings.users, settings.reply_wait, settings.idle_timeout)
    web_runner = web.AppRunner(make_app(ctx), access_log=None, handle_signals=False)
    moss: asyncio.Server | None = None
    tasks: list[asyncio.Task[None]] = []
    try:
        moss = await asyncio.start_server(partial(handle, ctx), settings.host,
                                          settings.moss_port, limit=LINE_LIMIT,
                                          backlog=BACKLOG)
        await web_runner.setup()
        site = web.TCPSite(web_runner, settings.host, settings.http_port)
        await site.start()
        moss_port = moss.sockets[0].getsockname()[1]
        http_port = web_runner.addresses[0][1]
        root[0] = (settings.url or base_url(settings.host, http_port)).rstrip("/")
        runner.start()
        for job in again:
            runner.enqueue(job)
        if settings.retention_days > 0:
            tasks.append(asyncio.create_task(_sweep(store, settings.retention_days)))
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, stop.set)
        ready(moss_port, http_port, root[0])
        await stop.wait()
    finally:
        for task in tasks:
            task.cancel()
        if moss is not None:
            moss.close()
        await web_runner.cleanup()
        await runner.close()
