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
* a folder on the way to the file swapped for a link (``O_NOFOLLOW`` guards
  the last name only): ``beneath=(root, rel, inside)`` opens ``rel`` one name
  at a time from a descriptor of ``root`` (``openat``), never following a link
  (``inside``: a link is resolved by hand and followed only while it stays
  under ``root``), so the file opened was reached inside ``root`` at the moment
  it was opened, and its ``fstat`` is that file's (:func:`open_beneath`);
* a kernel pseudo-file (``/proc/kmsg``, ``/sys/...``): ``special=False``
  refuses any file on a pseudo file system (:func:`pseudo_devices`);
* a file far larger than anything a front-end should hold: ``max_bytes``
  stops reading one byte past the budget (:class:`FileTooLarge`);
* a file name that is not valid UTF-8: Python hands it over with lone
  surrogates (``surrogateescape``), which no UTF-8 writer, JSON encoder or
  database accepts.  :func:`printable` turns such bytes into ``\\xNN`` text.
"""

from __future__ import annotations

import errno
import functools
import os
import stat
from typing import BinaryIO

#: The file budget commands read up to by default (``compare --max-file-size``):
#: normalising and fingerprinting hold 40 to 50 bytes per input byte.
DEFAULT_MAX_FILE_BYTES = 16 << 20


class NotRegularFile(OSError):
    """The path is a FIFO, socket or device: refused rather than read (it could block)."""

    def __init__(self, path: str | os.PathLike[str], mode: int) -> None:
        self.mode = mode
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
    """What a non-regular file is, in words (``-1``: a file of a pseudo file system)."""
    if mode == -1:
        return "kernel pseudo-file (/proc, /sys ...)"
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISDIR(mode):
        return "directory"
    return "not a regular file"


#: ``(root, rel, inside, key)``: open ``rel`` (``/``-separated) under the folder
#: ``root`` without leaving it; ``inside``: links that stay under ``root`` are
#: followed; ``key``: the ``(st_dev, st_ino)`` ``root`` must still have (or ``None``).
Beneath = tuple[str, str, bool, "tuple[int, int] | None"]

#: Links resolved by hand on the way to one file, at most (Linux's own limit).
MAX_LINKS = 40

#: File systems whose "files" are kernel interfaces, not data: reading them can
#: block or never end (``/proc/kcore`` claims 128 TiB).
PSEUDO_FILESYSTEMS = frozenset({
    "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs",
    "securityfs", "pstore", "bpf", "configfs", "fusectl", "mqueue", "hugetlbfs",
    "binfmt_misc", "efivarfs", "autofs", "rpc_pipefs", "nsfs",
})


class LeftTheRoot(OSError):
    """A name on the way to the file is a link (refused), or leads out of the
    folder it must stay in: refused rather than followed."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        super().__init__(errno.EXDEV, what, os.fspath(path))


@functools.lru_cache(maxsize=1)
def pseudo_devices(mountinfo: str = "/proc/self/mountinfo") -> frozenset[int]:
    """Device numbers (``st_dev``) of the mounted :data:`PSEUDO_FILESYSTEMS`.

    Read from ``mountinfo`` (``ID PARENT MAJOR:MINOR ROOT POINT ... - TYPE ...``)
    rather than by stat-ing the mount points (an automounter would mount them).
    An entry is then checked in constant time, wherever a link leads (empty
    where ``mountinfo`` is unreadable).
    """
    devices = set()
    try:
        with open(mountinfo, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                fields = line.split()
                if "-" not in fields[3:]:
                    continue
                kind = fields[fields.index("-", 3) + 1:][:1]
                major, _, minor = fields[2].partition(":")
                if kind and kind[0] in PSEUDO_FILESYSTEMS and major.isdigit() \
                        and minor.isdigit():
                    devices.add(os.makedev(int(major), int(minor)))
    except OSError:
        return frozenset()
    return frozenset(devices)


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) \
    | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) \
    | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


def open_beneath(root: str, rel: str, *, inside: bool = False,
                 shown: str | os.PathLike[str] | None = None,
                 key: tuple[int, int] | None = None) -> tuple[int, bool]:
    """A descriptor of ``rel`` under the folder ``root``, and whether a link was
    followed on the way; never leaves ``root``.

    ``root`` is opened as given (a root named by the user is followed); every
    name below it is opened from its folder's descriptor with ``O_NOFOLLOW``,
    so the check that a name is no link, that the file lies under ``root`` and
    the file's ``fstat`` all concern the one file opened, at one moment.  A
    link on the way is refused (:class:`LeftTheRoot`), or with ``inside``
    resolved by hand: followed while its target stays under ``root`` (``..``
    never climbs above it; an absolute target must lie under ``root``'s real
    path), at most :data:`MAX_LINKS` of them.  The last name is opened
    without blocking, and never when it is a device, FIFO or socket
    (:class:`NotRegularFile`).  With ``key``,
    ``root`` must still be the folder of that ``(st_dev, st_ino)`` (a root
    swapped for a link elsewhere is refused, not walked).
    """
    name = os.fspath(shown if shown is not None else os.path.join(root, rel))
    stack = [os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
                     | getattr(os, "O_CLOEXEC", 0))]
    if key is not None:
        info = os.fstat(stack[0])
        if (info.st_dev, info.st_ino) != key:
            os.close(stack[0])
            raise LeftTheRoot(name, "its folder was replaced after it was listed; not read")
    top = real_path(stack[0], root) if inside else ""
    todo = [part for part in reversed(rel.split("/")) if part not in ("", ".")]
    hops, linked = 0, False
    try:
        while todo:
            part = todo.pop()
            if part == "..":
                if len(stack) == 1:
                    raise LeftTheRoot(name, "leads out of the folder; not followed")
                os.close(stack.pop())
                continue
            if not todo:
                _refuse_special(part, stack[-1], name)
            try:
                fd = os.open(part, _FILE_FLAGS if not todo else _DIR_FLAGS, dir_fd=stack[-1])
            except OSError as error:
                if error.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                    raise
                target = _link_target(part, stack[-1], error)
                if not inside:
                    raise LeftTheRoot(name, "a symbolic link on the way; not followed") \
                        from error
                hops += 1
                if hops > MAX_LINKS:
                    raise OSError(errno.ELOOP, "symbolic link loop", name) from error
                linked = True
                if target.startswith("/"):
                    if not (target + "/").startswith(top.rstrip("/") + "/"):
                        raise LeftTheRoot(name, "symbolic link out of the folder; "
                                                "not followed") from error
                    while len(stack) > 1:
                        os.close(stack.pop())
                    target = target[len(top):]
                todo += [p for p in reversed(target.split("/")) if p not in ("", ".")]
                continue
            stack.append(fd)
        return (os.dup(stack[0]) if len(stack) == 1 else stack.pop()), linked
    finally:
        for other in stack:
            os.close(other)


