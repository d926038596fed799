"""Experiment 1: random text (winnowing paper, section 5.1, first experiment).

8 MB of random text, k = 50, w = 100: the measured density of each selection
method against its expected value, and the longest gap between fingerprints.
The paper: winnowing 0.019902 against 2/(w+1) = 0.019802; 0 mod 50 0.020005
against 0.02.  It checks the hash function is good enough to trust the
experiments on real data.
"""

from __future__ import annotations

import numpy as np

from winnow.engine import kgram_hashes, mod_p, robust_winnow, safe_mod_p, winnow
from winnow.engine.selectors import optimal_safe_p
from winnow.experiments.measures import (
    expected_longest_mod_p_gap,
    longest_gap,
    safe_mod_p_bound,
    safe_mod_p_density,
    uniformity,
    winnow_density,
)
from winnow.experiments.report import Section, Table, fmt

K, W, P = 50, 100, 50
ALPHABET = b"abcdefghijklmnopqrstuvwxyz"

#: The paper's measured densities (section 5.1).
PAPER_WINNOW, PAPER_MOD_P = 0.019902, 0.020005


def random_text(n_bytes: int, seed: int) -> np.ndarray:
    """``n_bytes`` letters drawn uniformly from a-z (fixed seed)."""
    rng = np.random.default_rng(seed)
    alphabet = np.frombuffer(ALPHABET, dtype=np.uint8)
    return alphabet[rng.integers(0, alphabet.size, n_bytes)]


def run(n_bytes: int, seed: int) -> Section:
    """Fingerprint ``n_bytes`` of random text with every method."""
    section = Section("random", "1. Random text", (
        f"{n_bytes:,} bytes of random lowercase letters (seed {seed}), hashed as "
        f"{K}-grams; window w = {W} (guarantee t = {K + W - 1}).  Expected densities: "
        "winnowing and robust winnowing 2/(w+1); 0 mod p 1/p; Safe 0 mod p "
        "1/p + (1 − 1/p)^w at its optimal p = w / ln w, about (1 + ln w)/w.  The gap is "
        "the largest distance between consecutive selected k-grams (winnowing: at most w; "
        "0 mod p: unbounded, about p·ln(n/p) on n random hashes)."))
    hashes = kgram_hashes(random_text(n_bytes, seed), K)
    n = int(hashes.size)
    p_safe = optimal_safe_p(W)
    mod_gap = expected_longest_mod_p_gap(n, P)
    methods = (
        ("winnowing", winnow(hashes, W), winnow_density(W), PAPER_WINNOW),
        ("robust winnowing", robust_winnow(hashes, W), winnow_density(W), None),
        (f"0 mod {P}", mod_p(hashes, P), 1.0 / P, PAPER_MOD_P),
        (f"Safe 0 mod p (p = {p_safe})", safe_mod_p(hashes, W, p_safe),
         safe_mod_p_density(W, p_safe), None),
    )
    rows = []
    for name, selected, expected, paper in methods:
        measured = section.add(f"{name} density", len(selected) / n, paper)
        gap = longest_gap(selected, n)
        section.add(f"{name} longest gap", gap, W if "winnowing" in name else None)
        bound = f"≈ {mod_gap:.0f}" if name.startswith("0 mod") else f"≤ {W}"
        rows.append((name, fmt(len(selected)), f"{measured:.6f}", f"{expected:.6f}",
                     f"{paper:.6f}" if paper is not None else "–", fmt(gap), bound))
    section.tables.append(Table(
        ("method", "fingerprints", "measured density", "expected density",
         "paper's measured density", "longest gap", "expected gap"), tuple(rows)))
    spread = section.add("hash uniformity (max deviation, sd)", uniformity(hashes))
    section.notes.append(
        f"Hashes computed: {n:,}.  Safe 0 mod p's bound (1 + ln w)/w = "
        f"{safe_mod_p_bound(W):.6f}.  Uniformity of the hash values (the paper: \"a uniform "
        f"distribution of hash values\"): in 256 equal ranges of the 64-bit values the "
        f"largest count is {spread:.2f} standard deviations from the mean (about 3 is "
        "expected of uniform values).")
    return section
