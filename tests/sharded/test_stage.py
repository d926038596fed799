"""The pair-counting stage (:mod:`winnow.pairs`): one entry point, engines by
name, one ``auto`` rule; every engine gives the same pair sums on the same
postings, and each command's postings count alike on every engine."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from tests.sharded.helpers import assert_same_as_in_memory, in_memory
from winnow.errors import InvalidConfig
from winnow.index import FingerprintIndex, NewDocument
from winnow.pairs import (
    ENGINE_NAMES,
    ENGINES,
    SHARDED_ROWS,
    Engine,
    EngineChoice,
    Layout,
    PairSums,
    Postings,
    Shards,
    count_pairs,
    engine_named,
)
from winnow.pairs.counting import count_postings, distinct_postings
from winnow.parallel import Progress
from winnow.sharded.plan import ROW_BUDGET
from winnow.sharded.synthetic import SyntheticShard, synthetic_prints, synthetic_shards
from winnow.sif.postings import IndexPostings

pytestmark = pytest.mark.sharded

N = 600
SHARDS = synthetic_shards(N, 100)
SMALL = {"partitions": 3, "jobs": 1}


class SyntheticPostings(Postings):
    """The synthetic corpus as a client's postings, gathered here in memory."""

    def __init__(self, shards: list[SyntheticShard], n: int, base: np.ndarray | None = None,
                 archive: np.ndarray | None = None) -> None:
        self.items = shards
        self.documents = n
        self.rows = sum(h.shape[0] for s in shards for _, h in synthetic_prints(s))
        self.base = base
        self.archive = archive
        self.asked: list[str] = []

    def in_memory(self, cap: int, progress: Progress | None) -> PairSums:
        self.asked.append("in-memory")
        pairs = [(h, np.full(h.shape[0], d)) for s in self.items for d, h in synthetic_prints(s)]
        hashes, owners = distinct_postings(np.concatenate([h for h, _ in pairs]),
                                           np.concatenate([o for _, o in pairs]))
        return count_postings(hashes, owners, self.documents, cap, base=self.base,
                              archive=self.archive)

    def shards(self, layout: Layout) -> Shards:
        self.asked.append(f"shards of {layout.row_budget} rows")
        return Shards(self.items, synthetic_prints)


def base_and_archive() -> tuple[np.ndarray, np.ndarray]:
    archive = np.zeros(N, dtype=bool)
    archive[::4] = True
    base = np.unique(np.concatenate([h for _, h in synthetic_prints(SHARDS[2])])[::7])
    return base, archive


@pytest.mark.parametrize("engine", ["in-memory", "local-sharded"])
@pytest.mark.parametrize("extras", [False, True], ids=["plain", "base+archive"])
def test_every_engine_gives_the_reference_sums(tmp_path: Path, engine: str,
                                               extras: bool) -> None:
    """Bit for bit the sums of compare's in-memory table over the same
    documents (its weights and sizes too), whichever engine counts them."""
    base, archive = base_and_archive() if extras else (np.zeros(0, np.uint64),
                                                       np.zeros(N, dtype=bool))
    postings = SyntheticPostings(SHARDS, N, base, archive)
    choice = EngineChoice(engine, workdir=tmp_path / "run", **SMALL)  # type: ignore[arg-type]
    with count_pairs(postings, 25, choice) as sums:
        assert_same_as_in_memory(sums, in_memory(SHARDS, 25, base, archive))
        blocks = [tuple(x.tolist() for x in block) for block in sums]
        all_pairs = sums.pair_counts()
        stats = sums.stats
    flat = [p for a, b, s in blocks for p in zip(a, b, s, strict=True)]
    assert flat == list(zip(all_pairs.a.tolist(), all_pairs.b.tolist(),
                            all_pairs.shared.tolist(), strict=True))
    assert postings.asked == (["in-memory"] if engine == "in-memory"
                              else [f"shards of {ROW_BUDGET} rows"])
    assert stats["pairs_sharing"] == len(all_pairs)


def test_the_engines_agree_on_the_stats(tmp_path: Path) -> None:
    postings = SyntheticPostings(SHARDS, N)
    with count_pairs(postings, 25, EngineChoice("in-memory")) as memory:
        here = memory.stats
    with count_pairs(postings, 25, EngineChoice("local-sharded", workdir=tmp_path / "r",
                                                **SMALL)) as sharded:  # type: ignore[arg-type]
        there = sharded.stats
    assert here == there and here["ignored_common"] > 0


def test_a_temporary_folder_lives_as_long_as_the_sums() -> None:
    postings = SyntheticPostings(SHARDS, N)
    with count_pairs(postings, 25, EngineChoice("local-sharded", **SMALL)) as sums:
        folder = Path(sums.store.uri)  # type: ignore[attr-defined]
        assert (folder / "merged").is_dir()
        assert len(list(sums)) > 0
    assert not folder.exists()


def test_auto_keeps_small_postings_in_memory_and_shards_large_ones() -> None:
    auto = EngineChoice()
    assert auto.resolve(0) == "in-memory"
    assert auto.resolve(SHARDED_ROWS) == "in-memory"
    assert auto.resolve(SHARDED_ROWS + 1) == "local-sharded"
    for name in ENGINES:  # a named engine is used whatever the size
        assert EngineChoice(name).resolve(SHARDED_ROWS + 1) == name  # type: ignore[arg-type]
        assert EngineChoice(name).resolve(0) == name  # type: ignore[arg-type]


