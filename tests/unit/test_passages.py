"""``find_passages``: repeated passages found, verified and extended to their
exact byte extent, edited repeats joined, short repeats left out."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from winnow.corpus import Fields
from winnow.corpus.passages import PassageRow, PassageSettings, cut, find_passages, keep_first
from winnow.errors import InvalidConfig

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(LETTERS) for _ in range(rng.randint(3, 9))) for _ in range(n)]


def write(path: Path, texts: dict[str, str]) -> str:
    path.write_text("".join(json.dumps({"id": k, "text": v}) + "\n" for k, v in texts.items()))
    return str(path)


def found(paths: list[str], **options: object) -> list[PassageRow]:
    settings = PassageSettings(Fields("text", "id"), jobs=1, **options)  # type: ignore[arg-type]
    with find_passages(paths, settings) as run:
        return list(run.passages())


def span(text: str, passage: str, start: int = 0) -> tuple[int, int]:
    """Byte offsets of ``passage`` in ``text`` (UTF-8), searched from ``start``."""
    data, needle = text.encode(), passage.encode()
    at = data.index(needle, start)
    return at, at + len(needle)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(7)


def test_exact_repeat_across_records_has_its_exact_byte_extent(
        rng: random.Random, tmp_path: Path) -> None:
    passage = " ".join(words(rng, 70))
    texts = {"a": " ".join(words(rng, 40)) + " " + passage + " " + " ".join(words(rng, 30)),
             "b": " ".join(words(rng, 25)) + ", " + passage + "; " + " ".join(words(rng, 10)),
             "c": " ".join(words(rng, 200))}
    rows = found([write(tmp_path / "in.jsonl", texts)])
    assert [(r.id, r.kept, r.first_id, r.occurrences) for r in rows] == [
        ("a", True, "a", 2), ("b", False, "a", 2)]
    assert (rows[0].start, rows[0].end) == span(texts["a"], passage)
    assert (rows[1].start, rows[1].end) == span(texts["b"], passage)


def test_case_punctuation_and_unicode_are_normalised_offsets_in_bytes(
        rng: random.Random, tmp_path: Path) -> None:
    plain = words(rng, 60)
    plain[10] = "café"
    passage = " ".join(plain)
    shouted = ", ".join(w.upper() for w in plain)  # CAFÉ: two bytes, other offsets
    texts = {"a": "élan " + passage, "b": "Ωmega… " + shouted + "!"}
    rows = found([write(tmp_path / "in.jsonl", texts)])
    assert [(r.id, r.start, r.end) for r in rows] == [
        ("a", *span(texts["a"], passage)), ("b", *span(texts["b"], shouted))]


def test_a_repeat_within_one_record(rng: random.Random, tmp_path: Path) -> None:
    passage = " ".join(words(rng, 55))
    text = " ".join(words(rng, 20)) + " " + passage + " " + " ".join(words(rng, 30)) + " " \
        + passage + " " + " ".join(words(rng, 5))
    rows = found([write(tmp_path / "in.jsonl", {"one": text})])
    first = span(text, passage)
    second = span(text, passage, first[1])
    assert [(r.id, r.start, r.end, r.kept, r.first_id) for r in rows] == [
        ("one", *first, True, "one"), ("one", *second, False, "one")]


@pytest.mark.parametrize("edits", [1, 2, 3])
def test_an_edited_repeat_is_one_passage(rng: random.Random, tmp_path: Path,
                                         edits: int) -> None:
    original = words(rng, 90)
    copy = list(original)
    for at in (20, 45, 70)[:edits]:
        copy[at] = "edited"
    texts = {"a": " ".join(words(rng, 10) + original + words(rng, 10)),
             "b": " ".join(words(rng, 30) + copy + words(rng, 12))}
    rows = found([write(tmp_path / "in.jsonl", texts)])
    assert [(r.id, r.start, r.end) for r in rows] == [
        ("a", *span(texts["a"], " ".join(original))), ("b", *span(texts["b"], " ".join(copy)))]
    exact = found([str(tmp_path / "in.jsonl")], gap=0)  # without joining: pieces, or none
    assert all(r.end - r.start < len(" ".join(copy)) for r in exact)


@pytest.mark.parametrize(("length", "reported"), [(49, False), (50, True)])
def test_shorter_repeats_than_min_tokens_are_not_reported(
        rng: random.Random, tmp_path: Path, length: int, reported: bool) -> None:
    passage = " ".join(words(rng, length))
    texts = {"a": " ".join(words(rng, 30)) + " " + passage + " " + " ".join(words(rng, 30)),
             "b": " ".join(words(rng, 30)) + " " + passage + " " + " ".join(words(rng, 30))}
    rows = found([write(tmp_path / "in.jsonl", texts)])
    assert bool(rows) is reported
    assert all((r.start, r.end) == span(texts[r.id], passage) for r in rows)


def test_many_occurrences_across_files_and_workers(rng: random.Random, tmp_path: Path) -> None:
    passage = " ".join(words(rng, 60))
    paths = []
    for f in range(3):
        texts = {f"f{f}r{i}": " ".join(words(rng, 20)) + " " + passage + " "
                 + " ".join(words(rng, 20)) for i in range(4)}
        texts[f"f{f}other"] = " ".join(words(rng, 100))
        paths.append(write(tmp_path / f"in{f}.jsonl", texts))
    rows = found(paths)
    assert len(rows) == 12 and {r.occurrences for r in rows} == {12}
    assert [r.id for r in rows if r.kept] == ["f0r0"]
    assert {r.first_id for r in rows} == {"f0r0"}
    settings = PassageSettings(Fields("text", "id"), jobs=2, partitions=3)
    with find_passages(paths, settings) as run:
        assert list(run.passages()) == rows


def test_keep_first_cuts_every_repeat_but_the_first(rng: random.Random, tmp_path: Path) -> None:
    passage = " ".join(words(rng, 60))
    texts = {"a": "intro " + passage + " outro", "b": "before " + passage + " after",
             "c": passage, "d": " ".join(words(rng, 80))}
    settings = PassageSettings(Fields("text", "id"), jobs=1)
    kept: dict[str, str | None] = {}
    with find_passages([write(tmp_path / "in.jsonl", texts)], settings) as run:
        emptied = keep_first(run, lambda shard, item, text: kept.__setitem__(
            getattr(item, "id", ""), text))
        assert run.removed_bytes == 2 * len(passage)
    assert emptied == 1
    assert kept == {"a": None, "b": "before  after", "c": "", "d": None}


def test_bad_records_are_counted_never_fatal(rng: random.Random, tmp_path: Path) -> None:
    passage = " ".join(words(rng, 60))
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": "a", "text": passage}) + "\nnot json\n"
                    + json.dumps({"id": "b", "body": passage}) + "\n"
                    + json.dumps({"id": "c", "text": passage}) + "\n")
    settings = PassageSettings(Fields("text", "id"), jobs=1)
    with find_passages([str(path), str(tmp_path / "missing.jsonl")], settings) as run:
        rows = list(run.passages())
        assert [(b.line, b.reason.split(" ")[0]) for b in run.bad] == [(2, "not"), (3, "no")]
        assert [p.path for p in run.problems] == [str(tmp_path / "missing.jsonl")]
    assert [(r.id, r.kept) for r in rows] == [("a", True), ("c", False)]


def test_cut_removes_byte_ranges_of_utf8() -> None:
    assert cut("été, hiver", [0], [5]) == ", hiver"
    assert cut("abcdef", [4, 1, 2], [5, 3, 3]) == "adf"


@pytest.mark.parametrize("options", [{"min_tokens": 0}, {"k": 60}, {"t": 3}, {"gap": -1},
                                     {"partitions": 0}])
def test_settings_are_checked(options: dict[str, int]) -> None:
    with pytest.raises(InvalidConfig):
        PassageSettings(**options)  # type: ignore[arg-type]


def test_boilerplate_in_many_records_and_seed_slices(rng: random.Random, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A passage in more records than every two of them are paired (40 > 32):
    each copy still found, first occurrence first; seeding in slices of a few
    seeds gives the same rows."""
    from winnow.corpus import passage_stages

    passage = " ".join(words(rng, 60))
    texts = {f"r{i:02d}": " ".join(words(rng, 15)) + " " + passage + " "
             + " ".join(words(rng, 15)) for i in range(40)}
    path = write(tmp_path / "in.jsonl", texts)
    rows = found([path])
    assert [r.id for r in rows] == sorted(texts)
    assert all(r.first_id == "r00" and r.kept == (r.id == "r00") for r in rows)
    assert all((r.start, r.end) == span(texts[r.id], passage) for r in rows)
    assert {r.occurrences for r in rows} == {40}
    monkeypatch.setattr(passage_stages, "SEED_SLICE", 5)
    assert found([path]) == rows


