"""The shortcuts of counting and ranking give exactly what the plain ways give."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import winnow.pairs.counting as counting
from winnow.matching.scores import rank


def _postings(sets: list[set[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (hash, owner) rows sorted by hash then owner, and each row's weight."""
    hashes = np.array([h for s in sets for h in s], dtype=np.uint64)
    owners = np.array([i for i, s in enumerate(sets) for _ in s], dtype=np.int64)
    order = np.lexsort((owners, hashes))
    hashes, owners = hashes[order], owners[order]
    weights = 1.0 + (hashes % np.uint64(7)).astype(np.float64) / 3.0
    return hashes, owners, weights


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sets(st.integers(0, 25), max_size=12), min_size=2, max_size=12),
       st.integers(0, 12), st.sets(st.integers(0, 11), max_size=3))
def test_counts_are_the_same_whatever_the_first_try_holds(
    sets: list[set[int]], first: int, archive: set[int]
) -> None:
    """Arrays too short at the first try are filled again at the exact size;
    arrays too long are cut: the counts are the same, bit for bit."""
    hashes, owners, weights = _postings(sets)
    mask = np.array([i in archive for i in range(len(sets))], dtype=bool)
    saved = counting.FIRST_PAIRS
    try:
        counting.FIRST_PAIRS = first
        small = counting.count_shared(hashes, owners, len(sets), weights=weights,
                                      excluded_owner_pairs=mask)
        counting.FIRST_PAIRS = 1 << 20
        large = counting.count_shared(hashes, owners, len(sets), weights=weights,
                                      excluded_owner_pairs=mask)
    finally:
        counting.FIRST_PAIRS = saved
    for name in ("a", "b", "shared", "weight", "df_sum"):
        got, expected = getattr(small, name), getattr(large, name)
        assert got.dtype == expected.dtype
        assert got.tobytes() == expected.tobytes(), name
    n = len(sets)
    pairs = {(int(a), int(b)) for a, b in zip(large.a, large.b, strict=True)}
    assert pairs == {(a, b) for a in range(n) for b in range(a + 1, n)
                     if sets[a] & sets[b] and not (a in archive and b in archive)}


def _plain_rank(similarity: np.ndarray, shared: np.ndarray, names: list[str], a: np.ndarray,
                b: np.ndarray, top: int, min_similarity: float) -> np.ndarray:
    """The ranking as one sort by four keys (similarity, shared, name of a, name of b)."""
    candidates = np.flatnonzero(similarity >= min_similarity - 1e-12)
    name_rank = np.argsort(np.argsort(np.array(names, dtype=object)))
    order = np.lexsort((name_rank[b[candidates]], name_rank[a[candidates]],
                        -shared[candidates], -similarity[candidates]))
    ranked = candidates[order]
    return (ranked[:top] if top > 0 else ranked).astype(np.int64)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 30), st.integers(0, 200), st.integers(0, 3), st.integers(0, 40),
       st.sampled_from([0.0, 0.3]), st.booleans(), st.integers(0, 2**32))
def test_rank_is_the_plain_four_key_sort(
    n_names: int, n_pairs: int, levels: int, top: int, floor: float, huge: bool, seed: int
) -> None:
    """Many ties (few similarity levels), any ``top``, and shared counts too
    large to pack (``huge``): the same order as the plain sort."""
    rng = np.random.default_rng(seed)
    names = [f"s{rng.integers(0, 10**6)}-{i}" for i in range(n_names)]
    a = rng.integers(0, n_names - 1, n_pairs)
    b = np.minimum(a + 1 + rng.integers(0, n_names, n_pairs), n_names - 1)
    similarity = (rng.integers(0, levels + 1, n_pairs) / max(levels, 1)).astype(np.float64)
    shared = rng.integers(1, 4, n_pairs).astype(np.int64) * (1 << 55 if huge else 1)
    got = rank(similarity, shared, names, a, b, top=top, min_similarity=floor)
    assert got.tolist() == _plain_rank(similarity, shared, names, a, b, top, floor).tolist()


@pytest.mark.parametrize("top", [0, 1, 2, 3, 4])
def test_rank_keeps_every_tie_at_the_cut_in_play(top: int) -> None:
    """Pairs tied with the top-th in similarity are ordered by shared, then names."""
    similarity = np.array([0.5, 0.9, 0.5, 0.5])
    shared = np.array([2, 1, 9, 2])
    a, b = np.array([1, 0, 2, 0]), np.array([2, 1, 3, 3])
    names = ["d", "c", "b", "a"]
    assert rank(similarity, shared, names, a, b, top=top, min_similarity=0).tolist() == (
        [1, 2, 0, 3][:top or 4])


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 400), st.integers(1, 6), st.integers(1, 3), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_lexsort_first_orders_as_numpy_lexsort(n: int, distinct: int, n_keys: int,
                                                nan: bool, seed: int) -> None:
    from winnow.matching.scores import lexsort_first

    rng = np.random.default_rng(seed)
    primary = rng.integers(0, distinct, n) / distinct - 0.5
    if nan and n:
        primary[rng.integers(0, n)] = np.nan
    primary[primary == 0] = -0.0  # equal to 0.0 for both sorts
    others = [rng.integers(0, 3, n) for _ in range(n_keys - 1)]
    keys = (*others, primary)
    assert lexsort_first(keys).tolist() == np.lexsort(keys).tolist()
