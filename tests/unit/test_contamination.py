"""The contamination scan's library: tokens, the guarantee, exact spans across
edits, coverage, locations, bad records, parallel runs."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from winnow.config import WinnowConfig
from winnow.corpus.contamination import ContaminationSettings, ItemRow, scan
from winnow.corpus.contamination.spans import hits, item_table, record_spans
from winnow.corpus.contamination.tokens import tokens
from winnow.corpus.readers import BadRecord, Fields
from winnow.errors import InvalidConfig

LETTERS = "abcdefghijklmnopqrstuvwxyz"
SETTINGS = ContaminationSettings(Fields("text", "id"), Fields("text", "id"), jobs=1)


def words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(LETTERS) for _ in range(rng.randint(3, 9))) for _ in range(n)]


def jsonl(path: Path, rows: dict[str, str], extra: str = "") -> str:
    path.write_text("".join(json.dumps({"id": k, "text": v}) + "\n" for k, v in rows.items())
                    + extra, encoding="utf-8")
    return str(path)


def by_id(rows: list[ItemRow]) -> dict[str, ItemRow]:
    return {row.id: row for row in rows}


def test_tokens_are_words_with_byte_spans() -> None:
    text = "Ünïcode well-known, 3.14 ÉTÉ!"
    found = tokens(text.encode("utf-8"))
    raw = text.encode("utf-8")
    pieces = [raw[s:e].decode("utf-8") for s, e in zip(found.starts, found.ends, strict=True)]
    assert pieces == ["Ünïcode", "well", "known", "3", "14", "ÉTÉ"]
    again = tokens("ünïcode WELL known 3 14 été".encode())
    assert np.array_equal(found.ids, again.ids)  # case and punctuation do not count
    assert len(set(found.ids.tolist())) == 6


def test_hits_are_every_equal_kgram() -> None:
    rng = np.random.default_rng(1)
    items = [rng.integers(0, 5, size=n).astype(np.uint64) for n in (30, 3, 40)]
    config = WinnowConfig(3, 3, "robust")
    table = item_table(items, config)
    record = rng.integers(0, 5, size=50).astype(np.uint64)
    hp, hq = hits(table, _kgram(record, 3), np.arange(48, dtype=np.int64))
    flat = np.concatenate(items)
    starts = (0, 30, 33)
    expected = {(p, q) for q in range(48) for start, item in zip(starts, items, strict=True)
                for p in range(start, start + item.shape[0] - 2)
                if flat[p:p + 3].tolist() == record[q:q + 3].tolist()}
    assert set(zip(hp.tolist(), hq.tolist(), strict=True)) == expected
    assert hp.shape[0] == len(expected)  # each once


def _kgram(units: np.ndarray, k: int) -> np.ndarray:
    from winnow.engine import kgram_hashes

    return kgram_hashes(units, k)


@pytest.mark.parametrize("seed", range(8))
def test_every_shared_run_of_t_tokens_is_found_exactly(seed: int) -> None:
    """Winnowing's guarantee: a run of at least t equal tokens is found, and
    extended to its exact extent (the tokens around it differ)."""
    rng = np.random.default_rng(seed)
    k, t = 5, 13
    config = WinnowConfig(k, t, "robust")
    length, start = int(rng.integers(t, 40)), int(rng.integers(0, 20))
    run = rng.integers(0, 1 << 40, size=length).astype(np.uint64)
    item = np.concatenate([rng.integers(0, 1 << 40, size=start), run,
                           rng.integers(0, 1 << 40, size=int(rng.integers(0, 20)))])
    before = int(rng.integers(0, 300))
    record = np.concatenate([rng.integers(0, 1 << 40, size=before), run,
                             rng.integers(0, 1 << 40, size=int(rng.integers(0, 300)))])
    table = item_table([item.astype(np.uint64)], config)
    spans = record_spans(table, record.astype(np.uint64), config, gap=0, min_tokens=t)
    assert spans.tolist() == [[0, start, start + length, before, before + length, length]]


def test_spans_join_across_a_changed_word() -> None:
    rng = random.Random(5)
    item = words(rng, 30)
    record = words(rng, 10) + item[:14] + ["changed"] + item[15:] + words(rng, 10)
    config = WinnowConfig(5, 13, "robust")
    table = item_table([tokens(" ".join(item).encode()).ids], config)
    ids = tokens(" ".join(record).encode()).ids
    spans = record_spans(table, ids, config, gap=3, min_tokens=13)
    assert spans.tolist() == [[0, 0, 30, 10, 40, 29]]
    apart = record_spans(table, ids, config, gap=0, min_tokens=13)
    assert apart.tolist() == [[0, 0, 14, 10, 24, 14], [0, 15, 30, 25, 40, 15]]


@pytest.fixture
def fixture(tmp_path: Path) -> tuple[str, str, dict[str, str], dict[str, str]]:
    rng = random.Random(7)
    verbatim = " ".join(words(rng, 40))
    numbered = ("In 1987 the committee approved 42 new rules for the annual regional "
                "chess tournament held in the northern city hall every spring")
    punctuated = ("the river, which rises in the hills, flows west; past three mills and "
                  "an old stone bridge before it meets the sea")
    items = {"verbatim": verbatim, "numbered": numbered, "punctuated": punctuated,
             "unrelated": " ".join(words(rng, 30)), "short": "the old stone bridge"}
    records = {
        "r0": " ".join(words(rng, 200)),
        "r1": " ".join(words(rng, 25)) + " «" + verbatim.upper() + "» " + " ".join(words(rng, 5)),
        "r2": "Blah: in 1987 the committee approved 43 new rules for the annual regional "
              "chess tournament held in the northern city hall every spring!",
        "r3": "The river (which rises in the hills) flows west: past three mills, and an "
              "old-stone bridge, before it meets the sea.",
        "r4": " ".join(words(rng, 50)) + " " + verbatim[: verbatim.index(" ", 120)],
    }
    return (jsonl(Path(tmp_path) / "eval.jsonl", items),
            jsonl(Path(tmp_path) / "corpus.jsonl", records), items, records)


def test_scan_finds_verbatim_and_edited_items(
        fixture: tuple[str, str, dict[str, str], dict[str, str]]) -> None:
    eval_path, corpus_path, items, _ = fixture
    run = scan([eval_path], [corpus_path], SETTINGS)
    rows = by_id(run.rows)
    whole = len(items["verbatim"].split())
    assert rows["verbatim"].tokens == whole
    assert (rows["verbatim"].longest, rows["verbatim"].coverage) == (whole, 1.0)
    assert rows["verbatim"].records == 2  # r1 whole, r4 its first part
    assert rows["numbered"].records == 1 and rows["numbered"].coverage == 1.0
    assert rows["numbered"].longest == rows["numbered"].tokens
    assert rows["punctuated"].coverage == 1.0
    for name in ("unrelated", "short"):
        assert (rows[name].coverage, rows[name].longest, rows[name].records) == (0.0, 0, 0)
        assert rows[name].locations == ()
    assert [row.coverage for row in run.rows] == sorted((r.coverage for r in run.rows),
                                                        reverse=True)
    assert run.records == 5 and run.bad == 0 and run.found == 3


def test_locations_slice_the_record_text_to_the_span(
        fixture: tuple[str, str, dict[str, str], dict[str, str]]) -> None:
    eval_path, corpus_path, items, records = fixture
    rows = by_id(scan([eval_path], [corpus_path], SETTINGS).rows)
    first, second = rows["verbatim"].locations
    assert (first.id, second.id) == ("r1", "r4")  # corpus order
    assert records["r1"].encode()[first.start:first.end].decode() == items["verbatim"].upper()
    part = records["r4"].encode()[second.start:second.end].decode()
    assert items["verbatim"].startswith(part) and len(part) > 100
    (place,) = rows["numbered"].locations
    assert records["r2"].encode()[place.start:place.end].decode() == (
        "in 1987 the committee approved 43 new rules for the annual regional chess "
        "tournament held in the northern city hall every spring")
    limited = scan([eval_path], [corpus_path], ContaminationSettings(
        Fields("text", "id"), Fields("text", "id"), locations=1, jobs=1))
    assert [p.id for p in by_id(limited.rows)["verbatim"].locations] == ["r1"]
    assert by_id(limited.rows)["verbatim"].records == 2


def test_coverage_counts_only_the_part_found(tmp_path: Path) -> None:
    rng = random.Random(11)
    item = words(rng, 50)
    eval_path = jsonl(tmp_path / "e.jsonl", {"half": " ".join(item)})
    corpus_path = jsonl(tmp_path / "c.jsonl", {
        "a": " ".join(words(rng, 20) + item[:20] + words(rng, 20)),
        "b": " ".join(words(rng, 20) + item[35:] + words(rng, 20))})
    (row,) = scan([eval_path], [corpus_path], SETTINGS).rows
    assert (row.longest, row.coverage, row.records) == (20, round(35 / 50, 4), 2)


def test_bad_items_and_records_are_named_and_never_fatal(tmp_path: Path) -> None:
    rng = random.Random(2)
    item = " ".join(words(rng, 30))
    eval_path = jsonl(tmp_path / "e.jsonl", {"ok": item}, extra='{"id": "x"}\n')
    corpus_path = jsonl(tmp_path / "c.jsonl", {"r": item},
                        extra='not json\n{"id": "n", "text": 5}\n')
    seen: list[BadRecord] = []
    run = scan([eval_path, str(tmp_path / "missing.jsonl")], [corpus_path], SETTINGS,
               on_bad=seen.append)
    assert [(Path(b.path).name, b.line) for b in seen] == [("e.jsonl", 2), ("c.jsonl", 2),
                                                           ("c.jsonl", 3)]
    assert "no field 'text'" in seen[0].reason and "not JSON" in seen[1].reason
    assert run.bad == 3 and len(run.problems) == 1 and "missing.jsonl" in str(run.problems[0])
    assert [(r.id, r.coverage) for r in run.rows] == [("ok", 1.0)]


def test_parquet_folders_and_workers_agree(tmp_path: Path) -> None:
    rng = random.Random(4)
    items = {f"i{n}": " ".join(words(rng, 25)) for n in range(6)}
    eval_path = str(tmp_path / "e.parquet")
    pq.write_table(pa.table({"text": list(items.values()), "id": list(items)}), eval_path)
    texts = [" ".join(words(rng, 30)) + " " + items[f"i{n % 6}"] for n in range(9)]
    pq.write_table(pa.table({"text": texts[:4], "id": [f"p{n}" for n in range(4)]}),
                   tmp_path / "c.parquet", row_group_size=2)
    folder = tmp_path / "texts"
    folder.mkdir()
    for n, text in enumerate(texts[4:]):
        (folder / f"t{n}.txt").write_text(text, encoding="utf-8")
    corpus = [str(tmp_path / "c.parquet"), str(folder)]
    one = scan([eval_path], corpus, SETTINGS)
    two = scan([eval_path], corpus, ContaminationSettings(
        Fields("text", "id"), Fields("text", "id"), jobs=2))
    assert one.rows == two.rows and one.records == 9
    rows = by_id(one.rows)
    assert rows["i0"].records == 2 and rows["i5"].records == 1
    assert all(row.coverage == 1.0 for row in one.rows)
    assert [p.id for p in rows["i0"].locations] == ["p0", "t2.txt"]


@pytest.mark.parametrize(("change", "problem"), [
    ({"k": 14}, "t (guarantee threshold) must be >= k"),
    ({"min_tokens": 0}, "min_tokens must be an integer >= 1"),
    ({"gap": -1}, "gap must be an integer >= 0"),
    ({"locations": -2}, "locations must be an integer >= 0"),
])
def test_bad_settings_are_refused(change: dict[str, int], problem: str) -> None:
    with pytest.raises(InvalidConfig) as error:
        ContaminationSettings(**change)  # type: ignore[arg-type]
    assert any(problem in p for p in error.value.problems)


def test_progress_counts_the_corpus_bytes_and_compressed_items_are_read(
        tmp_path: Path) -> None:
    import gzip

    rng = random.Random(8)
    item = " ".join(words(rng, 20))
    eval_path = tmp_path / "e.jsonl.gz"
    eval_path.write_bytes(gzip.compress((json.dumps({"id": "z", "text": item}) + "\n").encode()))
    corpus = [jsonl(tmp_path / f"c{n}.jsonl", {f"r{n}": " ".join(words(rng, 40)) + " " + item})
              for n in range(3)]
    calls: list[tuple[str, int, int]] = []
    run = scan([str(eval_path)], corpus, SETTINGS,
               progress=lambda stage, done, total: calls.append((stage, done, total)))
    total = sum(Path(p).stat().st_size for p in corpus)
    assert [c[0] for c in calls] == ["corpus"] * 3
    assert [c[1] for c in calls] == sorted(c[1] for c in calls)
    assert calls[-1][1:] == (total, total)
    assert run.text_bytes == sum(len(json.loads(Path(p).read_text())["text"].encode())
                                 for p in corpus)
    (row,) = run.rows
    assert (row.id, row.records, row.coverage) == ("z", 3, 1.0)


def test_overlapping_spans_merge_and_short_ones_go() -> None:
    from winnow.corpus.contamination._kernels import merge_spans

    spans = np.array([[0, 0, 20, 5, 25, 20],    # item 0: found twice, overlapping
                      [0, 10, 30, 15, 35, 18],
                      [0, 40, 50, 90, 100, 10],  # too few equal tokens
                      [1, 0, 14, 0, 14, 14],     # item 1 at the same record place
                      [1, 20, 40, 200, 220, 20]], dtype=np.int64)
    out = np.empty_like(spans)
    n = merge_spans(spans, 13, out)
    assert out[:n].tolist() == [[0, 0, 30, 5, 35, 20], [1, 0, 14, 0, 14, 14],
                                [1, 20, 40, 200, 220, 20]]


def test_hits_in_small_blocks_give_the_same_spans(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record that matches a repetitive item many times is scanned in blocks
    of hits; the spans do not depend on the block size."""
    from winnow.corpus.contamination import spans as module

    rng = random.Random(6)
    chorus = words(rng, 8)
    item = (chorus * 6) + words(rng, 20)
    record = words(rng, 10) + chorus * 9 + item[48:] + words(rng, 5) + item[:30]
    config = WinnowConfig(5, 13, "robust")
    table = item_table([tokens(" ".join(item).encode()).ids], config)
    ids = tokens(" ".join(record).encode()).ids
    whole = record_spans(table, ids, config, gap=3, min_tokens=13)
    assert len(hits(table, *_prints(ids, config))[0]) > 50
    monkeypatch.setattr(module, "HIT_BLOCK", 3)
    assert record_spans(table, ids, config, gap=3, min_tokens=13).tolist() == whole.tolist()
    assert whole.shape[0] >= 2 and int(whole[:, 5].max()) >= 20


def _prints(ids: np.ndarray, config: WinnowConfig) -> tuple[np.ndarray, np.ndarray]:
    from winnow.engine import fingerprint

    prints = fingerprint(ids, config)
    return prints["hash"], prints["pos"]
