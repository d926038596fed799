"""k-gram hashing: rolling equals the definition, stable, seeded, uniform."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import winnow
from winnow.engine import kgram_hash_reference
from winnow.errors import InvalidConfig


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(  # units below 256 take their digit from a table, the others compute it
        st.lists(st.integers(0, 2**31), max_size=40),
        st.lists(st.integers(0, 300), max_size=40),
    ),
    st.integers(1, 8), st.integers(0, 2**64 - 1),
)
def test_rolling_hash_equals_definition(units: list[int], k: int, seed: int) -> None:
    hashes = winnow.kgram_hashes(np.array(units, dtype=np.int64), k, seed=seed)
    assert len(hashes) == max(0, len(units) - k + 1)
    expected = [kgram_hash_reference(units[i : i + k], seed) for i in range(len(hashes))]
    assert hashes.tolist() == expected


def test_dtype_of_units_does_not_change_hashes() -> None:
    data = np.random.default_rng(3).integers(0, 256, 1000)
    as_bytes = winnow.kgram_hashes(data.astype(np.uint8), 7)
    assert np.array_equal(as_bytes, winnow.kgram_hashes(data.astype(np.int64), 7))
    assert np.array_equal(as_bytes, winnow.kgram_hashes(data.astype(np.uint32), 7))


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
def test_identical_across_processes() -> None:
    """Never Python's salted hash(): another process (other PYTHONHASHSEED) agrees."""
    code = (
        "import numpy as np, winnow;"
        "print(winnow.kgram_hashes(np.frombuffer(b'process independent', np.uint8), 4).tolist())"
    )
    here = winnow.kgram_hashes(np.frombuffer(b"process independent", np.uint8), 4).tolist()
    for hashseed in ("1", "12345"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env={"PYTHONHASHSEED": hashseed, "PATH": ""},
                             timeout=120)
        assert eval(out.stdout) == here  # a list literal we printed ourselves


def test_seed_changes_every_hash() -> None:
    units = np.frombuffer(b"seeded hashing of some text", np.uint8)
    a, b = winnow.kgram_hashes(units, 5, seed=0), winnow.kgram_hashes(units, 5, seed=1)
    assert not np.any(a == b)


def test_token_boundaries_are_unambiguous() -> None:
    """Units are digits, never concatenated strings: [ab, c] != [a, bc]."""
    ids = {"ab": 1, "c": 2, "a": 3, "bc": 4}
    first = winnow.kgram_hashes(np.array([ids["ab"], ids["c"]]), 2)
    second = winnow.kgram_hashes(np.array([ids["a"], ids["bc"]]), 2)
    assert first[0] != second[0]
    # Nor do units collide with their digit strings: [1, 2] vs [12].
    assert winnow.kgram_hashes(np.array([1, 2]), 2)[0] != winnow.kgram_hashes(np.array([12]), 1)[0]


def test_short_input_has_no_kgrams() -> None:
    assert winnow.kgram_hashes(np.arange(4), 5).shape == (0,)
    assert winnow.kgram_hashes(np.zeros(0, np.uint8), 1).shape == (0,)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_k_must_be_a_positive_integer(bad: object) -> None:
    with pytest.raises(InvalidConfig, match="k"):
        winnow.kgram_hashes(np.arange(10), bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "units",
    [np.array([-1, 2]), np.array([[1, 2]]), np.array([1.5, 2.0])],
)
def test_units_must_be_a_flat_non_negative_integer_array(units: np.ndarray) -> None:
    with pytest.raises(InvalidConfig, match="units"):
        winnow.kgram_hashes(units, 1)


def _random_hashes(n: int = 1 << 20) -> np.ndarray:
    units = np.random.default_rng(42).integers(0, 256, size=n + 49, dtype=np.uint8)
    return winnow.kgram_hashes(units, 50)


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
def test_every_bit_is_balanced() -> None:
    hashes = _random_hashes()
    bits = (hashes[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    share = bits.mean(axis=0)
    sigma = 0.5 / np.sqrt(len(hashes))
    assert np.all(np.abs(share - 0.5) < 6 * sigma), share


@pytest.mark.parametrize("shift", [0, 27, 54])
def test_chi_square_uniform_buckets(shift: int) -> None:
    """1024 buckets from low, middle and high bits: chi-square within 5 sigma."""
    hashes = _random_hashes()
    buckets = ((hashes >> np.uint64(shift)) & np.uint64(1023)).astype(np.int64)
    counts = np.bincount(buckets, minlength=1024)
    expected = len(hashes) / 1024
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    dof = 1023
    assert abs(chi2 - dof) < 5 * np.sqrt(2 * dof), chi2


def test_low_entropy_input_still_hashes_uniformly() -> None:
    """Distinct k-grams of a two-letter alphabet spread over all bits too."""
    units = np.random.default_rng(5).integers(0, 2, size=300_000, dtype=np.uint8)
    hashes = np.unique(winnow.kgram_hashes(units, 30))
    low = np.bincount((hashes & np.uint64(255)).astype(np.int64), minlength=256)
    expected = len(hashes) / 256
    chi2 = float(((low - expected) ** 2 / expected).sum())
    assert abs(chi2 - 255) < 5 * np.sqrt(2 * 255)


@pytest.mark.parametrize("where", ["first", "last"])
def test_each_unit_affects_all_bits(where: str) -> None:
    """Changing one unit (even the last one, the paper's section 2.2 point)
    flips about half of the 64 bits, and each bit flips sometimes."""
    rng = np.random.default_rng(11)
    flips = np.zeros(64)
    trials = 2000
    total = 0
    for _ in range(trials):
        units = rng.integers(0, 256, size=20)
        changed = units.copy()
        index = 0 if where == "first" else -1
        changed[index] = (changed[index] + rng.integers(1, 256)) % 256
        a = int(winnow.kgram_hashes(units, 20)[0])
        b = int(winnow.kgram_hashes(changed, 20)[0])
        diff = a ^ b
        total += diff.bit_count()
        flips += [(diff >> i) & 1 for i in range(64)]
    assert 30 < total / trials < 34
    assert np.all(flips / trials > 0.4) and np.all(flips / trials < 0.6)
