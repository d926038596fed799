"""The fingerprint-table protocol: all-against-all pair counting with a cap on
document frequency, whatever holds the fingerprints.

MOSS's first pass (winnowing paper, section 5.2) and sif's all-against-all
(Manber 1994, section 4) are the same question put to an index of
``(hash, owner)`` postings: for every pair of owners (submissions, files),
how many distinct fingerprints do they share, ignoring the fingerprints too
many owners hold?  :class:`PairCounter` is that question; each fingerprint
table answers it its own way:

* compare's in-memory table (:class:`winnow.matching.table.MemoryTable`):
  one sort of numpy arrays and a compiled loop over the owners;
* sif's DuckDB index (:class:`winnow.index.FingerprintIndex`): one SQL
  self-join over its table of shared postings;
* an engine that keeps its postings in hash-partitioned shards counts each
  partition alone and sums the partial counts: a hash lives in one
  partition, so every term below is a sum over hashes.

Commands that count pairs (``compare``, ``groups``) take any of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class PairCounts:
    """Per pair of owners ``a < b`` that share at least one kept fingerprint:
    ``shared`` distinct hashes.  The order of the pairs is the table's own
    (deterministic)."""

    a: I64
    b: I64
    shared: I64

    def __len__(self) -> int:
        return int(self.a.shape[0])


@dataclass(frozen=True)
class SharedCounts(PairCounts):
    """:class:`PairCounts` with, per pair, the sum of the shared hashes'
    ``weight`` (smoothed inverse document frequency, :func:`idf_weights`) and
    of their document frequency ``df_sum`` (compare's weighted scores)."""

    weight: F64
    df_sum: F64


#: Weights are multiples of ``2^-WEIGHT_BITS``: below ``2^(53 - WEIGHT_BITS)``
#: every sum of them is exact in float64, so it is the same in any order
#: (a sharded table adds a pair's weights partition by partition).
WEIGHT_BITS = 24


def idf_weights(df: npt.NDArray[np.integer], n_owners: int) -> F64:
    """Smoothed inverse document frequency ``1 + ln((1 + N) / (1 + df))``,
    rounded to a multiple of ``2^-24`` (:data:`WEIGHT_BITS`).

    compare50's idea of weighting rare shared fragments more; the smoothing
    keeps every weight positive (with ``N = 2`` a plain ``ln(N / df)`` would
    give every shared fingerprint weight 0).  The rounding (at most 3e-8)
    makes sums of weights exact, hence independent of their order, as long
    as they stay below ``2^29`` (16 million fingerprints of weight 32).
    """
    exact = 1.0 + np.log((1.0 + n_owners) / (1.0 + df.astype(np.float64)))
    scale = float(1 << WEIGHT_BITS)
    rounded: F64 = np.round(exact * scale) / scale
    return rounded


class PairCounter(Protocol):
    """A fingerprint table that counts the fingerprints pairs of its owners share."""

    def pair_counts(self, owners: npt.NDArray[np.integer], max_df: int) -> PairCounts:
        """For the given ``owners`` (ids in the table's own numbering): every
        pair ``a < b`` of them sharing a fingerprint that at most ``max_df``
        of them hold (``df(h)`` counted among ``owners``).  Pairs sharing
        nothing never appear, so the work follows the shared postings, not
        the n² pairs.  A table may leave out pairs by rules of its own, stated
        where it is built (compare: two archive submissions; base code shared
        by no one)."""
        ...

    def shared_counts(self, owners: npt.NDArray[np.integer], max_df: int) -> SharedCounts:
        """:meth:`pair_counts` with the weights and document-frequency sums
        (``N = len(owners)`` in the weights)."""
        ...
