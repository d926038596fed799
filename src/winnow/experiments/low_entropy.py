"""Experiment 3: low-entropy strings (winnowing paper, section 5.1, Definition 3).

On "000…" every k-gram has the same hash: plain winnowing must take the
rightmost of the tied minima, a new position in every window (density → 1);
robust winnowing keeps the previous window's choice (density → 1/w).  A
periodic string ("abbaabba…", period 4: four distinct k-grams) ties a
quarter of each window's positions (plain: 1/4); a mix of random text and
runs of zeros lies in between.
"""

from __future__ import annotations

import numpy as np

from winnow.engine import kgram_hashes, robust_winnow, winnow
from winnow.experiments.measures import winnow_density
from winnow.experiments.random_text import random_text
from winnow.experiments.report import Section, Table

K, W = 50, 100
#: The mix: blocks of random letters alternating with blocks of zeros, this long.
BLOCK = 2_000


def strings(length: int, seed: int) -> dict[str, np.ndarray]:
    """The three test strings, each ``length`` units."""
    zeros = np.full(length, ord("0"), dtype=np.uint8)
    abba = np.resize(np.frombuffer(b"abba", dtype=np.uint8), length)
    mix = random_text(length, seed)
    block = np.arange(length) // BLOCK
    mix[block % 2 == 1] = ord("0")
    return {"000…": zeros, "abbaabba…": abba, "mix": mix}


def expected(name: str) -> tuple[float, float]:
    """Expected (plain, robust) densities for large inputs.

    The mix: half random text (2/(w+1) for both), half runs of zeros (1 and
    1/w), ignoring the k-grams that straddle a block boundary.
    """
    if name == "000…":
        return 1.0, 1.0 / W
    if name == "abbaabba…":
        return 0.25, 1.0 / W
    return (winnow_density(W) + 1.0) / 2, (winnow_density(W) + 1.0 / W) / 2


def run(length: int, seed: int) -> Section:
    """Plain and robust winnowing on each string."""
    section = Section("lowentropy", "3. Low entropy", (
        f"Strings of {length:,} units, k = {K}, w = {W}.  The paper (section 5.1): on "
        "\"0000…\" plain winnowing's density is asymptotically 1, robust winnowing's 1/w.  "
        f"The mix alternates {BLOCK:,} random letters with {BLOCK:,} zeros; its expected "
        "values average random text's 2/(w+1) with the zeros' 1 (plain) or 1/w (robust)."))
    rows = []
    for name, units in strings(length, seed).items():
        hashes = kgram_hashes(units, K)
        n = max(int(hashes.size), 1)
        plain = section.add(f"{name} plain density", len(winnow(hashes, W)) / n,
                            1.0 if name == "000…" else None)
        robust = section.add(f"{name} robust density", len(robust_winnow(hashes, W)) / n,
                             1.0 / W if name == "000…" else None)
        e_plain, e_robust = expected(name)
        rows.append((name, f"{plain:.6f}", f"{e_plain:.6f}", f"{robust:.6f}",
                     f"{e_robust:.6f}"))
    section.tables.append(Table(("string", "plain winnowing", "expected", "robust winnowing",
                                 "expected"), tuple(rows)))
    return section
