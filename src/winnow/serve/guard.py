"""Connection limits for both ports, and logs that cannot flood the disk.

:class:`Gate` counts open connections, in all and per client address.  A
connection over either limit is answered at once (``error: …`` on the MOSS
port, HTTP 503 on the other) and closed, so the server never accepts more
than it can serve.  The total is kept below the process's descriptor limit
(:func:`connection_cap`), so that accepting never fails with ``EMFILE``.

:class:`GatedProtocol` puts an aiohttp request handler behind the gate and
drops an HTTP connection that sends nothing for the idle time or stays open
longer than the upload deadline (a client trickling one byte a second).

:class:`RateLimit` is a logging filter: at most :data:`BURST` records of one
kind per :data:`PERIOD` seconds, then one line saying how many were dropped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from typing import Any

#: Descriptors kept free for files, pipes and workers whatever the connections.
RESERVED_FDS = 256
PERIOD = 10.0
BURST = 20
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
         b"Retry-After: 10\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s")


def connection_cap(wanted: int) -> int:
    """``wanted``, lowered to fit the descriptor limit (two ports' connections plus
    the server's own descriptors)."""
    try:
        import resource  # Unix only
    except ImportError:  # pragma: no cover - no descriptor limit to fit
        return wanted
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return min(wanted, max(8, soft - RESERVED_FDS))


class Gate:
    """Open connections, in all and per address."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = connection_cap(total), per_address
        self.open: Counter[str] = Counter()
        self.count = 0
        self.refused = 0

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address``; the reason if it is refused."""
        if self.count >= self.total:
            reason = f"the server is busy ({self.total} connections); try again later"
        elif self.open[address] >= self.per_address:
            reason = (f"too many connections from {address} "
                      f"(the limit is {self.per_address}); try again later")
        else:
            self.count += 1
            self.open[address] += 1
            return None
        self.refused += 1
        return reason

    def release(self, address: str) -> None:
        self.count -= 1
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


def peer_address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


class GatedProtocol(asyncio.Protocol):
    """An HTTP connection behind the gate, with an idle time and a whole deadline."""

    def __init__(self, inner: Any, gate: Gate, idle: float, deadline: float) -> None:
        self.inner, self.gate, self.idle, self.deadline = inner, gate, idle, deadline
        self.address: str | None = None
        self.transport: asyncio.Transport | None = None
        self.last = time.monotonic()
        self.timer: asyncio.TimerHandle | None = None
        self.ends = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        address = peer_address(transport)
        reason = self.gate.admit(address)
        if reason is not None:
            body = reason.encode()
            transport.write(_BUSY % (len(body), body))
            transport.close()
            return
        self.address, self.transport = address, transport
        now = time.monotonic()
        self.last, self.ends = now, now + self.deadline
        self._arm(min(self.idle, self.deadline))
        self.inner.connection_made(transport)

    def _arm(self, delay: float) -> None:
        self.timer = asyncio.get_running_loop().call_later(max(delay, 0.05), self._check)

    def _check(self) -> None:
        now = time.monotonic()
        if now >= self.ends or now - self.last >= self.idle:
            if self.transport is not None:
                self.transport.abort()
            return
        self._arm(min(self.last + self.idle, self.ends) - now)

    def data_received(self, data: bytes) -> None:
        self.last = time.monotonic()
        if self.address is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self.address is None:
            return None
        return self.inner.eof_received()  # type: ignore[no-any-return]

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.address is not None:
            self.gate.release(self.address)
            self.address = None
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class RateLimit(logging.Filter):
    """At most :data:`BURST` records per message template per :data:`PERIOD` s."""

    def __init__(self) -> None:
        super().__init__()
        self.window: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}:{record.msg}"
        now = time.monotonic()
        start, seen = self.window.get(key, (now, 0))
        if now - start >= PERIOD:
            if seen > BURST:
                record.msg = f"({seen - BURST} more like the next were not logged) {record.msg}"
            start, seen = now, 0
        seen += 1
        self.window[key] = (start, seen)
        if len(self.window) > 10_000:
            self.window.clear()
        if seen <= BURST:
            return True
        record.exc_info = None
        return False
