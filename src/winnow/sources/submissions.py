"""Submissions: what the user names on the command line, turned into files.

A *submission* is one PATH: a single file, a folder (all its files, MOSS
``-d``) or a zip/tar archive (read safely, see :mod:`winnow.sources.archives`).
With ``each=True`` every entry of a folder is one submission (the common
"one folder per student" layout).  Submissions are named exactly as the user
gave them; their files by their path inside the submission (``/``-separated).

Walking never loops: directories are identified by ``(device, inode)`` and a
directory already on the way down is not entered again.  Symbolic links are
followed only when they point inside the submission, so a submission cannot
pull other files of the machine (``/etc/passwd``) into a report.  Anything that cannot
be used (unreadable, broken link, corrupt archive, empty submission ...)
becomes an :class:`~winnow.errors.InputError` in the submission's
``problems``; nothing here raises for one bad input.

Reading a file later opens exactly the file the walk listed: the open does
not follow a link where the walk saw none (``O_NOFOLLOW``) and the opened
file's ``(device, inode)`` must be the walk's, so a file swapped for a link
to a host file during a run is refused, not read.  A file over
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
import fnmatch
import os
import stat
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from winnow.errors import ArchiveRefused, InputError
from winnow.fileio import (
    DEFAULT_MAX_FILE_BYTES,
    FileChanged,
    FileTooLarge,
    printable,
    read_regular,
)
from winnow.frontends.options import FrontEndOptions
from winnow.model import Document, Role
from winnow.sources.archives import ArchiveLimits, RunBudget, is_archive, read_archive

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
        base = path.rsplit("/", 1)[-1]

        def hit(patterns: tuple[str, ...]) -> bool:
            return any(fnmatch.fnmatch(path, p) or fnmatch.fnmatch(base, p) for p in patterns)

        return (not self.include or hit(self.include)) and not hit(self.exclude)


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

    def read(self) -> bytes:
        """The file's bytes, or an :class:`InputError` saying why not."""
        limit = self.read_options.max_file_bytes
        if limit is not None and self.size > limit:
            raise InputError(self.location, _too_large(limit))
        if self.data is not None:
            return zlib.decompress(self.data) if self.packed else self.data
        try:
            return read_regular(self.disk or self.location, max_bytes=limit,
                                nofollow=self.nofollow, expect=self.ident)
        except OSError as error:
            raise InputError(self.location, _describe(error)) from error

    def document(self) -> Document:
        """Read and normalise the file with the configured front-end."""
        from winnow.frontends import make_document

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
) -> SubmissionSource:
    """The submission at ``path`` (file, folder or archive), named ``name or path``;
    its archives charge ``run`` (default: a budget of its own)."""
    opts = read_options or ReadOptions()
    run = run or RunBudget(opts.limits.max_run_bytes)
    label = printable(name or path)
    files: list[SourceFile] = []
    problems: list[InputError] = []
    try:
        info = os.stat(path)
    except OSError as error:
        return SubmissionSource(label, role, (), (_problem(path, _describe(error)),))
    if os.path.isdir(path):
        top = os.path.realpath(path)
        for item in _walk(path, "", opts, {(info.st_dev, info.st_ino)}, top, run):
            (files if isinstance(item, SourceFile) else problems).append(item)  # type: ignore[arg-type]
    elif not stat.S_ISREG(info.st_mode):
        problems.append(_problem(path, "not a regular file (device, FIFO or socket); skipped"))
    elif is_archive(path):
        _add_archive(path, "", opts, files, problems, run)
    else:
        files.append(_disk_file(os.path.basename(path) or path, path, opts, info,
                                os.path.islink(path)))
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
            opts = read_options or ReadOptions()
            top = os.path.realpath(path)
            for entry in entries:
                full = os.path.join(path, entry)
                if _ignored(entry) or (os.path.isfile(full) and not is_archive(entry)
                                       and not opts.wants(entry)):
                    continue
                if _links_out(full, top):
                    out.append(SubmissionSource(printable(full), role, (), (_problem(
                        full, "symbolic link out of the folder; not followed"),)))
                    continue
                out.append(load_submission(full, role, read_options, run=run))
        else:
            out.append(load_submission(path, role, read_options, run=run))
    return out


