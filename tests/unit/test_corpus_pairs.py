"""The in-memory count of corpus records' pairs when the client keeps only some."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from winnow.config import WinnowConfig
from winnow.corpus import Fields
from winnow.corpus import groups as corpus_groups
from winnow.corpus import pairs as corpus_pairs
from winnow.corpus.clusters import LinkFilter, Thresholds
from winnow.corpus.fingerprints import ShardJob
from winnow.corpus.groups import hash_ordered, shared_groups
from winnow.corpus.pairs import CorpusPostings, count_groups, count_kept
from winnow.corpus.readers import plan_shards
from winnow.pairs.memory import MemorySums

I64 = npt.NDArray[np.int64]
CONFIG = WinnowConfig(20, 40, "robust")


def at_least(shared: int):  # type: ignore[no-untyped-def]
    def keep(a: I64, b: I64, s: I64, sizes: I64) -> npt.NDArray[np.bool_]:
        return s >= shared
    return keep


def odd_sum(a: I64, b: I64, s: I64, sizes: I64) -> npt.NDArray[np.bool_]:
    return ((a + b + sizes[a]) % 2) == 1


def random_rows(seed: int, docs: int, pool_size: int, most: int) -> tuple[
        npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
    """Distinct ``(hash, doc)`` rows, in a random order, some hashes sharing low bits."""
    rng = np.random.default_rng(seed)
    pool = rng.integers(0, 1 << 62, pool_size, dtype=np.uint64)
    pool[: pool_size // 10] = np.arange(pool_size // 10, dtype=np.uint64) << np.uint64(16)
    rows = [rng.choice(pool, size=min(int(rng.integers(0, most + 1)), pool_size), replace=False)
            for _ in range(docs)]
    owners = np.repeat(np.arange(docs, dtype=np.int32), [r.shape[0] for r in rows])
    mixed = rng.permutation(owners.shape[0])
    return np.concatenate(rows)[mixed] if rows else np.zeros(0, np.uint64), owners[mixed]


def filtered(sums: MemorySums, keep) -> list[tuple[object, ...]]:  # type: ignore[no-untyped-def]
    c = sums.counts
    taken = keep(c.a, c.b, c.shared, sums.sizes)
    return list(zip(c.a[taken].tolist(), c.b[taken].tolist(), c.shared[taken].tolist(),
                    c.weight[taken].tolist(), c.df_sum[taken].tolist(), strict=True))


def rows_of(sums: MemorySums) -> list[tuple[object, ...]]:
    c = sums.counts
    return list(zip(c.a.tolist(), c.b.tolist(), c.shared.tolist(), c.weight.tolist(),
                    c.df_sum.tolist(), strict=True))


def assert_kept_equal(got: MemorySums, every: MemorySums, keep) -> None:  # type: ignore[no-untyped-def]
    assert rows_of(got) == filtered(every, keep)
    for name in ("a", "b", "shared"):
        assert getattr(got.counts, name).dtype == np.int64
    assert got.counts.weight.dtype == got.counts.df_sum.dtype == np.float64
    assert got.sizes.tolist() == every.sizes.tolist()
    assert got.weight_totals.tolist() == every.weight_totals.tolist()
    assert got.capped.tolist() == every.capped.tolist()
    assert got.stats == every.stats


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), docs=st.integers(0, 60), pool=st.integers(1, 400),
       most=st.integers(0, 40), cap=st.integers(2, 70), block=st.sampled_from([1, 2, 7, 1 << 16]),
       shared=st.integers(1, 4), by_hash=st.booleans())
@example(seed=0, docs=6, pool=153, most=36, cap=2, block=1, shared=1, by_hash=False)  # a
# block whose owners' pairs were all filtered out, then an owner over the block
def test_counting_the_kept_pairs_gives_the_kept_pairs_of_counting_all(
        seed: int, docs: int, pool: int, most: int, cap: int, block: int, shared: int,
        by_hash: bool) -> None:
    """count_kept: count_groups' pairs that ``keep`` accepts, every field bit for
    bit, in (a, b) order, whatever the block of pairs summed at a time (a
    record's pairs over a block grow it) and the order of the groups."""
    hashes, owners = random_rows(seed, docs, pool, most)
    groups = shared_groups(hashes, owners, docs, cap, by_hash=by_hash)
    every = count_groups(shared_groups(hashes, owners, docs, cap))
    old = corpus_pairs.BLOCK_PAIRS
    corpus_pairs.BLOCK_PAIRS = block  # a module setting: hypothesis runs each example here
    try:
        for keep in (at_least(shared), odd_sum,
                     LinkFilter(Thresholds(0.5, 0.8, 3, candidate=0.1 * shared))):
            got = count_kept(groups, keep)
            assert got is not None
            assert_kept_equal(got, every, keep)
    finally:
        corpus_pairs.BLOCK_PAIRS = old


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), docs=st.integers(0, 50), cap=st.integers(2, 60))
def test_groups_in_the_order_found_are_the_groups_by_hash(seed: int, docs: int,
                                                         cap: int) -> None:
    hashes, owners = random_rows(seed, docs, 300, 40)
    found = shared_groups(hashes, owners, docs, cap, by_hash=False)
    ordered = shared_groups(hashes, owners, docs, cap)
    assert not found.by_hash and ordered.by_hash
    again = hash_ordered(found)
    for name in ("hashes", "owners", "df", "sizes", "kept", "alone", "capped"):
        assert getattr(again, name).tolist() == getattr(ordered, name).tolist()
    assert sorted(zip(found.hashes.tolist(), found.owners.tolist(), strict=True)) == list(
        zip(ordered.hashes.tolist(), ordered.owners.tolist(), strict=True))
    assert (again.rows, again.distinct) == (ordered.rows, ordered.distinct)
    assert bool(np.all(np.diff(ordered.hashes.astype(np.float64)) >= 0))
    assert count_groups(found).counts.a.tolist() == count_groups(ordered).counts.a.tolist()


