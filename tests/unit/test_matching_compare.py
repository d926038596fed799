"""The library entry point ``winnow.matching.compare`` on small in-memory batches."""

from __future__ import annotations

import random

import pytest

from winnow.config import WinnowConfig
from winnow.errors import InvalidConfig
from winnow.matching import CompareOptions, ComparisonResult, compare
from winnow.sources.submissions import ReadOptions, SourceFile, SubmissionSource

TEXT = ReadOptions(frontend="text")
CONFIG = WinnowConfig(k=8, t=16)


def _prose(seed: int, words: int = 120) -> str:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(400)]
    return " ".join(rng.choice(vocab) for _ in range(words)) + "\n"


def _sub(name: str, files: dict[str, str], role: str = "new",
         read: ReadOptions = TEXT) -> SubmissionSource:
    return SubmissionSource(name, role, tuple(  # type: ignore[arg-type]
        SourceFile(path, f"{name}/{path}", read, text.encode()) for path, text in files.items()
    ))


def _pairs(result: ComparisonResult) -> set[tuple[str, str]]:
    return {(p.a, p.b) for p in result.pairs}


def test_copy_is_found_with_full_coverage_and_passages() -> None:
    body = _prose(1)
    result = compare([_sub("a", {"x.txt": body}), _sub("b", {"y.txt": body}),
                      _sub("c", {"z.txt": _prose(2)})], CONFIG)
    top = result.pairs[0]
    assert (top.a, top.b) == ("a", "b")
    assert top.similarity == pytest.approx(1.0)
    assert top.coverage_a == pytest.approx(1.0) and top.coverage_b == pytest.approx(1.0)
    assert top.passages[0].a.file == "x.txt" and top.passages[0].b.file == "y.txt"
    assert top.passages[0].a.lines == (1, 1)
    assert result.document("a", "x.txt").data == body.encode()
    assert result.text("b", "y.txt") == body
    assert result.clusters[0].members == ("a", "b")


def test_pairs_inside_one_submission_are_never_reported() -> None:
    body = _prose(3)
    result = compare([_sub("a", {"1.txt": body, "2.txt": body}),
                      _sub("b", {"z.txt": _prose(4)})], CONFIG)
    assert ("a", "a") not in _pairs(result)
    assert all(p.a != p.b for p in result.pairs)


def test_base_code_is_ignored_everywhere() -> None:
    starter = _prose(5)
    subs = [_sub(n, {"s.txt": starter + _prose(10 + i)}) for i, n in enumerate("abc")]
    plain = compare(subs, CONFIG)
    assert plain.pairs and plain.pairs[0].similarity > 0.3
    based = compare(subs, CONFIG, base=[_sub("starter", {"s.txt": starter}, role="base")])
    assert all(p.similarity < 0.1 for p in based.pairs)
    assert based.stats["ignored_base"] > 0


def test_max_occurrences_drops_common_fragments() -> None:
    common = _prose(6)
    subs = [_sub(n, {"s.txt": common + _prose(20 + i)}) for i, n in enumerate("abcd")]
    assert len(compare(subs, CONFIG, CompareOptions(max_occurrences=4)).pairs) == 6
    capped = compare(subs, CONFIG, CompareOptions(max_occurrences=3))
    assert capped.stats["ignored_common"] > 0
    assert all(p.similarity < 0.1 for p in capped.pairs)
    assert compare(subs, CONFIG, CompareOptions(max_occurrences=0.5)).parameters[
        "max_occurrences_resolved"] == 2


def test_archives_are_compared_with_new_submissions_only() -> None:
    body = _prose(7)
    subs = [_sub("old1", {"a.txt": body}, "archive"), _sub("old2", {"a.txt": body}, "archive"),
            _sub("new", {"a.txt": body})]
    result = compare(subs, CONFIG)
    assert _pairs(result) == {("old1", "new"), ("old2", "new")}
    assert [s.role for s in result.submissions] == ["archive", "archive", "new"]


def test_top_and_min_similarity_cut_the_ranking() -> None:
    base = _prose(8, 200)
    subs = [_sub(f"s{i}", {"a.txt": base[: 300 + 200 * i] + _prose(30 + i)}) for i in range(4)]
    every = compare(subs, CONFIG, CompareOptions(top=0, passages=False))
    ranked = [p.score for p in every.pairs]
    assert ranked == sorted(ranked, reverse=True) and len(ranked) == 6
    assert len(compare(subs, CONFIG, CompareOptions(top=2)).pairs) == 2
    # --min-similarity cuts on the similarity estimated from fingerprints
    sims = sorted((p.similarity for p in every.pairs), reverse=True)
    cut = compare(subs, CONFIG, CompareOptions(top=0, min_similarity=sims[2], passages=False))
    assert sorted((p.similarity for p in cut.pairs), reverse=True) == sims[:3]
    scores_only = compare(subs, CONFIG, CompareOptions(passages=False))
    assert not scores_only.pairs[0].passages_computed
    assert scores_only.pairs[0].coverage_a is None
    assert set(scores_only.documents) <= {(c.submissions[0], c.region.file)
                                          for c in scores_only.shared_code}


