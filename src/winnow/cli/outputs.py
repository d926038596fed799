"""Where results go: every output path checked before the work, written whole at the end.

Each command calls :func:`check_outputs` first, with the paths it will write
(``-o FILE``, ``--report``), the paths it reads and its index.  A target that
is one of the inputs (the same file, through any link, or a file inside an
input folder, existing or not: it would become input of the next run), the
index, a file the index holds (``dedup-files`` acts on them: ``indexed``), or
another target is refused as a usage error
(exit 2) before anything is read; one that cannot be written (its folder is
missing or read-only, it is a folder) fails with exit 3, also before the work.
The result itself is written by :func:`winnow.cli.common.output` through
:mod:`winnow.outputs`: a temporary file beside the target, renamed over it at
the end, so a failed run never leaves a target emptied.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import click

from winnow.errors import OutputError

PathLike = str | os.PathLike[str]


def _identity(path: PathLike) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def _inside(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip(os.sep) + os.sep)


class _Input:
    """One input path, resolved once."""

    def __init__(self, path: PathLike) -> None:
        self.name = os.fspath(path)
        self.real = os.path.realpath(path)
        self.identity = _identity(path)
        self.folder = os.path.isdir(self.real)


def _index_clash(target: Path, real: str, index: PathLike | None) -> str | None:
    if index is None:
        return None
    index_real = os.path.realpath(index)
    same = _identity(target) is not None and _identity(target) == _identity(index)
    if same or real in (index_real, index_real + ".wal", index_real + ".compact"):
        return f"it is the index {os.fspath(index)!r}"
    return None


def _input_clash(target: Path, real: str, inputs: Sequence[_Input]) -> str | None:
    identity = _identity(target)
    for item in inputs:
        if identity is not None and identity == item.identity:
            return f"it is the input {item.name!r}"
        if item.folder and _inside(real, item.real):
            return f"it is inside the input folder {item.name!r}"
    return None


def _indexed_clash(target: Path, real: str,
                   indexed: Callable[[Sequence[str]], str | None] | None) -> str | None:
    if indexed is None:
        return None
    found = indexed(sorted({os.path.abspath(target), real}))
    return None if found is None else f"it is the indexed file {found!r}"


def _writable_file(target: Path) -> None:
    """Raise :class:`OutputError` unless ``target`` can be created or replaced."""
    if target.is_dir():
        raise OutputError(str(target), "is a folder (give a file name)")
    if target.exists() and not target.is_file():  # /dev/null, a FIFO: written in place
        if not os.access(target, os.W_OK):
            raise OutputError(str(target), "not writable")
        return
    folder = Path(os.path.realpath(target)).parent
    if not folder.is_dir():
        raise OutputError(str(target), "its folder does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(str(target), "its folder is not writable")
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(str(target), "not writable")


def _writable_folder(target: Path) -> None:
    """Raise :class:`OutputError` unless a report folder can be made at ``target``."""
    existing = Path(os.path.realpath(target))
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(str(target), f"{existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(str(target), f"{existing} is not writable")


def report_files(report: Path) -> tuple[list[Path], Path | None]:
    """The files a report at ``report`` writes, and the folder whose pages it replaces."""
    from winnow.reports.html import is_single_file

    if is_single_file(report):
        return [report], None
    return [report / "index.html"], report / "pairs"


def check_outputs(outputs: Iterable[Path | None], *, inputs: Iterable[PathLike] = (),
                  index: PathLike | None = None, report: Path | None = None,
                  indexed: Callable[[Sequence[str]], str | None] | None = None) -> None:
    """Refuse, before any work, outputs that would overwrite what the run reads.

    ``outputs`` are ``-o`` targets (``None``: standard output), ``report`` a
    ``--report`` path (a file or a folder); ``indexed(paths)`` names the one
    of ``paths`` (a target as given and as resolved) that the index holds.
    Raises :class:`click.UsageError` (exit 2) for a target that is an input,
    inside an input folder, the index, an indexed file or another target, and
    :class:`OutputError` (exit 3) for one that cannot be written.
    """
    files = list(outputs)
    if any(target is None for target in files) and sys.stdout is None:
        raise OutputError("standard output", "closed (give -o FILE)")
    targets = [target for target in files if target is not None]
    pages: Path | None = None
    if report is not None:
        report_pages, pages = report_files(report)
        targets += report_pages
    resolved = [_Input(path) for path in inputs]
    seen: dict[str, Path] = {} if pages is None else {os.path.realpath(pages.parent): pages.parent}
    for target in targets:
        real = os.path.realpath(target)
        clash = (_index_clash(target, real, index) or _input_clash(target, real, resolved)
                 or _indexed_clash(target, real, indexed))
        if clash is None and real in seen:
            clash = f"it is also the target of another output ({seen[real]})"
        if clash is not None:
            raise click.UsageError(f"refusing to write {os.fspath(target)!r}: {clash}")
        seen[real] = target
    if pages is not None:
        _check_pages(pages, resolved)
        _writable_folder(pages.parent)
    for target in targets:
        if pages is None or target.parent != pages.parent:
            _writable_file(target)


def _check_pages(pages: Path, inputs: Sequence[_Input]) -> None:
    """A report folder replaces its ``pairs/pair-N.html`` pages: none may be an input,
    and the folder may not lie inside an input folder (its pages would become input)."""
    folder, pages_real = os.path.realpath(pages.parent), os.path.realpath(pages)
    for item in inputs:
        if item.folder and (folder == item.real or _inside(folder, item.real)):
            clash = f"it is inside the input folder {item.name!r}"
        elif item.real == pages_real or _inside(item.real, pages_real):
            clash = f"its pages folder holds the input {item.name!r}"
        else:
            continue
        raise click.UsageError(f"refusing to write the report {os.fspath(pages.parent)!r}: "
                               f"{clash}")
