"""Running the server: the MOSS port and the HTTP port on one asyncio loop.

:func:`serve` binds both ports (``127.0.0.1`` unless told otherwise), queues
again the jobs a stopped server left unfinished, deletes expired jobs (every
minute: the index is in memory), puts both ports behind one connection
:class:`~winnow.serve.guard.Gate`, and runs until SIGINT or SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from winnow.serve.access import Secrets
from winnow.serve.guard import Gate, GatedProtocol, RateLimit, peer_address
from winnow.serve.protocol import LINE_LIMIT, Context, handle
from winnow.serve.settings import Settings
from winnow.serve.site import make_app
from winnow.serve.store import Job, JobStore
from winnow.serve.workers import Runner

log = logging.getLogger("winnow.serve")
#: How often expired jobs are looked for (the index is in memory: this is cheap).
SWEEP_EVERY = 60.0
#: Connections each port lets wait to be accepted (many clients start at once).
BACKLOG = 1024
#: Connections asyncio accepts in one go (its ``backlog`` argument is also that count):
#: kept small, so that a burst never takes more descriptors than the gate keeps free.
ACCEPT_BATCH = 64


def base_url(host: str, port: int) -> str:
    """``http://HOST:PORT`` for a bound address (a wildcard becomes this machine's name)."""
    if host in ("", "0.0.0.0", "::"):
        host = socket.getfqdn()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


async def _sweep(store: JobStore, runner: Runner, settings: Settings) -> None:
    days, hours = settings.retention_days, settings.failed_retention_hours
    while True:
        gone = store.expired(days * 86400, hours * 3600)
        for job in gone:
            runner.cancel(job.id)
            store.delete(job)
        if gone:
            log.info("retention: deleted %d jobs", len(gone))
        await asyncio.sleep(SWEEP_EVERY)


def _gated_moss(ctx: Context, gate: Gate) -> Callable[[asyncio.StreamReader,
                                                       asyncio.StreamWriter], Awaitable[None]]:
    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        address = peer_address(writer.transport)
        reason = gate.admit(address)
        if reason is not None:
            with contextlib.suppress(OSError):
                writer.write(f"error: {reason}\n".encode())
            writer.close()
            return
        try:
            await handle(ctx, reader, writer)
        finally:
            gate.release(address)
    return client


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (IPv6 when ``host`` is one)."""
    info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = info[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


def _quiet_loop_errors(loop: asyncio.AbstractEventLoop) -> None:
    """The loop's own errors (an ``accept`` failing, say) go through the rate limit."""
    def handler(_: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, asyncio.CancelledError):
            return  # a connection's task cancelled at shutdown
        log.error("event loop: %s%s", context.get("message", ""),
                  f" ({type(error).__name__}: {error})" if error else "")
    loop.set_exception_handler(handler)


def rate_limit_logs() -> None:
    """Put :class:`RateLimit` on every handler of the root logger."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RateLimit) for f in handler.filters):
            handler.addFilter(RateLimit())


async def serve(settings: Settings, ready: Callable[[int, int, str], None]) -> None:
    """Run the server until SIGINT/SIGTERM; ``ready(moss_port, http_port, url)`` once
    both ports are bound (the ports are the real ones when 0 was asked for)."""
    loop = asyncio.get_running_loop()
    _quiet_loop_errors(loop)
    rate_limit_logs()
    store = await asyncio.to_thread(JobStore, settings.data)
    again = await asyncio.to_thread(store.recover)
    runner = Runner(store, settings.workers, settings.job_limits)
    root = [settings.url or ""]

    def url(job: Job) -> str:
        return f"{root[0]}/results/{job.token}/"

    ctx = Context(store, runner, settings.limits, url, settings.users, settings.reply_wait,
                  settings.idle_timeout, settings.upload_deadline, Secrets(settings.data))
    gate = Gate(settings.max_connections, settings.max_per_address)
    web_runner = web.AppRunner(make_app(ctx, gate), access_log=None, handle_signals=False)
    servers: list[asyncio.Server] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        moss_socket = _listen(settings.host, settings.moss_port)
        moss = await asyncio.start_server(_gated_moss(ctx, gate), sock=moss_socket,
                                          limit=LINE_LIMIT, backlog=ACCEPT_BATCH)
        servers.append(moss)
        await web_runner.setup()
        handler = web_runner.server
        assert handler is not None
        http_socket = _listen(settings.host, settings.http_port)
        http = await loop.create_server(
            lambda: GatedProtocol(handler(), gate, settings.idle_timeout,
                                  settings.upload_deadline),
            sock=http_socket, backlog=ACCEPT_BATCH)
        servers.append(http)
        for sock in (moss_socket, http_socket):
            sock.listen(BACKLOG)  # the kernel's queue stays long
        moss_port = moss_socket.getsockname()[1]
        http_port = http_socket.getsockname()[1]
        root[0] = (settings.url or base_url(settings.host, http_port)).rstrip("/")
        log.info("at most %d connections in all, %d per address; each worker compiles "
                 "the comparison's kernels when it starts (logged when ready)",
                 gate.total, gate.per_address)
        runner.start()
        for job in again:
            runner.enqueue(job)
        tasks.append(asyncio.create_task(_sweep(store, runner, settings)))
        stop = asyncio.Event()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, stop.set)
        ready(moss_port, http_port, root[0])
        await stop.wait()
    finally:
        for task in tasks:
            task.cancel()
        for server in servers:
            server.close()
        await web_runner.cleanup()
        await runner.close()
        await asyncio.to_thread(store.flush)
