"""Submissions: what the user names on the command line, turned into files.

A *submission* is one PATH: a single file, a folder (all its files, MOSS
``-d``) or a zip/tar archive (read safely, see :mod:`winnow.sources.archives`).
With ``each=True`` every entry of a folder is one submission (the common
"one folder per student" layout).  Submissions are named exactly as the user
gave them; their files by their path inside the submission (``/``-separated).

A folder is walked by :mod:`winnow.sources.walk` (policy :func:`folder_policy`),
which never loops: directories are identified by ``(device, inode)`` and a
directory already on the way down is not entered again.  Symbolic links are
followed only when they point inside the submission, so a submission cannot
pull other files of the machine (``/etc/passwd``) into a report.  Its files
are listed in name order, depth first.  Anything that cannot
be used (unreadable, broken link, corrupt archive, empty submission ...)
becomes an :class:`~winnow.errors.InputError` in the submission's
``problems``; nothing here raises for one bad input.

Reading a file later opens exactly the file the walk listed, the way the walk
opened it: name by name from a descriptor of the submission's folder, a link
followed only while it stays inside (:func:`winnow.fileio.open_beneath`), and
the opened file's ``(device, inode)`` must be the walk's, so a file (or a
folder above it) swapped for a link to a host file during a run is refused,
not read.  A file on a kernel pseudo file system (``/proc/kmsg``) is refused.  A file over
``ReadOptions.max_file_bytes`` is skipped with a note before it is read.
Archive members are held compressed (zlib) until read, and every archive of
one :func:`load_submissions` call (or of several given the same ``run``)
shares one :class:`RunBudget`.

Skipped silently while walking (documented in ``docs/compare.md``): names
starting with ``.`` (``.git``, ``.DS_Store`` ...), ``__MACOSX`` and
``__pycache__``.
"""

from __future__ import annotations

import errno
import os
import stat
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from winnow.errors import ArchiveRefused, InputError
from winnow.fileio import (
    DEFAULT_MAX_FILE_BYTES,
    Beneath,
    FileChanged,
    FileTooLarge,
    LeftTheRoot,
    open_beneath,
    printable,
    read_regular,
)
from winnow.frontends.options import FrontEndOptions
from winnow.model import Document, Role
from winnow.sources.archives import ArchiveLimits, RunBudget, is_archive, read_archive
from winnow.sources.walk import FileEntry, WalkPolicy, matches, scan

_IGNORED_NAMES = frozenset({"__MACOSX", "__pycache__"})


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How files become documents (passed to :func:`winnow.frontends.make_document`)
    and which files of a folder are taken.

    ``include`` / ``exclude`` are shell globs matched against a file's path
    inside its submission and against its base name; with ``include`` empty
    every file is taken.  ``max_file_bytes`` (``None``: no limit) skips larger
    files, and archive members too.
    """

    frontend: str | None = None
    lang: str | None = None
    options: FrontEndOptions | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    limits: ArchiveLimits = field(default_factory=ArchiveLimits)
    max_file_bytes: int | None = DEFAULT_MAX_FILE_BYTES

    def wants(self, path: str) -> bool:
        """Whether the file at ``path`` (inside its submission) is taken."""
        return matches(path, self.include, self.exclude)


@dataclass(frozen=True)
class SourceFile:
    """One file of a submission, read lazily from disk or held from an archive.

    ``path`` is its path inside the submission; ``location`` names it for
    messages (a real path, or ``archive.zip/member``).  Both are printable
    (:func:`winnow.fileio.printable`): a name that is not UTF-8 shows its odd
    bytes as ``\\xNN`` and ``disk`` keeps the real path to read.  Picklable, so worker
    processes can build its document.
    """

    path: str
    location: str
    read_options: ReadOptions
    data: bytes | None = None
    size: int = -1  #: bytes, as seen when the submission was loaded (-1 = unknown)
    disk: str | None = None  #: the real path when ``location`` had to be made printable
    ident: tuple[int, int] | None = None  #: ``(st_dev, st_ino)`` the walk saw
    nofollow: bool = False  #: the walk saw no link here: never follow one
    packed: bool = False  #: ``data`` is zlib-compressed
    beneath: Beneath | None = None  #: how the walk reached it (read the same way)

    def read(self) -> bytes:
        """The file's bytes, or an :class:`InputError` saying why not."""
        limit = self.read_options.max_file_bytes
        if limit is not None and self.size > limit:
            raise InputError(self.location, _too_large(limit))
        if self.data is not None:
            return zlib.decompress(self.data) if self.packed else self.data
        try:
            return read_regular(self.disk or self.location, max_bytes=limit,
                                nofollow=self.nofollow, expect=self.ident,
                                beneath=self.beneath, special=False)
        except OSError as error:
            raise InputError(self.location, _describe(error)) from error

    def document(self) -> Document:
        """Read and normalise the file with the configured front-end."""
        from winnow.frontends.dispatch import make_document  # not the package's lazy name

        opts = self.read_options
        return make_document(
            self.read(), self.location, frontend=opts.frontend, lang=opts.lang,
            options=opts.options,
        )


