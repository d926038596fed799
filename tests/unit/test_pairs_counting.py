"""Shared-fingerprint counting against a brute-force oracle over sets."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.matching.scores import THREADED_MEANS, pair_scores, power_mean, rank
from winnow.pairs.counting import count_shared, group_bounds, pair_order, resolve_cap
from winnow.tables import SharedCounts, idf_weights


def distinct_postings(hashes: np.ndarray, owners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``(hash, owner)`` rows, sorted by hash then owner."""
    rows = np.unique(np.stack([hashes.astype(np.uint64), owners.astype(np.uint64)], axis=1)
                     .reshape(-1, 2), axis=0)
    return rows[:, 0].astype(np.uint64), rows[:, 1].astype(np.int64)


def _rows(sets: list[set[int]]) -> tuple[np.ndarray, np.ndarray]:
    hashes = [h for s in sets for h in s]
    owners = [i for i, s in enumerate(sets) for _ in s]
    return np.array(hashes, dtype=np.uint64), np.array(owners, dtype=np.int64)


def _oracle(sets: list[set[int]], cap: int, archive: set[int]) -> dict[tuple[int, int], int]:
    df: dict[int, int] = {}
    for s in sets:
        for h in s:
            df[h] = df.get(h, 0) + 1
    out = {}
    for a, b in itertools.combinations(range(len(sets)), 2):
        if a in archive and b in archive:
            continue
        shared = {h for h in sets[a] & sets[b] if df[h] <= cap}
        if shared:
            out[(a, b)] = len(shared)
    return out


def _counts(sets: list[set[int]], cap: int, archive: set[int]) -> dict[tuple[int, int], int]:
    hashes, owners = _rows(sets)
    # duplicate rows must not count twice
    hashes, owners = np.concatenate([hashes, hashes]), np.concatenate([owners, owners])
    h, o = distinct_postings(hashes, owners)
    _, sizes = group_bounds(h)
    df = np.repeat(sizes, sizes)
    keep = df <= cap
    mask = np.array([i in archive for i in range(len(sets))], dtype=bool)
    counts = count_shared(h[keep], o[keep], len(sets), excluded_owner_pairs=mask)
    return {
        (int(a), int(b)): int(s)
        for a, b, s in zip(counts.a, counts.b, counts.shared, strict=True)
    }


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sets(st.integers(0, 40), max_size=15), min_size=1, max_size=12),
    st.integers(2, 12),
    st.sets(st.integers(0, 11), max_size=4),
)
def test_counts_match_set_intersections(sets: list[set[int]], cap: int, archive: set[int]) -> None:
    assert _counts(sets, cap, archive) == _oracle(sets, cap, archive)


def test_weights_and_df_sums_per_pair() -> None:
    sets = [{1, 2, 3}, {2, 3, 4}, {3, 4, 5}]
    h, o = distinct_postings(*_rows(sets))
    _, sizes = group_bounds(h)
    w = np.repeat(sizes, sizes).astype(np.float64) * 10  # weight = 10 * df
    counts = count_shared(h, o, 3, weights=w)
    got = {(int(a), int(b)): (int(s), float(x), float(d)) for a, b, s, x, d in zip(
        counts.a, counts.b, counts.shared, counts.weight, counts.df_sum, strict=True)}
    # pair (0,1) shares 2 (df 2) and 3 (df 3)
    assert got[(0, 1)] == (2, 50.0, 5.0)
    assert got[(0, 2)] == (1, 30.0, 3.0)
    assert got[(1, 2)] == (2, 50.0, 5.0)


def test_no_pairs_at_all() -> None:
    h, o = distinct_postings(*_rows([{1}, {2}]))
    counts = count_shared(h, o, 2)
    assert counts.a.shape == (0,)
    empty = distinct_postings(np.zeros(0, np.uint64), np.zeros(0, np.int64))
    assert empty[0].shape == (0,)


@pytest.mark.parametrize(("m", "n", "cap"), [(10, 100, 10), (0.1, 100, 10), (0.01, 100, 2),
                                              (0, 7, 7), (1, 5, 1)])
def test_resolve_cap(m: float, n: int, cap: int) -> None:
    assert resolve_cap(m, n) == cap


