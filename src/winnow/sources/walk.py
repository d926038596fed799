"""Walking folders: regular files in, everything else reported, never fatal.

One walker serves every command: the index (``winnow index``, sif's recursive
traversal, Manber 1994, section 4) and the submissions of ``compare``
(:mod:`winnow.sources.submissions`).  What differs between them is a
:class:`WalkPolicy`:

* ``links``: symbolic links are ``"never"`` followed (like ``find``: a file
  is never reached twice through a link), followed only when their target
  lies ``"inside"`` the root walked (a submission cannot pull other files of
  the machine, ``/etc/passwd``, into a report), or ``"always"``.  A root given
  explicitly is always followed;
* ``hidden`` names (starting with ``.``) are walked or silently left out, as
  are the ``ignored`` names (``__MACOSX`` ...);
* ``include`` / ``exclude``: shell globs a file's path inside its root or its
  base name must match / must not match (:func:`matches`);
* loops: directories are identified by ``(device, inode)``.  With ``once``
  every directory is entered once, however many links lead to it; otherwise
  a directory is entered again by another path, unless it is one of its own
  ancestors (a loop);
* ``skip_pseudo``: nothing on a pseudo file system (``/proc``, ``/sys``,
  ``/dev`` ...) is walked or read, also when a link leads there: entries are
  checked by device number, so the walk stays linear in the depth of the tree;
* ``text_names``: a name that is not valid UTF-8 is skipped with a reason
  (with everything under it), for an index that keeps paths as text.

Nothing that cannot be used raises: devices, FIFOs, sockets, broken links,
loops and unreadable folders become :class:`~winnow.model.Skipped` entries
with a reason (worded by the policy's ``describe`` and ``special``), and the
walk goes on.  Iterative, so a tree nested thousands of folders deep is walked
like any other.

Order: files come in name order, depth first (``a/x`` before ``a.txt``).  The
entries of a folder are all looked at (and their directories marked as seen)
when the folder is entered, before any of its subfolders, and what they leave
out is reported then: skipped entries come folder by folder.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from winnow.fileio import (
    PSEUDO_FILESYSTEMS,
    Beneath,
    LeftTheRoot,
    NotRegularFile,
    kind_of,
    open_beneath,
    printable,
    pseudo_devices,
    real_path,
)
from winnow.model import Skipped

#: The reason given for a root that does not exist (it holds nothing to keep).
NOT_FOUND = "no such file or directory"
GONE = (NOT_FOUND, "vanished or broken symbolic link")
PSEUDO = "pseudo file system (kernel interface, not files); not walked"
#: The reason given for a name that is not UTF-8 (shown with its odd bytes as ``\\xNN``).
NOT_UTF8 = "name is not valid UTF-8 (the index stores paths as text); skipped"
NOT_FOLLOWED = "symbolic link (not followed)"
LINK_OUT = "symbolic link out of the submission; not followed"
LOOP = "symbolic link loop"
WALKED = "directory already walked"

Links = Literal["never", "inside", "always"]

__all__ = ["PSEUDO_FILESYSTEMS", "FileEntry", "WalkPolicy", "WalkResult", "pseudo_devices",
           "scan", "walk"]


def describe_error(error: OSError) -> str:
    """An error met walking or reading, in words."""
    if isinstance(error, PermissionError):
        return "permission denied"
    if isinstance(error, FileNotFoundError):
        return "vanished or broken symbolic link"
    return error.strerror or str(error)


def matches(path: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    """Whether ``path`` (``/``-separated) passes the shell globs: it, or its base
    name, matches one of ``include`` (or ``include`` is empty) and none of ``exclude``."""
    base = path.rsplit("/", 1)[-1]

    def hit(patterns: Sequence[str]) -> bool:
        return any(fnmatch.fnmatch(path, p) or fnmatch.fnmatch(base, p) for p in patterns)

    return (not include or hit(include)) and not hit(exclude)


def _never(_: str) -> bool:
    return False


@dataclass(frozen=True)
class WalkPolicy:
    """What a walk follows, takes and skips (see the module's docstring).

    The defaults are the index's: no link followed, hidden files taken, every
    directory once, pseudo file systems and names that are not UTF-8 skipped.
    ``unfiltered(name)`` names files that ``include``/``exclude`` never leave
    out (archives, whose members are matched instead).
    """

    links: Links = "never"
    hidden: bool = True
    ignored: frozenset[str] = frozenset()
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    unfiltered: Callable[[str], bool] = _never
    once: bool = True
    skip_pseudo: bool = True
    text_names: bool = True
    describe: Callable[[OSError], str] = describe_error
    special: Callable[[int], str] = kind_of

    def ignores(self, name: str) -> bool:
        """Whether ``name`` is left out silently (hidden or ignored)."""
        return (not self.hidden and name.startswith(".")) or name in self.ignored

    def wants(self, rel: str) -> bool:
        """Whether the file at ``rel`` (inside its root) passes ``include``/``exclude``."""
        if not (self.include or self.exclude) or self.unfiltered(rel.rsplit("/", 1)[-1]):
            return True
        return matches(rel, self.include, self.exclude)


@dataclass(frozen=True)
class FileEntry:
    """A regular file found by the walk: ``path`` as walked (the root joined with
    the names below it), ``rel`` its ``/``-separated path inside that root."""

    path: str
    size: int
    mtime_ns: int
    ident: tuple[int, int] | None = None  #: ``(st_dev, st_ino)``: reads open this file only
    link: bool = False  #: reached through a symbolic link (else a read never follows one)
    rel: str = ""
    #: how a read opens it again: ``rel`` under its root, links as the walk took
    #: them (:func:`winnow.fileio.open_beneath`); ``None``: by ``path``
    beneath: Beneath | None = None


@dataclass
class WalkResult:
    files: list[FileEntry] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def links_out(path: str, top: str) -> bool:
    """Whether ``path`` is a symbolic link whose target is not under ``top`` (a real path)."""
    return os.path.islink(path) and not _inside(path, top)


def _inside(path: str, top: str) -> bool:
    return os.path.commonpath([top, os.path.realpath(path)]) == top


@dataclass(frozen=True, slots=True)
class _Folder:
    """A directory to enter: its path, its entries' prefix inside the root, its
    ancestors' ``(device, inode)`` (without ``once``), its root's real path, its
    root as walked and its own ``(device, inode)``."""

    path: str
    prefix: str
    above: frozenset[tuple[int, int]]
    top: str
    root: str = ""
    key: tuple[int, int] | None = None
    root_key: tuple[int, int] | None = None


_Found = FileEntry | Skipped | _Folder | None


class _Walker:
    def __init__(self, policy: WalkPolicy) -> None:
        self.policy = policy
        self.seen_dirs: set[tuple[int, int]] = set()
        self.roots: set[str] = set()  #: the roots that are files: each listed once
        self.pseudo = pseudo_devices() if policy.skip_pseudo else frozenset()
        self.hide = not policy.hidden
        self.filtered = bool(policy.include or policy.exclude)

    def root(self, path: str, expect: tuple[int, int] | None = None) -> _Found:
        """The walk of a root: always followed, named ``NOT_FOUND`` when missing
        (``expect``: the ``(device, inode)`` it must have, or it is skipped).  A
        folder's identity and real path are read from one descriptor, and every
        later open under it checks that the path still leads to that folder."""
        if self.policy.text_names and printable(path) != path:
            return Skipped(printable(path), NOT_UTF8)
        top = ""
        try:
            link = os.path.islink(path)
            info = os.stat(path)
            if stat.S_ISDIR(info.st_mode) and self.policy.links != "always":
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
                try:
                    info = os.fstat(fd)
                    top = real_path(fd, path) if self.policy.links == "inside" else ""
                finally:
                    os.close(fd)
        except FileNotFoundError:
            return Skipped(path, NOT_FOUND)
        except OSError as error:
            return Skipped(path, self.policy.describe(error))
        key = (info.st_dev, info.st_ino)
        if expect is not None and key != expect:
            return Skipped(path, "replaced after it was listed; not walked")
        folder = _Folder(path, "", frozenset(), top, path,
                         root_key=key if stat.S_ISDIR(info.st_mode) else None)
        return self.found(folder, path, os.path.basename(path) or path, info, link, root=True)

    def entry_inside(self, folder: _Folder, name: str) -> _Found:
        """One entry of a folder whose links are followed inside its root only:
        opened under the root (:func:`~winnow.fileio.open_beneath`), so whether it
        is a link, whether it lies inside and its ``stat`` are one file's, at one
        moment; a name that turns into a link out of the root is skipped."""
        policy, path, rel = self.policy, os.path.join(folder.path, name), folder.prefix + name
        if (self.hide and name[0] == ".") or name in policy.ignored:
            return None
        try:
            fd, link = open_beneath(folder.root, rel, inside=True, shown=path,
                                    key=folder.root_key)
        except LeftTheRoot:
            return Skipped(path, LINK_OUT)
        except NotRegularFile as error:  # a device, FIFO or socket: never opened
            return Skipped(path, policy.special(error.mode))
        except OSError as error:
            return Skipped(path, policy.describe(error))
        try:
            info = os.fstat(fd)
        finally:
            os.close(fd)
        return self.found(folder, path, rel, info, link)

    def entry(self, folder: _Folder, entry: os.DirEntry[str]) -> _Found:
        """One entry of a folder being walked."""
        policy, name, path = self.policy, entry.name, entry.path
        if (self.hide and name[0] == ".") or name in policy.ignored:
            return None
        if policy.text_names and printable(name) != name:  # the folder's path is checked
            return Skipped(printable(path), NOT_UTF8)
        try:
            link = entry.is_symlink()
            if link and policy.links == "never":
                return Skipped(path, NOT_FOLLOWED)
            info = entry.stat()
        except OSError as error:
            return Skipped(path, policy.describe(error))
        if link and policy.links == "inside" and not _inside(path, folder.top):
            return Skipped(path, LINK_OUT)
        return self.found(folder, path, folder.prefix + name, info, link)

    def found(self, folder: _Folder, path: str, rel: str, info: os.stat_result,
              link: bool, root: bool = False) -> _Found:
        """What an entry that could be stat-ed is: a file, a folder to enter (its
        entries named from its root), or skipped."""
        if info.st_dev in self.pseudo:  # by device: O(1), and no link leads around it
            return Skipped(path, PSEUDO)
        if stat.S_ISDIR(info.st_mode):
            key = (info.st_dev, info.st_ino)
            prefix = "" if root else rel + "/"
            if self.policy.once:
                if key in self.seen_dirs:
                    return Skipped(path, LOOP if link else WALKED)
                self.seen_dirs.add(key)
                return _Folder(path, prefix, folder.above, folder.top, folder.root, key,
                               folder.root_key)
            if key in folder.above:
                return Skipped(path, f"{LOOP}; not followed")
            return _Folder(path, prefix, folder.above | {key}, folder.top, folder.root, key,
                           folder.root_key)
        if stat.S_ISREG(info.st_mode):
            if (self.filtered and not self.policy.wants(rel)) or path in self.roots:
                return None  # left out by a pattern, or a file named twice: listed once
            if root:
                self.roots.add(path)
            beneath = None if root or self.policy.links == "always" \
                else (folder.root, rel, self.policy.links == "inside", folder.root_key)
            return FileEntry(path, info.st_size, info.st_mtime_ns, (info.st_dev, info.st_ino),
                             link, rel, beneath)
        return Skipped(path, self.policy.special(info.st_mode))

    def listing(self, folder: _Folder) -> list[os.DirEntry[str]] | list[str] | Skipped:
        """The entries of ``folder`` in name order, or why they cannot be read
        (with links followed inside only, the names of the folder opened under
        its root, which must still be the folder seen)."""
        if self.policy.links == "inside":
            return self.names_inside(folder)
        try:
            with os.scandir(folder.path) as entries:
                return sorted(entries, key=_name)
        except OSError as error:
            return Skipped(folder.path, self.policy.describe(error))


    def names_inside(self, folder: _Folder) -> list[str] | Skipped:
        try:
            fd, _ = open_beneath(folder.root, folder.prefix, inside=True, shown=folder.path,
                                 key=folder.root_key)
        except LeftTheRoot:
            return Skipped(folder.path, LINK_OUT)
        except OSError as error:
            return Skipped(folder.path, self.policy.describe(error))
        try:
            info = os.fstat(fd)
            if folder.key is not None and (info.st_dev, info.st_ino) != folder.key:
                return Skipped(folder.path, "replaced while it was walked; not walked")
            return sorted(os.listdir(fd))
        except OSError as error:
            return Skipped(folder.path, self.policy.describe(error))
        finally:
            os.close(fd)


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def scan(roots: Sequence[str | os.PathLike[str]], policy: WalkPolicy | None = None,
         expect: tuple[int, int] | None = None) -> Iterator[FileEntry | Skipped]:
    """Every regular file under ``roots`` (files or folders, paths as given) and
    everything skipped, in walk order (see the module's docstring); ``expect``:
    the ``(device, inode)`` every root must have (one root, checked by a caller)."""
    walker = _Walker(policy or WalkPolicy())
    pending: list[FileEntry | _Folder] = []
    for root in roots:
        found = walker.root(os.fspath(root), expect)
        if isinstance(found, Skipped):
            yield found
        elif found is not None:
            pending.append(found)
    stack = [iter(pending)]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
        elif isinstance(item, FileEntry):
            yield item
        else:  # a folder: look at all its entries now, walk its files and folders next
            entries = walker.listing(item)
            if isinstance(entries, Skipped):
                yield entries
                continue
            inside: list[FileEntry | _Folder] = []
            for entry in entries:
                found = walker.entry_inside(item, entry) if isinstance(entry, str) \
                    else walker.entry(item, entry)
                if isinstance(found, Skipped):
                    yield found
                elif found is not None:
                    inside.append(found)
            stack.append(iter(inside))


def walk(roots: Sequence[str | os.PathLike[str]], policy: WalkPolicy | None = None) -> WalkResult:
    """All regular files under ``roots`` (made absolute), sorted by path, and
    everything skipped, in walk order."""
    result = WalkResult()
    for found in scan([os.path.abspath(os.fspath(root)) for root in roots], policy):
        if isinstance(found, FileEntry):
            result.files.append(found)
        else:
            result.skipped.append(found)
    result.files.sort(key=lambda entry: entry.path)
    return result
