"""The verified resemblance of dedup's candidate pairs: Jaccard of word pairs."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.corpus import DedupSettings, Fields, find_duplicates
from winnow.corpus.fingerprints import ShardJob
from winnow.corpus.readers import plan_shards
from winnow.corpus.words import WordSets, batch_word_pairs, resemblances, word_pair_sets
from winnow.errors import InvalidConfig

VOCABULARY = ["alpha", "beta", "gamma", "delta", "Epsilon", "zeta", "eta", "theta",
              "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho"]


def reference_pairs(text: str) -> set[tuple[str, ...]]:
    """Word pairs as the module defines them, for ASCII text: lower-cased runs of
    letters and digits; a text of one word gives that word."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    if len(words) == 1:
        return {(words[0],)}
    return set(itertools.pairwise(words))


def jaccard(x: set[tuple[str, ...]], y: set[tuple[str, ...]]) -> float:
    return len(x & y) / len(x | y) if x and y else 0.0


def sets_of(texts: list[str]) -> WordSets:
    hashes, counts = batch_word_pairs([t.encode() for t in texts])
    starts = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    return WordSets(np.arange(len(texts), dtype=np.int64), starts, hashes)


texts_strategy = st.lists(
    st.tuples(st.lists(st.sampled_from(VOCABULARY), min_size=0, max_size=12),
              st.sampled_from(["", ".", ", and more!", " -- "])).map(
        lambda words_end: " ".join(words_end[0]) + words_end[1]),
    min_size=2, max_size=8)


@settings(max_examples=60, deadline=None)
@given(texts_strategy)
def test_resemblance_is_the_jaccard_of_word_pairs(texts: list[str]) -> None:
    sets = sets_of(texts)
    a, b = np.triu_indices(len(texts), 1)
    got = resemblances(sets, a.astype(np.int64), b.astype(np.int64))
    want = [jaccard(reference_pairs(texts[i]), reference_pairs(texts[j]))
            for i, j in zip(a.tolist(), b.tolist(), strict=True)]
    assert got.tolist() == pytest.approx(want)


def test_batched_texts_give_each_text_s_own_pairs() -> None:
    texts = [b"one two three", b"", b"single", "\u0301accent first".encode(),
             b"two three one two", "\u4e2d\u6587\u5b57".encode(), b"  ...  "]
    together, counts = batch_word_pairs(texts)
    alone = [batch_word_pairs([t]) for t in texts]
    assert counts.tolist() == [int(c[0]) for _, c in alone] == [2, 0, 1, 1, 3, 2, 0]
    assert together.tolist() == [h for hashes, _ in alone for h in hashes.tolist()]
    # sorted and distinct within each text
    start = 0
    for c in counts.tolist():
        run = together[start:start + c]
        assert np.all(run[1:] > run[:-1])
        start += c


def test_unspaced_scripts_count_each_character_as_a_word() -> None:
    sets = sets_of(["\u4e2d\u6587\u5b57\u5178", "\u4e2d\u6587\u5b57\u8868",
                    "\u4e2d\u6587\u5b57\u5178 xy"])
    got = resemblances(sets, np.array([0, 0]), np.array([1, 2]))
    assert got.tolist() == pytest.approx([2 / 4, 3 / 4])  # a word would give 0 and 0


def test_a_record_read_for_no_word_pairs_resembles_nothing() -> None:
    sets = sets_of(["a b c", "a b c"])
    assert resemblances(sets, np.array([0, 0]), np.array([1, 5])).tolist() == [1.0, 0.0]