def test_idf_is_positive_and_decreasing() -> None:
    w = idf_weights(np.array([1, 2, 5, 10]), 10)
    assert (w > 0).all()
    assert (np.diff(w) < 0).all()


def test_many_small_dfs_weigh_as_each_alone() -> None:
    """Many small integer dfs are weighed by a table of each value's weight:
    the same floats as the formula on each."""
    df = np.random.default_rng(3).integers(1, 300, 50_000)
    assert idf_weights(df, 1_000).tolist() == [float(idf_weights(np.array([d]), 1_000)[0])
                                               for d in df.tolist()]


def test_score_formulas() -> None:
    sets = [set(range(10)), set(range(5, 25))]
    h, o = distinct_postings(*_rows(sets))
    counts = count_shared(h, o, 2)
    sizes = np.array([10, 20], dtype=np.int64)
    s = pair_scores(counts, sizes, np.array([10.0, 20.0]), 2)
    assert s.shared[0] == 5
    assert s.containment_a[0] == pytest.approx(0.5)
    assert s.containment_b[0] == pytest.approx(0.25)
    assert s.jaccard[0] == pytest.approx(5 / 25)
    assert s.dice[0] == pytest.approx(10 / 30)
    assert s.weighted[0] == pytest.approx(5 / 10)
    assert s.rarity[0] == pytest.approx(1.0)  # every shared hash is in both of 2
    assert s.by_name("containment-max")[0] == pytest.approx(0.5)
    assert s.by_name("containment-mean")[0] == pytest.approx(0.375)


def _share(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(num.shape[0])
    np.divide(num, den, out=out, where=den > 0)
    return np.minimum(out, 1.0)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(1, 300))
def test_the_compiled_shares_are_the_numpy_formulas_bit_for_bit(
        seed: int, n_owners: int, n_pairs: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, n_owners, n_pairs)
    b = rng.integers(0, n_owners, n_pairs)
    shared = rng.integers(0, 50, n_pairs)  # 0 too: rarity's denominator
    sizes = rng.integers(0, 60, n_owners)  # below shared at times (capped at 1), 0 at times
    totals = rng.random(n_owners) * rng.integers(0, 3, n_owners)  # some weights 0
    weight = rng.random(n_pairs) * 5.0
    df_sum = rng.random(n_pairs) * 80.0
    counts = SharedCounts(a, b, shared, weight, df_sum)
    got = pair_scores(counts, sizes, totals, n_owners)
    s, fa, fb = shared.astype(float), sizes[a].astype(float), sizes[b].astype(float)
    wa, wb = totals[a], totals[b]
    expected = {
        "containment_a": _share(s, fa), "containment_b": _share(s, fb),
        "jaccard": _share(s, fa + fb - s), "dice": _share(2.0 * s, fa + fb),
        "weighted": _share(weight, np.minimum(wa, wb)), "rarity": _share(df_sum, s * n_owners),
        "weighted_dice": _share(2.0 * weight, wa + wb), "weighted_a": _share(weight, wa),
        "weighted_b": _share(weight, wb),
    }
    for name, values in expected.items():
        assert np.array_equal(getattr(got, name).view(np.uint64), values.view(np.uint64)), name


def test_power_mean_in_place_is_the_expression_bit_for_bit() -> None:
    rng = np.random.default_rng(7)
    x, y = rng.random(5000), rng.random(5000)
    x[::7], y[::11], y[::13] = 0.0, 1.0, 0.0
    expected = np.minimum(((x ** 4.0 + y ** 4.0) / 2.0) ** 0.25, np.maximum(x, y))
    assert np.array_equal(power_mean(x, y).view(np.uint64), expected.view(np.uint64))


