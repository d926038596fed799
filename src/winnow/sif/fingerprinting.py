"""Reading and fingerprinting one file for the index (runs in worker processes).

Each file is read once: its bytes give the strong checksum (BLAKE2b-128, for
sif's exact-equality test, section 3), the text-or-binary verdict (sif keeps
the two apart, section 4) and the fingerprints, made with the index's
:class:`~winnow.index.params.IndexParams`.  Positions are stored as byte
offsets into the file whatever the front-end.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.engine import fingerprint
from winnow.errors import InputError
from winnow.fileio import open_regular, read_regular
from winnow.frontends.sniff import sniff
from winnow.index.params import IndexParams
from winnow.index.store import NewDocument
from winnow.model import Kind, Skipped
from winnow.sources.walk import FileEntry, describe_error


@dataclass(frozen=True)
class Unchanged:
    """A file whose mtime moved but whose checksum did not: no new fingerprints."""

    path: str
    mtime_ns: int
    size: int


Outcome = NewDocument | Unchanged | Skipped


def checksum(data: bytes) -> str:
    """The strong checksum stored for exact equality: hex BLAKE2b, 128 bits."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(frozen=True)
class Fingerprinted:
    """One document's fingerprints under some parameters."""

    kind: Kind
    frontend: str
    hashes: npt.NDArray[np.int64]
    positions: npt.NDArray[np.int64]


def fingerprint_data(data: bytes, name: str, params: IndexParams, *,
                     short: bool = False) -> Fingerprinted:
    """Fingerprint bytes the way the index does (also used for queries).

    ``bytes`` hashes the raw bytes (sif's way); any other front-end goes
    through :func:`winnow.frontends.make_document` (``auto`` picks per file).
    Hashes are the engine's unsigned 64-bit values shifted right by
    ``params.hash_shift`` (sif's zero low bits) and reinterpreted as int64.
    ``short``: one file on its own (a query), fingerprinted by
    :func:`winnow.engine.vectorised.fingerprint_short` where it can (the
    same fingerprints, without loading the compiled kernels).
    """
    if params.frontend == "bytes":
        kind = sniff(data).kind
        units = np.frombuffer(data, dtype=np.uint8)
        if short:
            from winnow.engine.vectorised import fingerprint_short

            selected = fingerprint_short(units, params.config)
        else:
            selected = fingerprint(units, params.config)
        positions = np.asarray(selected["pos"], dtype=np.int64)
        frontend = "bytes"
    else:
        from winnow.frontends import make_document
        from winnow.frontends.options import FrontEndOptions

        document = make_document(
            data, name, frontend=None if params.frontend == "auto" else params.frontend,
            options=FrontEndOptions(**params.frontend_options))
        kind, frontend = document.kind, document.frontend
        selected = fingerprint(document.stream.units, params.config)
        positions = np.asarray(document.stream.starts, dtype=np.int64)[selected["pos"]]
    hashes = (np.asarray(selected["hash"], dtype=np.uint64) >> np.uint64(params.hash_shift))
    return Fingerprinted(kind, frontend, hashes.view(np.int64), positions)


#: Files larger than this are checksummed (streaming) but not fingerprinted:
#: the engine holds eight bytes of hash per input byte.
MAX_FINGERPRINT_BYTES = 64 << 20

_EMPTY = np.zeros(0, dtype=np.int64)


def _large_file(entry: FileEntry) -> NewDocument:
    """A file too large to fingerprint: streamed checksum and type only, so
    identical copies are still found (sif's exact-equality half)."""
    digest = hashlib.blake2b(digest_size=16)
    size = 0
    with open_regular(entry.path, nofollow=not entry.link, expect=entry.ident,
                      beneath=entry.beneath) as handle:
        head = handle.read(1 << 16) or b""
        chunk = head
        while chunk:
            digest.update(chunk)
            size += len(chunk)
            chunk = handle.read(1 << 20) or b""
    return NewDocument(path=entry.path, size=size, mtime_ns=entry.mtime_ns,
                       checksum=digest.hexdigest(), kind=sniff(head).kind,
                       frontend=None, hashes=_EMPTY, positions=_EMPTY)


def process_file(entry: FileEntry, params: IndexParams, known_checksum: str | None,
                 max_bytes: int = MAX_FINGERPRINT_BYTES) -> Outcome:
    """Read, checksum and (unless the checksum is ``known_checksum``) fingerprint.

    A file over ``max_bytes`` is only checksummed (see :func:`_large_file`).
    """
    try:
        if entry.size > max_bytes:
            large = _large_file(entry)
            if large.checksum == known_checksum:
                return Unchanged(entry.path, entry.mtime_ns, large.size)
            return large
        data = read_regular(entry.path, nofollow=not entry.link, expect=entry.ident,
                            beneath=entry.beneath)
    except OSError as error:
        return Skipped(entry.path, describe_error(error))
    digest = checksum(data)
    if digest == known_checksum:
        return Unchanged(entry.path, entry.mtime_ns, len(data))
    try:
        result = fingerprint_data(data, entry.path, params)
    except InputError as error:  # content no front-end could process
        return Skipped(entry.path, error.reason)
    except MemoryError:  # past the worker's memory cap (winnow.parallel)
        return Skipped(entry.path, "out of memory while fingerprinting; skipped")
    return NewDocument(
        path=entry.path, size=len(data), mtime_ns=entry.mtime_ns, checksum=digest,
        kind=result.kind, frontend=result.frontend, hashes=result.hashes,
        positions=result.positions,
    )


def process_batch(batch: list[tuple[FileEntry, str | None]], params: IndexParams,
                  max_bytes: int = MAX_FINGERPRINT_BYTES) -> list[Outcome]:
    """:func:`process_file` over a batch (one task for a worker process)."""
    return [process_file(entry, params, known, max_bytes) for entry, known in batch]