def test_only_the_wanted_records_are_read_across_shards(tmp_path: Path) -> None:
    lines = [json.dumps({"text": f"w{i} common words here"}) for i in range(6)]
    lines[2] = "not json"
    (tmp_path / "a.jsonl").write_text("\n".join(lines[:3]) + "\n")
    (tmp_path / "b.jsonl").write_text("\n".join(lines[3:]) + "\n")
    fields = Fields()
    shards, _ = plan_shards([str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")], fields)
    jobs = [ShardJob(s, fields, DedupSettings().config) for s in shards]
    sets = word_pair_sets(jobs, np.array([4, 0, 2, 4], dtype=np.int64), workers=1)
    assert sets.docs.tolist() == [0, 4]  # 2 is a bad record: nothing read
    assert np.diff(sets.starts).tolist() == [3, 3]  # four words, three pairs
    assert sets.slots(np.array([4, 1, 0])).tolist() == [1, -1, 0]


def test_shards_read_on_threads_give_what_one_thread_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight shards, ASCII and not, their wanted records read on two threads:
    the sets of one thread, in doc order; an error in a shard stops the pass
    and is raised, whichever thread met it."""
    from winnow.corpus import words

    rng = random.Random(5)
    pieces = [*VOCABULARY, "café", "中文", "e\u0301t\u00e9"]
    names = []
    for f in range(8):
        path = tmp_path / f"{f}.jsonl"
        alphabet = VOCABULARY if f % 2 else pieces
        path.write_text("".join(json.dumps({"text": " ".join(
            rng.choice(alphabet) for _ in range(rng.randint(0, 30)))}) + "\n"
            for _ in range(40)))
        names.append(str(path))
    fields = Fields()
    shards, _ = plan_shards(names, fields)
    jobs = [ShardJob(s, fields, DedupSettings().config) for s in shards]
    docs = np.array(rng.sample(range(320), 150), dtype=np.int64)
    one = word_pair_sets(jobs, docs, workers=1)
    two = word_pair_sets(jobs, docs, workers=2)
    assert one.docs.tolist() == two.docs.tolist() == sorted(set(docs.tolist()))
    assert one.starts.tolist() == two.starts.tolist()
    assert one.hashes.tolist() == two.hashes.tolist()

    def broken(task: words.WordJob) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if task.job.shard.path == names[5]:
            raise OSError("disk gone")
        return read(task)

    read = words.shard_word_pairs
    monkeypatch.setattr(words, "shard_word_pairs", broken)
    with pytest.raises(OSError, match="disk gone"):
        word_pair_sets(jobs, docs, workers=2)


def edited(words: list[str], every: int, rng: random.Random) -> str:
    return " ".join(rng.choice(VOCABULARY) + "x" if i % every == every // 2 else w
                    for i, w in enumerate(words))


def test_dedup_links_an_edited_copy_by_its_word_pairs(tmp_path: Path) -> None:
    """A copy with every tenth word replaced keeps about 0.7 of its word pairs
    but under half of its fingerprints: the words measure links it, at its
    exact word-pair resemblance; unrelated records stay apart."""
    rng = random.Random(7)
    base = [rng.choice(VOCABULARY) + str(rng.randint(0, 99)) for _ in range(120)]
    copy = edited(base, 10, rng)
    others = [" ".join(rng.choice(VOCABULARY) + str(rng.randint(0, 99)) for _ in range(120))
              for _ in range(3)]
    texts = [" ".join(base), *others, copy]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
    run = find_duplicates([str(path)], DedupSettings(jobs=1))
    assert run.clusters.cluster.tolist() == [1, 0, 0, 0, 1]
    expected = jaccard(reference_pairs(texts[0]), reference_pairs(copy))
    assert 0.6 < expected < 0.8
    assert float(run.clusters.resemblance[4]) == pytest.approx(expected, abs=1e-6)
    printed = find_duplicates([str(path)], DedupSettings(jobs=1, measure="fingerprints"))
    assert float(printed.clusters.resemblance[4]) < expected - 0.2  # the k-grams lost more
    assert run.candidates == 1 and printed.candidates == 0  # only the pair (0, 4) was read
    strict = find_duplicates([str(path)], DedupSettings(jobs=1, similarity=0.9))
    assert strict.clusters.cluster.tolist() == [0] * 5


def test_a_pair_below_the_candidate_bound_is_never_read(tmp_path: Path) -> None:
    rng = random.Random(3)
    base = [rng.choice(VOCABULARY) + str(rng.randint(0, 99)) for _ in range(120)]
    texts = [" ".join(base), edited(base, 10, rng)]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
    found = find_duplicates([str(path)], DedupSettings(jobs=1, candidate_similarity=0.9))
    assert found.clusters.cluster.tolist() == [0, 0]


@pytest.mark.parametrize(("field", "value"), [("measure", "minhash"),
                                                ("candidate_similarity", 0.0),
                                                ("candidate_similarity", 1.5)])
def test_bad_measure_settings_are_refused(field: str, value: object) -> None:
    with pytest.raises(InvalidConfig, match=field):
        DedupSettings(**{field: value})  # type: ignore[arg-type]


def test_every_input_kind_gives_the_same_word_pair_resemblance(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = random.Random(11)
    base = [rng.choice(VOCABULARY) + str(rng.randint(0, 99)) for _ in range(100)]
    texts = [" ".join(base), " ".join(rng.choice(VOCABULARY) for _ in range(80)),
             edited(base, 8, rng)]
    jsonl = tmp_path / "r.jsonl"
    jsonl.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
    parquet = tmp_path / "r.parquet"
    pq.write_table(pa.table({"text": texts}), parquet)
    folder = tmp_path / "texts"
    folder.mkdir()
    for i, t in enumerate(texts):
        (folder / f"{i}.txt").write_text(t)
    runs = [find_duplicates([str(p)], DedupSettings(jobs=1)).clusters
            for p in (jsonl, parquet, folder)]
    expected = jaccard(reference_pairs(texts[0]), reference_pairs(texts[2]))
    for clusters in runs:
        assert clusters.cluster.tolist() == [1, 0, 1]
        assert float(clusters.resemblance[2]) == pytest.approx(expected, abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 1 << 30), n=st.integers(0, 2100), before=st.integers(0, 5),
       shape=st.sampled_from(["random", "one bucket", "repeats", "sorted", "reversed"]))
def test_sorted_distinct_sorts_a_run_and_keeps_each_value_once(seed: int, n: int, before: int,
                                                              shape: str) -> None:
    """The word pass's set of a run (buckets by top byte and insertion up to
    SMALL values, numba's sort beyond): np.unique of the run, written at its
    start; the values around it untouched."""
    from winnow.engine._kernels import SMALL, sorted_distinct

    rng = np.random.default_rng(seed)
    run = rng.integers(0, 1 << 64, n, dtype=np.uint64)
    if shape == "one bucket":
        run = (run >> np.uint64(8)) | np.uint64(0xAB << 56)
    elif shape == "repeats":
        run = rng.choice(run[:7] if n else run, n) if n else run
    elif shape == "sorted":
        run.sort()
    elif shape == "reversed":
        run = np.sort(run)[::-1].copy()
    values = np.concatenate([np.full(before, 7, np.uint64), run, np.full(3, 9, np.uint64)])
    kept = sorted_distinct(values, before, before + n, np.empty(SMALL, np.uint64),
                           np.empty(257, np.int64))
    want = np.unique(run)
    assert kept == want.shape[0]
    assert values[before:before + kept].tolist() == want.tolist()
    assert values[:before].tolist() == [7] * before and values[-3:].tolist() == [9] * 3


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(max_codepoint=127), max_size=60), min_size=1, max_size=8))
def test_ascii_texts_read_from_their_bytes_pair_as_the_front_end_s_units(
        parts: list[str]) -> None:
    """All-ASCII texts are paired straight from their bytes: the same hashes
    and counts as from the front-end's units (control characters, newlines
    inside a text, empty texts and texts of one word included)."""
    from winnow.corpus.fingerprints import joined_offsets
    from winnow.corpus.words import _ascii_pairs, _unit_pairs

    texts = [p.encode() for p in parts]
    joined = b"\n".join(texts)
    offsets = joined_offsets(texts)
    counts_ascii = np.zeros(len(texts), dtype=np.int64)
    counts_units = np.zeros(len(texts), dtype=np.int64)
    assert _ascii_pairs(joined, offsets, counts_ascii).tolist() == \
        _unit_pairs(joined, offsets, counts_units).tolist()
    assert counts_ascii.tolist() == counts_units.tolist()
    assert counts_ascii.tolist() == [len(reference_pairs(p)) for p in parts]
