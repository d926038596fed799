"""Each experiment on a tiny input: the figures the papers predict, within tolerances.

Inputs are seeded, so every check is deterministic; tolerances are several
standard deviations of the sampling error at these sizes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.experiment_fixtures import html_corpus, labelled_sets
from winnow.engine import FINGERPRINT_DTYPE, safe_mod_p
from winnow.experiments import (
    frequency,
    low_entropy,
    lower_bound,
    parameters,
    random_text,
    sif_index,
)
from winnow.experiments import html_corpus as html_experiment
from winnow.experiments.corpus import Corpus, load_corpus
from winnow.experiments.measures import (
    expected_longest_mod_p_gap,
    longest_gap,
    run_without_fingerprint,
    safe_mod_p_bound,
    safe_mod_p_density,
)
from winnow.experiments.report import Section, Table, md_escape, table_markdown
from winnow.experiments.runner import QUICK

W = 100


def value(section: Section, name: str) -> float:
    return section.figure(name).value


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return load_corpus(html_corpus(tmp_path_factory.mktemp("html")))


def test_random_text_densities_match_the_paper() -> None:
    section = random_text.run(200_000, seed=0)
    assert value(section, "winnowing density") == pytest.approx(2 / (W + 1), rel=0.08)
    assert value(section, "robust winnowing density") == pytest.approx(2 / (W + 1), rel=0.08)
    assert value(section, "0 mod 50 density") == pytest.approx(1 / 50, rel=0.08)
    safe = next(f for f in section.figures if f.name.startswith("Safe") and "density" in f.name)
    assert safe.value == pytest.approx(safe_mod_p_density(W, 22), rel=0.08)
    assert value(section, "winnowing longest gap") <= W
    assert value(section, "robust winnowing longest gap") <= W
    assert value(section, "0 mod 50 longest gap") > W  # 0 mod p has no guarantee
    expected_gap = expected_longest_mod_p_gap(200_000 - 49, 50)
    assert value(section, "0 mod 50 longest gap") == pytest.approx(expected_gap, rel=0.35)
    assert value(section, "hash uniformity (max deviation, sd)") < 5
    assert section.figure("winnowing density").paper == 0.019902
    assert "paper's measured density" in section.tables[0].columns


def test_safe_mod_p_keeps_the_guarantee_at_its_optimal_density() -> None:
    assert safe_mod_p_bound(100) == pytest.approx((1 + np.log(100)) / 100)
    hashes = np.random.default_rng(3).integers(0, 2**63, 50_000).astype(np.uint64)
    selected = safe_mod_p(hashes, W, 22)
    assert longest_gap(selected, hashes.size) <= W


def test_longest_gap_counts_the_ends() -> None:
    none = np.zeros(0, dtype=FINGERPRINT_DTYPE)
    assert longest_gap(none, 10) == 11
    one = np.array([(7, 4)], dtype=FINGERPRINT_DTYPE)
    assert longest_gap(one, 10) == 6  # from position 4 to the end (10)
    assert run_without_fingerprint(6, 50) == 54


def test_low_entropy_robust_winnowing_selects_one_per_window() -> None:
    section = low_entropy.run(20_000, seed=0)
    assert value(section, "000… plain density") > 0.99
    assert value(section, "000… robust density") == pytest.approx(1 / W, rel=0.05)
    assert value(section, "abbaabba… plain density") == pytest.approx(0.25, rel=0.03)
    assert value(section, "abbaabba… robust density") == pytest.approx(1 / W, rel=0.05)
    mix_plain, mix_robust = low_entropy.expected("mix")
    assert value(section, "mix plain density") == pytest.approx(mix_plain, rel=0.15)
    assert value(section, "mix robust density") == pytest.approx(mix_robust, rel=0.15)


def test_html_table_keeps_winnowing_bound_and_shows_0_mod_p_runs(corpus: Corpus) -> None:
    section = html_experiment.run(corpus)
    assert value(section, "total bytes") == corpus.total_bytes
    assert value(section, "hashes computed") == sum(max(u.size - 49, 0) for u in corpus.units)
    t_minus_1 = 50 + W - 2
    assert value(section, "winnowing longest run with no fingerprint") <= t_minus_1
    assert value(section, "robust winnowing longest run with no fingerprint") <= t_minus_1
    # the runs of "=" and "-": 0 mod 50 selects nothing in at least one of them
    assert value(section, "0 mod 50 longest run with no fingerprint") > 2_900
    # plain winnowing selects nearly every k-gram of the runs; robust one per window
    assert value(section, "winnowing density") > 0.2
    assert value(section, "robust winnowing density") < 0.03
    assert [row[0] for row in section.tables[0].rows][:3] == [
        "total bytes", "text bytes", "hashes computed"]


def test_frequency_finds_the_shared_navigation_bar(corpus: Corpus) -> None:
    section = frequency.run(corpus)
    assert value(section, "all hashes slope") < 0
    for label in ("all hashes", "winnowed fingerprints"):
        shares = [value(section, f"{label} share occurring {n}x") for n in (1, 2, 3)]
        assert 0 < sum(shares) <= 1
    strings = section.tables[1].rows
    nav = [row for row in strings if "WinnowDocumentation" in row[1]]
    assert nav and int(nav[0][0]) == len(corpus.names)  # selected once on every page
    assert len(strings[0][1]) == 50
    cells = "\n".join(table_markdown(section.tables[1]))
    assert "<script>" not in cells and "&lt;script&gt;" in cells


def test_plateau_curve_end_points_and_slope() -> None:
    counts = np.array([8, 4, 4, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1])
    curve = frequency.plateau_curve(counts)
    assert curve.ranks.tolist() == [1, 1, 2, 3, 4, 7, 8, 15]
    assert curve.freqs.tolist() == [8, 8, 4, 4, 2, 2, 1, 1]
    assert -1.0 < curve.slope < -0.5
    assert curve.shares == pytest.approx((8 / 15, 4 / 15, 0.0))


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
def test_lower_bound_constructions_respect_theorem_1() -> None:
    section = lower_bound.run(range(2, 4), 20_000, seed=0)
    for w in (2, 3):
        best = value(section, f"w={w} best constructed density")
        assert best >= 1.5 / (w + 1)
        assert value(section, f"w={w} winnowing density") == pytest.approx(2 / (w + 1),
                                                                           rel=0.03)
    assert section.plots and section.plots[0].name == "lower-bound"


def test_coordinate_descent_never_worsens_the_table() -> None:
    rng = np.random.default_rng(5)
    train = rng.integers(0, 4, 5_000)
    codes = lower_bound.window_codes(train, 3, 4)
    start = lower_bound.density_of(lower_bound.rightmost_minimum(3, 4), codes)
    assert lower_bound.density_of(lower_bound.best_table(3, 4, train), codes) <= start
    assert lower_bound.rightmost_minimum(2, 2).tolist() == [1, 0, 1, 1]


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
def test_sif_finds_the_substituted_file() -> None:
    section = sif_index.run(40, trials=2, seed=0)
    for name in ("sif", "winnowing w=511"):
        assert value(section, f"{name} right file first") == 1.0
        assert 2.0 < value(section, f"{name} fingerprints per KB") < 6.0
        assert 10.0 < value(section, f"{name} similarity mean") < 70.0
    assert value(section, "expected similarity") == pytest.approx(37, abs=3)
    # 40 files: the index's fixed size dominates its share, and the report says so
    assert value(section, "sif index % of corpus") > 5.0
    assert any("not comparable with the paper's 5 %" in note for note in section.notes)


def test_substitutions_change_the_expected_share() -> None:
    rng = np.random.default_rng(0)
    data = bytes(30_000)
    changed = sif_index.substituted(data, rng)
    assert len(changed) == len(data)
    assert 0.3 < sum(b != 0 for b in changed) / len(data) < 0.5  # 1 - e^-0.5 ≈ 0.39


def test_parameters_on_tiny_labelled_sets(tmp_path: Path) -> None:
    data = labelled_sets(tmp_path / "data")
    section = parameters.run(data, QUICK.grids)
    assert value(section, "Clough & Stevenson k=16 w=8 ROC AUC") == 1.0
    for figure in section.figures:
        assert 0.0 <= figure.value <= 1.0
    assert {plot.name for plot in section.plots} >= {
        "parameters-code-roc-auc", "parameters-prose-best-f1", "parameters-prose-seconds"}
    assert any("(default)" in row[2] for table in section.tables for row in table.rows)
    assert any("IR-Plag" in note for note in section.notes)  # not in the data: named
    assert any(note.startswith("Prose (Clough") and "at the default" in note
               for note in section.notes)


def test_parameters_without_any_set_is_skipped(tmp_path: Path) -> None:
    section = parameters.run(tmp_path, QUICK.grids)
    assert section.skipped is not None and not section.tables


def test_markdown_cells_are_escaped() -> None:
    hostile = "a|b [x](javascript:alert(1)) <img src=x> `c` *d* \x1b[31m"
    assert md_escape(hostile) == (
        "a\\|b \\[x\\](javascript:alert(1)) &lt;img src=x&gt; \\`c\\` \\*d\\* \\\\x1b\\[31m")
    line = table_markdown(Table(("h",), ((hostile,),)))[2]
    assert line.count("|") - line.count("\\|") == 2  # one cell, whatever it holds
