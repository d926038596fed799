"""Densities on random data against the paper's figures (sections 3 and 5.1).

Fixed seeds; tolerance 2% as in the paper's own check of its hash function.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import winnow
from winnow.engine import mod_p, robust_winnow, safe_mod_p
from winnow.engine import winnow as plain_winnow
from winnow.engine.selectors import optimal_safe_p

K, W = 50, 100


@pytest.fixture(scope="module")
def random_text_hashes() -> np.ndarray:
    """8 MB of random lower-case text, as in the paper's first experiment."""
    rng = np.random.default_rng(2003)
    units = rng.integers(ord("a"), ord("z") + 1, size=8 * 2**20, dtype=np.uint8)
    return winnow.kgram_hashes(units, K)


def density(selected: np.ndarray, hashes: np.ndarray) -> float:
    return len(selected) / len(hashes)


def test_winnowing_density_is_2_over_w_plus_1(random_text_hashes: np.ndarray) -> None:
    measured = density(plain_winnow(random_text_hashes, W), random_text_hashes)
    assert measured == pytest.approx(2 / (W + 1), rel=0.02)  # paper: 0.019902
    robust = density(robust_winnow(random_text_hashes, W), random_text_hashes)
    assert robust == pytest.approx(2 / (W + 1), rel=0.02)


def test_zero_mod_50_density(random_text_hashes: np.ndarray) -> None:
    measured = density(mod_p(random_text_hashes, 50), random_text_hashes)
    assert measured == pytest.approx(0.02, rel=0.02)  # paper: 0.020005


def test_safe_mod_p_density_at_its_optimal_p(random_text_hashes: np.ndarray) -> None:
    p = optimal_safe_p(W)
    measured = density(safe_mod_p(random_text_hashes, W, p), random_text_hashes)
    exact = 1 / p + (1 - 1 / p) ** W  # Pr[Good] + Pr[Bad]
    assert measured == pytest.approx(exact, rel=0.02)
    # The paper's closed form uses (1 - P)^w ~ e^(-wP): about (1 + ln w)/w.
    assert measured == pytest.approx((1 + math.log(W)) / W, rel=0.03)
    assert measured > 2 * 2 / (W + 1)  # far above winnowing's density


def test_low_entropy_run_plain_vs_robust() -> None:
    """Section 5.1: on "0000..." winnowing selects nearly every position,
    robust winnowing about one per window."""
    hashes = winnow.kgram_hashes(np.zeros(200_000, dtype=np.uint8), K)
    assert density(plain_winnow(hashes, W), hashes) > 0.99
    assert density(robust_winnow(hashes, W), hashes) == pytest.approx(1 / W, rel=0.02)
