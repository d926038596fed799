"""Small measurements shared by the experiments."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from winnow.engine import Fingerprints

_EULER_GAMMA = 0.5772156649015329


def longest_gap(selected: Fingerprints, n_hashes: int) -> int:
    """The largest distance between consecutive selected k-gram positions, the
    document's ends counting as selected positions ``-1`` and ``n_hashes``.

    Winnowing selects one k-gram in every window of ``w``, so its gap is at
    most ``w``; a document with no fingerprint has gap ``n_hashes + 1``.
    """
    if n_hashes <= 0:
        return 0
    positions = np.asarray(selected["pos"], dtype=np.int64)
    edges = np.concatenate(([-1], positions, [n_hashes]))
    return int(np.diff(edges).max())


def run_without_fingerprint(gap: int, k: int) -> int:
    """Units in the longest stretch of text holding no whole selected k-gram,
    for a ``gap`` between selected positions: ``gap + k - 2`` (the guarantee
    ``t = w + k - 1`` bounds it by ``t - 1`` for winnowing)."""
    return gap + k - 2 if gap > 0 else 0


def expected_longest_mod_p_gap(n_hashes: int, p: int) -> float:
    """About the longest gap of 0 mod p on ``n_hashes`` random hashes.

    Gaps are geometric, ``Pr[gap > d] = (1 - 1/p)^d``, and there are about
    ``n/p`` of them; the mean of their maximum is about ``(ln(n/p) + γ) / λ``
    with ``λ = -ln(1 - 1/p)`` (Gumbel).  On random data the longest gap grows
    only with the logarithm of the input; a longer one on real data is its
    low entropy (section 5.1).
    """
    if n_hashes < p or p < 2:
        return float(n_hashes)
    return (math.log(n_hashes / p) + _EULER_GAMMA) / -math.log1p(-1.0 / p)


def winnow_density(w: int) -> float:
    """Expected density of winnowing on random hashes, ``2 / (w + 1)`` (section 3.1)."""
    return 2.0 / (w + 1)


def safe_mod_p_density(w: int, p: int) -> float:
    """Expected density of Safe 0 mod p: ``1/p + (1 - 1/p)^w`` (section 3.1.2)."""
    return 1.0 / p + (1.0 - 1.0 / p) ** w


def safe_mod_p_bound(w: int) -> float:
    """Its density at the optimal ``p = w / ln w``: ``(1 + ln w) / w`` (section 3.1.2)."""
    return (1.0 + math.log(w)) / w


def uniformity(hashes: npt.NDArray[np.uint64], buckets: int = 256) -> float:
    """The largest deviation of a bucket count from the mean, in standard
    deviations, over ``buckets`` equal ranges of the 64-bit hash values
    (about 3 for uniform hashes and 256 buckets)."""
    if hashes.size == 0:
        return 0.0
    shift = np.uint64(64 - int(math.log2(buckets)))
    counts = np.bincount((hashes >> shift).astype(np.int64), minlength=buckets)
    mean = hashes.size / buckets
    sd = math.sqrt(mean * (1 - 1 / buckets))
    return float(np.abs(counts - mean).max() / sd)
