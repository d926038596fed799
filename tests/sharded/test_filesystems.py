"""The sharded engine on file systems that pyarrow does not open itself:
fsspec's, wrapped for pyarrow (:func:`winnow.sharded.plan.open_uri`)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import fsspec
import numpy as np
import pytest
from click.testing import CliRunner
from fsspec.implementations.local import LocalFileSystem

from tests.sharded.test_cli import planted_corpus, run
from winnow.cli.main import main
from winnow.errors import InvalidConfig
from winnow.sharded import PairSums, ShardedRunError, ShardPlan, count_pairs
from winnow.sharded.plan import Store
from winnow.sharded.synthetic import SyntheticShard, synthetic_prints, synthetic_shards

pytestmark = pytest.mark.sharded

N = 1200
SHARDS = synthetic_shards(N, 200)
#: Small budgets: several stage-1 chunks, stage-2 windows and stage-3 windows,
#: so the windowed Parquet readers run on the wrapped file system.
SMALL = {"row_budget": 4096, "window_rows": 8192, "merge_rows": 1024}

#: First documents of the shards fingerprinted in this process.
FINGERPRINTED: list[int] = []


def counted_prints(shard: SyntheticShard) -> Iterator[tuple[int, np.ndarray]]:
    """:func:`synthetic_prints`, recording which shards were fingerprinted
    (seen only for tasks run in this process: ``jobs=1``)."""
    FINGERPRINTED.append(shard.first)
    yield from synthetic_prints(shard)


@pytest.fixture
def memory_run() -> Iterator[str]:
    """A fresh ``memory://`` working folder, removed afterwards (fsspec's
    memory file system is one per process, shared by every test)."""
    name = f"/winnow-{uuid.uuid4().hex}"
    yield f"memory://{name}"
    memory = fsspec.filesystem("memory")
    if memory.exists(name):
        memory.rm(name, recursive=True)


def local_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_same_sums(x: PairSums, y: PairSums) -> None:
    assert len(x) == len(y) > 0
    for bx, by in zip(x.blocks(), y.blocks(), strict=True):
        for column in ("a", "b", "shared", "weight", "df_sum"):
            np.testing.assert_array_equal(getattr(bx, column), getattr(by, column))
    np.testing.assert_array_equal(x.sizes, y.sizes)
    np.testing.assert_array_equal(x.excluded(), y.excluded())
    assert x.stats == y.stats


def test_a_memory_folder_counts_as_a_local_one(tmp_path: Path, memory_run: str) -> None:
    """The same pairs, and the same working folder to the byte, through
    fsspec's memory file system.  ``jobs=1`` runs the tasks in this process:
    a forked worker would write to a memory file system of its own."""
    import pyarrow.fs as pafs

    assert isinstance(Store.of(memory_run).fs()[0], pafs.PyFileSystem)
    on_memory = count_pairs(SHARDS, synthetic_prints,
                            ShardPlan(memory_run, partitions=5, jobs=1, **SMALL), cap=40)
    on_disk = count_pairs(SHARDS, synthetic_prints,
                          ShardPlan(tmp_path, partitions=5, jobs=1, **SMALL), cap=40)
    assert_same_sums(on_memory, on_disk)
    memory = fsspec.filesystem("memory")
    root = Store.of(memory_run).fs()[1]
    written = {p[len(root) + 1:]: memory.cat_file(p) for p in sorted(memory.find(root))}
    expected = local_files(tmp_path)
    assert any(name.startswith("merged/") for name in expected)
    assert written == expected


def test_a_memory_folder_resumes_and_refuses_another_run(memory_run: str) -> None:
    plan = ShardPlan(memory_run, partitions=4, jobs=1, **SMALL)
    FINGERPRINTED.clear()
    first = count_pairs(SHARDS, counted_prints, plan, cap=40)
    assert sorted(FINGERPRINTED) == [s.first for s in SHARDS]

    FINGERPRINTED.clear()
    again = count_pairs(SHARDS, counted_prints, plan, cap=40)
    assert FINGERPRINTED == []  # every task's marker was found: nothing redone
    assert_same_sums(again, first)

    # A shard whose marker is missing (its task died before writing it) is redone alone.
    root = Store.of(memory_run).fs()[1]
    fsspec.filesystem("memory").rm(f"{root}/done/prints/s000002.json")
    FINGERPRINTED.clear()
    resumed = count_pairs(SHARDS, counted_prints, plan, cap=40)
    assert [SHARDS[2].first] == FINGERPRINTED
    assert_same_sums(resumed, first)

    with pytest.raises(ShardedRunError, match="another run"):
        count_pairs(SHARDS, counted_prints,
                    ShardPlan(memory_run, partitions=8, jobs=1, **SMALL), cap=40)


class SharedLocal(LocalFileSystem):  # type: ignore[misc]
    """The local disk under a protocol of its own, which pyarrow does not
    know: every worker process reaches it through fsspec and the wrapper."""

    protocol = ("winnowtest",)
    #: A file where each process that writes a file through this class notes its id.
    writers: ClassVar[Path | None] = None

    def _open(self, path: Any, mode: str = "rb", *args: Any, **kwargs: Any) -> Any:
        if "w" in mode and self.writers is not None:
            with self.writers.open("a") as log:
                log.write(f"{os.getpid()}\n")
        return super()._open(path, mode, *args, **kwargs)

    @classmethod
    def _strip_protocol(cls, path: Any) -> Any:
        text = str(path)
        if text.startswith("winnowtest://"):
            text = text[len("winnowtest://"):]
        return super()._strip_protocol(text)


def test_worker_processes_share_an_fsspec_folder(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Two forked workers write and read the folder through fsspec: the same
    pairs as a local run, and the same files on disk."""
    import pyarrow.fs as pafs

    fsspec.register_implementation("winnowtest", SharedLocal, clobber=True)
    writers = tmp_path / "writers"
    monkeypatch.setattr(SharedLocal, "writers", writers)
    uri = f"winnowtest://{tmp_path / 'shared'}"
    assert isinstance(Store.of(uri).fs()[0], pafs.PyFileSystem)
    shared = count_pairs(SHARDS, synthetic_prints,
                         ShardPlan(uri, partitions=5, jobs=2, **SMALL), cap=40)
    local = count_pairs(SHARDS, synthetic_prints,
                        ShardPlan(tmp_path / "local", partitions=5, jobs=2, **SMALL), cap=40)
    assert_same_sums(shared, local)
    # a pool of two per stage: the files were written by the workers
    assert len(set(writers.read_text().split()) - {str(os.getpid())}) >= 2
    assert local_files(tmp_path / "shared") == local_files(tmp_path / "local")