@dataclass(frozen=True)
class SubmissionSource:
    """One submission's files and the problems met reading it."""

    name: str
    role: Role
    files: tuple[SourceFile, ...]
    problems: tuple[InputError, ...] = ()


def load_submission(
    path: str, role: Role = "new", read_options: ReadOptions | None = None,
    name: str | None = None, run: RunBudget | None = None,
    expect: tuple[int, int] | None = None,
) -> SubmissionSource:
    """The submission at ``path`` (file, folder or archive), named ``name or path``;
    its archives charge ``run`` (default: a budget of its own); ``expect``: the
    ``(device, inode)`` it must have (checked where it is opened)."""
    opts = read_options or ReadOptions()
    run = run or RunBudget(opts.limits.max_run_bytes)
    label = printable(name or path)
    files: list[SourceFile] = []
    problems: list[InputError] = []
    try:
        info = os.stat(path)
    except OSError as error:
        return SubmissionSource(label, role, (), (_problem(path, _describe(error)),))
    if expect is not None and (info.st_dev, info.st_ino) != expect:
        return SubmissionSource(label, role, (), (_problem(
            path, "replaced after it was listed; not read"),))
    if os.path.isdir(path):
        _walk(path, opts, run, files, problems, expect)
    elif not stat.S_ISREG(info.st_mode):
        problems.append(_problem(path, _not_regular(info.st_mode)))
    elif is_archive(path):
        _add_archive(path, "", opts, files, problems, run)
    else:
        entry = FileEntry(path, info.st_size, info.st_mtime_ns, (info.st_dev, info.st_ino),
                          os.path.islink(path), os.path.basename(path) or path)
        files.append(_disk_file(entry, opts))
    if not files and not problems:
        problems.append(_problem(path, "empty submission: no files to compare"))
    return SubmissionSource(label, role, tuple(files), tuple(problems))


def load_submissions(
    paths: Sequence[str], *, each: bool = False, role: Role = "new",
    read_options: ReadOptions | None = None, run: RunBudget | None = None,
) -> list[SubmissionSource]:
    """Submissions for ``paths``; with ``each``, one per entry of each folder path.

    Entries of an ``each`` folder are named ``folder/entry`` (as given +
    entry), skipping hidden and ignored names and single files that
    ``--include``/``--exclude`` leave out; an entry that is a symbolic link
    pointing out of the folder is a problem, not followed (a student's entry
    must not pull other files of the machine in); a path that is not a folder
    is one submission as usual.  Every archive read charges ``run`` (default:
    one budget for this call; pass one to share it between calls).
    """
    out: list[SubmissionSource] = []
    run = run or RunBudget((read_options or ReadOptions()).limits.max_run_bytes)
    for path in paths:
        if each and os.path.isdir(path):
            try:
                entries = sorted(os.listdir(path))
            except OSError as error:
                out.append(SubmissionSource(printable(path), role, (),
                                        (_problem(path, _describe(error)),)))
                continue
            policy = folder_policy(read_options or ReadOptions())
            for entry in entries:
                full = os.path.join(path, entry)
                if policy.ignores(entry) or (os.path.isfile(full) and not policy.wants(entry)):
                    continue
                try:
                    expect = _identity_inside(path, entry, full)
                except LeftTheRoot:
                    out.append(SubmissionSource(printable(full), role, (), (_problem(
                        full, "symbolic link out of the folder; not followed"),)))
                    continue
                out.append(load_submission(full, role, read_options, run=run, expect=expect))
        else:
            out.append(load_submission(path, role, read_options, run=run))
    return out


def _identity_inside(folder: str, entry: str, full: str) -> tuple[int, int] | None:
    """The ``(device, inode)`` of ``entry`` of ``folder``, opened beneath it (a link
    followed only inside: :class:`LeftTheRoot` otherwise), so that the entry
    walked later is the one checked here; ``None`` where it cannot be opened
    (the submission's own load names why)."""
    try:
        fd, _ = open_beneath(folder, entry, inside=True, shown=full)
    except LeftTheRoot:
        raise
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    finally:
        os.close(fd)
    return info.st_dev, info.st_ino


def folder_policy(opts: ReadOptions) -> WalkPolicy:
    """How a submission's folder is walked: links followed inside it only, hidden
    and ignored names left out, ``opts``' patterns applied (to archives' members,
    not to the archives), every path of a folder taken (only loops are cut)."""
    return WalkPolicy(links="inside", hidden=False, ignored=_IGNORED_NAMES,
                      include=opts.include, exclude=opts.exclude, unfiltered=is_archive,
                      once=False, skip_pseudo=False, text_names=False, describe=_describe,
                      special=_not_regular)


