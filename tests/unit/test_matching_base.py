"""Base code (``--base``): scores are shares of whole submissions, counted from
the same matches the passages show, and a class with starter code ranks its
pairs as well as without it."""

from __future__ import annotations

import random

import pytest

from winnow.config import WinnowConfig
from winnow.evaluation import best_f1, roc_auc
from winnow.matching import CompareOptions, compare
from winnow.sources.submissions import ReadOptions, SourceFile, SubmissionSource

TEXT = ReadOptions(frontend="text")
CODE = ReadOptions(frontend="code", lang="python")
CONFIG = WinnowConfig(k=8, t=16)
VOCAB = [f"w{i}" for i in range(400)]


def _words(rng: random.Random, n: int) -> list[str]:
    return [rng.choice(VOCAB) for _ in range(n)]


def _sub(name: str, text: str, read: ReadOptions = TEXT, path: str = "s.txt",
         role: str = "new") -> SubmissionSource:
    return SubmissionSource(name, role, (  # type: ignore[arg-type]
        SourceFile(path, f"{name}/{path}", read, text.encode()),))


def _edit(rng: random.Random, words: list[str], rate: float) -> list[str]:
    """A copy with a share ``rate`` of the words replaced."""
    return [rng.choice(VOCAB) if rng.random() < rate else w for w in words]


def _class(seed: int) -> tuple[list[list[str]], set[tuple[int, int]]]:
    """Twelve submissions: four originals each copied twice with edits."""
    rng = random.Random(seed)
    texts: list[list[str]] = []
    copied: set[tuple[int, int]] = set()
    for _ in range(4):
        original = _words(rng, 150)
        first = len(texts)
        texts.append(original)
        for rate in (rng.uniform(0.02, 0.25), rng.uniform(0.02, 0.25)):
            texts.append(_edit(rng, original, rate))
        copied |= {(first, first + 1), (first, first + 2), (first + 1, first + 2)}
    for _ in range(3):  # independent ones sharing some common phrasing
        texts.append(_words(rng, 120) + texts[0][:10])
    return texts, copied


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_class_with_starter_code_ranks_as_well_as_without(seed: int) -> None:
    texts, copied = _class(seed)
    starter = " ".join(_words(random.Random(100 + seed), 200))
    options = CompareOptions(top=0, passages=False, max_occurrences=0)
    plain = compare([_sub(f"s{i}", " ".join(t)) for i, t in enumerate(texts)], CONFIG, options)
    with_starter = compare(
        [_sub(f"s{i}", starter + "\n" + " ".join(t)) for i, t in enumerate(texts)], CONFIG,
        options, base=[_sub("starter", starter, role="base")])
    pairs = [(a, b) for a in range(len(texts)) for b in range(a + 1, len(texts))]
    labels = [pair in copied for pair in pairs]
    figures = []
    for result in (plain, with_starter):
        index = {f"s{i}": i for i in range(len(texts))}
        got = {(index[p.a], index[p.b]): p.similarity for p in result.pairs}
        scores = [got.get(pair, 0.0) for pair in pairs]
        figures.append((roc_auc(labels, scores), best_f1(labels, scores).f1))
    (auc, f1), (auc_base, f1_base) = figures
    assert auc > 0.9  # the class is separable at all
    assert abs(auc - auc_base) <= 0.005 and abs(f1 - f1_base) <= 0.03, figures


def test_a_pair_sharing_mostly_starter_code_scores_its_share_of_the_whole_file() -> None:
    rng = random.Random(7)
    starter = " ".join(_words(rng, 400))
    own = " ".join(_words(rng, 40))  # both students wrote the same 40 words
    subs = [_sub("a", starter + "\n" + own + "\n" + " ".join(_words(rng, 10))),
            _sub("b", starter + "\n" + own + "\n" + " ".join(_words(rng, 10))),
            _sub("c", " ".join(_words(rng, 300)))]
    plain = compare(subs, CONFIG)
    based = compare(subs, CONFIG, base=[_sub("starter", starter, role="base")])
    top_plain, top_based = plain.pairs[0], based.pairs[0]
    assert (top_based.a, top_based.b) == ("a", "b")
    assert top_plain.similarity > 0.8
    # about 40 of 450 words are shared outside the base: a low share, not 100 %
    assert 0.02 < top_based.similarity < 0.25
    assert top_based.similarity < top_plain.similarity
    assert top_based.passages and top_based.coverage_a is not None
    assert top_based.coverage_a < 0.25


def _python(rng: random.Random, n: int) -> str:
    lines = []
    for i in range(n):
        name, other = rng.choice(VOCAB), rng.choice(VOCAB)
        kind = rng.randrange(3)
        if kind == 0:
            lines.append(f"{name} = {other} + {rng.randrange(100)}")
        elif kind == 1:
            lines.append(f"print('{name} {other}', {rng.randrange(9)})")
        else:
            lines.append(f"def f{i}({name}):\n    return {other}({name}, '{rng.choice(VOCAB)}')")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(6))
