"""Fingerprints, pair counts and clusters of corpus records."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.config import WinnowConfig
from winnow.corpus import Fields, Thresholds, cluster_pairs
from winnow.corpus.fingerprints import ShardJob, record_hashes
from winnow.corpus.pairs import CorpusPostings
from winnow.corpus.readers import plan_shards

CONFIG = WinnowConfig(20, 40, "robust")
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def block(pairs: list[tuple[int, int, int]]) -> list[tuple[np.ndarray, ...]]:
    a, b, s = (np.array(x, dtype=np.int64) for x in zip(*pairs, strict=True))
    return [(a, b, s)]


def test_near_duplicates_and_containment_form_clusters() -> None:
    sizes = np.array([100, 100, 40, 200, 10, 2, 50], dtype=np.int64)
    pairs = [(0, 1, 80),   # resemblance 80/120 = 0.67: linked
             (2, 3, 38),   # containment 38/40 = 0.95: linked
             (3, 6, 10),   # resemblance 0.04, containment 0.2: not linked
             (4, 5, 2)]    # containment 1.0, but 2 fingerprints < min: not linked
    clusters = cluster_pairs(block(pairs), sizes, Thresholds(0.5, 0.8, 3))
    assert clusters.cluster.tolist() == [1, 1, 2, 2, 0, 0, 0]
    assert clusters.representative.tolist() == [0, 0, 3, 3, -1, -1, -1]  # tie: first; most
    assert clusters.match[2] == 3 and round(float(clusters.containment[2]), 3) == 0.95
    assert round(float(clusters.resemblance[0]), 4) == round(80 / 120, 4)
    assert (clusters.count, clusters.members, clusters.removed, clusters.pairs) == (2, 4, 2, 2)
    assert [clusters.keeps(d) for d in range(7)] == [True, False, False, True, True, True, True]


def test_clusters_are_transitive_and_numbered_by_representative() -> None:
    sizes = np.array([10, 50, 10, 10, 60], dtype=np.int64)
    pairs = [(0, 2, 10), (2, 3, 10), (1, 4, 50)]
    clusters = cluster_pairs(block(pairs), sizes, Thresholds(0.9, 0.9, 3))
    assert clusters.cluster.tolist() == [1, 2, 1, 1, 2]
    assert clusters.representative.tolist() == [0, 4, 0, 0, 4]


def words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 9)))
                    for _ in range(n))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(40, 200))
def test_a_shared_passage_of_t_characters_shares_a_fingerprint(seed: int, length: int) -> None:
    """Winnowing's guarantee, record to record: whatever surrounds it, a shared
    passage of at least t normalised characters shares a fingerprint."""
    rng = random.Random(seed)
    passage = "".join(rng.choice(LETTERS) for _ in range(length))
    a = words(rng, 30) + " " + passage + " " + words(rng, 10)
    b = words(rng, 5) + passage + words(rng, 40)
    assert np.intersect1d(record_hashes(a, CONFIG), record_hashes(b, CONFIG)).shape[0] >= 1


def test_in_memory_counts_equal_brute_force_intersections(tmp_path: Path) -> None:
    rng = random.Random(5)
    texts = [words(rng, 60) for _ in range(12)]
    texts += [texts[0][:200] + words(rng, 5), texts[1] + " " + texts[2], words(rng, 3)]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
    shards, _ = plan_shards([str(path)], Fields())
    jobs = [ShardJob(s, Fields(), CONFIG) for s in shards]
    pairs = CorpusPostings(jobs, len(texts), 0, workers=1).in_memory(100, None)
    prints = [set(record_hashes(t, CONFIG).tolist()) for t in texts]
    assert pairs.sizes.tolist() == [len(p) for p in prints]
    expected = [(a, b, len(prints[a] & prints[b]))
                for a, b in itertools.combinations(range(len(texts)), 2)
                if prints[a] & prints[b]]
    got = [(int(a), int(b), int(s)) for blk in pairs for a, b, s in zip(*blk, strict=True)]
    assert got == expected and len(got) >= 3


def test_the_cap_drops_fingerprints_of_too_many_records(tmp_path: Path) -> None:
    rng = random.Random(9)
    common = words(rng, 20)
    texts = [common + " " + words(rng, 40) for _ in range(6)]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
    shards, _ = plan_shards([str(path)], Fields())
    jobs = [ShardJob(s, Fields(), CONFIG) for s in shards]
    prints = [set(record_hashes(t, CONFIG).tolist()) for t in texts]
    df = {h: sum(h in p for p in prints) for h in set().union(*prints)}
    for cap in (10, 5):
        kept = [{h for h in p if df[h] <= cap} for p in prints]
        expected = [(a, b, len(kept[a] & kept[b]))
                    for a, b in itertools.combinations(range(6), 2) if kept[a] & kept[b]]
        counted = CorpusPostings(jobs, 6, 0, workers=1).in_memory(cap, None)
        got = [(int(a), int(b), int(s)) for blk in counted for a, b, s in zip(*blk, strict=True)]
        assert got == expected
        assert len(got) == 15 if cap == 10 else len(got) < 15  # the common part links all


@pytest.mark.parametrize("part_rows", [1 << 14, 64, 1])
def test_grouped_counting_equals_counting_by_sort(part_rows: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """count_records (hash tables a part at a time) gives count_postings'
    sums, sizes, weights, statistics and capped hashes, whatever the parts."""
    from winnow.corpus import groups as corpus_groups
    from winnow.corpus import pairs as corpus_pairs
    from winnow.pairs.counting import count_postings

    monkeypatch.setattr(corpus_groups, "PART_ROWS", part_rows)
    rng = np.random.default_rng(5)
    pool = rng.integers(0, 1 << 61, 3000, dtype=np.uint64)  # top bits all 0
    pool[:40] = np.arange(40, dtype=np.uint64) << np.uint64(8)  # same low bits
    docs = 300
    rows = [rng.choice(pool, size=int(rng.integers(0, 60)), replace=False) for _ in range(docs)]
    owners = np.repeat(np.arange(docs), [r.shape[0] for r in rows])
    hashes = np.concatenate(rows)
    mixed = rng.permutation(hashes.shape[0])  # any order of the rows
    for cap in (2, 7, 1000):
        for h, o in ((hashes, owners.astype(np.int32)), (hashes[mixed], owners[mixed])):
            got = corpus_pairs.count_records(h, o, docs, cap)
            want = count_postings(h, o.astype(np.int64), docs, cap)
            assert got.sizes.tolist() == want.sizes.tolist()
            assert got.weight_totals.tolist() == want.weight_totals.tolist()
            assert got.stats == want.stats
            assert got.excluded().tolist() == want.excluded().tolist()
            for name in ("a", "b", "shared", "weight", "df_sum"):
                assert getattr(got.counts, name).tolist() == getattr(want.counts, name).tolist()
        assert len(want.counts) > 0 and (cap > 7 or want.stats["ignored_common"] > 0)
    none = corpus_pairs.count_records(np.zeros(0, np.uint64), np.zeros(0, np.int32), 5, 3)
    empty = count_postings(np.zeros(0, np.uint64), np.zeros(0, np.int64), 5, 3)
    assert none.sizes.tolist() == empty.sizes.tolist() == [0] * 5
    assert none.stats == empty.stats and len(none.counts) == len(empty.counts) == 0


@pytest.mark.parametrize("rows", [0, 1 << 22])
def test_counting_the_shared_hashes_alone_gives_every_sum(tmp_path: Path, rows: int) -> None:
    """The in-memory engine counts only the rows of hashes in several records,
    a part at a time (``rows``: the rows expected, which choose the parts);
    sizes, weights and statistics are those of counting every row."""
    from winnow.pairs.counting import count_postings

    rng = random.Random(4)
    texts = [words(rng, 60) for _ in range(5)]
    texts += [texts[0] + " " + words(rng, 10), texts[1][:150], texts[2] + texts[3]]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
    shards, _ = plan_shards([str(path)], Fields())
    postings = CorpusPostings([ShardJob(s, Fields(), CONFIG) for s in shards], len(texts),
                              rows, workers=1)
    hashes, owners, _, bounds = postings.gather(None)
    assert bounds.shape[1] == (1 if rows == 0 else 1 << 9) + 1
    for cap in (100, 2):
        everything = count_postings(hashes, owners, len(texts), cap)
        counted = postings.in_memory(cap, None)
        assert counted.sizes.tolist() == everything.sizes.tolist()
        assert counted.weight_totals.tolist() == everything.weight_totals.tolist()
        assert counted.stats == everything.stats
        assert counted.excluded().tolist() == everything.excluded().tolist()
        got, want = counted.shared_counts(), everything.shared_counts()
        for name in ("a", "b", "shared", "weight", "df_sum"):
            assert getattr(got, name).tolist() == getattr(want, name).tolist()
        assert len(want) > 0


def test_identical_sets_join_each_copy_to_the_first_with_its_digest_and_size() -> None:
    from winnow.corpus.clusters import identical_sets

    rng = np.random.default_rng(8)
    n = 3000
    digests = rng.integers(1, 40, n).astype(np.uint64) << np.uint64(40)  # many repeats
    digests[rng.integers(0, n, 300)] = 0  # records without fingerprints
    digests[:1000] = rng.integers(1, 1 << 62, 1000, dtype=np.uint64)  # most alone
    sizes = rng.integers(3, 6, n).astype(np.int64)  # one digest, several sizes
    first, other = identical_sets(digests, sizes)
    seen: dict[tuple[int, int], int] = {}
    expected = []
    for doc in range(n):
        if digests[doc]:
            key = (int(digests[doc]), int(sizes[doc]))
            if key in seen:
                expected.append((seen[key], doc))
            else:
                seen[key] = doc
    assert sorted(zip(first.tolist(), other.tolist(), strict=True)) == sorted(expected)
    assert len(expected) > 1000
