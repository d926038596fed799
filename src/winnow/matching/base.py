"""Base (starter) code: MOSS ``-b``.

Every k-gram of the base files is hashed, in both channels (not only the
fingerprints the base's own winnowing selected, so that a k-gram of the
base is recognised wherever a submission's window selects it).  One rule
then serves scores and passages alike: *a k-gram whose hash is a base
k-gram is base*.

* A base fingerprint stays in its submission's fingerprint set (the
  denominator of every score: the share of the whole submission, as MOSS
  reports it) but is never counted as shared.
* A passage never contains a whole base k-gram (:func:`free_starts`), and
  its ends are then trimmed off starter code (:func:`covered`), unless
  nothing would be left.

So every shared fingerprint that a score counts seeds a passage, and a
passage shows nothing the scores ignored.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.engine import kgram_hashes
from winnow.model import Document

U64 = npt.NDArray[np.uint64]
Bools = npt.NDArray[np.bool_]


def _hashes(units: npt.NDArray[np.integer] | None, config: WinnowConfig | None) -> U64:
    if units is None or config is None or units.shape[0] < config.k:
        return np.zeros(0, np.uint64)
    return kgram_hashes(units, config.k, seed=config.seed)


def base_hashes(docs: Iterable[Document], config: WinnowConfig,
                literal_config: WinnowConfig | None) -> U64:
    """The sorted distinct hashes of every k-gram of the base documents, in
    both channels (k-grams of different lengths never share a hash)."""
    parts: list[U64] = [np.zeros(0, np.uint64)]
    for doc in docs:
        parts.append(_hashes(doc.stream.units, config))
        parts.append(_hashes(doc.stream.literal_units, literal_config))
    return np.unique(np.concatenate(parts)).astype(np.uint64)


def in_base(hashes: U64, base: U64) -> Bools:
    """``hashes[i] in base`` for every ``i`` (``base`` sorted)."""
    if base.shape[0] == 0 or hashes.shape[0] == 0:
        return np.zeros(hashes.shape[0], dtype=bool)
    idx = np.minimum(np.searchsorted(base, hashes), base.shape[0] - 1)
    hit: Bools = base[idx] == hashes
    return hit


def free_starts(doc: Document, base: U64, config: WinnowConfig) -> Bools:
    """Per unit of ``doc``: no base k-gram starts there (the main channel's
    k-grams, those a passage is made of)."""
    units = doc.stream.units
    free = np.ones(len(units), dtype=bool)
    if base.shape[0]:
        hashes = _hashes(np.asarray(units), config)
        free[:hashes.shape[0]] = ~in_base(hashes, base)
    return free


def covered(free: Bools, k: int) -> Bools:
    """Per unit: inside a base k-gram (one starting where ``free`` is false)."""
    marks = np.zeros(free.shape[0] + 1, dtype=np.int64)
    starts = np.flatnonzero(~free)
    np.add.at(marks, starts, 1)
    np.add.at(marks, np.minimum(starts + k, free.shape[0]), -1)
    inside: Bools = np.cumsum(marks[:-1]) > 0
    return inside
