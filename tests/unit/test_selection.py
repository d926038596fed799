"""Each selection kernel equals its brute-force definition (tests/oracles.py)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import winnow
from tests import oracles
from winnow.engine import (
    as_pairs,
    bottom_n,
    mod_p,
    query_winnow,
    robust_winnow,
    safe_mod_p,
    sif_select,
    winnow_units,
)
from winnow.engine import winnow as plain_winnow
from winnow.engine.selectors import SELECTORS
from winnow.errors import InvalidConfig

# Small value ranges give many ties (low entropy); wide ones behave like hashes.
hash_lists = st.one_of(
    st.lists(st.integers(0, 3), max_size=60),
    st.lists(st.integers(0, 2**64 - 1), max_size=60),
)
windows = st.integers(1, 12)


def positions(fps: np.ndarray) -> list[int]:
    return [p for _, p in as_pairs(fps)]


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
@settings(max_examples=1000, deadline=None)
@given(hash_lists, windows)
def test_winnow_matches_definition_1(h: list[int], w: int) -> None:
    assert positions(plain_winnow(np.array(h, dtype=np.uint64), w)) == oracles.winnow(h, w)


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
@settings(max_examples=1000, deadline=None)
@given(hash_lists, windows)
def test_robust_matches_definition_3(h: list[int], w: int) -> None:
    assert positions(robust_winnow(np.array(h, dtype=np.uint64), w)) == oracles.robust(h, w)


@settings(max_examples=500, deadline=None)
@given(hash_lists, st.integers(1, 7))
def test_mod_p_matches_definition(h: list[int], p: int) -> None:
    assert positions(mod_p(np.array(h, dtype=np.uint64), p)) == oracles.mod_p(h, p)


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
@settings(max_examples=1000, deadline=None)
@given(hash_lists, windows, st.integers(1, 7))
def test_safe_mod_p_matches_good_bad_ugly(h: list[int], w: int, p: int) -> None:
    got = positions(safe_mod_p(np.array(h, dtype=np.uint64), w, p))
    assert got == oracles.safe_mod_p(h, w, p)


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
@settings(max_examples=1000, deadline=None)
@given(hash_lists, st.integers(0, 3), st.integers(1, 8))
def test_sif_matches_definition(h: list[int], bits: int, k: int) -> None:
    got = positions(sif_select(np.array(h, dtype=np.uint64), bits, k))
    assert got == oracles.sif(h, bits, k)
    assert all(b - a >= k for a, b in itertools.pairwise(got))  # never overlapping


@settings(max_examples=500, deadline=None)
@given(hash_lists, st.integers(1, 10))
def test_bottom_n_matches_definition(h: list[int], n: int) -> None:
    assert positions(bottom_n(np.array(h, dtype=np.uint64), n)) == oracles.bottom_n(h, n)


@settings(max_examples=800, deadline=None)
@given(hash_lists, windows, st.integers(0, 20))
def test_query_window_selects_a_subset(h: list[int], w: int, extra: int) -> None:
    """Section 3.2: winnowing with w' >= w selects a subset of the w selection."""
    hashes = np.array(h, dtype=np.uint64)
    coarse = set(as_pairs(query_winnow(hashes, w, w + extra)))
    assert coarse <= set(as_pairs(plain_winnow(hashes, w)))


def test_query_window_must_not_be_smaller() -> None:
    with pytest.raises(InvalidConfig, match="must be >="):
        query_winnow(np.arange(10, dtype=np.uint64), 5, 4)


def test_each_window_has_a_selected_position() -> None:
    rng = np.random.default_rng(7)
    hashes = rng.integers(0, 50, size=5000, dtype=np.uint64)
    for select in (plain_winnow, robust_winnow):
        chosen = positions(select(hashes, 10))
        assert max(np.diff(chosen)) <= 10
        assert chosen[0] <= 9 and chosen[-1] >= len(hashes) - 10


#: The methods that select from k-gram hashes (anchors select from the units).
HASH_METHODS = [m for m in winnow.METHODS if SELECTORS[m].from_hashes]


