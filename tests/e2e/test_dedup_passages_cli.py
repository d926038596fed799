"""``winnow dedup --passages`` on real files: rows in every format, the cut
corpus, bad records, option checks."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.reports.passages import ROW_FIELDS

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choice(LETTERS) for _ in range(rng.randint(3, 9)))
                    for _ in range(n))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, dict[str, str], str]:
    rng = random.Random(11)
    passage = words(rng, 70)
    texts = {"a": words(rng, 30) + " " + passage, "b": passage + " " + words(rng, 20),
             "whole": passage, "other": words(rng, 100)}
    path = tmp_path / "in.jsonl"
    lines = [json.dumps({"name": k, "text": v}) for k, v in texts.items()]
    lines.insert(2, "{broken")
    path.write_text("\n".join(lines) + "\n")
    return path, texts, passage


def test_rows_in_every_format(corpus: tuple[Path, dict[str, str], str]) -> None:
    path, texts, passage = corpus
    code, out, err = run("dedup", str(path), "--passages", "--id-field", "name")
    assert code == 1  # the bad record
    assert f"{path}:3: bad record, not JSON" in err
    rows = [json.loads(line) for line in out.splitlines()]
    assert all(tuple(r) == ROW_FIELDS for r in rows)
    assert [(r["id"], r["first_id"], r["occurrences"], r["kept"]) for r in rows] == [
        ("a", "a", 3, True), ("b", "a", 3, False), ("whole", "a", 3, False)]
    start = texts["a"].index(passage)
    assert (rows[0]["start"], rows[0]["end"]) == (start, start + len(passage))
    assert "3 passage rows" in err and f"{2 * len(passage):,} bytes" in err and "1 bad" in err
    code, table, _ = run("dedup", str(path), "--passages", "--id-field", "name", "-q",
                         "--format", "table")
    assert table.splitlines()[0].split() == list(ROW_FIELDS)
    assert len(table.splitlines()) == 4
    code, text, _ = run("dedup", str(path), "--passages", "--id-field", "name", "-q",
                        "--format", "csv")
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0] == list(ROW_FIELDS) and [r[0] for r in parsed[1:]] == ["a", "b", "whole"]


def test_keep_first_writes_the_cut_corpus(corpus: tuple[Path, dict[str, str], str],
                                          tmp_path: Path) -> None:
    path, texts, passage = corpus
    out = tmp_path / "cut.jsonl.gz"
    code, stdout, err = run("dedup", str(path), "--passages", "--keep-records", "first", "-o",
                            str(out), "--id-field", "name", "-j", "1")
    assert code == 1 and stdout == ""
    import gzip

    lines = gzip.decompress(out.read_bytes()).decode().splitlines()
    assert lines[2] == "{broken"  # a bad record is kept as it was
    records = [json.loads(line) for line in lines if line != "{broken"]
    assert {r["name"]: r["text"] for r in records} == {
        "a": texts["a"], "b": " " + texts["b"][len(passage) + 1:], "other": texts["other"]}
    assert "1 records left empty and dropped" in err


def test_options_are_checked(corpus: tuple[Path, dict[str, str], str], tmp_path: Path) -> None:
    path = corpus[0]
    for args, message in (
            (["--keep-records", "first", "-o", str(tmp_path / "o.jsonl")],
             "--keep-records first goes with"),
            (["--passages", "--keep-records", "representative", "-o", str(tmp_path / "o.jsonl")],
             "--keep-records first"),
            (["--passages", "--keep-records", "first"], "needs -o OUT"),
            (["--passages", "--format", "parquet", "-o", str(tmp_path / "o.parquet")],
             "jsonl, json, csv or table"),
            (["--passages", "--pair-engine", "ray", "--ray-address", "auto"], "needs --workdir"),
            (["--passages", "--workdir", "s3://bucket/run"], "not a URI"),
            (["--passages", "--min-tokens", "3"], "--min-tokens")):
        code, _, err = run("dedup", str(path), *args)
        assert code == 2 and message in err, (args, err)


def test_keep_first_of_parquet_inputs(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = random.Random(4)
    passage = words(rng, 60)
    texts = ["head " + passage + " tail", "other " + passage, passage, words(rng, 90)]
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table({"key": ["a", "b", "c", "d"], "text": texts,
                             "score": [1.0, 2.0, 3.0, 4.0]}), path, row_group_size=2)
    out = tmp_path / "cut.parquet"
    code, _, err = run("dedup", str(path), "--passages", "--id-field", "key", "--keep-records",
                       "first", "-o", str(out))
    assert code == 0, err
    table = pq.read_table(out)
    assert table.column_names == ["key", "text", "score"]
    assert table.to_pydict() == {"key": ["a", "b", "d"],
                                 "text": [texts[0], "other ", texts[3]],
                                 "score": [1.0, 2.0, 4.0]}
    code, _, err = run("dedup", str(path), "--passages", "--keep-records", "first", "-o",
                       str(tmp_path / "cut.jsonl"))
    assert code == 2 and "*.parquet" in err
