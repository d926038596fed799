"""The MOSS submission protocol over TCP, as ``moss.pl`` and ``mosspy`` speak it.

A client sends lines: ``moss USERID``, ``directory 0|1``, ``X 0|1``,
``maxmatches N``, ``show N``, ``language L`` (answered ``yes`` or ``no``), then
per file ``file ID LANG SIZE NAME`` followed by exactly SIZE bytes (ID 0 = base
code), then ``query 0 COMMENT`` — answered with one line, the report's URL —
and ``end``.  The answer comes when the report is ready, or after
``reply_wait`` seconds if the job takes longer (the page then shows its
progress); the server then closes the connection (``moss.pl`` prints lines
until it does).

Anything else — an unknown command, a bad number, a file over a limit, a full
disk — is answered with one line ``error: REASON``; the server then reads and
discards what the client still sends (for a few seconds, up to the ``query``
line), so that ``moss.pl`` prints the reason instead of dying of SIGPIPE, and
closes the connection.  A user id that is not allowed is answered the same
way, at the ``query`` line (the client's files are read and discarded, never
stored).  A client that goes silent for ``idle_timeout`` seconds, takes longer
than ``upload_deadline`` seconds in all, or disconnects mid-file is dropped.
Either way the half-received job is marked failed with the reason and its
files are deleted; no other job is touched.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from winnow.errors import JobRefused
from winnow.serve.access import ADMIN, Secrets
from winnow.serve.intake import Intake, Limits
from winnow.serve.languages import moss_language
from winnow.serve.store import Job, JobStore
from winnow.serve.workers import Runner

log = logging.getLogger("winnow.serve")

#: The longest command line accepted (a file line holds a name of up to ~4 KB).
LINE_LIMIT = 8192
CHUNK = 1 << 16
#: After refusing, how long (and how many bytes of) unread input is drained so the
#: client can read the answer.
LINGER = 10.0
LINGER_BYTES = 64 << 20
USER_REFUSED = "user id not allowed on this server"


class _Deadline(Exception):
    """The whole upload took longer than it may."""


@dataclass
class Context:
    """What a connection needs from the server."""

    store: JobStore
    runner: Runner
    limits: Limits
    url: Callable[[Job], str]
    users: frozenset[str] | None = None
    reply_wait: float = 600.0
    idle_timeout: float = 120.0
    upload_deadline: float = 900.0
    secrets: Secrets | None = None

    def allowed(self, user: str) -> bool:
        """Whether ``user`` may submit."""
        return bool(user) and user != ADMIN and (self.users is None or user in self.users)


@dataclass
class _Header:
    user: str | None = None
    refused: bool = False
    dropped_files: int = 0
    dropped_bytes: int = 0
    language: str = "c"
    directory: bool = False
    max_matches: int = 10
    show: int = 250


def _number(word: str, what: str) -> int:
    try:
        value = int(word)
    except ValueError:
        raise JobRefused(f"{what} is not a number: {word[:40]!r}") from None
    if value < 0:
        raise JobRefused(f"{what} is negative")
    return value


class Session:
    """One client connection."""

    def __init__(self, ctx: Context, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self.ctx, self.reader, self.writer = ctx, reader, writer
        self.header = _Header()
        self.intake: Intake | None = None
        self.deadline = asyncio.get_running_loop().time() + ctx.upload_deadline

    def _timeout(self) -> asyncio.Timeout:
        loop_now = asyncio.get_running_loop().time()
        if loop_now >= self.deadline:
            raise _Deadline
        return asyncio.timeout_at(min(loop_now + self.ctx.idle_timeout, self.deadline))

    async def _line(self) -> str | None:
        """The next command line, ``None`` at the end of the stream."""
        async with self._timeout():
            raw = await self.reader.readline()
        if not raw:
            return None
        if not raw.endswith(b"\n"):
            raise asyncio.IncompleteReadError(raw, None)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:  # a name in Latin-1 (or another 8-bit charset)
            text = raw.decode("latin-1")
        return text.rstrip("\r\n")

    async def _send(self, line: str) -> None:
        self.writer.write(line.encode("utf-8", "backslashreplace") + b"\n")
        await self.writer.drain()

    async def _body(self, size: int) -> AsyncIterator[bytes]:
        left = size
        while left:
            async with self._timeout():
                chunk = await self.reader.read(min(CHUNK, left))
            if not chunk:
                raise asyncio.IncompleteReadError(b"", left)
            left -= len(chunk)
            yield chunk

    async def _header_line(self, command: str, args: list[str]) -> bool:
        """Handle a command before the files; ``False`` when the session is over."""
        head = self.header
        if command == "moss":
            head.user = args[0] if args else ""
            head.refused = not self.ctx.allowed(head.user)
        elif command in ("directory", "X", "maxmatches", "show") and len(args) == 1:
            value = _number(args[0], command)
            if command == "directory":
                head.directory = value != 0
            elif command == "maxmatches":
                head.max_matches = value
            elif command == "show":
                head.show = value
        elif command == "language" and len(args) == 1:
            if moss_language(args[0]) is None:
                await self._send("no")
                return False
            head.language = args[0].lower()
            await self._send("yes")
        else:
            raise JobRefused(f"unknown command: {command[:40]!r}")
        return True

    async def _file(self, args: list[str], rest: str) -> None:
        if len(args) < 4:
            raise JobRefused("a file line is 'file ID LANGUAGE SIZE NAME'")
        moss_id, size = _number(args[0], "file id"), _number(args[2], "file size")
        head = self.header
        if head.user is None:
            raise JobRefused("the first command must be 'moss USERID'")
        if head.refused:  # read and drop (within the limits), to answer at the query
            limits = self.ctx.limits
            head.dropped_files += 1
            head.dropped_bytes += size
            if (size > limits.max_file_bytes or head.dropped_files > limits.max_files
                    or head.dropped_bytes > limits.max_job_bytes):
                raise JobRefused(USER_REFUSED)
            async for _ in self._body(size):
                pass
            return
        if self.intake is None:
            self.intake = await Intake.open(
                self.ctx.store, self.ctx.limits, head.user, language=head.language,
                directory=head.directory, max_matches=head.max_matches, show=head.show)
        self.intake.check_next(size)
        await self.intake.add(moss_id, rest, self._body(size))

    async def _query(self, comment: str) -> None:
        if self.header.refused:
            raise JobRefused(USER_REFUSED)
        if self.intake is None or not self.intake.job.files:
            raise JobRefused("no files were submitted")
        job = self.intake.job
        job.comment = comment[:1000]
        self.ctx.runner.enqueue(job)
        self.intake = None
        await self.ctx.runner.wait(job.id, self.ctx.reply_wait)
        await self._send(self.ctx.url(job))

    async def run(self) -> None:
        """Read commands until ``query`` is answered, ``end``, or the stream ends."""
        while (line := await self._line()) is not None:
            words = line.split(" ", 4)
            command, args = words[0], [w for w in words[1:] if w]
            if not command:
                continue
            if command == "end":
                return
            if command == "file":
                parts = line.split(" ", 4)
                await self._file(args, parts[4] if len(parts) > 4 else "")
            elif command == "query":
                await self._query(line.split(" ", 2)[2] if line.count(" ") >= 2 else "")
                return
            elif self.intake is not None:
                raise JobRefused(f"unexpected command after the files: {command[:40]!r}")
            elif not await self._header_line(command, args):
                return
        if self.intake is not None:
            raise asyncio.IncompleteReadError(b"", None)

    async def linger(self) -> None:
        """After a refusal: stop writing and drain the client's input (for at most
        :data:`LINGER` seconds and :data:`LINGER_BYTES` bytes, up to its ``query``
        line), so the answer is read instead of lost to a connection reset."""
        drained, tail = 0, b"\n"
        try:
            if self.writer.can_write_eof():
                self.writer.write_eof()
            async with asyncio.timeout(LINGER):
                while drained < LINGER_BYTES and (chunk := await self.reader.read(CHUNK)):
                    drained += len(chunk)
                    if b"\nquery " in tail + chunk:
                        break
                    tail = chunk[-8:]
        except (TimeoutError, OSError, ValueError):
            pass


async def handle(ctx: Context, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
    """Serve one MOSS client; nothing it sends can raise out of here."""
    session = Session(ctx, reader, writer)
    reason: str | None = None
    answer = drain = True  # whether the client is told the reason; its input drained
    try:
        await session.run()
    except JobRefused as refusal:
        reason = str(refusal)
    except ValueError:  # a line over LINE_LIMIT (StreamReader.readline)
        reason = "command line too long"
    except (TimeoutError, _Deadline):
        drain = False  # a slow client gets no more time
        if asyncio.get_running_loop().time() >= session.deadline:
            reason = f"the upload took longer than {ctx.upload_deadline:g} seconds"
        else:
            reason = f"the client sent nothing for {ctx.idle_timeout:g} seconds"
    except asyncio.IncompleteReadError:
        reason, answer = "the connection ended before the query", False
    except OSError as error:
        reason, answer = f"connection error: {error.strerror or error}", False
    finally:
        if session.intake is not None:
            await session.intake.fail(reason or "the upload did not end with a query")
    if reason and answer:
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(LINGER):
                await session._send(f"error: {reason}")
            if drain:
                await session.linger()
    if reason:
        log.info("MOSS client %s: %s", _peer(writer), reason)
    writer.close()
    try:
        async with asyncio.timeout(LINGER):
            await writer.wait_closed()
    except (OSError, TimeoutError):
        writer.transport.abort()


def _peer(writer: asyncio.StreamWriter) -> Any:
    return writer.get_extra_info("peername")
