"""The CSV rows of pairs without passages: compiled writer, Python lines, f"{v:.6f}"."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.reports.csv import _field, _ScoreRows, _scores_only_lines, micros
from winnow.reports.records import PAIR_COLUMNS

EDGES = [0.0, 1.0, 0.5, 1 / 3, 2 / 3, 1 / 128, 3 / 128, 127 / 128, 5e-7, 4.999999e-7,
         2.5e-7, 0.1234565, 0.9999995, 999.9999996, 999.25, 1e-300]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(0, 999.999, allow_nan=False),
                          st.integers(0, 127_999).map(lambda n: n / 128),
                          st.sampled_from(EDGES)), min_size=1, max_size=50))
def test_micros_round_as_python_formats(values: list[float]) -> None:
    array = np.array(values, dtype=np.float64)
    got = micros(array)
    assert got is not None
    assert [f"{m // 1000000}.{m % 1000000:06d}" for m in got.tolist()] == \
        [f"{v:.6f}" for v in values]


@pytest.mark.parametrize("bad", [-1e-9, -0.0, float("nan"), float("inf"), 1000.0])
def test_micros_refuses_what_it_cannot_round_exactly(bad: float) -> None:
    assert micros(np.array([0.5, bad])) is None


def _arrays(rng: np.random.Generator, n: int, n_names: int) -> dict[str, np.ndarray]:
    fractions = {name: np.where(rng.random(n) < 0.3, rng.integers(0, 129, n) / 128,
                                rng.random(n))
                 for name in ("similarity", "containment_a", "containment_b", "jaccard",
                              "weighted", "rarity", "score")}
    return {"a": rng.integers(0, n_names, n), "b": rng.integers(0, n_names, n),
            "shared": rng.integers(0, 10**12, n), **fractions}


NAMES = ["plain.py", 'a,"quoted".py', "b\nline.py", "naïve/ünï.py", "tab\there.py", "x"]


@pytest.mark.parametrize("terminal", [False, True])
def test_the_compiled_rows_equal_the_python_lines(terminal: bool) -> None:
    rng = np.random.default_rng(5)
    fields = [_field(name, terminal) for name in NAMES]
    cluster = np.array([0, -1, 0, 2, 2, -1], dtype=np.int64)
    rows = _ScoreRows(fields, cluster)
    assert rows.names is not None  # the compiled writer is used
    columns = _arrays(rng, 5000, len(NAMES))
    at = rng.permutation(5000)[:3000]  # the chunk's pairs, in ranked order
    arrays = {name: column[at] for name, column in columns.items()}
    a, b = arrays["a"], arrays["b"]
    same = np.where((cluster[a] == cluster[b]) & (cluster[a] >= 0), cluster[a], -1)
    expected = "".join(_scores_only_lines(arrays, np.array(fields, dtype=object), same))
    assert rows.text(at, columns) == expected
    assert expected.count("\n") >= 3000
    assert re.search(r",,,2,[01]\.\d{6}\n", expected) and re.search(r",,,,[01]\.\d{6}\n", expected)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PAIR_COLUMNS), min_size=1, max_size=17, unique=True))
def test_chosen_columns_are_the_cells_of_the_full_rows(chosen: list[str]) -> None:
    rng = np.random.default_rng(len(chosen))
    fields = [_field(name, False) for name in NAMES]
    cluster = np.array([0, -1, 0, 2, 2, -1], dtype=np.int64)
    columns = _arrays(rng, 300, len(NAMES))
    every = np.arange(300)
    full = list(csv.reader(io.StringIO(_ScoreRows(fields, cluster).text(every, columns))))
    rows = _ScoreRows(fields, cluster, tuple(chosen))
    assert rows.names is not None  # the compiled writer
    where = [PAIR_COLUMNS.index(name) for name in chosen]
    expected = [[row[i] for i in where] for row in full]
    assert list(csv.reader(io.StringIO(rows.text(every, columns)))) == expected
    slow = _ScoreRows([*fields[:-1], "bad\udcff"], cluster, tuple(chosen))  # Python lines
    lines = list(csv.reader(io.StringIO(slow.text(every, columns))))
    assert [row for row, pair in zip(lines, every.tolist(), strict=True)
            if 5 not in (columns["a"][pair], columns["b"][pair])] == \
        [row for row, pair in zip(expected, every.tolist(), strict=True)
         if 5 not in (columns["a"][pair], columns["b"][pair])]


def test_scores_out_of_range_and_undecodable_names_use_the_python_lines() -> None:
    rng = np.random.default_rng(6)
    fields = [_field(name, False) for name in NAMES]
    cluster = np.full(len(NAMES), -1, dtype=np.int64)
    arrays = _arrays(rng, 50, len(NAMES))
    arrays["weighted"][7] = 1234.5
    every = np.arange(50)
    text = _ScoreRows(fields, cluster).text(every, arrays)
    assert ",1234.500000," in text and text.count("\n") >= 50
    assert ",1234.500000," not in _ScoreRows(fields, cluster).text(every[8:], arrays)
    odd = _ScoreRows([*fields[:-1], "bad\udcff"], cluster)
    assert odd.names is None
    assert "bad\udcff" in odd.text(every, _arrays(rng, 50, len(NAMES)))


def test_the_encoded_rows_are_the_text_rows_in_utf8() -> None:
    rng = np.random.default_rng(7)
    fields = [_field(name, False) for name in NAMES]
    rows = _ScoreRows(fields, np.array([0, -1, 0, 2, 2, -1], dtype=np.int64))
    arrays = _arrays(rng, 2000, len(NAMES))
    every = np.arange(2000)
    assert bytes(rows.encoded(every, arrays)) == rows.text(every, arrays).encode("utf-8")
    assert "naïve".encode() in bytes(rows.encoded(every, arrays))
    arrays["rarity"][3] = 1000.5  # out of the compiled writer's range: Python lines
    assert b",1000.500000," in bytes(rows.encoded(every, arrays))
    assert bytes(rows.encoded(every, arrays)) == rows.text(every, arrays).encode("utf-8")


@pytest.mark.parametrize("chunk", [65536, 4, 1])
def test_every_pair_goes_to_the_bytes_under_a_utf8_file_unchanged(
    chunk: int, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io
    import random

    from winnow.config import WinnowConfig
    from winnow.matching import CompareOptions, compare
    from winnow.reports.csv import _byte_sink, write_csv
    from winnow.sources.submissions import ReadOptions, SourceFile, SubmissionSource

    words = [f"w{i}" for i in range(300)]
    pick = random.Random(3)
    common = [pick.choice(words) for _ in range(60)]
    names = ["naïve", 'q,"x"', "c", "d", "e", "f", "g"]
    subs = [SubmissionSource(name, "new", (SourceFile(  # type: ignore[arg-type]
        "s.txt", f"{name}/s.txt", ReadOptions(frontend="text"),
        " ".join(common[: 20 + 6 * i] + [pick.choice(words) for _ in range(40)]).encode()),))
        for i, name in enumerate(names)]
    result = compare(subs, WinnowConfig(k=8, t=16), CompareOptions(top=0, passages_top=3))
    assert len(result.pairs) > 10  # most pairs are written from the score arrays
    whole = io.StringIO()
    write_csv(result, whole)
    monkeypatch.setattr("winnow.reports.csv.CHUNK", chunk)  # in order, chunk after chunk
    monkeypatch.setattr("winnow.reports.csv.usable_cores", lambda: 2)  # two formatters
    text = io.StringIO()
    write_csv(result, text)
    assert _byte_sink(text) is None
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1", newline="")
    assert _byte_sink(utf8) is utf8.buffer and _byte_sink(latin) is None
    for out in (utf8, latin):
        write_csv(result, out)
        out.flush()
    assert utf8.buffer.getvalue() == text.getvalue().encode("utf-8")  # type: ignore[attr-defined]
    assert latin.buffer.getvalue() == text.getvalue().encode("latin-1")  # type: ignore[attr-defined]
    assert text.getvalue().count("\n") == 1 + len(result.pairs)
    assert text.getvalue() == whole.getvalue()
    # a name cell twice would outgrow the compiled rows' buffer: refused, as on the CLI
    with pytest.raises(ValueError, match="file_a named twice"):
        write_csv(result, io.StringIO(), ("file_a", "file_b", "file_a"))
