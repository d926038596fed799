"""Corpus readers: every format gives the same records, bad ones keep their slot."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import json
import lzma
import os
import random
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard

from winnow import parallel
from winnow.corpus import readers, streams
from winnow.corpus.readers import BadRecord, Fields, Record, plan_shards, read_shard

LINES = [json.dumps({"id": f"n{i}", "text": f"record number {i} " * 3}) for i in range(40)]
DATA = ("\n".join(LINES) + "\n").encode()
WRITERS = {
    "plain.jsonl": lambda p, d: p.write_bytes(d),
    "g.jsonl.gz": lambda p, d: p.write_bytes(gzip.compress(d)),
    "b.jsonl.bz2": lambda p, d: p.write_bytes(bz2.compress(d)),
    "x.jsonl.xz": lambda p, d: p.write_bytes(lzma.compress(d)),
    "z.jsonl.zst": lambda p, d: p.write_bytes(zstandard.ZstdCompressor().compress(d)),
}


NAMED = Fields("text", "id")


def records(paths: list[str], fields: Fields = NAMED) -> list[Record | BadRecord]:
    shards, problems = plan_shards(paths, fields)
    assert not problems
    return [item for shard in shards for item in read_shard(shard, fields)]


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_compression_gives_the_same_records(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    WRITERS[name](path, DATA)
    got = records([str(path)])
    assert [(r.doc, r.id, r.line) for r in got if isinstance(r, Record)] == [
        (i, f"n{i}", i + 1) for i in range(40)]


def test_a_plain_file_cut_into_shards_keeps_numbers_and_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(DATA.rstrip(b"\n"))  # no newline after the last line
    monkeypatch.setattr(readers, "SHARD_BYTES", 100)
    monkeypatch.setattr(streams, "COUNT_BLOCK", 7)  # lines counted across read blocks
    monkeypatch.setattr(parallel, "usable_cores", lambda: 2)  # spans on two threads
    shards, _ = plan_shards([str(path)], Fields())
    assert len(shards) > 5
    data = path.read_bytes()  # each shard's digest: its bytes' SHA-256, as a sharded run keeps
    assert [s.digest for s in shards] == [hashlib.sha256(data[s.start:s.stop]).hexdigest()
                                          for s in shards]
    assert sum(s.count for s in shards) == 40 and shards[-1].stop == len(data)
    got = [item for shard in shards for item in read_shard(shard, Fields("text", "id"))]
    assert [(r.doc, r.line, r.id) for r in got if isinstance(r, Record)] == [
        (i, i + 1, f"n{i}") for i in range(40)]


def test_bad_records_say_why_and_keep_their_slot(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"text": "good"}\nnot json\n\n[1, 2]\n{"other": 1}\n{"text": 5}\n'
                     b'{"text": "caf\xe9"}\n{"text": "last"}\n')
    got = records([str(path)], Fields())
    assert [(r.doc, r.line) for r in got] == [(0, 1), (1, 2), (3, 4), (4, 5), (5, 6),
                                              (6, 7), (7, 8)]  # the blank line 3 holds nothing
    reasons = [r.reason for r in got if isinstance(r, BadRecord)]
    assert reasons[0].startswith("not JSON")
    assert reasons[1:] == ["not a JSON object", "no field 'text'",
                           "field 'text' is not a string", "invalid UTF-8"]
    assert got[-1] == Record(7, f"{path}:8", "last", str(path), 8, b'{"text": "last"}\n')


def test_parquet_rows_and_their_problems(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    table = pa.table({"body": ["one text", None, "three"], "key": ["a", "b", None]})
    pq.write_table(table, path, row_group_size=2)
    shards, _ = plan_shards([str(path)], Fields())
    assert [(s.first, s.count) for s in shards] == [(0, 2), (2, 1)]
    got = records([str(path)], Fields("body", "key"))
    assert got[0] == Record(0, "a", "one text", str(path), 1)
    assert isinstance(got[1], BadRecord) and got[1].reason == "no field 'body'"
    assert isinstance(got[2], BadRecord) and got[2].reason == "no field 'key'"
    missing = records([str(path)], Fields("text"))
    assert {r.reason for r in missing if isinstance(r, BadRecord)} == {"no field 'text'"}
    assert len(missing) == 3


def test_a_folder_of_text_files_without_following_links(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("alpha")
    (root / "sub" / "b.txt").write_text("beta")
    (root / "bad.txt").write_bytes(b"\xff\xfe broken")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    os.symlink(outside, root / "link")
    os.symlink(outside / "secret.txt", root / "file-link")
    shards, problems = plan_shards([str(root)], Fields())
    assert sorted((Path(p.path).name, p.reason) for p in problems) == [
        ("file-link", "symbolic link (not followed)"), ("link", "symbolic link (not followed)")]
    got = [item for shard in shards for item in read_shard(shard, Fields())]
    assert [(r.doc, r.id, r.text) for r in got if isinstance(r, Record)] == [
        (0, "a.txt", "alpha"), (2, os.path.join("sub", "b.txt"), "beta")]
    bad = [r for r in got if isinstance(r, BadRecord)]
    assert len(bad) == 1 and bad[0].reason == "invalid UTF-8 at byte 0"


@pytest.mark.parametrize("seed", range(4))
def test_wanted_lines_are_those_every_line_gives(seed: int) -> None:
    """streams.wanted_lines gives lines(...)[i] for each wanted i, whatever
    the blocks' cuts, blank lines, a last line without newline, or lines over
    the budget (given as their length)."""
    rng = random.Random(seed)
    for _ in range(2000):
        data = bytes(rng.choice(b"ab\n\n\nxyz") for _ in range(rng.randint(0, 120)))
        cuts = sorted(rng.sample(range(len(data) + 1), min(len(data) + 1, rng.randint(0, 8))))
        chunks = [data[i:j] for i, j in zip([0, *cuts], [*cuts, len(data)], strict=True)
                  if j > i]
        budget = rng.randint(0, 12)
        every = list(streams.lines(iter(chunks), budget))
        plain = [line if len(line.rstrip(b"\n")) <= budget else len(line)  # no blocks at all
                 for line in re.findall(rb"[^\n]*\n|[^\n]+\Z", data)]
        assert every == plain
        runs = list(streams.line_runs(iter(chunks), budget))  # what lines() is built on
        assert [line for run, _ in runs for line in run] == [
            line[:-1] if isinstance(line, bytes) and line.endswith(b"\n") else line
            for line in every]
        assert all(ended for _, ended in runs[:-1])
        assert not runs or runs[-1][1] == data.endswith(b"\n")  # a last line without one
        wanted = sorted(rng.sample(range(len(every) + 2), rng.randint(0, len(every) + 2)))
        assert list(streams.wanted_lines(iter(chunks), budget, wanted)) == \
            [(i, every[i]) for i in wanted if i < len(every)]
    assert list(streams.lines(iter([b"ab\nc", b"de\n\nxyz"]), 2)) == [b"ab\n", 4, b"\n", 3]


def test_files_counted_together_are_planned_as_each_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The spans of every plain file are counted on one pool of threads:
    the shards (numbers, lines, digests) are those each file gives alone,
    numbered on in the order given, an empty file and a compressed one
    between them, a file given twice planned twice."""
    monkeypatch.setattr(readers, "SHARD_BYTES", 300)
    monkeypatch.setattr(parallel, "usable_cores", lambda: 2)
    names = []
    for i, data in enumerate([DATA, b"", DATA[:500], DATA.rstrip(b"\n")]):
        path = tmp_path / f"part-{i}.jsonl"
        path.write_bytes(data)
        names.append(str(path))
    (tmp_path / "g.jsonl.gz").write_bytes(gzip.compress(DATA))
    names[2:2] = [str(tmp_path / "g.jsonl.gz")]
    names.append(names[0])
    shards, problems = plan_shards(names, Fields())
    assert not problems
    alone, first = [], 0
    for name in names:
        own, _ = plan_shards([name], Fields())
        alone += [(name, first + s.first, s.count, s.start, s.stop, s.line, s.digest)
                  for s in own]
        first += sum(s.count for s in own)
    assert [(s.path, s.first, s.count, s.start, s.stop, s.line, s.digest)
            for s in shards] == alone
    assert sum(s.count for s in shards) == 40 * 4 + len(DATA[:500].splitlines())