def _refuse_special(part: str, folder: int, name: str) -> None:
    """Raise :class:`NotRegularFile` when ``part`` of ``folder`` is a device, FIFO
    or socket: never opened (opening a device can act, a tape rewinds)."""
    try:
        mode = os.stat(part, dir_fd=folder, follow_symlinks=False).st_mode
    except OSError:
        return  # the open says why
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
        raise NotRegularFile(name, mode)


def real_path(fd: int, path: str) -> str:
    """The real path of the folder open as ``fd`` (``path``'s, if the system
    cannot tell it from the descriptor)."""
    try:
        found = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return os.path.realpath(path)
    return found if found.startswith("/") else os.path.realpath(path)


def _link_target(part: str, folder: int, error: OSError) -> str:
    """The target of the link ``part`` in ``folder``, or ``error`` again when
    ``part`` is not a link (a file where a folder was expected)."""
    try:
        return os.readlink(part, dir_fd=folder)
    except OSError:
        raise error from None


def open_regular(path: str | os.PathLike[str], *, nofollow: bool = False,
                 expect: tuple[int, int] | None = None, beneath: Beneath | None = None,
                 special: bool = True) -> BinaryIO:
    """The regular file at ``path`` opened for reading; never blocks on a FIFO or device.

    Raises :class:`NotRegularFile` (an :class:`OSError`) for anything but a
    regular file, and the usual :class:`OSError` when it cannot be opened (a
    pseudo-file that would block raises ``EAGAIN`` on reading instead of hanging).
    With ``nofollow`` a symbolic link at ``path`` is refused; with ``expect``
    a file whose ``(st_dev, st_ino)`` differs is refused (both
    :class:`FileChanged`): the file must be the one a walk listed.  With
    ``beneath`` the file is opened under its root (:func:`open_beneath`:
    ``path`` only names it), and with ``special=False`` a file on a pseudo
    file system is refused (:class:`NotRegularFile`).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if nofollow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags) if beneath is None else \
            open_beneath(beneath[0], beneath[1], inside=beneath[2], shown=path,
                         key=beneath[3])[0]
    except OSError as error:
        if nofollow and error.errno in (errno.ELOOP, errno.EXDEV) and os.path.islink(path):
            raise FileChanged(path, "became a symbolic link after it was listed; "
                                    "not followed") from error
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(path, info.st_mode)
        if not special and info.st_dev in pseudo_devices():
            raise NotRegularFile(path, -1)
        if expect is not None and (info.st_dev, info.st_ino) != expect:
            raise FileChanged(path, "replaced (perhaps by a link) after it was listed; "
                                    "not read")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | os.PathLike[str], *, max_bytes: int | None = None,
                 nofollow: bool = False, expect: tuple[int, int] | None = None,
                 beneath: Beneath | None = None, special: bool = True) -> bytes:
    """All bytes of the regular file at ``path`` (see :func:`open_regular`).

    Raises :class:`FileTooLarge` past ``max_bytes`` (reading stops one byte
    after it), and ``BlockingIOError`` for a pseudo-file with nothing to read
    now (``/proc/kmsg``) instead of returning nothing.
    """
    with open_regular(path, nofollow=nofollow, expect=expect, beneath=beneath,
                      special=special) as handle:
        data = _read_capped(handle, max_bytes)
    if data is None:  # a non-blocking read that would block
        raise BlockingIOError(errno.EAGAIN, "would block (a kernel pseudo-file, not data)",
                              os.fspath(path))
    if max_bytes is not None and len(data) > max_bytes:
        raise FileTooLarge(path, max_bytes)
    return data


def _read_capped(handle: BinaryIO, max_bytes: int | None) -> bytes | None:
    """``handle.read(max_bytes + 1)`` (everything when ``None``), asked first
    for the size the file has now: a read of ``n`` bytes allocates ``n``
    (16 MiB by default) before it shrinks to what it got, which cost more
    than reading a small file.  A file longer than its size says (growing,
    or a pseudo-file) is read on, up to the same limit."""
    if max_bytes is None:
        return handle.read()
    want = max_bytes + 1
    try:
        first = min(want, os.fstat(handle.fileno()).st_size + 1)
    except (OSError, ValueError):  # no descriptor to ask (io.UnsupportedOperation)
        first = want
    data = handle.read(first)
    if data is None or len(data) < first or first == want:
        return data  # the end of the file, nothing to read now, or the limit
    rest = handle.read(want - first)
    return data + rest if rest else data


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
