"""Records fingerprinted in batches give what each record gives alone."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.allocator import GLIBC, mapped_apart
from winnow.config import WinnowConfig
from winnow.corpus.fingerprints import (
    ShardJob,
    batch_hashes,
    fingerprint_shard,
    joined_offsets,
    record_hashes,
)
from winnow.corpus.readers import BadRecord, Fields, Record, parse_json_line, plan_shards
from winnow.frontends.text import ascii_units, byte_units, char_units, leads_with_mark
from winnow.parallel import map_large_allocations, reuse_freed_memory, reusing_freed_memory
from winnow.sharded.plan import partition_of
from winnow.sharded.prints import by_partition_hash_doc

#: Pieces that stress the joining: marks and Hangul jamo that compose with
#: what comes before them, case folding that expands, whitespace, emoji.
PIECES = ["a", "B", " ", "\u0301", "\u0345", "e\u0301", "\u1100", "\u1161", "\u11a8", "한",
          "\n", "Ω", "ﬁ", "İ", "ß", "\u200d", "😀", "\u0300x", "\t", ".", "ǅ", "\u093e", "क",
          "the quick brown fox ", "jumps over the lazy dog. "]


def texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 80)))
            for _ in range(count)]


@pytest.mark.parametrize("config", [WinnowConfig(k=20, t=40), WinnowConfig(k=3, t=5),
                                    WinnowConfig(k=4, t=8, method="winnow"),
                                    WinnowConfig(k=5, t=12, method="mod-p")],
                         ids=["robust-default", "robust-k3", "winnow", "mod-p"])
def test_a_batch_gives_each_record_what_it_gives_alone(config: WinnowConfig) -> None:
    batch = [*texts(7, 400), "", "\u0301", "\u0301abcdefgh", "x" * 30]
    hashes, counts = batch_hashes([t.encode() for t in batch], config)
    alone = [record_hashes(t, config) for t in batch]
    assert counts.tolist() == [a.shape[0] for a in alone]
    assert np.array_equal(hashes, np.concatenate(alone))
    assert counts.sum() > 0  # the texts are long enough to have fingerprints


@pytest.mark.parametrize("config", [WinnowConfig(k=20, t=40), WinnowConfig(k=3, t=5),
                                    WinnowConfig(k=4, t=8, method="winnow")],
                         ids=["robust-default", "robust-k3", "winnow"])
@pytest.mark.parametrize("alphabet", ["ascii", "no marks first"])
def test_each_path_of_a_batch_gives_what_each_record_gives_alone(
        config: WinnowConfig, alphabet: str) -> None:
    """An all-ASCII batch (every byte below 128, control characters and
    newlines inside records too) takes the ASCII pass; a batch with other
    characters but no record led by a mark is read in one front-end pass."""
    rng = random.Random(11)
    chars = [chr(c) for c in range(128)] + ["the quick brown fox "] * 20
    if alphabet != "ascii":
        chars += ["é", "ß", "Ω", "ﬁ", "😀", "e\u0301"]
    batch = ["".join(rng.choice(chars) for _ in range(rng.randint(0, 120))) for _ in range(300)]
    batch = [t[1:] if leads_with_mark(t.encode()) else t for t in batch] + ["", "x" * 30]
    encoded = [t.encode() for t in batch]
    assert all(t.isascii() for t in encoded) == (alphabet == "ascii")
    hashes, counts = batch_hashes(encoded, config)
    alone = [record_hashes(t, config) for t in batch]
    assert counts.tolist() == [a.shape[0] for a in alone]
    assert np.array_equal(hashes, np.concatenate(alone))
    assert counts.sum() > 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(max_codepoint=127), max_size=40), min_size=1, max_size=8))
def test_the_ascii_pass_gives_the_front_end_s_units(parts: list[str]) -> None:
    """ASCII text's units and each text's first unit, as char_units gives
    them; text that is not all ASCII is left to char_units."""
    texts = [p.encode() for p in parts]
    joined = b"\n".join(texts)
    offsets = joined_offsets(texts)
    got = ascii_units(joined, offsets)
    assert got is not None
    chars = char_units(joined)
    assert got[0].tolist() == chars.cps.tolist()
    assert got[1].tolist() == [*np.searchsorted(chars.starts, offsets).tolist(),
                               chars.cps.shape[0]]
    assert ascii_units(joined + "é".encode(), offsets) is None
    table = byte_units()  # what the compiled loop indexes by byte: no byte reads past it
    assert table.shape == (256,) and not table[128:].any() and not table.flags.writeable


def test_a_text_led_by_a_mark_is_not_joined() -> None:
    assert leads_with_mark("\u0301abc".encode())
    assert leads_with_mark("\u1161".encode())  # a Hangul medial vowel composes too
    assert not leads_with_mark(b"abc")
    assert not leads_with_mark("\u00e9t\u00e9".encode())
    assert not leads_with_mark(b"")
    # led by a mark that case-folds to a letter: alone it is a unit of its own
    config = WinnowConfig(k=3, t=5)
    batch = ["abcdef", "\u0345abcdef"]
    hashes, counts = batch_hashes([t.encode() for t in batch], config)
    alone = [record_hashes(t, config) for t in batch]
    assert counts.tolist() == [a.shape[0] for a in alone]
    assert np.array_equal(hashes, np.concatenate(alone))


def test_rows_ordered_by_partition_hash_and_document_as_lexsort_orders_them() -> None:
    rng = np.random.default_rng(3)
    hashes = rng.integers(0, 2**63, 5000, dtype=np.int64).astype(np.uint64)
    hashes[::7] = hashes[1::7]  # hashes in several documents
    docs = np.sort(rng.integers(0, 300, 5000)).astype(np.int64)
    part = partition_of(hashes, 16)
    expected = np.lexsort((docs, hashes, part))
    assert np.array_equal(by_partition_hash_doc(hashes, docs, part), expected)
    shuffled = rng.permutation(5000)  # documents out of order: the general sort
    assert np.array_equal(by_partition_hash_doc(hashes[shuffled], docs[shuffled],
                                                part[shuffled]),
                          np.lexsort((docs[shuffled], hashes[shuffled], part[shuffled])))


FIELDS = Fields("text", "id")


@pytest.mark.parametrize("raw, expected", [
    (b'{"id": 7, "text": "hello"}\n', ("7", "hello")),
    (b'{"id": "a", "text": "x", "text": "last"}\n', ("a", "last")),
    (b'{"id": 123456789012345678901234567890, "text": "big"}\n',
     ("123456789012345678901234567890", "big")),
    (b'{"id": 1.5, "text": "x"}\n', "is not a string or an integer"),
    (b'{"id": 1, "text": NaN}\n', "is not a string"),
    (b'{"id": 1, "text": "\\ud800"}\n', "lone surrogate"),
    (b'\xef\xbb\xbf{"id": 1, "text": "bom"}\n', ("1", "bom")),
    ('{"id": 1, "text": "wide"}\n'.encode("utf-16"), ("1", "wide")),
    (b'{"id": 1, "text": "x"\n', "not JSON"),
    (b'[1, 2]\n', "not a JSON object"),
    (b'null\n', "not a JSON object"),
])
def test_json_lines_read_as_the_standard_library_reads_them(
        raw: bytes, expected: tuple[str, str] | str) -> None:
    got = parse_json_line(raw, 0, "f.jsonl", 1, FIELDS)
    if isinstance(expected, tuple):
        assert isinstance(got, Record)
        assert (got.id, got.text) == expected
        assert got.text == json.loads(raw)["text"]
    else:
        assert isinstance(got, BadRecord)
        assert expected in got.reason


def test_set_digests_name_the_set_whatever_its_neighbours() -> None:
    from winnow.corpus.clusters import identical_sets
    from winnow.corpus.fingerprints import set_digests

    sets = [np.array([5, 9, 12], dtype=np.uint64), np.array([], dtype=np.uint64),
            np.array([5, 9, 13], dtype=np.uint64), np.array([5, 9, 12], dtype=np.uint64),
            np.array([7], dtype=np.uint64), np.array([5, 9, 12], dtype=np.uint64)]
    counts = np.array([s.shape[0] for s in sets], dtype=np.int64)
    digests = set_digests(np.concatenate(sets), counts)
    assert digests[1] == 0 and (digests[[0, 2, 3, 4, 5]] != 0).all()
    assert digests[0] == digests[3] == digests[5] != digests[2]
    alone = [set_digests(s, np.array([s.shape[0]], dtype=np.int64))[0] for s in sets]
    assert digests.tolist() == alone
    first, other = identical_sets(digests, counts)
    assert sorted(zip(first.tolist(), other.tolist(), strict=True)) == [(0, 3), (0, 5)]
    assert identical_sets(None, counts)[0].shape[0] == 0


def _large_array_mapped() -> bool:
    """Whether a 16 MiB array is mapped on its own (not from the heap)."""
    return mapped_apart(16)


def _worker_maps_large_arrays(reuse: bool) -> bool:
    """In a pool worker whose parent maps large arrays apart: whether a large
    array is mapped apart after :func:`reuse_freed_memory`, or without it."""
    map_large_allocations()
    if reuse:
        reuse_freed_memory()
    return _large_array_mapped()


@GLIBC
def test_a_pool_worker_keeps_the_arrays_it_frees_for_reuse() -> None:
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        assert pool.apply(_worker_maps_large_arrays, (False,))
    with context.Pool(1) as pool:
        assert not pool.apply(_worker_maps_large_arrays, (True,))
    assert _worker_maps_large_arrays(True)  # the main process: untouched


@GLIBC
def test_the_main_process_reuses_freed_arrays_only_while_it_fingerprints() -> None:
    map_large_allocations()
    with reusing_freed_memory():
        inside = _large_array_mapped()
    assert not inside
    assert _large_array_mapped()  # mapped apart again


@GLIBC
def test_a_shard_is_fingerprinted_reusing_freed_arrays(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts(3, 50)))
    shards, _ = plan_shards([str(path)], Fields())
    map_large_allocations()  # as a sharded engine's worker has it
    batches = fingerprint_shard(ShardJob(shards[0], Fields(), WinnowConfig(k=5, t=8)))
    assert next(batches).docs.shape[0] > 0
    assert not _large_array_mapped()  # while the shard is read
    list(batches)
    assert _large_array_mapped()  # after it


def _worker_reuses_after_a_block() -> bool:
    map_large_allocations()
    reuse_freed_memory()
    with reusing_freed_memory():  # nested in the worker's own setting: changes nothing
        pass
    return _large_array_mapped()


@GLIBC
def test_a_block_inside_a_reusing_worker_leaves_it_reusing() -> None:
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert not pool.apply(_worker_reuses_after_a_block)


def test_a_process_that_maps_nothing_apart_keeps_its_allocator(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import winnow.parallel as parallel

    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(parallel, "_mapping", False)  # as a caller with map_large_arrays off
    monkeypatch.setattr(parallel, "_thresholds", lambda *given: calls.append(given))
    monkeypatch.setattr(parallel, "map_large_allocations", lambda: calls.append((0, 0)))
    with reusing_freed_memory():
        pass
    assert calls == []
    monkeypatch.setattr(parallel, "_mapping", True)
    with reusing_freed_memory():
        pass
    assert calls[0] == (parallel.REUSE_MMAP_THRESHOLD, parallel.REUSE_TRIM_THRESHOLD)
    assert (0, 0) in calls  # large arrays mapped apart again after the block


def test_rows_by_part_keep_their_order_within_a_part() -> None:
    from winnow.corpus.fingerprints import by_part

    rng = np.random.default_rng(3)
    hashes = rng.integers(0, 1 << 63, 2000, dtype=np.uint64)
    owners = np.sort(rng.integers(0, 300, 2000)).astype(np.int32)
    for bits in (0, 3, 9):
        got_h, got_o, counts = by_part(hashes, owners, bits)
        part = (hashes & np.uint64((1 << bits) - 1)).astype(np.int64)
        order = np.argsort(part, kind="stable")
        assert got_h.tolist() == hashes[order].tolist()
        assert got_o.tolist() == owners[order].tolist() and got_o.dtype == np.int32
        assert counts.tolist() == np.bincount(part, minlength=1 << bits).tolist()


def test_records_by_part_are_the_rows_of_their_owners_by_part() -> None:
    from winnow.corpus.fingerprints import by_part, records_by_part

    rng = np.random.default_rng(4)
    counts = rng.integers(0, 30, 200).astype(np.int64)
    docs = np.sort(rng.choice(5000, 200, replace=False)).astype(np.int64)
    hashes = rng.integers(0, 1 << 63, int(counts.sum()), dtype=np.uint64)
    # the same rows spread out: each record's from firsts[r] on, gaps between
    gaps = rng.integers(0, 5, 200)
    firsts = np.cumsum(counts + gaps) - counts - gaps + gaps
    spread = np.full(int((counts + gaps).sum()) + 3, 7, dtype=np.uint64)
    for r in range(200):
        spread[firsts[r]:firsts[r] + counts[r]] = hashes[counts[:r].sum():counts[:r + 1].sum()]
    for bits in (0, 4):
        want = by_part(hashes, np.repeat(docs, counts), bits)
        for got in (records_by_part(hashes, docs, counts, bits),
                    records_by_part(spread, docs, counts, bits, firsts)):
            assert got[1].dtype == np.int32
            for x, y in zip(got, want, strict=True):
                assert x.tolist() == y.tolist()


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("stretch", [1, 37, 1 << 22])
def test_rows_put_in_parts_in_stretches_tell_what_was_read(
        stretch: int, split: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """records_by_part a stretch of rows at a time, on one thread or on two
    (each half of the records): the same parts, and ``done`` told of every
    row read, in stretches that leave no gap (the gaps between records'
    rows included), ascending on each thread."""
    from winnow.corpus import fingerprints
    from winnow.corpus.fingerprints import records_by_part

    rng = np.random.default_rng(5)
    counts = rng.integers(0, 30, 300).astype(np.int64)
    docs = np.arange(300, dtype=np.int64)
    firsts = np.cumsum(counts + 3) - counts - 3
    spread = rng.integers(0, 1 << 63, int((counts + 3).sum()), dtype=np.uint64)
    want = records_by_part(spread, docs, counts, 5, firsts)
    monkeypatch.setattr(fingerprints, "SCATTER_ROWS", stretch)
    if split:
        monkeypatch.setattr(fingerprints, "SPLIT_ROWS", 1)
        monkeypatch.setattr(fingerprints, "usable_cores", lambda: 2)
    told: list[tuple[int, int]] = []
    got = records_by_part(spread, docs, counts, 5, firsts, lambda a, b: told.append((a, b)))
    for x, y in zip(got, want, strict=True):
        assert x.tolist() == y.tolist()
    told.sort()  # two threads tell in turns
    assert told[0][0] == 0 and told[-1][1] == int(firsts[-1] + counts[-1])
    assert all(a[1] == b[0] for a, b in itertools.pairwise(told))
    if stretch == 1:
        assert 200 < len(told) <= 300  # a record a stretch (those with no rows after one join it)
    elif stretch == 37:
        assert 1 < len(told) < 300
    else:
        assert len(told) == 1 + split
