"""Writing result files whole or not at all.

Every file winnow writes (``-o FILE``, report pages) is written to a temporary
file beside its target and renamed over it at the end: an interrupted or
failed run leaves the old file, never half of a new one, and a target is not
emptied before the work that fills it is done.  New files get the mode an
ordinary ``open`` would give them (``0o666`` less the umask); a file that is
replaced keeps its mode.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, BinaryIO, TextIO, cast


def current_umask() -> int:
    """The process's umask, read without changing it where Linux shows it
    (``/proc/self/status``); elsewhere set and restored at once."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def creation_mode() -> int:
    """``0o666`` less the process's umask: the mode ``open(path, "w")`` creates."""
    return 0o666 & ~current_umask()


def _mode_for(target: Path) -> int:
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        return creation_mode()


@contextmanager
def atomic_text(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """A UTF-8 text handle (no newline translation) that replaces ``path`` on success.

    See :func:`atomic_binary`.
    """
    with _replace(path, binary=False) as handle:
        yield cast(TextIO, handle)


@contextmanager
def atomic_binary(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary handle on a temporary file beside ``path``, renamed over it on success.

    A symbolic link is followed: the file it points to is replaced, the link
    kept.  A target that exists and is not a regular file (``/dev/null``, a
    FIFO, a terminal) is written in place, as a rename cannot replace it.  On
    any exception the temporary file is removed and the target is untouched.
    """
    with _replace(path, binary=True) as handle:
        yield cast(BinaryIO, handle)


@contextmanager
def _replace(path: str | os.PathLike[str], *, binary: bool) -> Iterator[IO[Any]]:
    try:
        special = not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        special = False
    if special:  # opened by its own name: /dev/stdout has no real path to rename over
        with _fdopen(os.open(path, os.O_WRONLY | os.O_TRUNC), binary) as handle:
            yield handle
        return
    target = Path(os.path.realpath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".winnow-{target.name[:40]}.", suffix=".tmp",
                               dir=target.parent)
    try:
        os.fchmod(fd, _mode_for(target))
        with _fdopen(fd, binary) as handle:
            yield handle
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _fdopen(fd: int, binary: bool) -> IO[Any]:
    if binary:
        return os.fdopen(fd, "wb")
    return os.fdopen(fd, "w", encoding="utf-8", newline="")