def test_auto_picks_by_the_postings_rows(tmp_path: Path) -> None:
    small = SyntheticPostings(SHARDS, N)
    with count_pairs(small, 25) as sums:
        assert small.asked == ["in-memory"] and len(sums.pair_counts()) > 0
    large = SyntheticPostings(SHARDS, N)
    large.rows = SHARDED_ROWS + 1  # as a client's estimate would say
    with count_pairs(large, 25, EngineChoice(workdir=tmp_path / "run", **SMALL)):
        assert large.asked == [f"shards of {ROW_BUDGET} rows"]


def test_auto_weighs_the_bytes_a_row_of_the_postings(tmp_path: Path) -> None:
    """Postings whose rows take fewer bytes in memory stay there longer: the
    rule is the in-memory count's peak, SHARDED_ROWS rows of ROW_BYTES."""
    from winnow.pairs.model import ROW_BYTES

    auto = EngineChoice()
    assert auto.resolve(SHARDED_ROWS * 5, ROW_BYTES // 5) == "in-memory"
    assert auto.resolve(SHARDED_ROWS * 5 + 5, ROW_BYTES // 5) == "local-sharded"
    assert auto.resolve(SHARDED_ROWS + 1, ROW_BYTES) == "local-sharded"
    light = SyntheticPostings(SHARDS, N)
    light.rows, light.row_bytes = SHARDED_ROWS + 1, ROW_BYTES // 2
    with count_pairs(light, 25, EngineChoice(workdir=tmp_path / "run", **SMALL)):
        assert light.asked == ["in-memory"]


def test_unknown_engines_are_refused_by_name() -> None:
    with pytest.raises(InvalidConfig, match="unknown pair-counting engine 'gpu'; one of "
                                            "in-memory, local-sharded, ray"):
        engine_named("gpu")
    with pytest.raises(InvalidConfig, match="engine must be one of auto, in-memory"):
        EngineChoice("gpu")  # type: ignore[arg-type]


def test_every_registered_engine_resolves_to_its_class() -> None:
    assert ("auto", *ENGINES) == ENGINE_NAMES
    for name, target in ENGINES.items():
        module, _, cls = target.partition(":")
        engine = engine_named(name)
        assert isinstance(engine, Engine) and engine.name == name
        assert type(engine) is getattr(importlib.import_module(module), cls)
        assert engine.sharded == (name != "in-memory")


def test_every_engine_package_sits_above_the_stage() -> None:
    """The registry names its engines by string: the layer table must still
    let each engine's package import the stage, never the stage import it."""
    from tests.unit.test_layers import ALLOWED

    for target in ENGINES.values():
        package = target.split(":")[0].split(".")[1]
        assert package == "pairs" or "pairs" in ALLOWED[package]
        assert package == "pairs" or package not in ALLOWED["pairs"]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(InvalidConfig, match="partitions"):
        EngineChoice("local-sharded", partitions=0)
    with pytest.raises(InvalidConfig, match="ray"):
        EngineChoice("local-sharded", ray_address="127.0.0.1:6379")
    with pytest.raises(InvalidConfig, match="cap"):
        count_pairs(SyntheticPostings(SHARDS, N), 0).__enter__()


def index_of(tmp_path: Path) -> FingerprintIndex:
    """An index of 40 files: copies of 8 originals, and a hash in every file."""
    rng = np.random.default_rng(3)
    originals = [rng.choice(1 << 40, size=60, replace=False) for _ in range(8)]
    index = FingerprintIndex(tmp_path / "t.db")
    with index.transaction():
        index.resolve_params(None)
        for x in range(40):
            keep = rng.random(60) < 0.7
            hashes = np.unique(np.append(originals[x % 8][keep], 7)).astype(np.int64)
            index.add(NewDocument(f"/d{x}", 1, 1, str(x), "text", "bytes", hashes,
                                  np.arange(hashes.size, dtype=np.int64)))
    return index


def test_groups_postings_count_alike_on_every_engine(tmp_path: Path) -> None:
    """The index's own self-join (in memory) and a sharded count of its
    spilled shared postings: the same pairs, sizes and capped hashes."""
    with index_of(tmp_path) as index:
        ids = np.array(sorted(r.id for r in index.documents())[3:], dtype=np.int64)
        postings = IndexPostings(index, ids)
        with count_pairs(postings, 20, EngineChoice("in-memory")) as memory:
            m_pairs, m_all = memory.pair_counts(), memory.shared_counts()
            m_docs = (memory.sizes, memory.weight_totals, memory.excluded())
        with count_pairs(postings, 20, EngineChoice("local-sharded", workdir=tmp_path / "r",
                                                    **SMALL)) as sharded:  # type: ignore[arg-type]
            s_all = sharded.shared_counts()
            s_docs = (sharded.sizes, sharded.weight_totals, sharded.excluded())
    order = np.lexsort((m_pairs.b, m_pairs.a))
    for column in ("a", "b", "shared"):
        np.testing.assert_array_equal(getattr(m_pairs, column)[order], getattr(s_all, column))
    order = np.lexsort((m_all.b, m_all.a))
    np.testing.assert_allclose(m_all.weight[order], s_all.weight, rtol=1e-6)
    np.testing.assert_array_equal(m_all.df_sum[order], s_all.df_sum)
    np.testing.assert_array_equal(m_docs[0], s_docs[0])
    np.testing.assert_allclose(m_docs[1], s_docs[1], rtol=1e-6)
    np.testing.assert_array_equal(m_docs[2], s_docs[2])
    assert s_docs[2].shape[0] == 1 and len(s_all) > 0  # the hash in every file is capped
