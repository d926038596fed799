"""The sharded engine (local process pool) against the in-memory engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.sharded.helpers import DIE_FROM, assert_same_as_in_memory, dying_prints, in_memory
from winnow.errors import InvalidConfig
from winnow.sharded import ShardedRunError, ShardPlan, count_pairs
from winnow.sharded.pairs import count_rows
from winnow.sharded.plan import FORMAT_VERSION
from winnow.sharded.synthetic import planted_pairs, synthetic_prints, synthetic_shards
from winnow.tables import idf_weights

pytestmark = pytest.mark.sharded

N = 2400
SHARDS = synthetic_shards(N, 200)
#: Small budgets: several stage-1 chunks, stage-2 windows and stage-3 windows.
SMALL = {"row_budget": 4096, "window_rows": 8192, "merge_rows": 1024}


def corpus_extras() -> tuple[np.ndarray, np.ndarray]:
    """A base set (some real fingerprints) and archive documents."""
    hashes = np.concatenate([h for _, h in synthetic_prints(SHARDS[3])])
    archive = np.zeros(N, dtype=bool)
    archive[: N // 4] = True
    return np.unique(hashes[::7]), archive


@pytest.mark.parametrize("budgets", [{}, SMALL], ids=["one-window", "small-windows"])
def test_local_sharded_equals_in_memory(tmp_path: Path, budgets: dict[str, int]) -> None:
    base, archive = corpus_extras()
    plan = ShardPlan(tmp_path / "run", partitions=5, jobs=2, **budgets)
    sums = count_pairs(SHARDS, synthetic_prints, plan, cap=40, base=base, archive=archive)
    assert_same_as_in_memory(sums, in_memory(SHARDS, 40, base, archive))
    assert sums.stats["ignored_common"] > 0  # the cap did drop the boilerplate


def test_every_planted_copy_is_found_in_order(tmp_path: Path) -> None:
    sums = count_pairs(SHARDS, synthetic_prints, ShardPlan(tmp_path, partitions=3, jobs=1),
                       cap=40)
    a, b, shared = sums.arrays()
    keys = a * N + b
    assert (np.diff(keys) > 0).all()  # (a, b) order, each pair once
    pa, pb = planted_pairs(N)
    found = np.isin(pa * N + pb, keys)
    assert found.all()
    assert shared[np.isin(keys, pa * N + pb)].min() >= 45  # about half of 100 prints
    blocks = list(sums.blocks(rows=50))
    assert max(len(block.a) for block in blocks) <= 50
    assert sum(len(block.a) for block in blocks) == len(sums) == a.shape[0]


def test_slices_count_as_one_call() -> None:
    hashes = np.repeat(np.arange(1, 301, dtype=np.uint64), 6)
    docs = np.tile(np.arange(6, dtype=np.int64), 300) + np.repeat(np.arange(300) % 4, 6)
    weights = np.ones(hashes.shape[0])
    whole = list(count_rows(hashes, docs, weights, None, budget=1 << 30))
    sliced = list(count_rows(hashes, docs, weights, None, budget=40))
    assert len(whole) == 1 and len(sliced) > 10
    total: dict[tuple[int, int], int] = {}
    for part in sliced:
        for a, b, s in zip(part.a.tolist(), part.b.tolist(), part.shared.tolist(), strict=True):
            total[a, b] = total.get((a, b), 0) + s
    expected = dict(zip(zip(whole[0].a.tolist(), whole[0].b.tolist(), strict=True),
                        whole[0].shared.tolist(), strict=True))
    assert total == expected


def test_weight_sums_do_not_depend_on_the_order() -> None:
    rng = np.random.default_rng(3)
    weights = idf_weights(rng.integers(1, 5000, 200_000), 10_000)
    shuffled = rng.permutation(weights)
    assert weights.sum() == shuffled.sum() == np.add.reduce(shuffled[::-1])
    halves = shuffled[::2].sum() + shuffled[1::2].sum()
    assert halves == float(np.cumsum(weights)[-1])


def test_another_cap_reuses_the_fingerprints(tmp_path: Path) -> None:
    plan = ShardPlan(tmp_path, partitions=4, jobs=1)
    count_pairs(SHARDS, synthetic_prints, plan, cap=40)
    marker = tmp_path / "done" / "prints" / "s000000.json"
    stamp = marker.stat().st_mtime_ns
    base, archive = corpus_extras()
    sums = count_pairs(SHARDS, synthetic_prints, plan, cap=5, base=base, archive=archive)
    assert marker.stat().st_mtime_ns == stamp
    assert_same_as_in_memory(sums, in_memory(SHARDS, 5, base, archive))


def test_a_folder_of_another_run_is_refused(tmp_path: Path) -> None:
    count_pairs(SHARDS[:2], synthetic_prints, ShardPlan(tmp_path, partitions=4, jobs=1), cap=9)
    with pytest.raises(ShardedRunError, match="another run"):
        count_pairs(SHARDS[:2], synthetic_prints, ShardPlan(tmp_path, partitions=8, jobs=1),
                    cap=9)


def test_a_folder_of_another_winnow_is_refused_as_such(tmp_path: Path) -> None:
    count_pairs(SHARDS[:2], synthetic_prints, ShardPlan(tmp_path, partitions=4, jobs=1), cap=9)
    plan = tmp_path / "plan.json"
    older = {**json.loads(plan.read_text(encoding="utf-8")), "version": FORMAT_VERSION - 1}
    plan.write_text(json.dumps(older), encoding="utf-8")  # as an earlier winnow left it
    with pytest.raises(ShardedRunError, match=f"another winnow .*format {FORMAT_VERSION - 1}, "
                                              f"this winnow's {FORMAT_VERSION}"):
        count_pairs(SHARDS[:2], synthetic_prints, ShardPlan(tmp_path, partitions=4, jobs=1),
                    cap=9)


def test_a_folder_of_other_inputs_is_refused(tmp_path: Path) -> None:
    count_pairs(SHARDS[:2], synthetic_prints, ShardPlan(tmp_path, partitions=4, jobs=1), cap=9)
    other = synthetic_shards(400, 200, seed=1)
    with pytest.raises(ShardedRunError, match="another run"):
        count_pairs(other, synthetic_prints, ShardPlan(tmp_path, partitions=4, jobs=1), cap=9)


def test_bad_plans_and_ids_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidConfig, match="partitions"):
        ShardPlan(tmp_path, partitions=0)
    with pytest.raises(ShardedRunError, match="twice"):
        count_pairs(SHARDS[:1] * 2, synthetic_prints, ShardPlan(tmp_path, jobs=1), cap=9)


KILLED_RUN = """
import sys
from tests.sharded.helpers import dying_prints
from winnow.sharded import ShardPlan, count_pairs
from winnow.sharded.synthetic import synthetic_shards
count_pairs(synthetic_shards({n}, 200), dying_prints, ShardPlan(sys.argv[1], partitions=5,
            jobs=1, **{small}), cap=40)