@pytest.mark.parametrize("n_pairs", [50, THREADED_MEANS + 7])
def test_the_power_means_are_the_same_on_one_thread_or_two(
        n_pairs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """From :data:`THREADED_MEANS` pairs the estimate and the default ranking
    score are computed side by side: the same bits as one after the other."""
    monkeypatch.setattr("winnow.matching.scores.usable_cores", lambda: 2)
    rng = np.random.default_rng(n_pairs)
    n_owners = 300
    counts = SharedCounts(rng.integers(0, n_owners, n_pairs), rng.integers(0, n_owners, n_pairs),
                          rng.integers(1, 50, n_pairs), rng.random(n_pairs) * 5.0,
                          rng.random(n_pairs) * 80.0)
    got = pair_scores(counts, rng.integers(1, 60, n_owners), rng.random(n_owners) + 0.5,
                      n_owners)
    assert (got.weighted_containment is not None) == (n_pairs >= THREADED_MEANS)
    for score, (x, y) in ((got.estimate, (got.containment_a, got.containment_b)),
                          (got.by_name("weighted-containment"), (got.weighted_a, got.weighted_b))):
        assert np.array_equal(score.view(np.uint64), power_mean(x, y).view(np.uint64))


def test_rank_orders_filters_and_cuts() -> None:
    sim = np.array([0.2, 0.9, 0.5, 0.9])
    shared = np.array([1, 3, 2, 7])
    a = np.array([0, 0, 1, 1])
    b = np.array([1, 2, 2, 3])
    names = ["w", "x", "y", "z"]
    assert rank(sim, shared, names, a, b, top=0, min_similarity=0).tolist() == [3, 1, 2, 0]
    assert rank(sim, shared, names, a, b, top=2, min_similarity=0).tolist() == [3, 1]
    assert rank(sim, shared, names, a, b, top=0, min_similarity=0.5).tolist() == [3, 1, 2]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 30), max_size=12), min_size=1, max_size=10),
    st.integers(0, 4),
    st.sets(st.integers(0, 30), max_size=5),
    st.integers(2, 6),
)
def test_build_table_matches_sets(
    file_hashes: list[list[int]], owners_span: int, base: set[int], cap: int
) -> None:
    from winnow.matching.table import build_table

    # files are given to owners in order, several files per owner
    file_owner = np.array([i // (owners_span + 1) for i in range(len(file_hashes))])
    n_owners = int(file_owner.max()) + 1
    distinct = [sorted(set(fh)) for fh in file_hashes]  # the contract: distinct per file
    hashes = np.array([h for fh in distinct for h in fh], dtype=np.uint64)
    files = np.array([i for i, fh in enumerate(distinct) for _ in fh], dtype=np.int32)
    own = np.array([int(h) not in base for h in hashes], dtype=bool)  # base rows flagged
    table = build_table(hashes, files, file_owner, n_owners, own=own,
                        cap=cap, archive=np.zeros(n_owners, dtype=bool))
    sets = [set() for _ in range(n_owners)]  # type: list[set[int]]
    for i, fh in enumerate(file_hashes):
        sets[file_owner[i]] |= set(fh)
    df = {h: sum(h in s for s in sets) for h in set().union(*sets)}
    capped = {h for h, d in df.items() if d > cap}
    got = {(int(a), int(b)): int(s) for a, b, s in zip(
        table.counts.a, table.counts.b, table.counts.shared, strict=True)}
    assert got == _oracle([s - base - capped for s in sets], len(sets), set())
    kept = [{h for h in s if df[h] <= cap} for s in sets]
    assert table.sizes.tolist() == [len(s) for s in kept]  # base fingerprints count in |F|
    assert set(table.excluded.tolist()) == capped
    for i, fh in enumerate(file_hashes):
        assert table.file_prints[i] == len({h for h in fh if h in kept[file_owner[i]]})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sets(st.integers(0, 15), max_size=10), min_size=2, max_size=12),
       st.integers(0, 40))
def test_over_the_pair_budget_candidates_keep_exact_counts(
    sets: list[set[int]], budget: int
) -> None:
    import winnow.pairs.counting as counting

    h, o = distinct_postings(*_rows(sets))
    _, sizes = group_bounds(h)
    limit = max(2, counting.rare_limit(sizes, budget))
    saved = counting.PAIR_BUDGET, counting.RARE_FLOOR
    counting.PAIR_BUDGET, counting.RARE_FLOOR = budget, 2
    try:
        counts = count_shared(h, o, len(sets), weights=np.repeat(sizes, sizes) * 1.0)
    finally:
        counting.PAIR_BUDGET, counting.RARE_FLOOR = saved
    got = {(int(a), int(b)): (int(s), float(w), float(d)) for a, b, s, w, d in zip(
        counts.a, counts.b, counts.shared, counts.weight, counts.df_sum, strict=True)}
    df = {x: sum(x in s for s in sets) for x in set().union(*sets)}
    expected = {}
    for a, b in itertools.combinations(range(len(sets)), 2):
        both = sets[a] & sets[b]
        if any(df[x] <= limit for x in both):  # a candidate: exact over every shared hash
            total = float(sum(df[x] for x in both))
            expected[(a, b)] = (len(both), total, total)
    assert got == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=300), st.integers(0, 63))
