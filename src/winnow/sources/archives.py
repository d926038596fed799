"""Reading zip and tar archives safely, member by member, into memory.

Submissions arrive as archives from untrusted people, so nothing is ever
written to disk and every member is checked before it is read:

* names that are absolute (``/x``, ``C:\\x``) or climb out (``../x``) are refused;
* encrypted zip members are skipped (no password is ever asked for);
* a second member with the same normalised path is skipped (the first is kept);
* symbolic and hard links, devices and FIFOs are refused (a link could point
  out of the archive); for tar, :func:`tarfile.data_filter` (PEP 706) is applied
  as well, so anything it rejects is refused too;
* size limits stop decompression bombs: the number of members, the size of one
  member and the total size are counted on the bytes actually decompressed,
  never trusted from headers; directory entries count as members.  In a tar
  every member's data is decompressed (read or skipped over), so a member too
  large to read still counts its size against the total, and a sparse member
  read counts its holes too (they become zeros in memory);
* a :class:`RunBudget` shared by every archive of a run caps what all of them
  together expand to (an archive that would pass it is refused whole).

The format is read from the content, not the name.  Member names that are not
UTF-8 are kept with the odd bytes written as ``\\xNN``.

A refused member becomes a problem naming ``archive/member`` and the rest of
the archive is still read; an archive that is corrupt or over a limit is
refused whole with one problem naming it.  Problems are
:class:`~winnow.errors.InputError` values, collected rather than raised.
"""

from __future__ import annotations

import lzma
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import IO, Final

from winnow.errors import ArchiveRefused, InputError
from winnow.fileio import printable

#: File-name endings read as archives (lower-cased comparison).
ARCHIVE_SUFFIXES: Final = (
    ".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz",
)

_CHUNK: Final = 1 << 20

#: What corrupt or unsupported archive data raises from the standard library's
#: readers and decompressors (zlib, bz2 and lzma errors are not all OSErrors).
_CORRUPT: Final = (
    OSError, EOFError, ValueError, NotImplementedError, zipfile.BadZipFile,
    tarfile.TarError, zlib.error, lzma.LZMAError,
)


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    """Limits against archive bombs; a member or archive over one is refused."""

    max_members: int = 20_000
    max_member_bytes: int = 64 << 20
    max_total_bytes: int = 512 << 20
    max_run_bytes: int = 2 << 30  #: every archive of a run together (:class:`RunBudget`)


class RunBudget:
    """Decompressed bytes kept from every archive of one run, against
    :attr:`ArchiveLimits.max_run_bytes` (one instance per run, shared)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0


@dataclass(frozen=True, slots=True)
class Member:
    """One regular file read from an archive: its safe relative path and bytes."""

    path: str
    data: bytes
    where: str = ""  #: ``archive/member`` as stored, for messages


def is_archive(name: str) -> bool:
    """Whether ``name`` ends like an archive winnow reads (by name only)."""
    lower = name.lower()
    return lower.endswith(ARCHIVE_SUFFIXES)


def safe_member_path(name: str) -> str | None:
    """The member's path, normalised to ``a/b/c``, or ``None`` if it is unsafe.

    Unsafe: absolute (``/``, ``\\`` or a drive letter), containing ``..``,
    empty, or containing a NUL.  ``.`` components are dropped.
    """
    if not name or "\0" in name:
        return None
    cleaned = name.replace("\\", "/")
    if cleaned.startswith("/") or (len(cleaned) > 1 and cleaned[1] == ":"):
        return None
    parts = [part for part in PurePosixPath(cleaned).parts if part not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


def read_archive(
    path: str, limits: ArchiveLimits = ArchiveLimits(), run: RunBudget | None = None,
) -> tuple[list[Member], list[InputError]]:
    """All regular files of the archive at ``path`` and the problems met.

    The format is read from the content (a ``.zip`` that is really a tar is
    read as a tar), the name only deciding which format is tried first.
    Raises :class:`ArchiveRefused` when the archive as a whole cannot be used
    (its bytes are then given back to ``run``).
    """
    budget = _Budget(path, limits, run)
    try:
        return _read(path, budget)
    except ArchiveRefused:
        budget.refund()
        raise


def _read(path: str, budget: _Budget) -> tuple[list[Member], list[InputError]]:
    try:
        zip_first = path.lower().endswith(".zip")
        if zip_first and zipfile.is_zipfile(path):
            return _collect(_zip_members(path, budget))
        if tarfile.is_tarfile(path):
            return _collect(_tar_members(path, budget))
        if not zip_first and zipfile.is_zipfile(path):
            return _collect(_zip_members(path, budget))
        raise ArchiveRefused(path, "neither a zip nor a tar archive (corrupt or truncated?)")
    except ArchiveRefused:
        raise
    except _CORRUPT as error:
        raise ArchiveRefused(path, f"cannot read archive: {error}") from error


def _printable_or_none(name: str | None) -> str | None:
    return None if name is None else printable(name)


def _collect(
    items: Iterator[Member | InputError],
) -> tuple[list[Member], list[InputError]]:
    """Members and problems apart; a second member with the same (normalised)
    path is a problem, the first one is kept."""
    members: dict[str, Member] = {}
    problems: list[InputError] = []
    for item in items:
        if isinstance(item, InputError):
            problems.append(item)
        elif item.path in members:
            problems.append(InputError(item.where, "duplicate member path; first copy kept"))
        else:
            members[item.path] = item
    return list(members.values()), problems


class _Budget:
    """Counts members and decompressed bytes against :class:`ArchiveLimits`."""

    def __init__(self, archive: str, limits: ArchiveLimits, run: RunBudget | None) -> None:
        self.archive = archive
        self.limits = limits
        self.run = run
        self.members = 0
        self.total = 0
        self.kept = 0  #: bytes charged to ``run``

    def refund(self) -> None:
        """Give this archive's bytes back to the run (the archive was refused)."""
        if self.run is not None:
            self.run.used -= self.kept
            self.kept = 0

    def keep(self, size: int) -> None:
        """Count ``size`` bytes held in memory against the run's budget."""
        if self.run is None:
            return
        self.kept += size
        self.run.used += size
        if self.run.used > self.run.limit:
            raise ArchiveRefused(
                self.archive,
                f"the run's archives together expand to more than {self.run.limit} "
                "bytes (refused)",
            )

    def admit(self) -> None:
        self.members += 1
        if self.members > self.limits.max_members:
            raise ArchiveRefused(
                self.archive, f"more than {self.limits.max_members} members (refused)"
            )

    def charge(self, size: int) -> None:
        """Count ``size`` more decompressed bytes; refuse the archive past the limit."""
        self.total += size
        if self.total > self.limits.max_total_bytes:
            raise ArchiveRefused(
                self.archive,
                f"more than {self.limits.max_total_bytes} bytes uncompressed (refused)",
            )

    def read(self, stream: IO[bytes], member: str, charged: bool = False) -> bytes | InputError:
        """Read a member in chunks, stopping as soon as a limit is passed
        (``charged``: its bytes were already counted against the total)."""
        chunks: list[bytes] = []
        size = 0
        while chunk := stream.read(_CHUNK):
            size += len(chunk)
            if not charged:
                self.charge(len(chunk))
            if size > self.limits.max_member_bytes:
                self.keep(len(chunk) - size)  # not kept after all
                return InputError(
                    f"{self.archive}/{member}",
                    f"larger than {self.limits.max_member_bytes} bytes (skipped)",
                )
            self.keep(len(chunk))
            chunks.append(chunk)
        return b"".join(chunks)


