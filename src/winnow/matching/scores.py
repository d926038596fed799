"""Pair scores from shared-fingerprint counts, vectorised, and the ranking.

With ``F_x`` the distinct kept fingerprints of submission ``x`` and
``S = F_a ∩ F_b`` (formulas also in ``docs/compare.md``):

* containment ``c_a = |S| / |F_a|``, ``c_b = |S| / |F_b|`` (Broder 1997);
* resemblance (Jaccard) ``|S| / (|F_a| + |F_b| - |S|)``;
* Dice ``2 |S| / (|F_a| + |F_b|)`` — the harmonic mean of the two
  containments (Dolos uses the same form on covered tokens);
* weighted ``Σ_{h∈S} idf(h) / min(W_a, W_b)`` with ``W_x = Σ_{h∈F_x} idf(h)``;
* weighted Dice ``2 Σ_{h∈S} idf(h) / (W_a + W_b)`` — Dice over IDF-weighted
  sets, the default ranking score (best on every labelled set, docs/accuracy.md);
* rarity ``mean_{h∈S} df(h) / N``;
* weighted containments ``w_a = Σ_{h∈S} idf(h) / W_a``, ``w_b`` likewise, and
  ``weighted-containment``, their power mean ``((w_a^4 + w_b^4) / 2)^(1/4)``:
  the default ranking score (containment-aware: a copy with code added
  around it ranks near a plain copy; docs/accuracy.md);
* ``estimate``: the same power mean of the unweighted containments, the
  similarity shown for a pair whose passages were not computed.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from winnow.matching._score_kernels import RATIOS, pair_ratios
from winnow.parallel import usable_cores
from winnow.tables import SharedCounts

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class PairScores:
    """Scores of every pair that shares something, as parallel arrays."""

    a: I64
    b: I64
    shared: I64
    containment_a: F64
    containment_b: F64
    jaccard: F64
    dice: F64
    weighted: F64
    rarity: F64
    weighted_dice: F64
    weighted_a: F64
    weighted_b: F64
    #: The power mean (:data:`POWER`) of the two containments: the similarity
    #: of a pair without passages, estimated from its fingerprints.
    estimate: F64
    #: The power mean of the two weighted containments (``weighted-containment``,
    #: the default ranking score), when computed with :attr:`estimate`.
    weighted_containment: F64 | None = None

    def by_name(self, name: str) -> F64:
        """The score column called ``name`` (a :data:`SIMILARITIES` entry)."""
        if name == "weighted-containment":
            if self.weighted_containment is not None:
                return self.weighted_containment
            return power_mean(self.weighted_a, self.weighted_b)
        if name == "containment-max":
            return np.maximum(self.containment_a, self.containment_b)
        if name == "containment-mean":
            return (self.containment_a + self.containment_b) / 2.0
        if name == "weighted-dice":
            return self.weighted_dice
        column: F64 = getattr(self, name)
        return column


#: The exponent of :func:`power_mean`, chosen by measurement (docs/accuracy.md):
#: 1 is the mean, larger values lean towards the larger share.
POWER = 4.0


def power_mean(x: F64, y: F64, p: float = POWER) -> F64:
    """``((x^p + y^p) / 2)^(1/p)`` element-wise: between the mean and the
    larger of ``x`` and ``y``, never above the larger.  Computed in two
    arrays, the same operations in place (1.1 M pairs: two fresh arrays where
    the expression made seven, 17-18 -> 14 ms warm, the same bits)."""
    out: F64 = np.power(x, p)
    other = np.power(y, p)
    np.add(out, other, out=out)
    np.divide(out, 2.0, out=out)
    np.power(out, 1.0 / p, out=out)
    np.maximum(x, y, out=other)
    np.minimum(out, other, out=out)
    return out


#: Pairs from which :func:`pair_scores` computes its two power means on two threads.
THREADED_MEANS = 1 << 17


def pair_scores(
    counts: SharedCounts, sizes: I64, weight_totals: F64, n_owners: int
) -> PairScores:
    """All scores of the pairs in ``counts``.

    ``sizes[x] = |F_x|`` and ``weight_totals[x] = W_x`` per owner.  The shares
    in one compiled pass (:func:`winnow.matching._score_kernels.pair_ratios`),
    the power mean of the containments as numpy computes it, and that of
    the weighted containments (the default ranking score) beside it on a
    second thread for many pairs (numpy's array math runs without the GIL:
    1.1 M pairs, 30-48 -> 15-17 ms for the two).
    """
    n = counts.a.shape[0]
    ratios = np.empty((len(RATIOS), n), dtype=np.float64)
    pair_ratios(counts.a.astype(np.int64, copy=False), counts.b.astype(np.int64, copy=False),
                counts.shared.astype(np.int64, copy=False),
                counts.weight.astype(np.float64, copy=False),
                counts.df_sum.astype(np.float64, copy=False), sizes.astype(np.int64, copy=False),
                weight_totals.astype(np.float64, copy=False), int(n_owners), ratios)
    shares = dict(zip(RATIOS, ratios, strict=True))
    weighted: F64 | None = None
    if n >= THREADED_MEANS and usable_cores() >= 2:
        with ThreadPoolExecutor(1, thread_name_prefix="winnow-scores") as pool:
            later = pool.submit(power_mean, shares["weighted_a"], shares["weighted_b"])
            estimate = power_mean(shares["containment_a"], shares["containment_b"])
            weighted = later.result()
    else:
        estimate = power_mean(shares["containment_a"], shares["containment_b"])
    return PairScores(a=counts.a, b=counts.b, shared=counts.shared, **shares,
                      estimate=estimate, weighted_containment=weighted)


def rank(
    similarity: F64, shared: I64, names: list[str], a: I64, b: I64,
    *, top: int, min_similarity: float, floor: F64 | None = None,
) -> I64:
    """Indices of the reported pairs, best first.

    Order: ``similarity`` (the ranking score) descending, then ``shared``
    descending, then the two names; only pairs with ``floor >= min_similarity``
    (``floor`` defaults to ``similarity``); at most ``top`` of them (``0`` = all).
    """
    kept = (similarity if floor is None else floor) >= min_similarity - 1e-12
    # every pair kept (-n 0 of a class: 1.1 M pairs): no array of their indices,
    # and no copies of the columns
    every = bool(kept.all())
    candidates = np.zeros(0, dtype=np.int64) if every else np.flatnonzero(kept)
    del kept
    n = similarity.shape[0] if every else candidates.shape[0]
    if 0 < top < n:  # only pairs as similar as the top-th can make it
        among = similarity if every else similarity[candidates]
        kth = -np.partition(-among, top - 1)[top - 1]
        candidates = np.flatnonzero(similarity >= kth) if every \
            else candidates[among >= kth]
        every = False
    if n == 0 or (not every and candidates.shape[0] == 0):
        return np.zeros(0, dtype=np.int64)
    name_rank = np.argsort(np.argsort(np.array(names, dtype=object)))

    def column(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return values if every else values[candidates]

    ties = _tie_keys(column(shared), name_rank[column(a)], name_rank[column(b)], len(names))
    order = lexsort_first((*ties, -column(similarity)))
    del ties
    ranked = order if every else candidates[order]
    if top > 0:
        ranked = ranked[:top]
    return ranked.astype(np.int64, copy=False)


def _tie_keys(shared: I64, rank_a: I64, rank_b: I64, n_names: int) -> tuple[I64, ...]:
    """Sort keys of equally similar pairs, least significant first: ``shared``
    descending, then the names' ranks; packed into one key when all three fit
    in 63 bits (one sort instead of three, the same order)."""
    bits = max(1, (n_names - 1).bit_length())
    most = int(shared.max(initial=0))
    if int(shared.min(initial=0)) >= 0 and most.bit_length() + 2 * bits <= 63:
        packed: I64 = np.subtract(most, shared, dtype=np.int64)  # in place from here on
        packed <<= bits
        packed |= rank_a
        packed <<= bits
        packed |= rank_b
        return (packed,)
    return (rank_b, rank_a, -shared)


def lexsort_first(keys: tuple[npt.NDArray[np.generic], ...]) -> I64:
    """``np.lexsort(keys)`` (the last key the primary one), in about half its time
    when the primary key is seldom tied, as pair scores are: one unstable sort
    of the primary key, then only the runs of equal primary values are put in
    order by the other keys and, last, by position, as the stable sort does."""
    primary = keys[-1]
    if primary.dtype.kind == "f" and np.isnan(primary).any():  # NaN never equals NaN
        return np.lexsort(keys).astype(np.int64)
    order = np.argsort(primary).astype(np.int64, copy=False)
    values = primary[order]
    tied = values[1:] == values[:-1]
    if not tied.any():
        return order
    in_run = np.zeros(order.shape[0], dtype=bool)
    in_run[1:] |= tied
    in_run[:-1] |= tied
    rows = np.flatnonzero(in_run)
    run = np.concatenate([[0], np.cumsum(~tied)])[rows]
    sub = order[rows]
    order[rows] = sub[np.lexsort((sub, *(key[sub] for key in keys[:-1]), run))]
    return order
