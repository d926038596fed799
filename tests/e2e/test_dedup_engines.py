"""``winnow dedup``'s engines give the same clusters: in memory, local sharded, and
on a real local Ray cluster (two CPUs, loopback), on a corpus with planted copies."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import numpy as np
import pytest

from winnow.corpus import DedupRun, DedupSettings, Fields, find_duplicates, read_back

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 9))) for _ in range(n)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """300 records in three files (one compressed): 20 groups of edited copies,
    15 short records each inside a host, the rest unrelated."""
    rng = random.Random(11)
    texts = [words(rng, 60) for _ in range(220)]
    for g in range(20):
        for _ in range(2):
            copy = list(texts[g])
            for i in rng.sample(range(60), 2):
                copy[i] = "edit"
            texts.append(copy)
    for h in range(15):
        short = words(rng, 25)
        texts.append(short)
        host = texts[100 + h]
        texts[100 + h] = host[:20] + short + host[20:]
    rng.shuffle(texts)
    root = tmp_path_factory.mktemp("corpus")
    lines = [json.dumps({"id": f"r{i}", "text": " ".join(t)}) + "\n"
             for i, t in enumerate(texts)]
    (root / "a.jsonl").write_text("".join(lines[:100]))
    (root / "b.jsonl.gz").write_bytes(gzip.compress("".join(lines[100:200]).encode()))
    (root / "c.jsonl").write_text("".join(lines[200:]))
    return [str(root / name) for name in ("a.jsonl", "b.jsonl.gz", "c.jsonl")]


def dedup(corpus: list[str], engine: str, workdir: Path | None = None) -> DedupRun:
    settings = DedupSettings(Fields("text", "id"), engine=engine,  # type: ignore[arg-type]
                             jobs=2, partitions=4,
                             workdir=None if workdir is None else str(workdir))
    return find_duplicates(corpus, settings)


def same(x: DedupRun, y: DedupRun) -> None:
    for name in ("cluster", "representative", "match", "resemblance", "containment", "sizes"):
        np.testing.assert_array_equal(getattr(x.clusters, name), getattr(y.clusters, name))
    assert read_back(x) == read_back(y)


@pytest.fixture(scope="module")
def memory(corpus: list[str]) -> DedupRun:
    run = dedup(corpus, "in-memory")
    assert run.clusters.count == 35 and run.clusters.members == 20 * 3 + 15 * 2
    return run


def test_local_sharded_equals_in_memory(corpus: list[str], memory: DedupRun,
                                        tmp_path: Path) -> None:
    sharded = dedup(corpus, "local-sharded", tmp_path / "run")
    assert sharded.engine == "local-sharded" and list((tmp_path / "run").iterdir())
    same(sharded, memory)
    same(dedup(corpus, "local-sharded", tmp_path / "run"), memory)  # resumed: every task done


def test_only_a_sharded_engine_digests_the_input(corpus: list[str], memory: DedupRun,
                                                  tmp_path: Path) -> None:
    """The shards' digests tie a sharded run's working folder to its input;
    the in-memory engine, and ``auto`` when it chooses it, skip them."""
    from winnow.corpus.dedup import plan_input

    assert [s.digest for s in memory.shards] == [""] * 3
    auto = DedupSettings(Fields("text", "id"), jobs=2)
    assert [s.digest for s in plan_input(corpus, auto)[0]] == [""] * 3
    sharded = dedup(corpus, "local-sharded", tmp_path / "run")
    digests = [s.digest for s in sharded.shards]
    assert len(set(digests)) == 3 and all(len(d) == 64 for d in digests)
    assert [(s.first, s.count) for s in sharded.shards] == \
        [(s.first, s.count) for s in memory.shards]
    big = DedupSettings(Fields("text", "id"), jobs=2, engine="auto")
    with pytest.MonkeyPatch.context() as patch:  # auto choosing a sharded engine
        patch.setattr("winnow.pairs.registry.SHARDED_ROWS", 0)
        assert [s.digest for s in plan_input(corpus, big)[0]] == digests


def test_auto_keeps_dedup_in_memory_past_the_rows_of_other_postings(
        corpus: list[str], memory: DedupRun, tmp_path: Path) -> None:
    """dedup's rows take KEPT_ROW_BYTES at the in-memory count's peak, not
    ROW_BYTES: ``auto`` keeps them in memory up to as many more rows, then
    shards (digests, and the run's engine, say which it chose)."""
    from winnow.config import WinnowConfig
    from winnow.corpus.dedup import plan_input
    from winnow.corpus.pairs import KEPT_ROW_BYTES
    from winnow.pairs.model import ROW_BYTES

    rows = sum(Path(p).stat().st_size * (4 if p.endswith(".gz") else 1) for p in corpus) \
        * 2 // (WinnowConfig().w + 1)  # dedup.estimated_rows, from the files' sizes
    auto = DedupSettings(Fields("text", "id"), jobs=2, partitions=4, workdir=str(tmp_path))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("winnow.pairs.registry.SHARDED_ROWS", rows - 1)  # other postings: sharded
        assert [s.digest for s in plan_input(corpus, auto)[0]] == [""] * 3
        run = find_duplicates(corpus, auto)
        assert run.engine == "in-memory"
        same(run, memory)
        patch.setattr("winnow.pairs.registry.SHARDED_ROWS",
                      rows * KEPT_ROW_BYTES // ROW_BYTES - 1)
        assert all(s.digest for s in plan_input(corpus, auto)[0])
        run = find_duplicates(corpus, auto)
        assert run.engine == "local-sharded"
        same(run, memory)


def test_ray_equals_in_memory(corpus: list[str], memory: DedupRun, ray_cluster: None,
                              tmp_path: Path) -> None:
    same(dedup(corpus, "ray", tmp_path / "ray"), memory)


@pytest.mark.parametrize("engine", ["in-memory", "local-sharded"])
def test_copies_beyond_the_cap_are_one_cluster(tmp_path: Path, engine: str) -> None:
    """A text in more records than -m shares only capped fingerprints; its
    copies (spacing and case aside) are still one cluster, and a record
    that merely quotes part of it is not pulled in by the copies."""
    rng = random.Random(5)
    popular = " ".join(words(rng, 80))
    rows = [{"id": f"copy{i}", "text": popular.upper() if i % 3 == 0 else popular}
            for i in range(12)]
    rows += [{"id": f"other{i}", "text": " ".join(words(rng, 80))} for i in range(30)]
    rows.append({"id": "quote", "text": " ".join(popular.split()[:30] + words(rng, 50))})
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    settings = DedupSettings(Fields("text", "id"), engine=engine,  # type: ignore[arg-type]
                             jobs=2, partitions=2, max_occurrences=5,
                             workdir=None if engine == "in-memory" else str(tmp_path / "w"))
    run = find_duplicates([str(path)], settings)
    clusters = run.clusters
    assert clusters.count == 1
    assert np.flatnonzero(clusters.cluster).tolist() == list(range(12))
    assert clusters.representative[5] == 0  # the first copy: all have the same size
    assert np.all(clusters.resemblance[:12] == 1.0)
    assert clusters.sizes[0] == 0  # every fingerprint of the copies was capped