def _zip_members(path: str, budget: _Budget) -> Iterator[Member | InputError]:
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            budget.admit()  # directories count too: millions of them are a bomb as well
            if info.is_dir():
                continue
            where = f"{path}/{printable(info.filename)}"
            safe = _printable_or_none(safe_member_path(info.filename))
            if safe is None:
                yield InputError(where, "unsafe member path (absolute or '..'); refused")
                continue
            mode = info.external_attr >> 16  # Unix mode, when the creator recorded one
            if stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                kind = "symbolic link" if stat.S_ISLNK(mode) else "special file"
                yield InputError(where, f"{kind} in archive; refused")
                continue
            if info.flag_bits & 0x1:
                yield InputError(where, "encrypted member (password needed); skipped")
                continue
            try:
                with archive.open(info) as stream:
                    data = budget.read(stream, safe)
            except _CORRUPT as error:
                yield InputError(where, f"cannot read member: {error}")
                continue
            yield data if isinstance(data, InputError) else Member(safe, data, where)


def _stored_size(info: tarfile.TarInfo) -> int:
    """Bytes of data the tar stream holds for ``info`` (a sparse member stores
    only its data chunks)."""
    if not info.isreg():
        return 0
    sparse = getattr(info, "sparse", None)
    return sum(size for _, size in sparse) if sparse else info.size


def _tar_members(path: str, budget: _Budget) -> Iterator[Member | InputError]:
    with tarfile.open(path, mode="r:*") as archive:
        for info in archive:
            budget.admit()  # directories count too: millions of them are a bomb as well
            # A compressed tar is one stream: every member's data is decompressed,
            # read or skipped over, so all of it counts (a bomb of skipped members).
            budget.charge(_stored_size(info))
            if info.isdir():
                continue
            where = f"{path}/{printable(info.name)}"
            safe = _printable_or_none(safe_member_path(info.name))
            if safe is None:
                yield InputError(where, "unsafe member path (absolute or '..'); refused")
                continue
            if not info.isfile():
                kind = "link" if info.issym() or info.islnk() else "special file"
                yield InputError(where, f"{kind} in archive; refused")
                continue
            try:
                tarfile.data_filter(info, "/nonexistent-winnow-destination")
            except tarfile.FilterError as error:
                yield InputError(where, f"refused by tar data filter: {error}")
                continue
            if info.size > budget.limits.max_member_bytes:
                yield InputError(where, f"larger than {budget.limits.max_member_bytes} bytes "
                                        "(skipped)")
                continue
            # a sparse member's holes are not in the stream but are read as zeros
            budget.charge(info.size - _stored_size(info))
            stream = archive.extractfile(info)
            if stream is None:
                yield InputError(where, "cannot read member")
                continue
            with stream:
                data = budget.read(stream, safe, charged=True)
            yield data if isinstance(data, InputError) else Member(safe, data, where)
