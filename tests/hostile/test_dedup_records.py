"""Hostile records cost ``dedup`` only themselves: every other record's cluster is
the one of a run without them, the bad one is named with its file and line.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hostile.cli_helpers import winnow
from winnow.corpus.readers import MAX_RECORD_BYTES

WORDS = ("river", "stone", "light", "paper", "cloud", "green", "house", "quiet", "north",
         "table", "music", "winter", "garden", "silver", "window", "forest")


def good_lines(n: int = 60, seed: int = 3) -> list[str]:
    """``n`` records: every third one a near copy of the one before."""
    rng = random.Random(seed)
    out: list[str] = []
    for i in range(n):
        if i % 3 == 2:
            words = json.loads(out[-1])["text"].split()
            words[rng.randrange(len(words))] = "changed"
            text = " ".join(words)
        else:
            text = " ".join(rng.choice(WORDS) for _ in range(60))
        out.append(json.dumps({"id": f"r{i}", "text": text}))
    return out


def clusters(stdout: str) -> set[frozenset[str]]:
    """The clusters of ``dedup --format jsonl`` output, as sets of ids."""
    groups: dict[int, set[str]] = {}
    for line in stdout.splitlines():
        row = json.loads(line)
        groups.setdefault(row["cluster"], set()).add(row["id"])
    return {frozenset(g) for g in groups.values()}


def dedup(*args: str | Path) -> tuple[int, str, str]:
    result = winnow("dedup", "-q", "-j", "1", "--id-field", "id", *args)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def clean(tmp_path: Path) -> set[frozenset[str]]:
    path = tmp_path / "clean.jsonl"
    path.write_text("\n".join(good_lines()) + "\n")
    code, out, err = dedup(path)
    assert code == 0, err
    found = clusters(out)
    assert len(found) == 20
    return found


def deep(depth: int) -> str:
    return '{"id": "deep", "text": ' + "[" * depth + "]" * depth + "}"


BAD: dict[str, Callable[[], str]] = {
    "nested 3,000 deep": lambda: deep(3000),
    "not JSON": lambda: "{broken",
    "no text": lambda: '{"id": "x"}',
    "text not a string": lambda: '{"id": "y", "text": 5}',
    "over the record budget": lambda: json.dumps({"id": "big",
                                                  "text": "a" * (MAX_RECORD_BYTES + 10)}),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_record_is_named_and_the_others_cluster_as_before(
        kind: str, tmp_path: Path, clean: set[frozenset[str]]) -> None:
    lines = good_lines()
    lines.insert(30, BAD[kind]())
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = dedup(path)
    assert code == 1, err
    assert f"{path}:31" in err and "bad record" in err
    assert "Traceback" not in err
    assert clusters(out) == clean


def test_blank_lines_are_not_records(tmp_path: Path, clean: set[frozenset[str]]) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_text("\n\n".join(good_lines()) + "\n\n   \n")
    result = winnow("dedup", "-j", "1", "--id-field", "id", path)
    assert result.exit_code == 0, result.stderr
    assert clusters(result.stdout) == clean
    assert "60 records" in result.stderr


#: bzip2 decompresses whole blocks: 100 kB ones (level 1), so a cut loses at most one.
COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    ".gz": gzip.compress, ".bz2": lambda d: bz2.compress(d, 1), ".xz": lzma.compress}


def distinct_lines(n: int) -> list[str]:
    rngs = [random.Random(i) for i in range(n)]
    return [json.dumps({"id": f"r{i}", "text": " ".join(rng.choice(WORDS) for _ in range(200))})
            for i, rng in enumerate(rngs)]


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
def test_a_truncated_compressed_file_keeps_every_readable_record(
        suffix: str, tmp_path: Path) -> None:
    lines = distinct_lines(400)
    data = COMPRESSORS[suffix](("\n".join(lines) + "\n").encode())
    path = tmp_path / f"cut.jsonl{suffix}"
    path.write_bytes(data[: len(data) * 2 // 3])
    out = tmp_path / "kept.jsonl"
    code, _, err = dedup(path, "--keep", "representative", "-o", out)
    assert code == 1, err
    assert str(path) in err and "ends early or is damaged" in err
    kept = out.read_text().splitlines()
    whole = [line for line in kept if line in lines]
    assert len(whole) >= 100, f"only {len(whole)} of 400 records survived"
    assert whole == lines[: len(whole)], "the readable records are not the file's first ones"


def test_a_small_gz_holding_a_huge_record_is_one_bad_record(tmp_path: Path,
                                                            clean: set[frozenset[str]]) -> None:
    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wb", compresslevel=1) as out:
        for line in good_lines()[:30]:
            out.write(line.encode() + b"\n")
        out.write(b'{"id": "bomb", "text": "')
        block = b"a" * (1 << 20)
        for _ in range(MAX_RECORD_BYTES // len(block) * 3):
            out.write(block)
        out.write(b'"}\n')
        for line in good_lines()[30:]:
            out.write(line.encode() + b"\n")
    assert path.stat().st_size < 1 << 20
    code, out_text, err = dedup(path)
    assert code == 1
    assert f"{path}:31" in err and "record budget" in err
    assert clusters(out_text) == clean


def test_a_text_file_with_a_name_that_is_not_utf8_goes_to_any_output(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    text = " ".join(random.Random(1).choice(WORDS) for _ in range(80))
    (folder / "plain.txt").write_text(text)
    os.close(os.open(os.fsencode(folder) + b"/caf\xe9.txt", os.O_CREAT | os.O_WRONLY))
    with open(os.fsencode(folder) + b"/caf\xe9.txt", "w") as out:
        out.write(text)
    for name in ("rows.jsonl", "rows.csv", "rows.parquet"):
        result = winnow("dedup", "-q", "-j", "1", folder, "-o", tmp_path / name)
        assert result.exit_code == 0, result.stderr
        assert (tmp_path / name).stat().st_size > 0
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    assert sorted(row["id"] for row in rows) == ["caf\\xe9.txt", "plain.txt"]


def test_mismatched_parquet_schemas_are_refused_before_the_run(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({"id": ["a"], "text": ["one two three four five six"]}),
                   tmp_path / "a.parquet")
    pq.write_table(pa.table({"id": [1], "text": ["one two three four five six"],
                             "extra": [1.5]}), tmp_path / "b.parquet")
    out = tmp_path / "kept.parquet"
    code, _, err = dedup(tmp_path / "a.parquet", tmp_path / "b.parquet", "--keep",
                         "representative", "-o", out)
    assert code == 2, err
    assert "b.parquet" in err and "differ" in err and "Traceback" not in err
    assert not out.exists()


def test_the_record_budget_is_an_option(tmp_path: Path, clean: set[frozenset[str]]) -> None:
    lines = good_lines()
    lines.insert(30, json.dumps({"id": "two-mib", "text": "word " * (2 << 18)}))
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = dedup(path, "--max-record-size", "1")
    assert code == 1 and f"{path}:31" in err and "1 MiB record budget" in err
    assert clusters(out) == clean
    code, out, err = dedup(path)  # within the default budget: a record like any other
    assert code == 0, err
