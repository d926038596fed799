"""The Ray runner on a real local Ray cluster (two CPUs, loopback), no mocks:
the same pairs as the local engine and the in-memory engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.sharded.helpers import assert_same_as_in_memory, in_memory
from winnow.sharded import ShardPlan, count_pairs
from winnow.sharded.plan import ROW_BUDGET, Store
from winnow.sharded.synthetic import synthetic_prints, synthetic_shards

ray = pytest.importorskip("ray")

pytestmark = [pytest.mark.sharded, pytest.mark.ray]

N = 1500
SHARDS = synthetic_shards(N, 250)


def test_ray_equals_local_and_in_memory(ray_cluster: None, tmp_path: Path) -> None:
    archive = np.zeros(N, dtype=bool)
    archive[::3] = True
    base = np.unique(np.concatenate([h for _, h in synthetic_prints(SHARDS[1])])[::5])
    small = {"row_budget": 4096, "window_rows": 8192, "merge_rows": 2048}
    on_ray = count_pairs(SHARDS, synthetic_prints,
                         ShardPlan(tmp_path / "ray", partitions=4, engine="ray", **small),
                         cap=30, base=base, archive=archive)
    local = count_pairs(SHARDS, synthetic_prints,
                        ShardPlan(tmp_path / "local", partitions=4, jobs=2, **small),
                        cap=30, base=base, archive=archive)
    assert ray.is_initialized()  # the runner joined the cluster and left it running
    x, y = on_ray.shared_counts(), local.shared_counts()
    for column in ("a", "b", "shared", "weight", "df_sum"):
        np.testing.assert_array_equal(getattr(x, column), getattr(y, column))
    np.testing.assert_array_equal(on_ray.sizes, local.sizes)
    assert on_ray.stats == local.stats
    assert_same_as_in_memory(on_ray, in_memory(SHARDS, 30, base, archive))


def test_compare_on_ray_is_the_in_memory_result(ray_cluster: None, tmp_path: Path) -> None:
    from tests.sharded.test_cli import compare_json, planted_corpus

    folders = planted_corpus(tmp_path / "corpus")
    memory = compare_json(folders, "--engine", "in-memory")
    on_ray = compare_json(folders, "--engine", "ray", "--partitions", "2",
                          "--workdir", str(tmp_path / "run"))
    assert (tmp_path / "run" / "merged").is_dir()
    memory.pop("parameters")
    on_ray.pop("parameters")
    assert on_ray == memory


def test_ray_workers_share_an_fsspec_folder(ray_cluster: None, tmp_path: Path) -> None:
    """Ray's worker processes (started afresh, nothing inherited) open a URI
    that pyarrow does not know through fsspec: fsspec's ``dir`` file system
    over the local disk."""
    uri = f"dir::file://{tmp_path / 'ray'}"
    assert "PyFileSystem" in type(Store.of(uri).fs()[0]).__name__
    small = {"row_budget": 4096, "window_rows": 8192, "merge_rows": 2048}
    on_ray = count_pairs(SHARDS, synthetic_prints,
                         ShardPlan(uri, partitions=4, engine="ray", **small), cap=30)
    local = count_pairs(SHARDS, synthetic_prints,
                        ShardPlan(tmp_path / "local", partitions=4, jobs=1, **small), cap=30)
    assert any(p.name == "q0000.parquet" for p in (tmp_path / "ray").rglob("*"))
    x, y = on_ray.shared_counts(), local.shared_counts()
    assert x.a.shape[0] > 0
    for column in ("a", "b", "shared", "weight", "df_sum"):
        np.testing.assert_array_equal(getattr(x, column), getattr(y, column))
    assert on_ray.stats == local.stats


def test_the_stage_counts_on_ray_as_in_memory(ray_cluster: None, tmp_path: Path) -> None:
    """The pair-counting stage's ``ray`` engine: the reference sums, bit for bit."""
    from tests.sharded.test_stage import SHARDS as STAGE_SHARDS
    from tests.sharded.test_stage import SyntheticPostings, base_and_archive
    from winnow.pairs import EngineChoice, count_pairs

    base, archive = base_and_archive()
    postings = SyntheticPostings(STAGE_SHARDS, archive.shape[0], base, archive)
    choice = EngineChoice("ray", workdir=tmp_path / "run", partitions=3)
    with count_pairs(postings, 25, choice) as sums:
        assert_same_as_in_memory(sums, in_memory(STAGE_SHARDS, 25, base, archive))
    assert postings.asked == [f"shards of {ROW_BUDGET} rows"]