def _walk(root: str, opts: ReadOptions, run: RunBudget, files: list[SourceFile],
          problems: list[InputError], expect: tuple[int, int] | None = None) -> None:
    """The files of the folder ``root`` (and of the archives in it) and its
    problems, each in name order, depth first (the walk reports what it skips
    folder by folder: those are sorted here)."""
    found: list[tuple[list[str], list[InputError]]] = []
    for item in scan([root], folder_policy(opts), expect):
        if not isinstance(item, FileEntry):
            found.append((item.path.split(os.sep), [_problem(item.path, item.reason)]))
        elif is_archive(item.path.rsplit(os.sep, 1)[-1]):
            found.append((item.path.split(os.sep), []))
            _add_archive(item.path, item.rel + "/", opts, files, found[-1][1], run)
        else:
            files.append(_disk_file(item, opts))
    found.sort(key=lambda entry: entry[0])  # by path components: name order, depth first
    for _, its_problems in found:
        problems += its_problems


def _add_archive(
    path: str, prefix: str, opts: ReadOptions,
    files: list[SourceFile], problems: list[InputError], run: RunBudget,
) -> None:
    limits = opts.limits
    if opts.max_file_bytes is not None and opts.max_file_bytes < limits.max_member_bytes:
        limits = replace(limits, max_member_bytes=opts.max_file_bytes)
    try:
        members, member_problems = read_archive(path, limits, run)
    except ArchiveRefused as error:
        problems.append(type(error)(printable(error.path), error.reason))
        return
    problems.extend(_problem(p.path, p.reason) for p in member_problems)
    shown = printable(path)
    policy = folder_policy(opts)
    for member in sorted(members, key=lambda m: m.path):
        parts = member.path.split("/")
        if any(policy.ignores(part) for part in parts) or not opts.wants(member.path):
            continue
        files.append(
            SourceFile(printable(prefix) + member.path, f"{shown}/{member.path}", opts,
                       zlib.compress(member.data, 1), len(member.data), packed=True)
        )


def _disk_file(entry: FileEntry, opts: ReadOptions) -> SourceFile:
    """A file on disk, named printably; ``disk`` set when that changed its path;
    the walk's ``(device, inode)`` kept so that a later read opens this file only."""
    shown = printable(entry.path)
    return SourceFile(printable(entry.rel), shown, opts, size=entry.size,
                      disk=None if shown == entry.path else entry.path,
                      ident=entry.ident, nofollow=not entry.link, beneath=entry.beneath)


def _problem(path: str, reason: str) -> InputError:
    """A problem naming ``path`` printably."""
    return InputError(printable(path), reason)


def _not_regular(mode: int) -> str:
    return "not a regular file (device, FIFO or socket); skipped"


def _too_large(limit: int) -> str:
    return (f"larger than the {_mib(limit)} file budget (raise it with --max-file-size); "
            "skipped")


def _mib(size: int) -> str:
    return f"{size / (1 << 20):g} MiB"


def _describe(error: OSError) -> str:
    if isinstance(error, FileChanged | LeftTheRoot):
        return str(error.strerror)
    if isinstance(error, FileTooLarge):
        return _too_large(error.limit)
    if error.errno == errno.ELOOP:
        return "symbolic link loop"
    if error.errno == errno.EACCES:
        return "permission denied"
    if error.errno == errno.ENOENT:
        return "no such file or directory (or a broken link)"
    return error.strerror or str(error)


class _Named(Protocol):
    @property
    def location(self) -> str: ...


class _HasFiles(Protocol):
    """What :func:`dominant_frontend` reads of a submission (any submission-like object)."""

    @property
    def files(self) -> Sequence[_Named]: ...


def dominant_frontend(submissions: Sequence[_HasFiles], read_options: ReadOptions,
                      sample: int = 5000) -> str:
    """The front-end most files of a batch will get, for choosing default ``k``/``t``.

    ``read_options.frontend`` if set, ``code`` if a language is forced
    (``text`` for a prose one such as ``--lang text``), else
    the most common automatic choice by file name over up to ``sample``
    files (ties: the first seen); ``text`` for an empty batch.
    """
    from winnow.frontends import choose_frontend, is_text_lang

    if read_options.frontend:
        return read_options.frontend
    if read_options.lang:
        return "text" if is_text_lang(read_options.lang) else "code"
    counts: dict[str, int] = {}
    files = (f for sub in submissions for f in sub.files)
    for _, file in zip(range(sample), files, strict=False):
        name = choose_frontend(b"", file.location)
        counts[name] = counts.get(name, 0) + 1
    return max(counts, key=lambda name: counts[name]) if counts else "text"