def test_binary_files_are_skipped_unless_allowed() -> None:
    auto = ReadOptions()
    blob = bytes(range(256)) * 8
    subs = [SubmissionSource("a", "new", (SourceFile("x.bin", "a/x.bin", auto, blob),)),
            SubmissionSource("b", "new", (SourceFile("x.bin", "b/x.bin", auto, blob),))]
    result = compare(subs, CONFIG)
    assert result.skipped and result.pairs == ()
    assert {i.path for i in result.issues if "binary" in i.reason} == {"a/x.bin", "b/x.bin"}
    assert any(i.path == "a" and "no usable files" in i.reason for i in result.issues)
    allowed = compare(subs, CONFIG, CompareOptions(allow_binary=True))
    assert allowed.pairs[0].similarity == pytest.approx(1.0) and not allowed.skipped


def test_short_files_are_noted_not_skipped() -> None:
    result = compare([_sub("a", {"x.txt": "tiny"}), _sub("b", {"y.txt": "tiny"})], CONFIG)
    assert not result.skipped
    assert any("shorter than k" in i.reason for i in result.issues)


def test_parallel_workers_give_the_same_result_and_progress() -> None:
    subs = [_sub(f"s{i}", {"a.txt": _prose(40 + i % 3)}) for i in range(6)]
    seen: list[tuple[str, int, int]] = []
    one = compare(subs, CONFIG)
    two = compare(subs, CONFIG, jobs=2, progress=lambda *a: seen.append(a))
    assert one.pairs == two.pairs
    assert ("fingerprint", 6, 6) in seen


def test_problems_cross_worker_processes_and_empty_files_are_notes() -> None:
    subs = [_sub("a", {"x.txt": _prose(50), "empty.txt": ""}),
            _sub("b", {"x.txt": _prose(50)}),
            SubmissionSource("c", "new", (SourceFile("x.bin", "c/x.bin", ReadOptions(),
                                                     bytes(range(256)) * 4),)),
            _sub("d", {"e.txt": ""})]
    result = compare(subs, CONFIG, jobs=2)
    assert result.pairs[0].similarity == pytest.approx(1.0)
    notes = {i.path: i for i in result.issues}
    assert not notes["a/empty.txt"].skipped
    assert notes["c/x.bin"].skipped and "binary" in notes["c/x.bin"].reason
    assert notes["d"].skipped and "empty submission" in notes["d"].reason


def test_a_submission_given_twice_is_compared_once() -> None:
    body = _prose(60)
    result = compare([_sub("a", {"x.txt": body}), _sub("a", {"x.txt": body}),
                      _sub("b", {"x.txt": body})], CONFIG)
    assert [s.name for s in result.submissions] == ["a", "b"]
    assert _pairs(result) == {("a", "b")}
    assert any("given twice" in i.reason for i in result.issues) and not result.skipped


def test_kept_and_reread_documents_give_the_same_passages() -> None:
    def sized(name: str, text: str) -> SubmissionSource:
        data = text.encode()
        return SubmissionSource(name, "new", (SourceFile("x.txt", f"{name}/x.txt", TEXT,
                                                         data, len(data)),))

    body = _prose(70)
    subs = [sized("a", body), sized("b", _prose(71) + body), sized("c", _prose(72))]
    kept = compare(subs, CONFIG)
    unsized = [_sub(s.name, {"x.txt": (s.files[0].data or b"").decode()}) for s in subs]
    reread = compare(unsized, CONFIG)
    assert kept.pairs == reread.pairs and kept.pairs[0].passages