def test_extension_compares_characters_not_only_word_ids() -> None:
    """Two words with the same 32-bit id (a collision, forced here) but other
    characters end a match: nothing is trusted from hashes."""
    import numpy as np

    from winnow.corpus import _passage_kernels as kernels
    from winnow.corpus.passage_store import tokenize

    a = tokenize(" ".join(f"w{i}" for i in range(20)))
    b = tokenize(" ".join(f"w{i}" if i != 15 else "x15" for i in range(20)))
    ids_b = a.ids.copy()  # every id equal, as if "x15" collided with "w15"

    def extend(ids: np.ndarray) -> list[int]:
        result = np.zeros((1, 5), dtype=np.int64)
        one = np.zeros(1, dtype=np.int64)
        kernels.extend_seeds(a.ids, a.off, a.norm, one, one + 20, one + 5,
                             ids, b.off, b.norm, one, one + 20, one + 5, 3, 0, 4,
                             np.zeros(1, dtype=np.bool_), result)
        return result[0].tolist()

    assert extend(ids_b) == [0, 15, 0, 15, 15]
    assert extend(b.ids) == [0, 15, 0, 15, 15]
    c = tokenize(" ".join(f"w{i}" if i != 6 else "x6" for i in range(20)))
    result = np.zeros((1, 5), dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    kernels.extend_seeds(a.ids, a.off, a.norm, one, one + 20, one + 5, a.ids.copy(), c.off,
                         c.norm, one, one + 20, one + 5, 3, 0, 4, np.zeros(1, dtype=np.bool_),
                         result)
    assert result[0, 0] == -1  # the seed's own k-gram differs in its characters
