"""Acting on exact duplicates: the index's identical groups, hard-linked or deleted safely.

The index says which files *were* identical when they were indexed; before
anything is changed on disk every file is checked again, because the tree may
have changed since:

* a file is used only if it is a regular file reached without any symbolic
  link (its own name is ``lstat``-ed and opened with ``O_NOFOLLOW``; a folder on
  its path that resolves elsewhere refuses it), and only if its size and mtime
  are still those of the index;
* one file per group is kept (the first that passes those checks, in the
  order of the ``keep`` rule); it is never acted on, so the last copy of a
  content is never removed;
* with ``apply``, each other file is compared with the kept one **byte for
  byte** (a stronger check than any hash), and both are ``lstat``-ed again right
  before acting: device, inode, size and mtime must be those seen when they
  were compared, or the file is skipped;
* a hard link is made only within one file system (same device), by linking the
  kept file under a temporary name beside the duplicate and renaming it over the
  duplicate (``rename`` is atomic: the duplicate's name always holds one of the
  two identical contents);
* a file that is already the kept file (same device and inode: a hard link) is
  left alone.

Without ``apply`` (a dry run) the checks that need no reading are done (type,
symbolic links, size, mtime, devices, inodes) and the result says what would
happen.  Bytes freed are counted per inode: removing one name of a file that
has other links outside the group frees nothing.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal, get_args

from winnow.errors import DedupRefused, InvalidConfig
from winnow.index.store import DocRow, FingerprintIndex
from winnow.sif.groups import identical_sets

Action = Literal["list", "link", "delete"]
KeepRule = Literal["first", "oldest", "newest"]
ACTIONS: tuple[Action, ...] = get_args(Action)
KEEP_RULES: tuple[KeepRule, ...] = get_args(KeepRule)
#: Bytes compared at a time.
CHUNK = 1 << 20


@dataclass(frozen=True)
class DedupOptions:
    """``action``: ``list`` (name the duplicates), ``link`` or ``delete``;
    ``apply``: do it (else a dry run); ``keep``: which copy of a group stays
    (the first path, or the oldest or newest by mtime, ties by path)."""

    action: Action = "list"
    apply: bool = False
    keep: KeepRule = "first"

    def __post_init__(self) -> None:
        problems = []
        if self.action not in ACTIONS:
            problems.append(f"action must be one of {', '.join(ACTIONS)}, not {self.action!r}")
        if self.keep not in KEEP_RULES:
            problems.append(f"keep must be one of {', '.join(KEEP_RULES)}, not {self.keep!r}")
        if self.apply and self.action == "list":
            problems.append("listing changes nothing: apply needs the link or delete action")
        if problems:
            raise InvalidConfig(problems)


@dataclass(frozen=True)
class Row:
    """One file of a group: ``action`` is ``keep`` or the group's action; ``status``
    is ``kept``, ``planned`` (dry run), ``done``, ``same-file`` (already a hard
    link of the kept file) or ``skipped`` (``reason`` says why); ``freed``: the
    bytes this row frees (or would free)."""

    group: int
    action: str
    path: str
    size: int
    status: str
    reason: str = ""
    freed: int = 0


@dataclass
class DedupResult:
    options: DedupOptions
    groups: int = 0
    rows: list[Row] = field(default_factory=list)

    @property
    def freed(self) -> int:
        """Bytes freed (applied) or that would be freed (dry run), all groups."""
        return sum(row.freed for row in self.rows)

    @property
    def skipped(self) -> list[Row]:
        return [row for row in self.rows if row.status == "skipped"]


@dataclass(frozen=True)
class FileState:
    """What must not change between checking a file and acting on it."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    nlink: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileState:
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_nlink)

    def same_file(self, other: FileState) -> bool:
        return (self.dev, self.ino) == (other.dev, other.ino)

    def unchanged(self, other: FileState) -> bool:
        return (self.dev, self.ino, self.size, self.mtime_ns) == (
            other.dev, other.ino, other.size, other.mtime_ns)


def current_state(path: str) -> FileState:
    """``path``'s state, if it is a regular file reached without symbolic links."""
    try:
        st = os.lstat(path)
        parent = os.path.dirname(path)
        real_parent = os.path.realpath(parent)
    except FileNotFoundError as error:
        raise DedupRefused("gone since it was indexed") from error
    except OSError as error:
        raise DedupRefused(error.strerror or str(error)) from error
    if stat.S_ISLNK(st.st_mode):
        raise DedupRefused("a symbolic link (never followed)")
    if not stat.S_ISREG(st.st_mode):
        raise DedupRefused("not a regular file")
    if real_parent != parent:
        raise DedupRefused("a folder on its path is a symbolic link (never followed)")
    return FileState.of(st)


def check_indexed(row: DocRow, state: FileState) -> None:
    """Refuse ``row``'s file unless its size and mtime are still the indexed ones."""
    if (state.size, state.mtime_ns) != (row.size, row.mtime_ns):
        raise DedupRefused("changed since it was indexed (run `winnow index` again)")


def _open(path: str, expected: FileState) -> int:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    if not FileState.of(os.fstat(fd)).unchanged(expected):
        os.close(fd)
        raise DedupRefused("changed while being checked")
    return fd


