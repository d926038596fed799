"""Walking folders for the index: regular files in, everything else reported.

sif traverses directories recursively (Manber 1994, section 4).  We do the
same without ever failing on one bad entry: devices, FIFOs, sockets, broken
links, symbolic-link loops and unreadable folders become :class:`Skipped`
entries with a reason, and the walk goes on.

Symbolic links are not followed unless ``follow_links`` (like ``find``), so a
file is never indexed twice through a link; a path given explicitly is always
followed.  When following, every directory is entered once (by device and
inode), which breaks loops.  Nothing on a pseudo file system (``/proc``, ``/sys``,
``/dev`` ...) is walked or read, also when a link leads there: entries are
checked by device number, so the walk stays linear in the depth of the tree.
A name that is not valid UTF-8 is skipped with a reason (with everything under
it): the index keeps paths as text.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field

from winnow.fileio import kind_of, printable

#: The reason given for a path that does not exist (it holds nothing to keep).
NOT_FOUND = "no such file or directory"
GONE = (NOT_FOUND, "vanished or broken symbolic link")
#: File systems whose "files" are kernel interfaces, not data: reading them can
#: block or never end (``/proc/kcore`` claims 128 TiB), so their mount points are
#: never walked.
PSEUDO_FILESYSTEMS = frozenset({
    "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs",
    "securityfs", "pstore", "bpf", "configfs", "fusectl", "mqueue", "hugetlbfs",
    "binfmt_misc", "efivarfs", "autofs", "rpc_pipefs", "nsfs",
})
PSEUDO = "pseudo file system (kernel interface, not files); not walked"


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


#: The reason given for a name that is not UTF-8 (shown with its odd bytes as ``\\xNN``).
NOT_UTF8 = "name is not valid UTF-8 (the index stores paths as text); skipped"


@dataclass(frozen=True)
class FileEntry:
    """A regular file found by the walk; ``path`` is absolute."""

    path: str
    size: int
    mtime_ns: int
    ident: tuple[int, int] | None = None  #: ``(st_dev, st_ino)``: reads open this file only
    link: bool = False  #: reached through a symbolic link (else a link is never followed)


@dataclass(frozen=True)
class Skipped:
    """Something the walk (or reading) left out, and why."""

    path: str
    reason: str


@dataclass
class WalkResult:
    files: list[FileEntry] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def describe_error(error: OSError) -> str:
    if isinstance(error, PermissionError):
        return "permission denied"
    if isinstance(error, FileNotFoundError):
        return "vanished or broken symbolic link"
    return error.strerror or str(error)


class _Walker:
    def __init__(self, follow_links: bool) -> None:
        self.follow = follow_links
        self.seen_dirs: set[tuple[int, int]] = set()
        self.seen_files: set[str] = set()
        self.result = WalkResult()
        self.pseudo = pseudo_devices()

    def visit(self, path: str, explicit: bool) -> list[str]:
        """Record ``path``; return it as a directory to descend into, if it is one."""
        if printable(path) != path:  # the index stores paths as UTF-8 text
            self.result.skipped.append(Skipped(printable(path), NOT_UTF8))
            return []
        try:
            link = os.path.islink(path)
            if link and not (self.follow or explicit):
                self.result.skipped.append(Skipped(path, "symbolic link (not followed)"))
                return []
            info = os.stat(path)
        except FileNotFoundError:
            reason = NOT_FOUND if explicit else "vanished or broken symbolic link"
            self.result.skipped.append(Skipped(path, reason))
            return []
        except OSError as error:
            self.result.skipped.append(Skipped(path, describe_error(error)))
            return []
        if info.st_dev in self.pseudo:  # by device: O(1), and no link leads around it
            self.result.skipped.append(Skipped(path, PSEUDO))
            return []
        if stat.S_ISDIR(info.st_mode):
            key = (info.st_dev, info.st_ino)
            if key in self.seen_dirs:
                reason = "symbolic link loop" if link else "directory already walked"
                self.result.skipped.append(Skipped(path, reason))
                return []
            self.seen_dirs.add(key)
            return [path]
        if stat.S_ISREG(info.st_mode):
            if path not in self.seen_files:  # a file named twice is listed once
                self.seen_files.add(path)
                self.result.files.append(FileEntry(path, info.st_size, info.st_mtime_ns,
                                                   (info.st_dev, info.st_ino), link))
        else:
            self.result.skipped.append(Skipped(path, kind_of(info.st_mode)))
        return []

    def descend(self, directory: str) -> list[str]:
        try:
            with os.scandir(directory) as entries:
                names = sorted(entry.name for entry in entries)
        except OSError as error:
            self.result.skipped.append(Skipped(directory, describe_error(error)))
            return []
        subdirs: list[str] = []
        for name in names:
            subdirs += self.visit(os.path.join(directory, name), explicit=False)
        return subdirs


def walk(roots: Sequence[str | os.PathLike[str]], *, follow_links: bool = False) -> WalkResult:
    """All regular files under ``roots`` (files or folders), sorted by path."""
    walker = _Walker(follow_links)
    stack: list[str] = []
    for root in roots:
        stack += walker.visit(os.path.abspath(os.fspath(root)), explicit=True)
    stack.reverse()
    while stack:
        stack += reversed(walker.descend(stack.pop()))
    walker.result.files.sort(key=lambda entry: entry.path)
    return walker.result
