"""compare's in-memory table and sif's DuckDB index (what the pair-counting
stage's in-memory engine runs for compare and groups) give the same pair
counts, weights and document-frequency sums as a brute-force count over
sets, for any subset of owners and any cap."""

from __future__ import annotations

import itertools
import math
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from winnow.index import FingerprintIndex, NewDocument
from winnow.matching.table import MemoryTable
from winnow.tables import SharedCounts

Counted = dict[tuple[int, int], tuple[int, float, float]]


def oracle(sets: list[set[int]], owners: list[int], max_df: int) -> Counted:
    df: dict[int, int] = {}
    for x in owners:
        for h in sets[x]:
            df[h] = df.get(h, 0) + 1
    n = len(owners)
    out: Counted = {}
    for a, b in itertools.combinations(sorted(owners), 2):
        kept = [h for h in sets[a] & sets[b] if df[h] <= max_df]
        if kept:
            out[(a, b)] = (len(kept), sum(1 + math.log((1 + n) / (1 + df[h])) for h in kept),
                           float(sum(df[h] for h in kept)))
    return out


def as_dict(counts: SharedCounts) -> Counted:
    return {(int(a), int(b)): (int(s), float(w), float(d)) for a, b, s, w, d in zip(
        counts.a, counts.b, counts.shared, counts.weight, counts.df_sum, strict=True)}


def memory_table(sets: list[set[int]]) -> MemoryTable:
    rows = sorted((h, x) for x, s in enumerate(sets) for h in s)
    hashes = np.array([h for h, _ in rows], dtype=np.uint64)
    owners = np.array([x for _, x in rows], dtype=np.int64)
    return MemoryTable(hashes, owners, np.ones(len(rows), dtype=bool),
                       np.zeros(len(sets), dtype=bool))


def index_table(sets: list[set[int]], db: Path) -> tuple[FingerprintIndex, list[int]]:
    index = FingerprintIndex(db)
    with index.transaction():
        index.resolve_params(None)
        for x, s in enumerate(sets):
            hashes = np.array(sorted(s), dtype=np.int64)
            index.add(NewDocument(f"/d{x}", 1, 1, str(x), "text", "bytes", hashes,
                                  np.arange(hashes.size, dtype=np.int64)))
    ids = [row.id for row in sorted(index.documents(), key=lambda r: int(r.path[2:]))]
    return index, ids


def check(table: MemoryTable | FingerprintIndex, ids: list[int], sets: list[set[int]],
          owners: list[int], max_df: int) -> None:
    chosen = np.array([ids[x] for x in owners])
    got = as_dict(table.shared_counts(chosen, max_df))
    plain = table.pair_counts(chosen, max_df)
    assert {(int(a), int(b)): int(s) for a, b, s in zip(plain.a, plain.b, plain.shared,
                                                        strict=True)} == {
        pair: shared for pair, (shared, _, _) in got.items()}
    back = {v: x for x, v in enumerate(ids)}
    got = {(back[a], back[b]): v for (a, b), v in got.items()}
    want = oracle(sets, owners, max_df)
    assert got.keys() == want.keys()
    for pair, (shared, weight, df_sum) in want.items():
        assert got[pair][0] == shared and got[pair][2] == df_sum
        assert got[pair][1] == pytest.approx(weight)


sets_strategy = st.lists(st.sets(st.integers(1, 30), max_size=12), min_size=2, max_size=8)


@settings(max_examples=60, deadline=None)
@given(sets_strategy, st.data(), st.integers(2, 8))
def test_memory_table_counts_like_the_oracle(sets: list[set[int]], data: st.DataObject,
                                             max_df: int) -> None:
    owners = sorted(data.draw(st.sets(st.integers(0, len(sets) - 1), min_size=2)))
    check(memory_table(sets), list(range(len(sets))), sets, owners, max_df)


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sets_strategy, st.data(), st.integers(2, 8))
def test_duckdb_index_counts_like_the_oracle(tmp_path: Path, sets: list[set[int]],
                                             data: st.DataObject, max_df: int) -> None:
    owners = sorted(data.draw(st.sets(st.integers(0, len(sets) - 1), min_size=2)))
    db = Path(tempfile.mkdtemp(dir=tmp_path)) / "t.db"  # a new index per example
    index, ids = index_table(sets, db)
    with index:
        check(index, ids, sets, owners, max_df)


def test_archive_pairs_and_base_postings_are_never_shared() -> None:
    sets = [{1, 2}, {1, 2}, {1, 2}]
    table = memory_table(sets)
    table.archive[[0, 1]] = True  # 0 and 1 are archives: only pairs with 2 count
    table.own[table.hashes == 2] = np.array([True, True, False])  # 2 is base code in owner 2
    got = as_dict(table.shared_counts(np.arange(3), 3))
    assert set(got) == {(0, 2), (1, 2)}
    assert all(shared == 1 and df_sum == 3.0 for shared, _, df_sum in got.values())
