"""The pair counts that every pair-counting engine returns, and the IDF
weights they sum.

MOSS's first pass (winnowing paper, section 5.2) and sif's all-against-all
(Manber 1994, section 4) are the same question put to ``(hash, owner)``
postings: for every pair of owners (submissions, files, records), how many
distinct fingerprints do they share, ignoring the fingerprints too many
owners hold?  The pair-counting stage (:mod:`winnow.pairs`) answers it with
an engine chosen by name; these are the shapes of its answer, shared by
every stage (the DuckDB index's own self-join returns them too).
"""

from __future__ import annotations

from dataclasses import dataclass

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
    Many small integer dfs (the groups of a corpus, capped at ``-m``) are
    weighed by a table of each value's weight, the same floats: 400,000 dfs
    from 2 to 100 in 0.6-0.8 ms, against 4-14 ms one by one.
    """
    if df.shape[0] > 4096 and df.dtype.kind in "iu":
        low, top = int(df.min()), int(df.max())
        if low >= 0 and top < df.shape[0] // 4:  # many small integers: a table of them
            looked_up: F64 = _idf(np.arange(top + 1), n_owners)[df]
            return looked_up
    return _idf(df, n_owners)


def _idf(df: npt.NDArray[np.integer], n_owners: int) -> F64:
    exact = 1.0 + np.log((1.0 + n_owners) / (1.0 + df.astype(np.float64)))
    scale = float(1 << WEIGHT_BITS)
    rounded: F64 = np.round(exact * scale) / scale
    return rounded
