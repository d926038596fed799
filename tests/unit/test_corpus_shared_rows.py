"""The in-memory count's rows handed over through shared memory, and every fallback."""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from winnow.config import WinnowConfig
from winnow.corpus import Fields, fingerprints, readers, shared_rows
from winnow.corpus import pairs as corpus_pairs
from winnow.corpus.fingerprints import ShardJob, record_hashes
from winnow.corpus.pairs import CorpusPostings
from winnow.corpus.shared_rows import SlotJob, gathered

CONFIG = WinnowConfig(20, 40, "robust")


def words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choice("abcdefghijklmnop") for _ in range(rng.randint(2, 8)))
                    for _ in range(n))


def corpus(folder: Path, gz: bool = False) -> tuple[list[str], list[str]]:
    """Two inputs of a few shards each (``readers.SHARD_BYTES`` made small by
    the caller), with blank and bad lines; the second gzipped when ``gz``."""
    rng = random.Random(3)
    texts = [words(rng, rng.randint(0, 90)) for _ in range(70)]
    texts[5] = texts[4] + " " + words(rng, 5)  # some shared hashes
    lines = [json.dumps({"text": t}) for t in texts]
    lines[9], lines[20] = "", "not json"
    first, second = folder / "a.jsonl", folder / ("b.jsonl.gz" if gz else "b.jsonl")
    first.write_text("\n".join(lines[:40]) + "\n")
    data = ("\n".join(lines[40:]) + "\n").encode()
    second.write_bytes(gzip.compress(data) if gz else data)
    usable = [t for i, t in enumerate(texts) if i not in (9, 20)]
    return [str(first), str(second)], usable


def gather(paths: list[str], workers: int) -> tuple[npt.NDArray[np.generic], ...]:
    shards, problems = readers.plan_shards(paths, Fields())
    assert not problems and len(shards) >= 4
    jobs = [ShardJob(s, Fields(), CONFIG) for s in shards]
    records = sum(s.count for s in shards)
    return CorpusPostings(jobs, records, 1 << 16, workers=workers).gather(None)


def rows_by_owner(hashes: npt.NDArray[np.uint64], owners: npt.NDArray[np.integer]
                  ) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for h, o in zip(hashes.tolist(), owners.tolist(), strict=True):
        out.setdefault(int(o), []).append(h)
    return {o: sorted(v) for o, v in out.items()}


@pytest.mark.parametrize("workers", [2, 1])
@pytest.mark.parametrize("how", ["slots", "in stretches", "no region", "overflow",
                                 "some overflow", "compressed"])