"""


def test_a_killed_run_resumes_to_the_same_output(tmp_path: Path) -> None:
    """A run killed (SIGKILL) in the middle of its seventh shard, then run
    again: the six finished shards are kept, and the output is a fresh run's."""
    run = tmp_path / "killed"
    env = {**os.environ, DIE_FROM: str(6 * 200)}
    code = KILLED_RUN.format(n=N, small=SMALL)
    killed = subprocess.run([sys.executable, "-c", code, str(run)], env=env,
                            cwd=Path(__file__).parents[2], check=False)
    assert killed.returncode == -9
    done = sorted(p.name for p in (run / "done" / "prints").iterdir())
    assert done == [f"s{i:06d}.json" for i in range(6)]
    stamps = {p: p.stat().st_mtime_ns for p in (run / "done" / "prints").iterdir()}
    plan = ShardPlan(run, partitions=5, jobs=2, **SMALL)
    resumed = count_pairs(SHARDS, dying_prints, plan, cap=40)
    assert all(p.stat().st_mtime_ns == t for p, t in stamps.items())
    fresh = count_pairs(SHARDS, synthetic_prints,
                        ShardPlan(tmp_path / "fresh", partitions=5, jobs=2, **SMALL), cap=40)
    for x, y in zip(resumed.blocks(), fresh.blocks(), strict=True):
        for column in ("a", "b", "shared", "weight", "df_sum"):
            np.testing.assert_array_equal(getattr(x, column), getattr(y, column))
    np.testing.assert_array_equal(resumed.sizes, fresh.sizes)
    assert resumed.stats == fresh.stats


def test_choosing_an_engine_loads_no_pyarrow() -> None:
    """compare and groups import the engine choice on every run; pyarrow (0.3 s
    to import) is loaded only when a sharded run starts."""
    import subprocess
    import sys

    code = ("import sys, winnow.cli.compare, winnow.cli.groups, winnow.cli.dedup\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pyarrow'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_a_pair_filter_keeps_only_its_pairs_with_their_exact_sums(tmp_path: Path) -> None:
    from winnow.corpus.clusters import LinkFilter, Thresholds, scores

    full = count_pairs(SHARDS, synthetic_prints, ShardPlan(tmp_path / "all", partitions=4,
                                                           jobs=2, **SMALL), cap=40)
    a, b, shared = full.arrays()
    resemblance, _ = scores(a, b, shared, full.sizes)
    keep = LinkFilter(Thresholds(float(np.median(resemblance)), 1.0, 10**9))
    wanted = keep(a, b, shared, full.sizes)
    assert 0 < np.count_nonzero(wanted) < a.shape[0]  # the filter has pairs to drop
    kept = count_pairs(SHARDS, synthetic_prints, ShardPlan(tmp_path / "kept", partitions=4,
                                                           jobs=2, **SMALL), cap=40, keep=keep)
    ka, kb, kshared = kept.arrays()
    assert np.array_equal(ka, a[wanted]) and np.array_equal(kb, b[wanted])
    assert np.array_equal(kshared, shared[wanted])
    assert np.array_equal(kept.sizes, full.sizes)
    assert np.array_equal(kept.weight_totals, full.weight_totals)
    # the same folder run again without the filter merges again: every pair
    again = count_pairs(SHARDS, synthetic_prints, ShardPlan(tmp_path / "kept", partitions=4,
                                                            jobs=2, **SMALL), cap=40)
    assert again.arrays()[0].shape[0] == a.shape[0]
