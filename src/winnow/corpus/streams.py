"""Reading corpus files in blocks: damage stops a stream, not the run; a line
of any length costs a block of memory (:mod:`winnow.corpus.readers`)."""

from __future__ import annotations

import hashlib
import lzma
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import IO, cast

import numpy as np

#: Bytes read at a time.
BLOCK = 1 << 20
#: What reading a damaged or truncated compressed stream raises.
DAMAGED: tuple[type[BaseException], ...] = (EOFError, OSError, ValueError, lzma.LZMAError,
                                             zlib.error)


def damaged() -> tuple[type[BaseException], ...]:
    """What reading a damaged input raises (``zstandard``'s error too, when installed)."""
    try:
        import zstandard
    except ImportError:  # pragma: no cover - a dependency of the dedup extra
        return DAMAGED
    return (*DAMAGED, zstandard.ZstdError)


def blocks(stream: IO[bytes], left: int | None = None,
           damage: list[BaseException] | None = None) -> Iterator[bytes]:
    """The bytes of ``stream`` in blocks (at most ``left`` of them), each as soon
    as it is decompressed; a stream that fails (truncated, damaged) ends there,
    its error appended to ``damage`` (raised when ``damage`` is ``None``)."""
    read: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
    errors = damaged()
    while left is None or left > 0:
        try:
            block = read(BLOCK if left is None else min(BLOCK, left))
        except errors as error:
            if damage is None:
                raise
            damage.append(error)
            return
        if not block:
            return
        if left is not None:
            left -= len(block)
        yield block


def lines(blocks: Iterator[bytes], budget: int) -> Iterator[bytes | int]:
    """The lines of ``blocks`` (each with its newline, the last one perhaps
    without); a line of more than ``budget`` bytes (newline aside) is given as
    its length instead, and never held whole (:func:`line_runs`)."""
    for run, ended in line_runs(blocks, budget):
        last = len(run) - 1
        for i, line in enumerate(run):
            yield line if isinstance(line, int) or (i == last and not ended) else line + b"\n"


def line_runs(blocks: Iterator[bytes], budget: int
              ) -> Iterator[tuple[list[bytes | int], bool]]:
    """The lines of ``blocks`` a block at a time, *without* their newlines:
    ``(lines, ended)``, ``ended`` false only for the last run when the last
    line has no newline.  A line of more than ``budget`` bytes (newline
    aside) is given as its length with its newline instead, and never held
    whole.  Each block is split at its newlines in one call
    (``bytes.split``: twice the speed of finding them one at a time), and a
    reader that only parses the lines takes them a block at a time, with no
    newline added back: a 7.5 MB shard of ``benchmarks/scale.py`` read and
    parsed (:func:`~winnow.corpus.readers.record_texts`, best of nine, three
    sittings alternated) in 27-31 ms, against 31-53 ms from :func:`lines`."""
    pending: list[bytes] = []  # the start of a line that goes on in the next block
    size, over = 0, False
    for block in blocks:
        parts = block.split(b"\n")
        last = parts.pop()  # after the block's last newline: a line's start, or b""
        joined = bool(parts) and size > 0  # the block's first newline ends the pending line
        long = len(block) > budget  # a line over the budget needs a block as long
        run = cast(list[bytes | int], parts)  # a line over the budget: its length there
        if joined:
            size += len(parts[0])
            if over or size > budget:
                run[0] = size + 1
            else:
                pending.append(parts[0])
                run[0] = b"".join(pending)
            pending, size, over = [], 0, False
        if long:
            for i in range(1 if joined else 0, len(parts)):
                if len(parts[i]) > budget:
                    run[i] = len(parts[i]) + 1
        if run:
            yield run, True
        if last:
            size += len(last)
            if not over and size > budget:
                over, pending = True, []
            elif not over:
                pending.append(last)
    if size:
        yield [size if over else b"".join(pending)], False


def wanted_lines(blocks: Iterator[bytes], budget: int,
                 wanted: Iterable[int]) -> Iterator[tuple[int, bytes | int]]:
    """``(i, line i)`` of :func:`lines` for the line numbers ``wanted``
    (0-based, ascending) alone: each block's newlines are found by numpy, and
    only the wanted lines are cut out (a tenth of the records: about a
    quarter of :func:`lines`' time).  A wanted line over ``budget`` is given
    as its length, never held whole."""
    targets = iter(wanted)
    target = next(targets, None)
    line = 0  # the line that the next block starts in
    pending: list[bytes] = []  # the start of line ``line`` when it is wanted
    size, over = 0, False
    for block in blocks:
        if target is None:
            return
        ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == 10) + 1
        while target is not None and target < line + ends.shape[0]:
            j = target - line  # the line that newline j of the block ends
            if j == 0:
                size += int(ends[0])
                yield target, (size if over or size - 1 > budget
                               else b"".join([*pending, block[:int(ends[0])]]))
            else:
                begin, end = int(ends[j - 1]), int(ends[j])
                yield target, end - begin if end - begin - 1 > budget else block[begin:end]
            target = next(targets, None)
        if ends.shape[0]:
            line += ends.shape[0]
            pending, size, over = [], 0, False
        tail = block[int(ends[-1]):] if ends.shape[0] else block
        if target == line and tail:
            size += len(tail)
            if not over and size > budget:
                over, pending = True, []
            elif not over:
                pending.append(tail)
    if target == line and size:
        yield target, size if over else b"".join(pending)


#: Bytes read at a time by :func:`count_newlines`: its buffer's pages are
#: mapped afresh by each call, so a small one costs less than it saves in
#: calls (the 60 MB of ``benchmarks/scale.py``'s 100,000 records, eight
#: files: 31-36 ms with 4 MiB, 16-21 ms with 1 MiB).
COUNT_BLOCK = 1 << 20


def count_newlines(path: str, start: int, stop: int,
                   update: Callable[[memoryview], object] | None = None) -> tuple[int, int]:
    """The newlines in bytes ``start .. stop - 1`` of the file at ``path``, and
    its last byte (``-1`` when there is none).  The bytes are read into one
    buffer, reused, and counted by numpy, which lets other threads run while
    it counts (and ``hashlib``'s digests, given each block as ``update``,
    while they hash): a 600 MB corpus, its shards counted by two threads, in
    0.1 s, against 0.4 s for blocks read as new ``bytes`` and counted one
    after the other."""
    buffer = np.empty(min(COUNT_BLOCK, max(stop - start, 1)), dtype=np.uint8)
    view = buffer.data
    newlines, last = 0, -1
    with open(path, "rb", buffering=0) as stream:
        stream.seek(start)
        left = stop - start
        while left > 0:
            got = stream.readinto(view[:min(left, buffer.shape[0])])
            if not got:
                break
            left -= got
            newlines += int(np.count_nonzero(buffer[:got] == 10))
            last = int(buffer[got - 1])
            if update is not None:
                update(view[:got])
    return newlines, last


def line_end(stream: IO[bytes], at: int, size: int) -> int:
    """The offset just past the newline at or after ``at`` (``size`` if none),
    found a block at a time (a line of any length costs a block of memory)."""
    if at >= size:
        return size
    stream.seek(at)
    for block in blocks(stream, size - at):
        found = block.find(b"\n")
        if found >= 0:
            return at + found + 1
        at += len(block)
    return size


def file_digest(path: str) -> str:
    """A digest of the file's bytes (what a sharded run's working folder is tied to)."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in blocks(stream):
            digest.update(block)
    return digest.hexdigest()
