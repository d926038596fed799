"""``winnow contamination`` on real files: every format, -o, bad records, bad options."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.reports.contamination import ROW_FIELDS

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choice(LETTERS) for _ in range(rng.randint(3, 9)))
                    for _ in range(n))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str, str]:
    rng = random.Random(9)
    items = {"q1": words(rng, 30), "q2": words(rng, 20), "q3": words(rng, 25)}
    corpus = {"doc-a": words(rng, 40) + " " + items["q1"] + ". " + words(rng, 10),
              "doc-b": items["q2"][:60] + " " + words(rng, 30),
              "doc-c": words(rng, 80)}
    eval_path = tmp_path / "eval.jsonl"
    eval_path.write_text("".join(json.dumps({"qid": k, "question": v}) + "\n"
                                 for k, v in items.items()), encoding="utf-8")
    corpus_path = tmp_path / "corpus.jsonl"
    corpus_path.write_text("".join(json.dumps({"url": k, "text": v}) + "\n"
                                   for k, v in corpus.items()), encoding="utf-8")
    return str(eval_path), str(corpus_path), corpus["doc-a"]


def args(files: tuple[str, str, str], *more: str) -> list[str]:
    return ["contamination", files[0], "--corpus", files[1], "--text-field", "question",
            "--id-field", "qid", "--corpus-id-field", "url", "-j", "1", *more]


def test_jsonl_rows_and_summary(files: tuple[str, str, str]) -> None:
    code, out, err = run(*args(files))
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [tuple(r) for r in rows] == [ROW_FIELDS] * 3
    assert [(r["id"], r["coverage"], r["records"]) for r in rows] == [
        ("q1", 1.0, 1), ("q2", 0.0, 0), ("q3", 0.0, 0)]
    (place,) = rows[0]["locations"]
    assert place["id"] == "doc-a"
    assert files[2].encode()[place["start"]:place["end"]].decode().count(" ") == 29
    assert "3 items, 1 found in the corpus; 3 records" in err and "MB/s" in err


def test_every_format_and_output_file(files: tuple[str, str, str], tmp_path: Path) -> None:
    code, table, _ = run(*args(files, "--format", "table", "-q"))
    assert code == 0
    lines = table.splitlines()
    assert lines[0].split()[:5] == ["coverage", "longest", "tokens", "records", "id"]
    assert lines[1].split()[:5] == ["1.000", "30", "30", "1", "q1"]
    assert "doc-a @ " in lines[1]
    code, text, _ = run(*args(files, "--format", "csv", "-q"))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert code == 0 and tuple(rows[0]) == ROW_FIELDS
    assert json.loads(rows[0]["locations"])[0]["id"] == "doc-a" and rows[2]["locations"] == "[]"
    code, text, _ = run(*args(files, "--format", "json", "-q"))
    assert code == 0 and [r["id"] for r in json.loads(text)] == ["q1", "q2", "q3"]
    target = tmp_path / "out.jsonl"
    code, out, err = run(*args(files, "-o", str(target)))
    assert code == 0 and out == "" and "items" in err
    assert [json.loads(line)["id"] for line in target.read_text().splitlines()] == [
        "q1", "q2", "q3"]


def test_bad_records_are_named_and_exit_1(files: tuple[str, str, str], tmp_path: Path) -> None:
    with open(files[1], "a", encoding="utf-8") as handle:
        handle.write("{broken\n" + json.dumps({"text": "no url"}) + "\n")
    code, out, err = run(*args(files, str(tmp_path / "nothing.jsonl")))
    assert code == 1
    assert "corpus.jsonl:4: bad record, not JSON" in err
    assert "corpus.jsonl:5: bad record, no field 'url'" in err
    assert "nothing.jsonl" in err and "2 bad" in err
    assert json.loads(out.splitlines()[0])["coverage"] == 1.0  # the rest was scanned


@pytest.mark.parametrize(("more", "message"), [
    (("-k", "20"), "t (guarantee threshold) must be >= k"),
    (("--gap", "-1"), "--gap"),
    (("--format", "xml"), "--format"),
])
def test_bad_options_are_usage_errors(files: tuple[str, str, str], more: tuple[str, ...],
                                      message: str) -> None:
    code, _, err = run(*args(files, *more))
    assert code == 2 and message in err


def test_the_corpus_is_required(files: tuple[str, str, str]) -> None:
    code, _, err = run("contamination", files[0])
    assert code == 2 and "--corpus" in err


def test_output_may_not_overwrite_an_input(files: tuple[str, str, str]) -> None:
    code, _, err = run(*args(files, "-o", files[1]))
    assert code == 2 and "corpus.jsonl" in err


def test_names_are_escaped_in_the_table(tmp_path: Path) -> None:
    rng = random.Random(1)
    item = words(rng, 20)
    eval_path = tmp_path / "e.jsonl"
    eval_path.write_text(json.dumps({"id": "evil\x1b[31m", "text": item}) + "\n",
                         encoding="utf-8")
    corpus_path = tmp_path / "c.jsonl"
    corpus_path.write_text(json.dumps({"id": "rec\x1b]0;x\x07", "text": item}) + "\n",
                           encoding="utf-8")
    code, out, _ = run("contamination", str(eval_path), "--corpus", str(corpus_path),
                       "--id-field", "id", "--corpus-id-field", "id", "--format", "table",
                       "-q", "-j", "1")
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "evil\\x1b[31m" in out and "rec\\x1b]0;x\\x07 @ 0-" in out


def test_the_progress_bar_counts_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    from winnow.cli.contamination import BytesBar

    bar = BytesBar(True)
    bar("corpus", 2_000_000, 8_000_000)
    bar("corpus", 8_000_000, 8_000_000)
    assert (bar.bar.n, bar.bar.total, bar.bar.unit) == (8_000_000, 8_000_000, "B")
    bar.close()
    err = capsys.readouterr().err
    assert "corpus" in err and "/8.00M" in err and "B/s" in err
    silent = BytesBar(False)
    silent("corpus", 1, 2)
    assert silent.bar is None and capsys.readouterr().err == ""


def test_a_quoted_corpus_pattern_is_expanded(files: tuple[str, str, str],
                                             tmp_path: Path) -> None:
    folder = tmp_path / "shards"
    folder.mkdir()
    for n in range(3):
        (folder / f"part-{n}.jsonl").write_text(Path(files[1]).read_text(encoding="utf-8"),
                                                encoding="utf-8")
    code, out, err = run("contamination", files[0], "--corpus", str(folder / "part-*.jsonl"),
                         "--text-field", "question", "-j", "1")
    assert code == 0, err
    first = json.loads(out.splitlines()[0])
    assert first["records"] == 3 and "9 records" in err
    assert [p["id"].rsplit("/", 1)[-1] for p in first["locations"]] == [
        "part-0.jsonl:1", "part-1.jsonl:1", "part-2.jsonl:1"]
    code, _, err = run("contamination", files[0], "--corpus", str(folder / "none-*.jsonl"),
                       "--text-field", "question", "-q")
    assert code == 1 and "none-*.jsonl: no such file or folder" in err