def test_every_counted_fingerprint_lies_in_a_passage(seed: int) -> None:
    # Code, both channels, starter code interleaved with copied and own lines:
    # every pair that shares a counted fingerprint shows a passage with lines.
    rng = random.Random(seed)
    starter = _python(rng, 30)
    shared = _python(rng, 12)
    starter_lines = starter.splitlines(keepends=True)
    subs = []
    for i in range(5):
        body = list(starter_lines)
        for part in (shared if i < 3 else "", _python(rng, 8)):
            at = rng.randrange(len(body) + 1)
            body[at:at] = [part]
        subs.append(_sub(f"s{i}", "".join(body), CODE, "m.py"))
    result = compare(subs, WinnowConfig(k=8, t=12), CompareOptions(top=0),
                     base=[_sub("starter", starter, CODE, "m.py", role="base")])
    for pair in result.pairs:
        assert pair.shared > 0
        assert pair.passages, (pair.a, pair.b, pair.shared)
        assert pair.lines_a and pair.lines_b
        assert sum(p.fingerprints for p in pair.passages) >= 1


def test_every_pair_gets_scores_and_only_the_best_get_passages() -> None:
    rng = random.Random(11)
    common = _words(rng, 60)
    subs = [_sub(f"s{i}", " ".join(common[: 20 + 8 * i] + _words(rng, 50))) for i in range(5)]
    every = compare(subs, CONFIG, CompareOptions(top=0, passages_top=0))
    cut = compare(subs, CONFIG, CompareOptions(top=0, passages_top=3))
    assert len(cut.pairs) == len(every.pairs) == 10
    assert [p.score for p in cut.pairs] == [p.score for p in every.pairs]
    # without passages, the similarity is the fingerprints' estimate
    assert [p.similarity for p in cut.pairs[:3]] == [p.similarity for p in every.pairs[:3]]
    assert [p.passages_computed for p in cut.pairs] == [True] * 3 + [False] * 7
    assert cut.pairs[:3] == every.pairs[:3]
    assert all(p.coverage_a is None and p.lines_a is None and p.longest is None
               for p in cut.pairs[3:])
    shown = {n for p in cut.pairs[:3] for n in (p.a, p.b)}
    shown |= {c.submissions[0] for c in cut.shared_code}  # where shared code is shown
    assert {key[0] for key in cut.documents} <= shown


def test_the_pair_list_builds_each_pair_as_it_is_read() -> None:
    rng = random.Random(12)
    common = _words(rng, 60)
    subs = [_sub(f"s{i}", " ".join(common[: 20 + 8 * i] + _words(rng, 50))) for i in range(5)]
    cut = compare(subs, CONFIG, CompareOptions(top=0, passages_top=2))
    listed = list(cut.pairs)
    assert len(cut.pairs) == len(listed) == 10
    assert cut.pairs[-1] == listed[-1] and cut.pairs[2:4] == tuple(listed[2:4])
    assert cut.pairs == tuple(listed) and cut.pairs != tuple(listed[:-1])
    with pytest.raises(IndexError):
        cut.pairs[10]
    assert cut.stats["pairs_reported"] == 10


def test_the_csv_of_every_pair_is_the_same_streamed_or_from_objects() -> None:
    import dataclasses
    import io

    from winnow.reports.csv import write_csv

    rng = random.Random(13)
    common = _words(rng, 60)
    names = ['a,"quoted"', "b\nline", "c", "d", "e", "f"]  # names the CSV must quote
    subs = [_sub(names[i], " ".join(common[: 20 + 8 * i] + _words(rng, 50))) for i in range(6)]
    result = compare(subs, CONFIG, CompareOptions(top=0, passages_top=4,
                                                  cluster_threshold=0.3))
    streamed, built = io.StringIO(), io.StringIO()
    write_csv(result, streamed)
    write_csv(dataclasses.replace(result, pairs=tuple(result.pairs)), built)
    assert streamed.getvalue() == built.getvalue()
    import csv

    rows = list(csv.reader(io.StringIO(streamed.getvalue())))
    assert len(rows) == 1 + 15 and {r[0] for r in rows[1:]} | {r[1] for r in rows[1:]} == set(
        names)
    assert rows[4][3] != "" and rows[5][3:7] == ["", "", "", ""]


def test_the_table_says_which_pairs_have_no_passages() -> None:
    import io

    from winnow.reports.table import write_table

    rng = random.Random(14)
    common = _words(rng, 60)
    subs = [_sub(f"s{i}", " ".join(common[: 20 + 8 * i] + _words(rng, 50))) for i in range(4)]
    out = io.StringIO()
    write_table(compare(subs, CONFIG, CompareOptions(top=0, passages_top=2)), out)
    assert "not computed for 4 pairs: passages are computed for the best 2 only" in \
        out.getvalue()
    out = io.StringIO()
    write_table(compare(subs, CONFIG, CompareOptions(top=0, passages=False)), out)
    assert "not computed: scores only (--no-passages)" in out.getvalue()
    out = io.StringIO()
    write_table(compare(subs, CONFIG, CompareOptions(top=0)), out)
    assert "not computed" not in out.getvalue()
