"""Fingerprinting the files of a batch, in parallel, into one table of arrays.

The input is any sequence of submissions shaped like
:class:`winnow.sources.submissions.SubmissionSource` (see :class:`SubmissionLike`):
matching does not import the sources; it only calls ``file.document()``.
Worker processes return numpy arrays only, never documents, so the memory a
batch needs is its distinct fingerprints (8 bytes each), not its text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.engine import fingerprint
from winnow.engine.selection import winnow_unit_hashes
from winnow.engine.selectors import RobustWinnowing, Winnowing, selector_for
from winnow.errors import InputError, WinnowError
from winnow.matching.base import in_base
from winnow.model import Document, Role, Skipped

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
_NONE: U64 = np.zeros(0, dtype=np.uint64)

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
    def role(self) -> Role: ...

    @property
    def files(self) -> Sequence[FileLike]: ...

    @property
    def problems(self) -> Sequence[InputError]: ...


@dataclass(frozen=True)
class FilePrints:
    """One file's distinct fingerprint hashes (sorted) and sizes (what a worker
    sends back), and its document when the caller asked to keep it."""

    hashes: U64
    units: int
    size: int
    warnings: tuple[str, ...]
    document: Document | None = None
    #: Per hash: not a k-gram of the base code (``None``: none is).
    own: npt.NDArray[np.bool_] | None = None
    #: The front-end the file got.
    frontend: str = ""


def document_prints(doc: Document, config: WinnowConfig,
                    literal_config: WinnowConfig | None = None) -> npt.NDArray[np.void]:
    """The fingerprints ``(hash, pos)`` of a document, in both channels.

    With ``literal_config``, a stream that has literal units (code) is also
    fingerprinted with literals kept, and both sets are returned as one: their
    positions index the same units, and k-grams of different lengths never
    share a hash, so the second channel only adds evidence.
    """
    return prints_with_lengths(doc, config, literal_config)[0]


def prints_with_lengths(doc: Document, config: WinnowConfig,
                        literal_config: WinnowConfig | None = None
                        ) -> tuple[npt.NDArray[np.void], I64, int | None]:
    """:func:`document_prints`; per fingerprint, the length in units of its
    k-gram (``k`` of its channel), so that a passage can tell which
    fingerprints lie wholly inside it; and the index of the first literal
    fingerprint (the main channel's come first; ``None``: one channel)."""
    prints = fingerprint(doc.stream.units, config)
    lengths = np.full(prints.shape[0], config.k, dtype=np.int64)
    literals = doc.stream.literal_units
    if literal_config is None or literals is None:
        return prints, lengths, None
    extra = fingerprint(literals, literal_config)
    first = prints.shape[0]
    return (np.concatenate([prints, extra]),
            np.concatenate([lengths, np.full(extra.shape[0], literal_config.k, np.int64)]),
            first)


def fingerprint_file(
    file: FileLike, config: WinnowConfig, allow_binary: bool, keep_document: bool = False,
    literal_config: WinnowConfig | None = None, base: U64 | None = None,
    configs: Mapping[str, tuple[WinnowConfig, WinnowConfig | None]] | None = None,
) -> FilePrints | Skipped:
    """Fingerprint one file (:func:`document_prints`), or say why it is skipped
    (never raises for bad input).

    An empty file (or one left empty by its front-end) is not skipped: it
    simply has no fingerprints, and the front-end's warning says so.
    ``configs`` maps a front-end to the ``(config, literal_config)`` of its
    files (others use ``config`` and ``literal_config``).
    """
    try:
        doc = file.document()
    except WinnowError as error:
        return _skipped(file, error)
    except (OSError, ValueError, UnicodeError) as error:
        return Skipped(file.location, f"cannot read: {error}")
    if doc.kind == "binary" and not allow_binary:
        hint = "".join(f"; {w}" for w in doc.warnings if "pip install" in w)  # no extra
        return Skipped(file.location, f"binary file in a code submission (skipped){hint}")
    if configs is not None and doc.frontend in configs:  # the front-end's own k and t
        config, literal_config = configs[doc.frontend]
    try:
        hashes = document_hashes(doc, config, literal_config)
    except MemoryError:  # past the worker's memory cap (winnow.parallel)
        return Skipped(file.location, "out of memory while fingerprinting; skipped")
    own = None if base is None or base.shape[0] == 0 else ~in_base(hashes, base)
    return FilePrints(hashes, len(doc.stream), len(doc.data), tuple(doc.warnings),
                      doc if keep_document else None, own, doc.frontend)


def document_hashes(doc: Document, config: WinnowConfig,
                    literal_config: WinnowConfig | None = None) -> U64:
    """The distinct hashes of :func:`document_prints`, sorted (what a worker
    keeps of a file), without its positions and per-channel lengths."""
    from winnow.matching._prints_kernels import sorted_distinct

    main = _channel_hashes(doc.stream.units, config)
    literals = doc.stream.literal_units
    if literal_config is None or literals is None:
        extra = _NONE
    else:
        extra = _channel_hashes(literals, literal_config)
    out: U64 = sorted_distinct(main, extra)
    return out


def _channel_hashes(units: npt.NDArray[np.integer], config: WinnowConfig) -> U64:
    """``fingerprint(units, config)["hash"]``, contiguous; for (robust)
    winnowing without building the ``(hash, pos)`` array."""
    chosen = selector_for(config)
    if isinstance(chosen, Winnowing) and type(chosen) in (Winnowing, RobustWinnowing):
        return winnow_unit_hashes(units, config.k, chosen.w, robust=chosen.robust,
                                  seed=config.seed)
    return np.ascontiguousarray(fingerprint(units, config)["hash"])


def distinct(hashes: npt.NDArray[np.uint64]) -> U64:
    """The sorted distinct values (``np.unique`` hashes 64-bit integers first,
    about ten times slower on a file's few thousand fingerprints)."""
    out = np.sort(hashes).astype(np.uint64, copy=False)
    if out.shape[0] < 2:
        return out
    keep = np.empty(out.shape[0], dtype=bool)
    keep[0] = True
    np.not_equal(out[1:], out[:-1], out=keep[1:])
    return out[keep]


def load_document(file: FileLike) -> Document | Skipped:
    """``file.document()``, with errors returned instead of raised."""
    try:
        return file.document()
    except WinnowError as error:
        return _skipped(file, error)
    except (OSError, ValueError, UnicodeError) as error:
        return Skipped(file.location, f"cannot read: {error}")


def lost_file(file: FileLike, reason: str) -> Skipped:
    """The :class:`Skipped` for a file whose worker process died
    (:func:`winnow.parallel.parallel_map`'s ``lost``)."""
    return Skipped(file.location, reason)


def _skipped(file: FileLike, error: WinnowError) -> Skipped:
    if isinstance(error, InputError):
        return Skipped(error.path, error.reason)
    return Skipped(file.location, str(error))