def same_bytes(path_a: str, state_a: FileState, path_b: str, state_b: FileState) -> bool:
    """Whether the two files hold the same bytes, read in full (each opened
    without following a symbolic link and checked to be the file stated)."""
    if state_a.size != state_b.size:
        return False
    fd_a = _open(path_a, state_a)
    try:
        fd_b = _open(path_b, state_b)
        try:
            with os.fdopen(os.dup(fd_a), "rb") as a, os.fdopen(os.dup(fd_b), "rb") as b:
                while True:
                    chunk = a.read(CHUNK)
                    if chunk != b.read(CHUNK):
                        return False
                    if not chunk:
                        return True
        finally:
            os.close(fd_b)
    finally:
        os.close(fd_a)


def _ordered(rows: list[DocRow], keep: str) -> list[DocRow]:
    if keep == "oldest":
        return sorted(rows, key=lambda r: (r.mtime_ns, r.path))
    if keep == "newest":
        return sorted(rows, key=lambda r: (-r.mtime_ns, r.path))
    return sorted(rows, key=lambda r: r.path)


def _link_over(keeper: str, victim: str) -> None:
    """Replace ``victim`` by a hard link to ``keeper`` (link beside it, then rename)."""
    directory, name = os.path.split(victim)
    temporary = os.path.join(directory, f".{name}.winnow-dedup-{os.getpid()}")
    os.link(keeper, temporary, follow_symlinks=False)
    try:
        os.replace(temporary, victim)
    except BaseException:
        os.unlink(temporary)
        raise


def _act(options: DedupOptions, keeper: str, keeper_state: FileState, path: str,
         state: FileState) -> str:
    """Do (or, in a dry run, check that one could do) the action on one duplicate."""
    if options.action == "link" and state.dev != keeper_state.dev:
        raise DedupRefused("on another file system than the kept copy (hard links cannot cross)")
    if not options.apply or options.action == "list":
        return "planned"
    if not same_bytes(keeper, keeper_state, path, state):
        raise DedupRefused("content differs from the kept copy's (run `winnow index` again)")
    # right before acting: both files are still the ones compared
    if not (current_state(keeper).unchanged(keeper_state)
            and current_state(path).unchanged(state)):
        raise DedupRefused("changed while being checked")
    try:
        if options.action == "link":
            _link_over(keeper, path)
        else:
            os.unlink(path)
    except OSError as error:
        raise DedupRefused(error.strerror or str(error)) from error
    return "done"


def _freed(acted: list[tuple[DocRow, FileState]]) -> dict[str, int]:
    """Bytes freed per path: an inode's size, on its first acted name, once every
    one of its links is acted on (others outside the group keep it alive)."""
    names = Counter((state.dev, state.ino) for _, state in acted)
    freed, counted = {}, set()
    for row, state in acted:
        inode = (state.dev, state.ino)
        if inode not in counted and names[inode] >= state.nlink:
            counted.add(inode)
            freed[row.path] = row.size
    return freed


def dedup_group(number: int, rows: list[DocRow], options: DedupOptions) -> list[Row]:
    """Check one identical group, keep one file and act on (or plan) the others."""
    action = "duplicate" if options.action == "list" else options.action
    out: list[Row] = []
    keeper: tuple[DocRow, FileState] | None = None
    acted: list[tuple[DocRow, FileState]] = []
    statuses: dict[str, str] = {}
    for row in _ordered(rows, options.keep):
        try:
            state = current_state(row.path)
            if keeper is not None and state.same_file(keeper[1]):  # linked before
                out.append(Row(number, action, row.path, row.size, "same-file",
                               "already a hard link of the kept copy"))
                continue
            check_indexed(row, state)
            if keeper is None:
                keeper = (row, state)
                out.append(Row(number, "keep", row.path, row.size, "kept"))
                continue
            statuses[row.path] = _act(options, keeper[0].path, keeper[1], row.path, state)
            acted.append((row, state))
        except DedupRefused as refused:
            out.append(Row(number, action, row.path, row.size, "skipped", str(refused)))
    freed = _freed(acted)
    out += [Row(number, action, row.path, row.size, statuses[row.path],
                freed=freed.get(row.path, 0)) for row, _ in acted]
    order = {row.path: i for i, row in enumerate(_ordered(rows, options.keep))}
    return sorted(out, key=lambda r: (r.status != "kept", order[r.path]))


def deduplicate(index: FingerprintIndex, options: DedupOptions,
                paths: list[str] | None = None) -> DedupResult:
    """Every identical group of the index (of the files at or under ``paths``,
    if given; empty files never): one file kept, the others listed, linked or
    deleted (see the module docstring).  Deleted files leave the index too, so
    ``index`` must be writable when ``options.apply`` and the action is delete."""
    prefixes = None if paths is None else [os.path.abspath(p) for p in paths]
    docs = index.documents(prefixes)
    result = DedupResult(options)
    for number, rows in enumerate(identical_sets(docs), start=1):
        result.groups = number
        result.rows += dedup_group(number, rows, options)
    deleted = {row.path for row in result.rows
               if row.action == "delete" and row.status == "done"}
    if deleted:
        with index.transaction():
            index.remove([doc.id for doc in docs if doc.path in deleted])
    return result


__all__ = [
    "ACTIONS",
    "KEEP_RULES",
    "DedupOptions",
    "DedupResult",
    "Row",
    "dedup_group",
    "deduplicate",
    "same_bytes",
]