def test_the_kept_pairs_are_few_and_all_found() -> None:
    hashes, owners = random_rows(3, 300, 2000, 50)
    groups = shared_groups(hashes, owners, 300, 50)
    every = count_groups(groups)
    keep = at_least(3)
    got = count_kept(groups, keep)
    assert got is not None
    assert 0 < len(got.counts) < len(every.counts) // 4
    assert_kept_equal(got, every, keep)


def test_over_the_pair_budget_every_pair_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where count_shared would treat large groups apart (over its pair budget,
    groups of more than RARE_FLOOR records), count_kept declines, and the
    in-memory count falls back on counting every pair."""
    hashes, owners = random_rows(4, 80, 40, 30)  # few hashes: groups of dozens
    groups = shared_groups(hashes, owners, 80, 80)
    assert int(groups.sizes.max()) > 10
    monkeypatch.setattr(corpus_pairs, "PAIR_BUDGET", 10)
    assert count_kept(groups, at_least(1)) is None


def words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 7)))
                    for _ in range(n))


@pytest.mark.parametrize("budget", [1 << 26, 0])
def test_in_memory_postings_with_a_filter_give_the_kept_pairs(
        tmp_path: Path, budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """CorpusPostings.in_memory with ``keep``: the pairs of a count without it
    that ``keep`` accepts (all of them when over the pair budget, with groups
    larger than RARE_FLOOR: an engine may leave rejected pairs out, and must
    keep the others)."""
    monkeypatch.setattr(corpus_pairs, "PAIR_BUDGET", budget)
    rng = random.Random(11)
    texts = [words(rng, 80) for _ in range(20)]
    texts += [texts[0][:300] + words(rng, 4), texts[1] + " " + texts[2], texts[3][50:],
              texts[4] + words(rng, 2), texts[5],
              words(rng, 200) + " " + texts[6][:80] + " " + words(rng, 200)]  # a little
    texts += [texts[7]] * 12  # 13 records hold its hashes: more than RARE_FLOOR
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
    shards, _ = plan_shards([str(path)], Fields())
    jobs = [ShardJob(s, Fields(), CONFIG) for s in shards]
    keep = LinkFilter(Thresholds(0.5, 0.8, 3, candidate=0.3))
    every = CorpusPostings(jobs, len(texts), 0, workers=1).in_memory(100, None)
    got = CorpusPostings(jobs, len(texts), 0, workers=1, keep=keep).in_memory(100, None)
    assert isinstance(every, MemorySums) and isinstance(got, MemorySums)
    if budget:
        assert_kept_equal(got, every, keep)
        assert 0 < len(got.counts) < len(every.counts)
    else:
        assert rows_of(got) == rows_of(every)


def array_candidates(a: I64, b: I64, shared: I64, sizes: I64,
                     thresholds: Thresholds) -> npt.NDArray[np.bool_]:
    """The candidate rule written with the module's array functions (the
    reference for the compiled one)."""
    from winnow.corpus.clusters import contained, scores

    printed, containment = scores(a, b, shared, sizes)
    assert thresholds.candidate is not None
    return (printed >= thresholds.candidate) | contained(a, b, containment, sizes, thresholds)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 1 << 30), n=st.integers(0, 300), docs=st.integers(1, 40),
       top=st.integers(0, 60), candidate=st.sampled_from([0.0, 0.05, 0.1, 0.25, 0.5, 1.0]),
       containment=st.sampled_from([0.0, 0.5, 0.8, 1.0]), least=st.integers(0, 8),
       narrow=st.booleans())
def test_compiled_candidates_equal_the_array_rule(
        seed: int, n: int, docs: int, top: int, candidate: float, containment: float,
        least: int, narrow: bool) -> None:
    from winnow.corpus.clusters import candidates

    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, top + 1, docs).astype(np.int64)
    a = rng.integers(0, docs, n)
    b = rng.integers(0, docs, n)
    shared = rng.integers(0, top + 1, n)
    # pairs on a threshold exactly: shared / union == candidate, shared / smaller == containment
    if n and docs > 1:
        sizes[0], sizes[1] = 40, 40
        a[0], b[0], shared[0] = 0, 1, 40 * candidate * 2 // (1 + candidate)
        a[-1], b[-1], shared[-1] = 0, 1, int(40 * containment)
    thresholds = Thresholds(0.5, containment, least, candidate=candidate)
    want = array_candidates(a, b, shared, sizes, thresholds)
    if narrow:  # other integer types: converted, same answer
        a, b, shared = a.astype(np.int32), b.astype(np.int32), shared.astype(np.uint32)
    got = candidates(a, b, shared, sizes, thresholds)
    assert got.dtype == np.bool_ and got.tolist() == want.tolist()
    if n and docs > 1 and candidate in (0.0, 1.0):
        assert got[0]  # 0 reaches 0; 40 of 40 and 40 reach 1


def test_a_pair_of_an_unknown_record_is_refused() -> None:
    from winnow.corpus.clusters import candidates

    one = np.ones(1, dtype=np.int64)
    with pytest.raises(IndexError):
        candidates(one * 0, one * 3, one, np.ones(3, np.int64), Thresholds(0.5, 0.8, 3, 0.1))


def test_groups_within_the_rare_floor_are_counted_whatever_the_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """count_shared counts every group of up to RARE_FLOOR records exactly, past
    its pair budget too, so count_kept does not decline them."""
    hashes, owners = random_rows(4, 80, 300, 30)
    groups = shared_groups(hashes, owners, 80, 10)  # the cap keeps every group <= 10
    every = count_groups(groups)
    monkeypatch.setattr(corpus_pairs, "PAIR_BUDGET", 10)
    got = count_kept(groups, at_least(1))
    assert got is not None and len(got.counts) > 100
    assert_kept_equal(got, every, at_least(1))


@pytest.mark.parametrize("partners", [20, 33, 500])
def test_a_record_paired_with_many_gets_its_pairs_in_order(partners: int) -> None:
    """Record 0 shares one hash with each of ``partners`` others (the partners'
    list is sorted by insertion when short, else by a comparison sort)."""
    hashes = np.concatenate([np.arange(1, partners + 1, dtype=np.uint64) * np.uint64(7919)] * 2)
    owners = np.concatenate([np.zeros(partners, np.int32),
                             np.arange(partners, 0, -1, dtype=np.int32)])
    groups = shared_groups(hashes, owners, partners + 1, 5, by_hash=False)
    every = count_groups(shared_groups(hashes, owners, partners + 1, 5))
    got = count_kept(groups, at_least(1))
    assert got is not None
    assert_kept_equal(got, every, at_least(1))
    assert got.counts.a.tolist() == [0] * partners
    assert got.counts.b.tolist() == list(range(1, partners + 1))


def groups_fields(groups: corpus_groups.Groups) -> list[object]:
    return [getattr(groups, name).tolist() for name in
            ("hashes", "owners", "df", "kept", "alone", "capped", "sizes")] + [
        groups.rows, groups.distinct, groups.by_hash]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), docs=st.integers(0, 60), pool=st.integers(1, 400),
       most=st.integers(0, 40), cap=st.integers(2, 70), bits=st.integers(0, 4),
       block=st.sampled_from([1, 7, 1 << 16]), stretch=st.sampled_from([1, 300, 1 << 21]))
def test_two_threads_group_and_count_what_one_does(seed: int, docs: int, pool: int, most: int,
                                                   cap: int, bits: int, block: int,
                                                   stretch: int) -> None:
    """shared_groups on two threads (each a range of parts, the second's
    groups moved down behind the first's), consuming its input (grouped a
    stretch of ``stretch`` rows at a time, each stretch's pages given back)
    and count_kept on two (each a range of owners): the same arrays, bit for
    bit, as one thread."""
    from winnow.corpus.fingerprints import by_part

    hashes, owners = random_rows(seed, docs, pool, most)
    hashes, owners, parts = by_part(hashes, owners, bits)
    bounds = np.zeros((1, parts.shape[0] + 1), dtype=np.int64)
    np.cumsum(parts, out=bounds[0, 1:])
    keep = LinkFilter(Thresholds(0.5, 0.8, 3, candidate=0.1))
    saved = (corpus_groups.SPLIT_ROWS, corpus_groups.usable_cores, corpus_pairs.BLOCK_PAIRS,
             corpus_groups.GROUP_ROWS)
    corpus_pairs.BLOCK_PAIRS = block  # module settings: hypothesis runs each example here
    corpus_groups.GROUP_ROWS = stretch
    try:
        one = shared_groups(hashes, owners, docs, cap, bounds, by_hash=False)
        one_sums = count_kept(one, keep)
        corpus_groups.SPLIT_ROWS, corpus_groups.usable_cores = 0, lambda: 2
        two = shared_groups(hashes.copy(), owners.copy(), docs, cap, bounds, by_hash=False,
                            consume=True)
        two_sums = count_kept(two, keep)
    finally:
        (corpus_groups.SPLIT_ROWS, corpus_groups.usable_cores, corpus_pairs.BLOCK_PAIRS,
         corpus_groups.GROUP_ROWS) = saved
    assert groups_fields(two) == groups_fields(one)
    assert one_sums is not None and two_sums is not None
    assert rows_of(two_sums) == rows_of(one_sums)
    assert two_sums.weight_totals.tolist() == one_sums.weight_totals.tolist()
    assert two_sums.stats == one_sums.stats


def test_a_large_input_consumed_in_stretches_groups_as_one_pass(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Big enough that every stretch of ``consume`` gives whole pages back
    (the random cases above are a few KiB), split between two threads."""
    from winnow.corpus.fingerprints import by_part

    hashes, owners = random_rows(7, 4000, 30_000, 120)
    hashes, owners, parts = by_part(hashes, owners, 6)
    bounds = np.zeros((1, parts.shape[0] + 1), dtype=np.int64)
    np.cumsum(parts, out=bounds[0, 1:])
    one = shared_groups(hashes, owners, 4000, 50, bounds, by_hash=False)
    calls: list[tuple[int, int]] = []
    group_parts = corpus_groups._group_parts

    def spied(*args: object) -> tuple[int, int, int, int]:
        calls.append((int(args[6]), int(args[7])))  # type: ignore[call-overload]
        return group_parts(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(corpus_groups, "_group_parts", spied)
    monkeypatch.setattr(corpus_groups, "GROUP_ROWS", 4096)
    monkeypatch.setattr(corpus_groups, "SPLIT_ROWS", 0)
    monkeypatch.setattr(corpus_groups, "usable_cores", lambda: 2)
    two = shared_groups(hashes.copy(), owners.copy(), 4000, 50, bounds, by_hash=False,
                        consume=True)
    assert hashes.shape[0] > 150_000
    assert len(calls) == 2 and calls[0][0] == 0 < calls[0][1] == calls[1][0] < calls[1][1]
    assert groups_fields(two) == groups_fields(one)


@pytest.mark.parametrize(("to", "start", "n"), [(0, 0, 10), (3, 10, 50), (0, 70_000, 200_000),
                                                (5, 70_005, 65_000), (1, 2, 0)])
def test_moving_values_down_copies_them_as_one_assignment_would(to: int, start: int,
                                                                n: int) -> None:
    values = np.arange(start + n + 7, dtype=np.int64)
    want = values.copy()
    want[to:to + n] = values[start:start + n].copy()
    corpus_groups._move_down(values, to, start, n)
    assert values.tolist() == want.tolist()


@pytest.mark.skipif(sys.platform != "linux", reason="pages given back only on Linux")
def test_dropped_pages_read_as_zeros_and_the_rest_is_kept() -> None:
    from winnow.parallel import drop_pages

    values = np.arange(1 << 16, dtype=np.uint64) + np.uint64(1)
    drop_pages(values, 1000, 40_000)
    zero = np.flatnonzero(values == 0)
    assert zero.shape[0] > 30_000  # whole pages inside the range (Linux)
    assert zero.min() >= 1000 and zero.max() < 40_000
    kept = values != 0
    assert values[kept].tolist() == (np.flatnonzero(kept) + 1).tolist()