def test_coverage_similarity_ranks_by_covered_units() -> None:
    body = _prose(80)
    half = _prose(81)
    subs = [_sub("a", {"x.txt": body}), _sub("b", {"x.txt": body}),
            _sub("c", {"x.txt": body[: len(body) // 2] + half}), _sub("d", {"x.txt": _prose(82)})]
    result = compare(subs, CONFIG, CompareOptions(similarity="coverage", top=2))
    assert len(result.pairs) == 2
    first, second = result.pairs
    assert (first.a, first.b) == ("a", "b") and first.score == pytest.approx(1.0)
    assert 0.3 < second.score < 0.7 and "c" in (second.a, second.b)
    units = {s.name: s.units for s in result.submissions}
    covered = (second.coverage_a or 0) * units[second.a] + (second.coverage_b or 0) * units[
        second.b]
    assert second.score == pytest.approx(covered / (units[second.a] + units[second.b]))
    assert second.similarity <= max(second.coverage_a or 0, second.coverage_b or 0)
    assert {key[0] for key in result.documents} <= {"a", "b", "c"} | {
        c.submissions[0] for c in result.shared_code}


def test_common_code_does_not_cut_a_copied_passage() -> None:
    common = _prose(90, 40)
    copy = _prose(91, 60) + common + _prose(92, 60)
    others = [_sub(f"o{i}", {"x.txt": common + _prose(100 + i)}) for i in range(4)]
    result = compare([_sub("a", {"x.txt": copy}), _sub("b", {"x.txt": copy}), *others],
                     CONFIG, CompareOptions(max_occurrences=3))
    top = result.pairs[0]
    assert (top.a, top.b) == ("a", "b") and result.stats["ignored_common"] > 0
    assert len(top.passages) == 1 and top.coverage_a == pytest.approx(1.0)


CODE = ReadOptions(lang="python")
PROGRAM = '''def area(w, h):
    if w < 0 or h < 0:
        raise ValueError({m1})
    return w * h


def main():
    w = int(input({p1}))
    h = int(input({p2}))
    print({p3}, area(w, h) * {n})
'''


def _program(name: str, n: int, m1: str, p1: str, p2: str, p3: str) -> SubmissionSource:
    text = PROGRAM.format(n=n, m1=repr(m1), p1=repr(p1), p2=repr(p2), p3=repr(p3))
    return _sub(name, {"p.py": text}, read=CODE)


def test_literal_channel_counts_shared_strings_and_numbers() -> None:
    # Same structure everywhere; "copy" keeps the original's strings and
    # numbers, "own" wrote its own.  Only the literal channel tells them apart.
    subs = [_program("orig", 2, "negative size", "Width: ", "Height: ", "Area is"),
            _program("copy", 2, "negative size", "Width: ", "Height: ", "Area is"),
            _program("own", 3, "bad input", "w? ", "h? ", "result")]
    config = WinnowConfig(k=8, t=8)

    def score(result: ComparisonResult, a: str, b: str, name: str = "score") -> float:
        return next(getattr(p, name) for p in result.pairs if {p.a, p.b} == {a, b})

    one = compare(subs, config, CompareOptions(literal_k=0))
    two = compare(subs, config, CompareOptions(literal_k=4))
    assert score(one, "orig", "copy") == pytest.approx(score(one, "orig", "own"))
    assert score(two, "orig", "copy") == pytest.approx(1.0)
    assert score(two, "orig", "own") < 0.9 * score(two, "orig", "copy")
    # the similarity shown counts the tokens whose literals match too
    assert score(one, "orig", "own", "similarity") == pytest.approx(1.0)
    assert score(two, "orig", "copy", "similarity") == pytest.approx(1.0)
    assert score(two, "orig", "own", "similarity") < 0.99
    assert two.stats["fingerprints"] > one.stats["fingerprints"]
    top = two.pairs[0]
    assert {top.a, top.b} == {"orig", "copy"} and top.passages[0].a.lines == (1, 10)


def test_literal_channel_leaves_prose_alone() -> None:
    subs = [_sub("a", {"x.txt": _prose(120)}), _sub("b", {"x.txt": _prose(120)[:300]})]
    one = compare(subs, CONFIG, CompareOptions(literal_k=0))
    two = compare(subs, CONFIG, CompareOptions(literal_k=4))
    assert one.pairs == two.pairs and one.stats == two.stats


@pytest.mark.parametrize("bad", [-1, 2.5, True])
def test_literal_k_must_be_a_non_negative_integer(bad: object) -> None:
    with pytest.raises(InvalidConfig, match="literal_k"):
        CompareOptions(literal_k=bad)  # type: ignore[arg-type]


def test_base_code_is_ignored_even_where_the_base_file_did_not_select_it() -> None:
    # With a window (t > k), the base file's own winnowing skips some of its
    # k-grams that a submission's windows do select (near the end of the base
    # text, where the contexts differ).  Base code is fingerprinted with every
    # k-gram, so nothing of it is ever shared.  The two tails use disjoint
    # letters, so every k-gram the submissions share lies inside the base.
    def words(seed: int, letters: str) -> str:
        rng = random.Random(seed)
        return " ".join("".join(rng.choice(letters) for _ in range(5)) for _ in range(80))

    for seed in range(8):
        starter = words(seed, "0123456789") + "\n"
        subs = [_sub("a", {"x.txt": starter + words(100 + seed, "abcdefghijklm")}),
                _sub("b", {"x.txt": starter + words(200 + seed, "nopqrstuvwxyz")})]
        plain = compare(subs, CONFIG)
        based = compare(subs, CONFIG, base=[_sub("s", {"s.txt": starter}, role="base")])
        assert _pairs(plain) == {("a", "b")}, seed
        assert _pairs(based) == set(), (seed, [p.shared for p in based.pairs])
