"""Fingerprinting the files of a batch, in parallel, into one table of arrays.

The input is any sequence of submissions shaped like
:class:`winnow.sources.submissions.SubmissionSource` (see :class:`SubmissionLike`):
matching does not import the sources; it only calls ``file.document()``.
Worker processes return numpy arrays only, never documents, so the memory a
batch needs is its fingerprints (16 bytes each), not its text.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.engine import fingerprint
from winnow.errors import InputError, WinnowError
from winnow.model import Document

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

#: ``progress(stage, done, total)``: called as work advances ("fingerprint", "passages").
Progress = Callable[[str, int, int], None]

T = TypeVar("T")
R = TypeVar("R")


class FileLike(Protocol):
    """A file of a submission: its path inside it, a name for messages, its document."""

    @property
    def path(self) -> str: ...

    @property
    def location(self) -> str: ...

    def document(self) -> Document: ...


class SubmissionLike(Protocol):
    """A submission: its name, role (``new``/``archive``/``base``), files, problems."""

    @property
    def name(self) -> str: ...

    @property
    def role(self) -> str: ...

    @property
    def files(self) -> Sequence[FileLike]: ...

    @property
    def problems(self) -> Sequence[InputError]: ...


@dataclass(frozen=True)
class FilePrints:
    """One file's fingerprints and sizes (what a worker sends back)."""

    hashes: U64
    positions: I64
    units: int
    size: int
    warnings: tuple[str, ...]


def fingerprint_file(
    file: FileLike, config: WinnowConfig, allow_binary: bool
) -> FilePrints | InputError:
    """Fingerprint one file, or say why it is skipped (never raises for bad input)."""
    try:
        doc = file.document()
    except WinnowError as error:
        return error if isinstance(error, InputError) else InputError(file.location, str(error))
    except (OSError, ValueError, UnicodeError) as error:
        return InputError(file.location, f"cannot read: {error}")
    if doc.kind == "binary" and not allow_binary:
        return InputError(file.location, "binary file in a code submission (skipped)")
    if len(doc.stream) == 0:
        return InputError(file.location, "empty after normalisation (skipped)")
    prints = fingerprint(doc.stream.units, config)
    return FilePrints(
        np.ascontiguousarray(prints["hash"], dtype=np.uint64),
        np.ascontiguousarray(prints["pos"], dtype=np.int64),
        len(doc.stream), len(doc.data), tuple(doc.warnings),
    )


def load_document(file: FileLike) -> Document | InputError:
    """``file.document()``, with errors returned instead of raised."""
    try:
        return file.document()
    except WinnowError as error:
        return InputError(file.location, str(error))
    except (OSError, ValueError, UnicodeError) as error:
        return InputError(file.location, f"cannot read: {error}")


def parallel_map(
    func: Callable[[T], R], items: Sequence[T], *, jobs: int, stage: str,
    progress: Progress | None, executor: Executor | None = None,
) -> Iterator[R]:
    """``map(func, items)`` in order, on ``jobs`` processes (``1`` = here, ``0`` = all
    cores) or on ``executor``, reporting progress per item."""
    total = len(items)
    done = 0
    results: Iterable[R]
    pool: Executor | None = None
    if executor is not None:
        results = executor.map(func, items, chunksize=_chunk(total, 4))
    elif _workers(jobs) > 1 and total > 1:
        workers = min(_workers(jobs), total)
        context = get_context("forkserver")
        context.set_forkserver_preload(["winnow.matching.prints"])
        pool = ProcessPoolExecutor(workers, mp_context=context)
        results = pool.map(func, items, chunksize=_chunk(total, workers))
    else:
        results = map(func, items)
    try:
        for result in results:
            done += 1
            if progress is not None:
                progress(stage, done, total)
            yield result
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def _workers(jobs: int) -> int:
    return (os.cpu_count() or 1) if jobs <= 0 else jobs


def _chunk(total: int, workers: int) -> int:
    return max(1, min(64, total // (workers * 8) or 1))