def test_stable_order_is_the_stable_argsort(values: list[int], shift: int) -> None:
    from winnow.matching.table import stable_order

    # Shifted right, the hashes crowd into few buckets (merge-sorted there).
    hashes = np.array(values, dtype=np.uint64) >> np.uint64(shift)
    hashes = np.concatenate([hashes, hashes[::3]])  # equal hashes, ordered by row
    order, ordered = stable_order(hashes)
    assert np.array_equal(order, np.argsort(hashes, kind="stable"))
    assert np.array_equal(ordered, hashes[order])
    _carries_values_as_the_order_says(hashes, order)


def _carries_values_as_the_order_says(hashes: np.ndarray, order: np.ndarray) -> None:
    """``hash_sorted`` sorts as ``stable_order``, each row's value along."""
    from winnow.matching._kernels import hash_sorted

    values = (np.arange(hashes.shape[0], dtype=np.uint32) * np.uint32(2654435761)) >> np.uint32(3)
    keys, carried = hash_sorted(hashes, values)
    assert np.array_equal(keys, hashes[order])
    assert np.array_equal(carried, values[order])


@pytest.mark.parametrize("spread", ["random", "small", "equal"])
def test_stable_order_of_many_rows(spread: str) -> None:
    from winnow.matching.table import stable_order

    rng = np.random.default_rng(3)
    hashes = {"random": rng.integers(0, 2**64 - 1, 200_000, dtype=np.uint64, endpoint=True),
              "small": rng.integers(0, 5_000, 200_000).astype(np.uint64),
              "equal": np.full(200_000, 7, dtype=np.uint64)}[spread]
    hashes = np.concatenate([hashes, hashes[: 50_000]])
    hashes[7] = hashes[8] ^ np.uint64(1)  # alike in every high bit: one bucket
    order, ordered = stable_order(hashes)
    assert np.array_equal(order, np.argsort(hashes, kind="stable"))
    assert np.array_equal(ordered, hashes[order])
    _carries_values_as_the_order_says(hashes, order)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1) | st.integers(0, 20), max_size=300))
def test_repeated_finds_the_rows_of_hashes_in_several_rows(values: list[int]) -> None:
    from winnow.pairs.counting import repeated

    hashes = np.array(values, dtype=np.uint64)
    mask, distinct = repeated(hashes)
    count = {v: values.count(v) for v in set(values)}
    assert mask.tolist() == [count[v] >= 2 for v in values]
    assert distinct == len(count)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sets(st.integers(0, 40), max_size=15), min_size=1, max_size=12),
    st.integers(2, 12),
    st.randoms(use_true_random=False),
)
def test_count_postings_takes_rows_in_any_order(sets: list[set[int]], cap: int,
                                                rnd: object) -> None:
    from winnow.pairs.counting import count_postings

    hashes, owners = _rows(sets)
    order = np.arange(hashes.shape[0])
    rnd.shuffle(order)  # type: ignore[attr-defined]
    sums = count_postings(hashes[order], owners[order], len(sets), cap)
    counts = {(int(a), int(b)): int(s)
              for a, b, s in zip(sums.counts.a, sums.counts.b, sums.counts.shared, strict=True)}
    assert counts == _oracle(sets, cap, set())
    df: dict[int, int] = {}
    for s in sets:
        for h in s:
            df[h] = df.get(h, 0) + 1
    n = len(sets)
    for i, s in enumerate(sets):
        kept = [h for h in s if df[h] <= cap]
        assert sums.sizes[i] == len(kept)
        weights = idf_weights(np.array([df[h] for h in kept], dtype=np.int64), n)
        assert sums.weight_totals[i] == pytest.approx(float(weights.sum()), abs=1e-9)
    assert sorted(sums.capped.tolist()) == sorted(h for h, d in df.items() if d > cap)


