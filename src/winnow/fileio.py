"""Reading input files without ever blocking, and naming them printably.

Every command reads files named by untrusted trees.  Two hazards live there:

* a path that is (or became, after the walk looked at it) a FIFO, a device or
  a blocking pseudo-file such as ``/proc/kmsg``: a plain ``open()`` waits for a
  writer forever.  :func:`read_regular` opens without blocking, checks the
  opened file (not the path, so no race) and reads only regular files;
* a path swapped for a symbolic link (or another file) between the walk that
  listed it and the read: ``nofollow`` opens with ``O_NOFOLLOW`` and
  ``expect`` compares the opened file's ``(device, inode)`` with the walk's,
  so a link the walk refused is never followed later (:class:`FileChanged`);
* a file far larger than anything a front-end should hold: ``max_bytes``
  stops reading one byte past the budget (:class:`FileTooLarge`);
* a file name that is not valid UTF-8: Python hands it over with lone
  surrogates (``surrogateescape``), which no UTF-8 writer, JSON encoder or
  database accepts.  :func:`printable` turns such bytes into ``\\xNN`` text.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

#: The file budget commands read up to by default (``compare --max-file-size``):
#: normalising and fingerprinting hold 40 to 50 bytes per input byte.
DEFAULT_MAX_FILE_BYTES = 16 << 20


class NotRegularFile(OSError):
    """The path is a FIFO, socket or device: refused rather than read (it could block)."""

    def __init__(self, path: str | os.PathLike[str], mode: int) -> None:
        super().__init__(errno.EINVAL, f"{kind_of(mode)}, not a regular file",
                         os.fspath(path))


class FileChanged(OSError):
    """The path no longer leads to the file the walk listed (replaced, perhaps by
    a symbolic link): refused rather than read."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        super().__init__(errno.ESTALE, what, os.fspath(path))


class FileTooLarge(OSError):
    """The file holds more bytes than the caller's budget: refused rather than read."""

    def __init__(self, path: str | os.PathLike[str], limit: int) -> None:
        self.limit = limit
        super().__init__(errno.EFBIG, f"larger than {limit} bytes", os.fspath(path))


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


def open_regular(path: str | os.PathLike[str], *, nofollow: bool = False,
                 expect: tuple[int, int] | None = None) -> BinaryIO:
    """The regular file at ``path`` opened for reading; never blocks on a FIFO or device.

    Raises :class:`NotRegularFile` (an :class:`OSError`) for anything but a
    regular file, and the usual :class:`OSError` when it cannot be opened (a
    pseudo-file that would block raises ``EAGAIN`` on reading instead of hanging).
    With ``nofollow`` a symbolic link at ``path`` is refused; with ``expect``
    a file whose ``(st_dev, st_ino)`` differs is refused (both
    :class:`FileChanged`): the file must be the one a walk listed.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if nofollow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if nofollow and error.errno == errno.ELOOP and os.path.islink(path):
            raise FileChanged(path, "became a symbolic link after it was listed; "
                                    "not followed") from error
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(path, info.st_mode)
        if expect is not None and (info.st_dev, info.st_ino) != expect:
            raise FileChanged(path, "replaced (perhaps by a link) after it was listed; "
                                    "not read")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | os.PathLike[str], *, max_bytes: int | None = None,
                 nofollow: bool = False, expect: tuple[int, int] | None = None) -> bytes:
    """All bytes of the regular file at ``path`` (see :func:`open_regular`).

    Raises :class:`FileTooLarge` past ``max_bytes`` (reading stops one byte
    after it), and ``BlockingIOError`` for a pseudo-file with nothing to read
    now (``/proc/kmsg``) instead of returning nothing.
    """
    with open_regular(path, nofollow=nofollow, expect=expect) as handle:
        data = handle.read(-1 if max_bytes is None else max_bytes + 1)
    if data is None:  # a non-blocking read that would block
        raise BlockingIOError(errno.EAGAIN, "would block (a kernel pseudo-file, not data)",
                              os.fspath(path))
    if max_bytes is not None and len(data) > max_bytes:
        raise FileTooLarge(path, max_bytes)
    return data


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
