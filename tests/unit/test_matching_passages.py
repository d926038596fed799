"""Passages: seed join, maximal runs, one-to-one trimming, merging, masks."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.matching.passages import (
    Run,
    assemble,
    join_seeds,
    maximal_runs,
)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=12), st.lists(st.integers(0, 6), max_size=12))
def test_join_seeds_is_the_equi_join(left: list[int], right: list[int]) -> None:
    ha = np.sort(np.array(left, dtype=np.uint64))
    hb = np.sort(np.array(right, dtype=np.uint64))
    fa = np.zeros(len(left), dtype=np.int64)
    fb = np.ones(len(right), dtype=np.int64)
    pa = np.arange(len(left), dtype=np.int64)
    pb = np.arange(len(right), dtype=np.int64) + 100
    _, got_pa, _, got_pb = join_seeds(ha, fa, pa, hb, fb, pb)
    expected = sorted((i, j + 100) for i in range(len(left)) for j in range(len(right))
                      if ha[i] == hb[j])
    assert sorted(zip(got_pa.tolist(), got_pb.tolist(), strict=True)) == expected


def _units(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), dtype=np.uint8).astype(np.int64)


def test_maximal_run_extends_both_ways_and_absorbs_seeds() -> None:
    a = _units("xxxxHELLO WORLDyy")
    b = _units("zzHELLO WORLDqqqq")
    units = {0: a, 1: b}
    # three seeds on the same diagonal (offset -2) inside the common run
    pa = np.array([4, 6, 9], dtype=np.int64)
    pb = pa - 2
    runs = maximal_runs(units, np.zeros(3, np.int64), pa, np.ones(3, np.int64), pb, 3).as_list()
    assert runs == [Run(0, 1, 4, 2, len("HELLO WORLD"), 3)]


def test_runs_shorter_than_min_length_are_dropped() -> None:
    a, b = _units("abXcd"), _units("abYcd")
    runs = maximal_runs({0: a, 1: b}, np.array([0]), np.array([0]), np.array([1]),
                        np.array([0]), 3).as_list()
    assert runs == []


def test_masked_units_never_match() -> None:
    a = _units("HELLO WORLD").astype(np.int64)
    b = a.copy()
    a[:3] = -1  # masked as file_info masks base code
    runs = maximal_runs({0: a, 1: b}, np.array([0]), np.array([5]), np.array([1]),
                        np.array([5]), 1).as_list()
    assert runs == [Run(0, 1, 3, 3, 8, 1)]  # stops at the mask


def _longest_stretch(free: list[bool]) -> tuple[int, int]:
    """Start and length of the first longest run of ``True`` (``(0, 0)`` if none)."""
    best, start = (0, 0), 0
    for i, value in enumerate([*free, False]):
        if not value:
            if i - start > best[1]:
                best = (start, i - start)
            start = i + 1
    return best


def _naive_assemble_runs(runs: list[Run], sizes: dict[int, int], min_length: int) -> list[Run]:
    """The runs :func:`assemble` takes, by the rule in its docstring, one unit at a time."""
    claimed = {f: [False] * n for f, n in sizes.items()}
    taken = []
    for run in sorted(runs, key=lambda r: (-r.length, r.fa, r.sa, r.fb, r.sb)):
        free = [not (claimed[run.fa][run.sa + i] or claimed[run.fb][run.sb + i])
                for i in range(run.length)]
        offset, length = _longest_stretch(free)
        if length < min(min_length, run.length):
            continue
        for i in range(offset, offset + length):
            claimed[run.fa][run.sa + i] = claimed[run.fb][run.sb + i] = True
        taken.append(Run(run.fa, run.fb, run.sa + offset, run.sb + offset, length, run.seeds))
    return taken


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 30),
                          st.integers(0, 30), st.integers(1, 12), st.integers(1, 3)),
                max_size=25),
       st.integers(1, 6), st.integers(0, 4))
def test_assemble_takes_the_runs_of_the_one_to_one_rule(
    raw: list[tuple[int, int, int, int, int, int]], min_length: int, gap: int,
) -> None:
    sizes = {0: 42, 1: 42, 2: 42}
    runs = [Run(fa, fb, sa, sb, length, seeds) for fa, fb, sa, sb, length, seeds in raw
            if fa != fb]
    taken = _naive_assemble_runs(runs, sizes, min_length)
    chains = assemble(runs, sizes, gap=gap, min_length=min_length)
    assert sum(c.matched for c in chains) == sum(r.length for r in taken)
    assert sum(c.seeds for c in chains) == sum(r.seeds for r in taken)
    assert len(chains) <= len(taken)
    for r in taken:  # each run taken lies in one chain, on both sides
        assert sum(c.fa == r.fa and c.fb == r.fb and c.sa <= r.sa and r.sa + r.length <= c.ea
                   and c.sb <= r.sb and r.sb + r.length <= c.eb for c in chains) == 1


def _spans(runs: list[Run], gap: int = 0, min_length: int = 4) -> list[tuple[int, ...]]:
    chains = assemble(runs, {0: 100, 1: 100}, gap=gap, min_length=min_length)
    return [(c.sa, c.ea, c.sb, c.eb, c.matched) for c in chains]


def test_assemble_trims_a_run_overlapping_a_longer_one() -> None:
    runs = [Run(0, 1, 0, 0, 20, 2), Run(0, 1, 15, 50, 12, 1)]
    assert _spans(runs) == [(0, 20, 0, 20, 20), (20, 27, 55, 62, 7)]


def test_assemble_drops_a_run_with_too_little_left() -> None:
    runs = [Run(0, 1, 0, 0, 20, 2), Run(0, 1, 60, 5, 6, 1)]
    assert _spans(runs) == [(0, 20, 0, 20, 20)]


def test_assemble_merges_neighbours_in_order_within_the_gap() -> None:
    runs = [Run(0, 1, 0, 0, 20, 2), Run(0, 1, 22, 23, 10, 1)]
    assert _spans(runs, gap=3) == [(0, 32, 0, 33, 30)]
    assert _spans(runs, gap=2) == [(0, 20, 0, 20, 20), (22, 32, 23, 33, 10)]


def test_assemble_does_not_merge_out_of_order() -> None:
    runs = [Run(0, 1, 0, 30, 10, 1), Run(0, 1, 12, 0, 10, 1)]
    chains = assemble(runs, {0: 50, 1: 50}, gap=5)
    assert len(chains) == 2


def _naive_run(x: list[int], y: list[int], p: int, q: int) -> tuple[int, int, int]:
    if x[p] != y[q]:  # a seed whose units differ (a hash collision) starts no run
        return p, q, 0
    back = 0
    while p - back > 0 and q - back > 0 and x[p - back - 1] == y[q - back - 1]:
        back += 1
    fwd = 0
    while p + fwd < len(x) and q + fwd < len(y) and x[p + fwd] == y[q + fwd]:
        fwd += 1
    return p - back, q - back, back + fwd


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 2), min_size=1, max_size=25), min_size=2, max_size=4),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 24),
                       st.integers(0, 24)), max_size=30),
    st.integers(1, 4),
)
def test_maximal_runs_match_a_naive_extension(
    files: list[list[int]], raw: list[tuple[int, int, int, int]], min_length: int
) -> None:
    n = len(files)
    seeds = {(a % n, b % n, p % len(files[a % n]), q % len(files[b % n]))
             for a, b, p, q in raw if a % n != b % n}
    expected: dict[tuple[int, int, int, int, int], int] = {}
    for a, b, p, q in seeds:
        sa, sb, length = _naive_run(files[a], files[b], p, q)
        if length >= min_length:
            key = (a, b, sa, sb, length)
            expected[key] = expected.get(key, 0) + 1
    ids = [10 * i + 3 for i in range(n)]  # global file ids need not be 0..n-1
    units = {ids[i]: np.array(f, dtype=np.int64) for i, f in enumerate(files)}
    arr = np.array(sorted(seeds), dtype=np.int64).reshape(-1, 4)
    runs = maximal_runs(units, np.array(ids)[arr[:, 0]], arr[:, 2], np.array(ids)[arr[:, 1]],
                        arr[:, 3], min_length).as_list()
    got = {(ids.index(r.fa), ids.index(r.fb), r.sa, r.sb, r.length): r.seeds for r in runs}
    assert got == expected