def test_select_fingerprints_dispatch_and_structured_result() -> None:
    hashes = winnow.kgram_hashes(np.random.default_rng(1).integers(0, 256, 4000), 5)
    for method in HASH_METHODS:
        params = {"k": 5} if method == "sif" else {}
        selected = winnow.select_fingerprints(hashes, 8, method, **params)
        assert selected.dtype.names == ("hash", "pos")
        assert len(selected) > 0
        assert np.all(np.diff(selected["pos"]) > 0)
        assert np.array_equal(selected["hash"], hashes[selected["pos"]])


@pytest.mark.parametrize(
    ("method", "params", "message"),
    [
        ("nope", {}, "method must be one of"),
        ("sif", {}, "needs k"),
        ("mod-p", {"p": 0}, "p must be an integer >= 1"),
        ("winnow", {"q": 3}, "unknown parameter"),
    ],
)
def test_select_fingerprints_rejects_bad_parameters(
    method: str, params: dict[str, int], message: str
) -> None:
    with pytest.raises(InvalidConfig, match=message):
        winnow.select_fingerprints(np.arange(10, dtype=np.uint64), 3, method, **params)


def test_window_must_be_positive() -> None:
    with pytest.raises(InvalidConfig, match="w must be"):
        winnow.select_fingerprints(np.arange(10, dtype=np.uint64), 0)


def test_every_method_is_reachable_from_a_config() -> None:
    units = np.random.default_rng(2).integers(97, 101, 4000).astype(np.uint8)  # a-d
    hashes = winnow.kgram_hashes(units, 5)
    for method in winnow.METHODS:
        config = winnow.WinnowConfig(k=5, t=12, method=method, anchors=("ab", "dc"))
        selected = winnow.fingerprint(units, config)
        assert selected.dtype.names == ("hash", "pos")
        assert len(selected) > 0
        assert np.array_equal(selected["hash"], hashes[selected["pos"]])
        if method in HASH_METHODS:
            params = {"k": 5} if method == "sif" else {}
            expected = winnow.select_fingerprints(hashes, config.w, method, **params)
            assert np.array_equal(selected, expected)


def test_anchors_select_from_units_only() -> None:
    with pytest.raises(InvalidConfig, match="not from hashes"):
        winnow.select_fingerprints(np.arange(10, dtype=np.uint64), 3, "anchors",
                                   anchors=("a",))


def test_empty_input_selects_nothing() -> None:
    for method in HASH_METHODS:
        params = {"k": 5} if method == "sif" else {}
        assert len(winnow.select_fingerprints(np.zeros(0, np.uint64), 4, method, **params)) == 0


def test_anchor_fingerprints_start_at_each_anchor() -> None:
    text = b"the cat sat on the mat; the end"
    units = np.frombuffer(text, dtype=np.uint8)
    selected = winnow.anchor_fingerprints(units, 4, [b"the", b"at"])
    starts = [p for _, p in as_pairs(selected)]
    expected = sorted({i for i in range(len(text)) if text.startswith((b"the", b"at"), i)})
    assert starts == [i for i in expected if i + 4 <= len(text)]
    hashes = winnow.kgram_hashes(units, 4)
    assert [h for h, _ in as_pairs(selected)] == [int(hashes[p]) for p in starts]


def test_anchor_fingerprints_need_anchors() -> None:
    with pytest.raises(InvalidConfig, match="anchor"):
        winnow.anchor_fingerprints(np.zeros(10, np.uint8), 3, [])


@settings(max_examples=1000, deadline=None)
@given(
    st.one_of(st.lists(st.integers(0, 2), max_size=120), st.lists(st.integers(0, 255),
                                                                  max_size=120)),
    st.integers(1, 6), windows, st.booleans(),
)
def test_fused_winnowing_equals_the_two_pass_path(units: list[int], k: int, w: int,
                                                  robust: bool) -> None:
    """winnow.fingerprint's one-pass kernel selects exactly what hashing every
    k-gram and then winnowing selects (same hashes, same positions)."""
    array = np.array(units, dtype=np.int64)
    hashes = winnow.kgram_hashes(array, k)
    expected = robust_winnow(hashes, w) if robust else plain_winnow(hashes, w)
    assert as_pairs(winnow_units(array, k, w, robust=robust)) == as_pairs(expected)
    config = winnow.WinnowConfig(k=k, t=k + w - 1, method="robust" if robust else "winnow")
    assert as_pairs(winnow.fingerprint(array, config)) == as_pairs(expected)