def test_rows_come_back_whole_whatever_the_way(tmp_path: Path, workers: int, how: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the slots, with no region mapped, with slots too small (every
    shard's or one shard's hashes sent through the pipe), with a compressed
    input (no slot): the same rows, parts and digests, and each record's
    rows are its own distinct fingerprints.  In stretches: the rows put in
    parts 50 at a time, the region's pages given back behind them."""
    monkeypatch.setattr(readers, "SHARD_BYTES", 3000)
    paths, texts = corpus(tmp_path, gz=how == "compressed")
    monkeypatch.setattr(corpus_pairs, "slot_rows", lambda job, config: 0)
    want = gather(paths, workers)  # every shard through the pipe: the reference
    monkeypatch.undo()
    monkeypatch.setattr(readers, "SHARD_BYTES", 3000)
    if how == "no region":
        monkeypatch.setattr(shared_rows.mmap, "mmap", _refuse)
    elif how == "in stretches":
        monkeypatch.setattr(fingerprints, "SCATTER_ROWS", 50)
    elif how == "overflow":
        monkeypatch.setattr(shared_rows, "SLOT_DENSITY", 0)  # 64 rows a slot: the small
        # last shard of each input fits
    elif how == "some overflow":
        sizes = iter([64, 10 ** 6, 10 ** 6, 10 ** 6, 64, 10 ** 6, 10 ** 6, 10 ** 6, 10 ** 6])
        monkeypatch.setattr(corpus_pairs, "slot_rows", lambda job, config: next(sizes))
    kinds: list[list[str]] = []

    def spy(region, tasks, results, counts):  # type: ignore[no-untyped-def]
        kinds.append(["slot" if isinstance(r, int) else "pipe" for r in results])
        return gathered(region, tasks, results, counts)

    monkeypatch.setattr(corpus_pairs, "gathered", spy)
    got = gather(paths, workers)
    by_slot = {"slots": {"slot"}, "in stretches": {"slot"}, "no region": {"pipe"},
               "overflow": {"slot", "pipe"}, "some overflow": {"slot", "pipe"},
               "compressed": {"slot", "pipe"}}
    assert set(kinds[0]) == by_slot[how]  # the way the rows came
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.tolist() == w.tolist()
    hashes, owners = got[0], got[1]
    expected = {i: sorted(record_hashes(t, CONFIG).tolist()) for i, t in enumerate(texts)}
    assert {o: v for o, v in expected.items() if v} == {
        o - (o > 9) - (o > 20): v for o, v in rows_by_owner(hashes, owners).items()}
    assert hashes.shape[0] > 500


def _refuse(*args: object, **kwargs: object) -> object:
    raise OSError("no shared memory here")


def test_the_records_are_read_where_their_slots_are() -> None:
    """gathered: the region itself, and where each record's rows start in it
    (each shard's records in turn from its slot's start)."""
    region = np.arange(100, dtype=np.uint64) + np.uint64(1000)
    tasks = [SlotJob(None, 0, 10), SlotJob(None, 10, 40),  # type: ignore[arg-type]
             SlotJob(None, 50, 5), SlotJob(None, 55, 45)]  # type: ignore[arg-type]
    counts = [np.array([1, 2]), np.array([30, 0, 8]), np.zeros(0, np.int64), np.array([45])]
    rows, firsts = gathered(region, tasks, [3, 38, 0, 45], counts)
    assert rows is region
    assert firsts.tolist() == [0, 1, 10, 40, 40, 55]


def test_one_array_among_the_slots_gathers_by_copy() -> None:
    region = np.arange(20, dtype=np.uint64)
    tasks = [SlotJob(None, 0, 10), SlotJob(None, 10, 10)]  # type: ignore[arg-type]
    rows, firsts = gathered(region, tasks, [4, np.array([7, 8, 9], dtype=np.uint64)],
                            [np.array([3, 1]), np.array([2, 0, 1])])
    assert rows.tolist() == [0, 1, 2, 3, 7, 8, 9]
    assert firsts.tolist() == [0, 3, 4, 6, 6]
    none, at = gathered(None, [], [], [])
    assert none.tolist() == [] and at.tolist() == []


def test_two_runs_at_once_each_write_into_their_own_region(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Two gathers whose regions are open at once (two threads of one process):
    each task writes into the region it names, whichever was mapped last, and
    a region given back leaves the other's tasks their slots."""
    monkeypatch.setattr(readers, "SHARD_BYTES", 3000)
    paths, _ = corpus(tmp_path)
    shards, _ = readers.plan_shards(paths, Fields())
    job = ShardJob(shards[0], Fields(), CONFIG)
    size = shared_rows.slot_rows(job, CONFIG)
    alone, _, _, _ = shared_rows.slot_postings(SlotJob(job, 0, 0))  # through the pipe
    assert not isinstance(alone, int) and alone.shape[0] > 50
    with shared_rows.shared_rows(size) as (first, region_a):
        with shared_rows.shared_rows(size) as (second, region_b):
            assert first != second and region_a is not None and region_b is not None
            n, _, _, _ = shared_rows.slot_postings(SlotJob(job, 0, size, first))
            assert n == alone.shape[0]
            assert region_a[:n].tolist() == alone.tolist()
            assert not region_b.any()  # the region mapped last is untouched
        region_a[:] = 0
        n, _, _, _ = shared_rows.slot_postings(SlotJob(job, 0, size, first))
        assert region_a[:n].tolist() == alone.tolist()  # the other one's end left it
    sent, _, _, _ = shared_rows.slot_postings(SlotJob(job, 0, size, first))
    assert not isinstance(sent, int)  # a region given back: the pipe


@pytest.mark.skipif(sys.platform != "linux", reason="pages given back only on Linux")
def test_the_pages_given_back_read_as_zeros_and_the_rest_is_kept() -> None:
    """give_back: the whole pages of the rows named, in a region that
    shared_rows mapped, are zeros afterwards; every other row is intact."""
    with shared_rows.shared_rows(1 << 14) as (number, region):
        assert number and region is not None
        region[:] = np.arange(1, (1 << 14) + 1, dtype=np.uint64)
        shared_rows.give_back(region, 700, 9000)
        zero = np.flatnonzero(region == 0)
        assert zero.shape[0] > 7000  # whole 4 KiB pages: 512 rows each (Linux)
        assert zero.min() >= 700 and zero.max() < 9000
        kept = region != 0
        assert region[kept].tolist() == (np.flatnonzero(kept) + 1).tolist()
        shared_rows.give_back(np.ones(8, dtype=np.uint64), 0, 8)  # not a region: nothing
