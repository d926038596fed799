"""Reading input files without ever blocking, and naming them printably.

Every command reads files named by untrusted trees.  Two hazards live there:

* a path that is (or became, after the walk looked at it) a FIFO, a device or
  a blocking pseudo-file such as ``/proc/kmsg``: a plain ``open()`` waits for a
  writer forever.  :func:`read_regular` opens without blocking, checks the
  opened file (not the path, so no race) and reads only regular files;
* a file name that is not valid UTF-8: Python hands it over with lone
  surrogates (``surrogateescape``), which no UTF-8 writer, JSON encoder or
  database accepts.  :func:`printable` turns such bytes into ``\\xNN`` text.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO


class NotRegularFile(OSError):
    """The path is a FIFO, socket or device: refused rather than read (it could block)."""

    def __init__(self, path: str | os.PathLike[str], mode: int) -> None:
        super().__init__(errno.EINVAL, f"{kind_of(mode)}, not a regular file",
                         os.fspath(path))


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISDIR(mode):
        return "directory"
    return "not a regular file"


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """The regular file at ``path`` opened for reading; never blocks on a FIFO or device.

    Raises :class:`NotRegularFile` (an :class:`OSError`) for anything but a
    regular file, and the usual :class:`OSError` when it cannot be opened (a
    pseudo-file that would block raises ``EAGAIN`` on reading instead of hanging).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, mode)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """All bytes of the regular file at ``path`` (see :func:`open_regular`)."""
    with open_regular(path) as handle:
        return handle.read()


def printable(name: str) -> str:
    """``name`` with bytes that are not UTF-8 (lone surrogates from the file
    system or a tar header) written as ``\\xNN``; other text unchanged."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        return name
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file system produced (e.g. from JSON)
        return name.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")
