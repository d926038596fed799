"""Experiment 4: frequency by rank (winnowing paper, section 5.1, Figure 4).

The frequency of a k-gram hash is the number of times it occurs; its rank is
its position in the frequencies sorted in decreasing order.  On the Web the
paper found a power law, frequency ∝ rank^-0.7, for all hashes and for the
fingerprints winnowing selects; 82 % of fingerprints occurred once, 14 %
twice, 2 % three times.  As in the paper, only the two end points of each
plateau (a run of equal frequencies) are plotted and fitted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.engine import kgram_hashes, winnow
from winnow.experiments.corpus import Corpus
from winnow.experiments.report import LinePlot, Section, Table, series

K, W = 50, 100
TITLE = "4. Frequency by rank (Figure 4)"
INTRO = (
    f"All {K}-gram hashes and the fingerprints winnowing selects (w = {W}) over the pages of "
    "experiment 2 (the paper used 20,000 Web pages).  Shares are of distinct hash values: "
    "the fraction occurring once, twice, three times.")
PAPER_SLOPE = -0.7
PAPER_SHARES = (0.82, 0.14, 0.02)
TOP = 10


@dataclass(frozen=True)
class Curve:
    """Plateau end points of a frequency-by-rank curve and the fitted line."""

    ranks: npt.NDArray[np.float64]
    freqs: npt.NDArray[np.float64]
    slope: float
    intercept: float
    shares: tuple[float, float, float]


def plateau_curve(counts: npt.NDArray[np.int64]) -> Curve:
    """End points of each plateau of ``counts`` sorted decreasing, and the
    least-squares line through them in log-log space (a plateau of one rank
    counts twice, as in the paper, so weights are not biased)."""
    freq = np.sort(counts)[::-1]
    values, first = np.unique(-freq, return_index=True)  # decreasing frequencies
    last = np.r_[first[1:], freq.size] - 1
    ranks = np.column_stack((first + 1, last + 1)).ravel().astype(np.float64)
    freqs = np.repeat(-values, 2).astype(np.float64)
    if np.unique(freqs).size > 1:
        slope, intercept = np.polyfit(np.log10(ranks), np.log10(freqs), 1)
    else:
        slope, intercept = 0.0, float(np.log10(freqs[0])) if freqs.size else 0.0
    total = max(counts.size, 1)
    shares = tuple(float(np.count_nonzero(counts == c)) / total for c in (1, 2, 3))
    return Curve(ranks, freqs, float(slope), float(intercept),
                 (shares[0], shares[1], shares[2]))


def _text(units: npt.NDArray[np.integer]) -> str:
    return "".join(chr(min(int(u), 0x10FFFF)) for u in units)


def run(corpus: Corpus) -> Section:
    """Both curves for ``corpus``, their fitted slopes, shares and top strings."""
    section = Section("frequency", TITLE, f"{len(corpus.names):,} pages.  " + INTRO)
    all_hashes, chosen, where_doc, where_pos = [], [], [], []
    for doc, units in enumerate(corpus.units):
        hashes = kgram_hashes(units, K)
        if hashes.size == 0:
            continue
        selected = winnow(hashes, W)
        all_hashes.append(hashes)
        chosen.append(selected["hash"])
        where_doc.append(np.full(len(selected), doc, dtype=np.int64))
        where_pos.append(selected["pos"])
    if not chosen:
        section.skipped = "no page has a k-gram"
        return section
    _, all_counts = np.unique(np.concatenate(all_hashes), return_counts=True)
    fp_hashes = np.concatenate(chosen)
    _, fp_first, fp_counts = np.unique(fp_hashes, return_index=True, return_counts=True)
    rows, plots = [], []
    for label, counts in (("all hashes", all_counts), ("winnowed fingerprints", fp_counts)):
        curve = plateau_curve(counts)
        section.add(f"{label} slope", curve.slope, PAPER_SLOPE)
        for times, share, paper in zip((1, 2, 3), curve.shares, PAPER_SHARES, strict=True):
            section.add(f"{label} share occurring {times}x", share, paper)
        section.add(f"{label} highest frequency", float(counts.max()))
        rows.append((label, f"{counts.size:,}", f"{int(counts.max()):,}", f"{curve.slope:.3f}",
                     *(f"{100 * s:.1f} %" for s in curve.shares)))
        plots.append(series(f"{label} (plateau ends)", curve.ranks, curve.freqs, "o"))
        fitted = 10 ** (curve.intercept + curve.slope * np.log10(curve.ranks))
        plots.append(series(f"{label}: fit, slope {curve.slope:.2f}", curve.ranks, fitted, "-"))
    rows.append(("paper (Web pages)", "–", "3,270", f"about {PAPER_SLOPE}",
                 *(f"{100 * s:.0f} %" for s in PAPER_SHARES)))
    section.tables.append(Table(("hashes", "distinct", "highest frequency", "fitted slope",
                                 "once", "twice", "three times"), tuple(rows)))
    section.plots.append(LinePlot("frequency-by-rank", "Frequency by rank (log-log)",
                                  "rank", "frequency", tuple(plots), loglog=True))
    docs, positions = np.concatenate(where_doc), np.concatenate(where_pos)
    top = np.argsort(-fp_counts, kind="stable")[:TOP]
    strings = []
    for i in top:
        j = fp_first[i]
        units = corpus.units[int(docs[j])][int(positions[j]):int(positions[j]) + K]
        strings.append((f"{int(fp_counts[i]):,}", _text(units), corpus.names[int(docs[j])]))
    section.tables.append(Table(("times selected", "k-gram (text without whitespace)",
                                 "first page"), tuple(strings)))
    return section