_Level = tuple[Iterator[os.DirEntry[str]], str, frozenset[tuple[int, int]]]


def _walk(
    root: str, prefix: str, opts: ReadOptions, ancestors: set[tuple[int, int]], top: str,
    run: RunBudget,
) -> Iterator[SourceFile | InputError]:
    """Files under ``root`` in name order, following links that stay inside the
    submission (whose real path is ``top``) but never a loop.  Iterative: a
    tree nested thousands of folders deep is walked like any other."""
    listing = _listing(root)
    if isinstance(listing, InputError):
        yield listing
        return
    stack: list[_Level] = [(iter(listing), prefix, frozenset(ancestors))]
    while stack:
        entries, prefix, above = stack[-1]
        entry = next(entries, None)
        if entry is None:
            stack.pop()
            continue
        if _ignored(entry.name):
            continue
        rel = f"{prefix}{entry.name}"
        try:
            info = os.stat(entry.path)
        except OSError as error:
            yield _problem(entry.path, _describe(error))
            continue
        if entry.is_symlink() and os.path.commonpath(
                [top, os.path.realpath(entry.path)]) != top:
            yield _problem(entry.path, "symbolic link out of the submission; not followed")
        elif stat.S_ISDIR(info.st_mode):
            key = (info.st_dev, info.st_ino)
            inner = None if key in above else _listing(entry.path)
            if inner is None:
                yield _problem(entry.path, "symbolic link loop; not followed")
            elif isinstance(inner, InputError):
                yield inner
            else:
                stack.append((iter(inner), rel + "/", above | {key}))
        else:
            yield from _file(entry, rel, info, opts, run)


def _listing(folder: str) -> list[os.DirEntry[str]] | InputError:
    """The entries of ``folder`` in name order, or the problem reading it."""
    try:
        return sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError as error:
        return _problem(folder, _describe(error))


def _file(entry: os.DirEntry[str], rel: str, info: os.stat_result,
          opts: ReadOptions, run: RunBudget) -> Iterator[SourceFile | InputError]:
    """One non-folder entry of a walk: a file, an archive's files, or a problem."""
    if not stat.S_ISREG(info.st_mode):
        yield _problem(entry.path, "not a regular file (device, FIFO or socket); skipped")
    elif is_archive(entry.name):
        files: list[SourceFile] = []
        problems: list[InputError] = []
        _add_archive(entry.path, rel + "/", opts, files, problems, run)
        yield from problems
        yield from files
    elif opts.wants(rel):
        yield _disk_file(rel, entry.path, opts, info, entry.is_symlink())


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
    for member in sorted(members, key=lambda m: m.path):
        parts = member.path.split("/")
        if any(_ignored(part) for part in parts) or not opts.wants(member.path):
            continue
        files.append(
            SourceFile(printable(prefix) + member.path, f"{shown}/{member.path}", opts,
                       zlib.compress(member.data, 1), len(member.data), packed=True)
        )


def _links_out(path: str, top: str) -> bool:
    """Whether ``path`` is a symbolic link whose target is not under ``top``."""
    return os.path.islink(path) and os.path.commonpath(
        [top, os.path.realpath(path)]) != top


def _disk_file(rel: str, path: str, opts: ReadOptions, info: os.stat_result,
               link: bool) -> SourceFile:
    """A file on disk, named printably; ``disk`` set when that changed its path;
    the walk's ``(device, inode)`` kept so that a later read opens this file only."""
    shown = printable(path)
    return SourceFile(printable(rel), shown, opts, size=info.st_size,
                      disk=None if shown == path else path,
                      ident=(info.st_dev, info.st_ino), nofollow=not link)


def _problem(path: str, reason: str) -> InputError:
    """A problem naming ``path`` printably."""
    return InputError(printable(path), reason)


def _ignored(name: str) -> bool:
    return name.startswith(".") or name in _IGNORED_NAMES


def _too_large(limit: int) -> str:
    return (f"larger than the {_mib(limit)} file budget (raise it with --max-file-size); "
            "skipped")


def _mib(size: int) -> str:
    return f"{size / (1 << 20):g} MiB"


def _describe(error: OSError) -> str:
    if isinstance(error, FileChanged):
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