def test_a_window_longer_than_any_input_is_one_window() -> None:
    """A window of 2^63 - 1 hashes (no upper bound is checked) selects each
    document's minimum, as one longer than the document does."""
    from winnow.engine.selection import winnow_units_distinct

    units = np.arange(10, dtype=np.uint32)
    expected = as_pairs(winnow_units(units, 3, 8))
    assert len(expected) == 1
    assert as_pairs(winnow_units(units, 3, 2**63 - 1)) == expected
    hashes, counts = winnow_units_distinct(units, [0, 10], 3, 2**63 - 1)
    assert hashes.tolist() == [expected[0][0]] and counts.tolist() == [1]


@pytest.mark.parametrize("w", [1, 4, 100, 5000])  # 5000: a window longer than a block
@pytest.mark.parametrize("extra", [-1, 0, 1, 2 * 4096 + 17])
@pytest.mark.parametrize(("alphabet", "dtype"), [(3, np.uint32), (2**32, np.uint32),
                                                 (3, np.uint8), (300, np.uint16),
                                                 (2**32, np.uint64)])
def test_fused_winnowing_across_hash_blocks(w: int, extra: int, alphabet: int,
                                            dtype: type[np.unsignedinteger]) -> None:
    """The one-pass kernel hashes ahead a block at a time: selections that
    cross from one block to the next equal the two-pass path's, whatever
    the units' type (units below 256 take their digit from a table)."""
    from winnow.engine._kernels import HASH_BLOCK
    from winnow.engine.selection import winnow_units_distinct

    k = 5
    units = np.random.default_rng(w + extra).integers(
        0, alphabet, size=HASH_BLOCK + w + extra + k - 1, dtype=np.uint64).astype(dtype)
    hashes = winnow.kgram_hashes(units, k)
    for robust in (True, False):
        expected = robust_winnow(hashes, w) if robust else plain_winnow(hashes, w)
        assert as_pairs(winnow_units(units, k, w, robust=robust)) == as_pairs(expected)
        distinct, counts = winnow_units_distinct(units, [0, units.shape[0]], k, w,
                                                 robust=robust)
        assert distinct.tolist() == np.unique(expected["hash"]).tolist()
        assert counts.tolist() == [distinct.shape[0]]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.lists(st.integers(0, 2), max_size=300),
                       st.lists(st.integers(0, 2**32 - 1), max_size=300)), max_size=6),
    st.integers(1, 6), windows, st.booleans(),
)
def test_distinct_selection_equals_each_documents_sorted_set(
        documents: list[list[int]], k: int, w: int, robust: bool) -> None:
    """The batch kernel gives, document by document, the sorted distinct
    hashes that winnowing the document alone selects (its windows' minima,
    whatever the tie rule)."""
    from winnow.engine.selection import winnow_units_distinct

    units = np.array([u for doc in documents for u in doc], dtype=np.uint32)
    bounds = np.cumsum([0, *map(len, documents)])
    hashes, counts = winnow_units_distinct(units, bounds, k, w, robust=robust)
    expected = [np.unique(winnow_units(np.array(doc, dtype=np.uint32), k, w, robust=robust)["hash"])
                if len(doc) >= k else np.zeros(0, dtype=np.uint64) for doc in documents]
    assert counts.tolist() == [e.shape[0] for e in expected]
    assert hashes.tolist() == [h for e in expected for h in e.tolist()]


@pytest.mark.parametrize("bounds", [[0, 1000, 0, 1000, 0, 1000], [0, 500, 1001], [-1, 10],
                                    [0, 600, 300, 1000]])
def test_distinct_selection_refuses_bounds_outside_the_units(bounds: list[int]) -> None:
    # the compiled loop writes each document's hashes where the bounds say, unchecked
    from winnow.engine.selection import winnow_units_distinct

    with pytest.raises(ValueError, match="bounds must ascend"):
        winnow_units_distinct(np.arange(1000, dtype=np.uint32), bounds, 1, 1)
    hashes, counts = winnow_units_distinct(np.arange(1000, dtype=np.uint32), [0, 400, 1000], 5, 4)
    assert counts.shape[0] == 2 and hashes.shape[0] == int(counts.sum()) > 0
