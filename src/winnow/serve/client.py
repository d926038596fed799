"""A small MOSS client sending the byte stream ``moss.pl`` sends (tests, benchmarks).

``moss.pl`` sends ``moss USERID``, ``directory D``, ``X 0``, ``maxmatches M``,
``show N``, ``language L``, reads one line (``no`` ends the session), uploads
the base files with id 0 and then every file with ids 1, 2, ... as ``file ID
LANG SIZE NAME`` (whitespace in NAME replaced by ``_``, SIZE its length in
bytes) followed by its bytes, sends ``query 0 COMMENT``, prints every line
until the server closes the connection, and sends ``end``.  In directory mode
the stream is the same; the server groups files by their folder.
"""

from __future__ import annotations

import contextlib
import re
import socket
from collections.abc import Sequence
from dataclasses import dataclass

File = tuple[str, bytes]


@dataclass(frozen=True)
class Query:
    """What to submit."""

    user: str
    files: Sequence[File]
    base: Sequence[File] = ()
    language: str = "c"
    directory: bool = False
    max_matches: int = 10
    show: int = 250
    comment: str = ""


def file_header(moss_id: int, language: str, name: str, size: int) -> bytes:
    """The line announcing one file, as ``moss.pl`` writes it."""
    shown = re.sub(r"\s", "_", name)
    return f"file {moss_id} {language} {size} {shown}\n".encode()


def stream(query: Query) -> list[bytes]:
    """The bytes sent after the language was accepted (files and query), in order."""
    out: list[bytes] = []
    numbered = [(0, f) for f in query.base] + [(i, f) for i, f in enumerate(query.files, 1)]
    for moss_id, (name, data) in numbered:
        out += [file_header(moss_id, query.language, name, len(data)), data]
    out.append(f"query 0 {query.comment}\n".encode())
    return out


def submit(host: str, port: int, query: Query, timeout: float = 600.0) -> list[str]:
    """Send ``query`` as ``moss.pl`` does; return the lines the server answered
    (the language answer first, then the answer to the query)."""
    with socket.create_connection((host, port), timeout=timeout) as sock:
        head = (f"moss {query.user}\ndirectory {int(query.directory)}\nX 0\n"
                f"maxmatches {query.max_matches}\nshow {query.show}\n"
                f"language {query.language}\n")
        sock.sendall(head.encode())
        reader = sock.makefile("rb")
        answer = reader.readline().decode().rstrip("\n")
        if answer != "yes":
            sock.sendall(b"end\n")
            return [answer]
        for part in stream(query):
            sock.sendall(part)
        lines = [line.decode().rstrip("\n") for line in reader]
        with contextlib.suppress(OSError):  # the server has closed; moss.pl ignores it
            sock.sendall(b"end\n")
        return [answer, *lines]