def test_a_file_that_fails_while_counted_is_named_and_the_others_planned(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file whose lines cannot be counted with the others is planned alone
    again: its error is its problem, the other files are planned as ever."""
    monkeypatch.setattr(parallel, "usable_cores", lambda: 2)
    names = []
    for i in range(3):
        path = tmp_path / f"part-{i}.jsonl"
        path.write_bytes(DATA)
        names.append(str(path))
    counting = readers.count_newlines

    def failing(path: str, *args: object) -> tuple[int, int]:
        if path == names[1]:
            raise OSError(5, "Input/output error")
        return counting(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(readers, "count_newlines", failing)
    shards, problems = plan_shards(names, Fields())
    assert [p.path for p in problems] == [names[1]]
    assert "Input/output error" in str(problems[0])
    assert [(s.path, s.first, s.count) for s in shards] == [(names[0], 0, 40),
                                                            (names[2], 40, 40)]


def test_missing_and_broken_inputs_are_problems_not_failures(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_bytes(DATA)
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"not gzip at all")
    shards, problems = plan_shards([str(tmp_path / "none.jsonl"), str(broken), str(good)],
                                   Fields())
    assert [p.path for p in problems] == [str(tmp_path / "none.jsonl"), str(broken)]
    assert sum(s.count for s in shards) == 40 and shards[0].first == 0


@pytest.mark.parametrize("id_field", ["id", None])
def test_record_texts_are_the_texts_of_the_usable_records(tmp_path: Path,
                                                          id_field: str | None) -> None:
    lines = [b'{"id": 1, "text": "plain"}', b"", b"   ", b"not json", b"[1, 2]", b"null",
             b'{"text": "no id"}', b'{"id": true, "text": "a bool id"}',
             b'{"id": 123456789012345678901234567890, "text": "a huge id"}',
             b'{"id": 2.5, "text": "a float id"}', b'{"id": 3, "text": 7}',
             b'{"id": 4, "text": "\\ud800 lone"}', b'{"id": 5, "text": NaN}',
             b'\xef\xbb\xbf{"id": 6, "text": "bom"}', b'{"id": 7, "text": "caf\\u00e9"}',
             b'{"id": "8", "text": "x", "text": "last"}', b"[" * 2000 + b"]" * 2000,
             b'{"id": 9, "text": "' + b"y" * 5000 + b'"}', b'{"id": 10, "text": "\xff"}',
             b'{"id": 11, "text": null}', b'{"id": [1], "text": "a list id"}']
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    fields = Fields("text", id_field, max_bytes=4096)
    shards, problems = plan_shards([str(path)], fields)
    assert not problems
    expected = [(r.doc, r.text.encode("utf-8")) for shard in shards
                for r in read_shard(shard, fields) if isinstance(r, Record)]
    got = [pair for shard in shards for pair in readers.record_texts(shard, fields)]
    assert got == expected
    assert len(expected) >= 6  # usable and unusable lines both
    rng = random.Random(2)
    for _ in range(20):  # only some records: the same texts of those
        wanted = set(rng.sample(range(len(lines) + 2), rng.randint(0, len(lines))))
        assert [pair for shard in shards
                for pair in readers.record_texts(shard, fields, wanted)] == \
            [(doc, text) for doc, text in expected if doc in wanted]
    slots = [item for shard in shards for item in read_shard(shard, fields)]
    ids = [item for shard in shards for item in readers.record_ids(shard, fields)]
    assert [(s.doc, s.reason) if isinstance(s, BadRecord) else (s.doc, s.id, s.path, s.line)
            for s in slots] == \
        [(s.doc, s.reason) if isinstance(s, BadRecord) else s for s in ids]
    assert any(isinstance(s, BadRecord) for s in ids)
