"""``winnow dedup`` on real files: clusters, the de-duplicated corpus, bad records."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.reports.dedup import ROW_FIELDS

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 9)))
                    for _ in range(n))


@pytest.fixture
def corpus() -> dict[str, str]:
    """Unrelated records, an edited copy, and a short record inside a longer one."""
    rng = random.Random(3)
    texts = {f"u{i}": words(rng, 80) for i in range(8)}
    edited = texts["u0"].split()
    edited[40] = "changed"
    texts["copy"] = " ".join(edited)
    texts["short"] = words(rng, 30)
    texts["host"] = words(rng, 50) + " " + texts["short"].upper() + ". " + words(rng, 20)
    return texts


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_clusters_of_jsonl_records(corpus: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl.gz"
    path.write_bytes(gzip.compress("".join(
        json.dumps({"name": k, "body": v}) + "\n" for k, v in corpus.items()).encode()))
    code, out, err = run("dedup", str(path), "--text-field", "body", "--id-field", "name")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert all(tuple(r) == ROW_FIELDS for r in rows)
    found = {(r["id"], r["cluster"], r["representative"], r["kept"], r["match"]) for r in rows}
    assert found == {("u0", 1, "u0", True, "copy"), ("copy", 1, "u0", False, "u0"),
                     ("host", 2, "host", True, "short"), ("short", 2, "host", False, "host")}
    short = next(r for r in rows if r["id"] == "short")
    assert short["containment"] >= 0.9 > short["similarity"]
    assert "records" in err and "2 clusters" in err
    args = (str(path), "--text-field", "body", "--id-field", "name", "-q")
    code, table, _ = run("dedup", *args, "--format", "table")
    assert code == 0 and table.splitlines()[0].split() == [
        "cluster", "kept", "similarity", "containment", "id", "match"]
    assert table.splitlines()[1].split()[:2] == ["1", "kept"] and len(table.splitlines()) == 5
    code, text, _ = run("dedup", *args, "--format", "csv")
    assert code == 0 and text.splitlines()[0] == ",".join(ROW_FIELDS)
    code, text, _ = run("dedup", *args, "--format", "json")
    assert code == 0 and json.loads(text) == rows


def test_keep_representative_writes_the_corpus_and_names_bad_records(
        corpus: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    lines = [json.dumps({"id": k, "text": v}) for k, v in corpus.items()]
    lines.insert(3, "{broken")
    lines.insert(5, json.dumps({"id": "n", "text": None}))
    path.write_text("\n".join(lines) + "\n")
    out, report = tmp_path / "kept.jsonl.zst", tmp_path / "clusters.parquet"
    code, _, err = run("dedup", str(path), "--id-field", "id", "--keep", "representative",
                       "-o", str(out), "--clusters", str(report))
    assert code == 1
    assert f"{path}:4: bad record, not JSON" in err
    assert f"{path}:6: bad record, no field 'text'" in err
    import zstandard

    kept = zstandard.ZstdDecompressor().stream_reader(out.read_bytes()).read().decode()
    assert kept.splitlines() == [line for line in lines
                                 if '"copy"' not in line and '"short"' not in line]
    table = pq.read_table(report)
    assert table.column_names == list(ROW_FIELDS) and table.num_rows == 4


def test_keep_representative_of_parquet_keeps_every_column(
        corpus: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "c.parquet"
    names = list(corpus)
    pq.write_table(pa.table({"id": names, "text": list(corpus.values()),
                             "n": list(range(len(names)))}), path, row_group_size=4)
    out = tmp_path / "kept.parquet"
    code, _, err = run("dedup", str(path), "--id-field", "id", "--keep", "representative",
                       "-o", str(out), "-q")
    assert code == 0, err
    table = pq.read_table(out)
    assert table.column_names == ["id", "text", "n"]
    assert table.column("id").to_pylist() == [n for n in names if n not in ("copy", "short")]


def test_a_folder_of_text_files(corpus: dict[str, str], tmp_path: Path) -> None:
    for name, text in corpus.items():
        (tmp_path / f"{name}.txt").write_text(text)
    code, out, _ = run("dedup", str(tmp_path), "-q", "--engine", "in-memory", "-j", "1")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert {row["id"] for row in rows} == {"u0.txt", "copy.txt", "short.txt", "host.txt"}
    assert all(row["source"] == str(tmp_path / row["id"]) for row in rows)  # the file's


@pytest.mark.parametrize("option", ["--db=x.db", "--link", "--delete", "--apply"])
def test_the_file_commands_options_name_dedup_files(option: str, tmp_path: Path) -> None:
    code, _, err = run("dedup", str(tmp_path), option)
    assert code == 2 and "winnow dedup-files" in err


def test_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text('{"text": "x"}\n')
    a = str(tmp_path / "a.jsonl")
    assert run("dedup", a, "--keep", "representative")[0] == 2  # no -o
    assert run("dedup", a, "--clusters", str(tmp_path / "c.jsonl"))[0] == 2  # no --keep
    assert run("dedup", a, "--format", "parquet")[0] == 2  # Parquet: to -o FILE only
    code, _, err = run("dedup", a, "--keep", "representative", "-o", str(tmp_path / "o.parquet"))
    assert code == 2 and "JSON Lines" in err
