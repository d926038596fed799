"""What keeps a sharded run's memory flat: windows that read only their rows,
per-document state only for documents that share a hash, and allocators
that give freed memory back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from winnow.corpus import DedupSettings
from winnow.errors import InvalidConfig
from winnow.pairs import EngineChoice
from winnow.sharded import ShardPlan, count_pairs, prints
from winnow.sharded.pairs import read_window
from winnow.sharded.plan import MAX_PARTITIONS, PARTITION_ROWS, Store, partitions_for
from winnow.sharded.prints import ShardTask, write_shard
from winnow.sharded.stage import make_plan
from winnow.sharded.synthetic import synthetic_prints, synthetic_shards
from winnow.tables import idf_weights

pytestmark = pytest.mark.sharded


def _written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Store, list[str]]:
    """One partition's files of 12 input shards, in row groups of 64 rows."""
    monkeypatch.setattr(prints, "ROW_GROUP", 64)
    store = Store.of(tmp_path / "run")
    store.makedirs()
    files = []
    for i, shard in enumerate(synthetic_shards(120, 10)):
        done = write_shard(ShardTask(store, i, shard, synthetic_prints, 1, 1 << 20))
        files += done.files[0]
    return store, files


def test_windows_read_exactly_their_rows(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    store, files = _written(tmp_path, monkeypatch)
    everything = [pq.read_table(store.path(f)) for f in files]
    assert all(t.num_rows > 64 for t in everything)  # several row groups per file
    hashes = np.concatenate([t.column("hash").to_numpy() for t in everything])
    docs = np.concatenate([t.column("doc").to_numpy() for t in everything])
    windows = 7
    seen = 0
    for window in range(windows):
        got_h, got_d = read_window(store, files, window, windows)  # expecting 0: grows
        lo = window * (1 << 64) // windows
        hi = (window + 1) * (1 << 64) // windows
        inside = (hashes >= np.uint64(lo)) & ((hashes < np.uint64(hi)) if hi >> 64 == 0
                                              else np.ones(hashes.shape[0], bool))
        want = sorted(zip(hashes[inside].tolist(), docs[inside].tolist(), strict=True))
        assert sorted(zip(got_h.tolist(), got_d.tolist(), strict=True)) == want
        seen += got_h.shape[0]
    assert seen == hashes.shape[0]  # every row in exactly one window


def test_only_documents_sharing_a_hash_get_rows(tmp_path: Path) -> None:
    """Stage 2 writes per-document rows only for documents with a hash in
    another document (or a capped one): the rest is derived in the driver."""
    shards = synthetic_shards(600, 100, boiler=0)  # no boilerplate: copies only
    plan = ShardPlan(tmp_path / "run", partitions=3, jobs=1)
    sums = count_pairs(shards, synthetic_prints, plan, cap=50)
    kept = [pq.read_table(Path(plan.workdir) / "kept" / f"p{p:04d}.parquet")
            for p in range(3)]
    documents = set().union(*(t.column("doc").to_pylist() for t in kept))
    sharing = set(np.concatenate([block.a for block in sums.blocks()]).tolist()) | set(
        np.concatenate([block.b for block in sums.blocks()]).tolist())
    assert documents == sharing
    assert len(documents) < 600 // 4  # a copy and its source, every tenth document
    assert (sums.sizes == 100).all()  # nothing capped: every fingerprint kept


def test_arrow_loads_with_the_system_allocator() -> None:
    code = ("import winnow.sharded, pyarrow\n"
            "print(pyarrow.default_memory_pool().backend_name)")
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert out.strip() == "system"


def test_a_users_allocator_choice_wins() -> None:
    code = ("import winnow.corpus, pyarrow\n"
            "print(pyarrow.default_memory_pool().backend_name)")
    env = {**os.environ, "ARROW_DEFAULT_MEMORY_POOL": "jemalloc"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, env=env)
    if "jemalloc" not in result.stderr + result.stdout:
        pytest.skip("this pyarrow has no jemalloc")
    assert result.stdout.strip() == "jemalloc"


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's allocator")
def test_freed_arrays_go_back_to_the_system() -> None:
    """After map_large_allocations, a freed array leaves the process at once,
    and release_memory keeps it there; a worker's size is what it holds."""
    code = """
import numpy as np
from winnow.corpus import DedupSettings
from winnow.errors import InvalidConfig
from winnow.parallel import map_large_allocations, release_memory

def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS'):
            return int(line.split()[1]) >> 10

map_large_allocations()
start = rss()
survivors = []
for _ in range(20):  # arrays of 1-16 MiB, a small survivor after each, freed per round
    arrays = []
    for n in range(1, 17):
        arrays.append(np.ones(n << 17, np.int64))
        survivors.append(np.ones(64, np.int64))
    del arrays
    release_memory()
print(rss() - start)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    # MiB; 152 with both functions replaced by no-ops: the heap kept the arrays
    assert int(out) < 16


def test_partitions_follow_the_rows() -> None:
    """Without --partitions, a partition gets about PARTITION_ROWS rows, so a
    stage-2 task holds as much for 100,000 records as for 10 million."""
    assert partitions_for(0) == 1
    assert partitions_for(PARTITION_ROWS) == 1
    assert partitions_for(3 * PARTITION_ROWS + 1) == 4
    assert partitions_for(10**15) == MAX_PARTITIONS
    with make_plan(EngineChoice("local-sharded"), "local-sharded", 5 * PARTITION_ROWS) as plan:
        assert plan.partitions == 5
    with make_plan(EngineChoice("local-sharded", partitions=7), "local-sharded",
                   5 * PARTITION_ROWS) as plan:
        assert plan.partitions == 7  # the user's number wins


def test_dedup_settings_take_automatic_partitions() -> None:
    assert DedupSettings().partitions is None
    assert DedupSettings(partitions=3).partitions == 3
    with pytest.raises(InvalidConfig, match="partitions"):
        DedupSettings(partitions=0)


def test_documents_sharing_nothing(tmp_path: Path) -> None:
    """No hash in two documents: no per-document rows, no pairs, and every
    fingerprint kept at the weight of a hash in one document."""
    shards = synthetic_shards(50, 10, copy_every=0, boiler=0)
    sums = count_pairs(shards, synthetic_prints, ShardPlan(tmp_path / "run", partitions=2,
                                                           jobs=1), cap=50)
    assert len(sums) == 0 and list(sums.blocks()) == []
    kept = [pq.read_table(tmp_path / "run" / "kept" / f"p{p:04d}.parquet") for p in range(2)]
    assert sum(t.num_rows for t in kept) == 0
    assert (sums.sizes == 100).all()
    assert (sums.weight_totals == 100 * idf_weights(np.ones(1, np.int64), 50)[0]).all()


def test_a_window_asks_for_no_more_than_its_rows(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Stage-1 files of a partition are often one row group each, so every
    window selects every file: the read must still ask for arrays of the
    window's rows only (a worker's data segment is capped, and counts the
    address space asked, written or not)."""
    folder = tmp_path / "run"
    (folder / "prints" / "p0000").mkdir(parents=True)
    rng = np.random.default_rng(0)
    files = []
    for i in range(16):  # one row group of 20,000 rows each
        hashes = np.sort(rng.integers(0, 2**64, 20_000, dtype=np.uint64))
        name = f"prints/p0000/s{i:06d}-0000.parquet"
        pq.write_table(pa.table({"hash": pa.array(hashes),
                                 "doc": pa.array(np.full(20_000, i, np.int64))}),
                       folder / name, row_group_size=1 << 15)
        files.append(name)
    asked: list[int] = []
    empty = np.empty

    def recording(shape: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(int(np.prod(shape)))
        return empty(shape, *args, **kwargs)

    monkeypatch.setattr(np, "empty", recording)
    total = 0
    for window in range(8):
        hashes, _ = read_window(Store.of(folder), files, window, 8, 16 * 20_000 // 8)
        assert hashes.shape[0] < 16 * 20_000 // 4
        assert asked and max(asked) < 16 * 20_000 // 3  # not the partition's 320,000
        asked.clear()
        total += hashes.shape[0]
    assert total == 16 * 20_000


def test_bad_caps_and_partitions_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidConfig, match="cap"):
        count_pairs(synthetic_shards(20, 10), synthetic_prints,
                    ShardPlan(tmp_path / "run", partitions=2, jobs=1), cap=0)
    with pytest.raises(InvalidConfig, match="partitions"):
        EngineChoice("local-sharded", partitions=0)