def test_an_unknown_scheme_is_named(tmp_path: Path) -> None:
    with pytest.raises(ShardedRunError, match=r"nosuchfs://bucket/run.*Protocol not known"):
        count_pairs(SHARDS, synthetic_prints, ShardPlan("nosuchfs://bucket/run", jobs=1),
                    cap=40)


def test_groups_takes_an_fsspec_workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--workdir`` keeps a URI whole (``winnowtest://`` + a path, not a
    folder named ``winnowtest:``), and the run gives the in-memory engine's groups."""
    fsspec.register_implementation("winnowtest", SharedLocal, clobber=True)
    monkeypatch.chdir(tmp_path)
    planted_corpus(tmp_path / "corpus")
    db = str(tmp_path / "index.db")
    run("index", str(tmp_path / "corpus"), "--db", db, "-j", "1", "-q")
    common = ["groups", "--db", db, "--threshold", "0.2", "--max-df", "30", "--format", "json"]
    memory = run(*common, "--engine", "in-memory")
    sharded = run(*common, "--engine", "local-sharded", "--partitions", "4",
                  "--workdir", f"winnowtest://{tmp_path / 'run'}")
    assert (tmp_path / "run" / "merged").is_dir()
    assert not (tmp_path / "winnowtest:").exists()
    assert sharded == memory


def test_groups_names_a_workdir_it_cannot_open(tmp_path: Path) -> None:
    planted_corpus(tmp_path / "corpus")
    db = str(tmp_path / "index.db")
    run("index", str(tmp_path / "corpus" / "new"), "--db", db, "-j", "1", "-q")
    result = CliRunner().invoke(main, ["groups", "--db", db, "--engine", "local-sharded",
                                       "--workdir", "nosuchfs://bucket/run"])
    assert result.exit_code == 2
    assert "cannot open the working folder nosuchfs://bucket/run" in result.stderr


@pytest.mark.parametrize("settings", [{"jobs": 2}, {"jobs": None}, {"jobs": 1, "engine": "ray"}])
def test_a_memory_folder_wants_one_process(settings: dict[str, Any]) -> None:
    with pytest.raises(InvalidConfig, match="memory://"):
        ShardPlan("memory://run", **settings)