@pytest.mark.parametrize("documents", [50, 3 << 30])
def test_pair_order_is_the_lexsort_of_the_pairs(documents: int) -> None:
    rng = np.random.default_rng(documents)
    a = np.sort(rng.integers(0, min(documents, 50), 3000))  # by a, as counted
    b = rng.integers(0, documents, 3000)
    keep = np.unique(a * (documents + 1) + b, return_index=True)[1]  # distinct pairs
    a, b = a[np.sort(keep)], b[np.sort(keep)]
    order = pair_order(a, b, documents)
    assert np.array_equal(order, np.lexsort((b, a)))
    shuffled = rng.permutation(a.shape[0])  # any order of the pairs
    assert np.array_equal(pair_order(a[shuffled], b[shuffled], documents),
                          np.lexsort((b[shuffled], a[shuffled])))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sets(st.integers(0, 60), max_size=20), min_size=2, max_size=14),
       st.sets(st.integers(0, 13), max_size=4))
def test_two_threads_sum_the_pairs_of_one_call(sets: list[set[int]], archive: set[int]) -> None:
    from winnow.pairs import counting

    h, o = distinct_postings(*_rows(sets))
    mask = np.array([i in archive for i in range(len(sets))], dtype=bool)
    weights = np.linspace(1.0, 2.0, h.shape[0])
    _, sizes = group_bounds(h)
    weights = np.repeat(weights[np.cumsum(sizes) - sizes], sizes)  # equal within a hash
    one = count_shared(h, o, len(sets), weights=weights, excluded_owner_pairs=mask)
    saved = counting.SPLIT_WORK, counting.usable_cores
    counting.SPLIT_WORK, counting.usable_cores = 1, lambda: 2  # split whatever the machine
    try:
        two = count_shared(h, o, len(sets), weights=weights, excluded_owner_pairs=mask)
    finally:
        counting.SPLIT_WORK, counting.usable_cores = saved
    for column in ("a", "b", "shared", "weight", "df_sum"):
        np.testing.assert_array_equal(getattr(one, column), getattr(two, column))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sets(st.integers(0, 12), max_size=8), min_size=1, max_size=10),
       st.integers(2, 6))
def test_owner_plan_places_each_owner_in_its_pair_making_groups(
    sets: list[set[int]], limit: int
) -> None:
    from winnow.pairs import _kernels

    h, o = distinct_postings(*_rows(sets))
    starts, sizes = group_bounds(h)
    ptr, groups, rows, later = _kernels.owner_plan(o, starts, sizes, limit, len(sets))
    for x in range(len(sets)):
        mine = [(g, r) for g in range(starts.shape[0]) if 2 <= sizes[g] <= limit
                for r in range(starts[g], starts[g] + sizes[g]) if o[r] == x]
        assert list(zip(groups[ptr[x]:ptr[x + 1]].tolist(), rows[ptr[x]:ptr[x + 1]].tolist(),
                        strict=True)) == mine
        assert later[x] == sum(starts[g] + sizes[g] - r - 1 for g, r in mine)


@given(st.lists(st.integers(1, 30), max_size=60), st.integers(0, 500))
def test_rare_limit_is_the_largest_size_whose_groups_fit_the_budget(
    sizes: list[int], budget: int
) -> None:
    import winnow.pairs.counting as counting

    values = np.array(sizes, dtype=np.int64)
    fitting = [d for d in set(sizes) if d >= 2
               and sum(s * (s - 1) // 2 for s in sizes if 2 <= s <= d) <= budget]
    expected = max(fitting) if fitting else 2
    assert counting.rare_limit(values, budget) == expected


@pytest.mark.parametrize("owners", [[2, 0, 1], [0, 0, 1]])
def test_count_shared_refuses_owners_out_of_order_within_a_hash(owners: list[int]) -> None:
    # pair_sums pairs an owner with the rows after it: they must ascend, each once
    with pytest.raises(ValueError, match="distinct and ascending"):
        count_shared(np.array([5, 5, 5], dtype=np.uint64), np.array(owners, dtype=np.int64), 3)
