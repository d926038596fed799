"""The ranking metrics and the labels files of ``winnow evaluate``."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.errors import InputError
from winnow.evaluation import (
    LabelSet,
    average_precision,
    best_f1,
    evaluate,
    load_labels,
    pair_key,
    roc_auc,
)

# ------------------------------------------------------- hand-computed examples


def test_roc_auc_textbook_example() -> None:
    # positives 0.35, 0.8 vs negatives 0.1, 0.4: 3 of 4 (pos, neg) pairs ordered right
    assert roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == pytest.approx(0.75)


def test_roc_auc_counts_ties_as_half() -> None:
    assert roc_auc([0, 1], [0.5, 0.5]) == pytest.approx(0.5)
    # (1 vs 1) tie 1/2, (1 vs 0) 1, (0 vs 1) 0, (0 vs 0) tie 1/2  ->  2 / 4
    assert roc_auc([1, 0, 1, 0], [1.0, 1.0, 0.0, 0.0]) == pytest.approx(0.5)
    # one tie among 2 x 2: (0.9 > 0.2) (0.9 > 0.5) (0.5 = 0.5) (0.5 > 0.2) -> 3.5 / 4
    assert roc_auc([1, 1, 0, 0], [0.9, 0.5, 0.5, 0.2]) == pytest.approx(0.875)


def test_roc_auc_extremes() -> None:
    assert roc_auc([0, 0, 1], [0.1, 0.2, 0.3]) == 1.0
    assert roc_auc([1, 0, 0], [0.1, 0.2, 0.3]) == 0.0


def test_average_precision_textbook_example() -> None:
    # thresholds 0.8: P=1 R=1/2; 0.4: P=1/2 R=1/2; 0.35: P=2/3 R=1; 0.1: P=1/2 R=1
    # AP = 1/2 * 1 + 0 + 1/2 * 2/3 + 0 = 5/6
    assert average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == pytest.approx(5 / 6)


def test_average_precision_enters_ties_together() -> None:
    # both tied pairs enter at once: P = 1/2 at R = 1 (not 1 then 1/2, nor 0 then 1/2)
    assert average_precision([0, 1], [0.5, 0.5]) == pytest.approx(0.5)
    # 0.9: P=1 R=1/2; then 0.5 (one pos, one neg): P=2/3 R=1  ->  1/2 + 1/3
    assert average_precision([1, 1, 0, 0], [0.9, 0.5, 0.5, 0.2]) == pytest.approx(5 / 6)


def test_best_f1_textbook_example() -> None:
    best = best_f1([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    # F1 at 0.8: 2/3; 0.4: 1/2; 0.35: 4/5; 0.1: 2/3
    assert best.f1 == pytest.approx(0.8)
    assert best.threshold == pytest.approx(0.35)
    assert best.precision == pytest.approx(2 / 3)
    assert best.recall == pytest.approx(1.0)


def test_best_f1_never_splits_ties() -> None:
    # a threshold can't take one of two tied pairs: best is all four (F1 = 2/3 * ... )
    best = best_f1([1, 0, 1, 0], [1.0, 1.0, 0.0, 0.0])
    # score >= 1: TP 1 FP 1 -> F1 = 2/(2+1+1) = 1/2; score >= 0: TP 2 FP 2 -> 4/6
    assert best.f1 == pytest.approx(2 / 3)
    assert best.threshold == 0.0


def test_metrics_refuse_one_class_and_nan() -> None:
    for metric in (roc_auc, average_precision, best_f1):
        with pytest.raises(ValueError):
            metric([1, 1], [0.1, 0.2])
        with pytest.raises(ValueError):
            metric([0, 1], [0.1, float("nan")])
        with pytest.raises(ValueError):
            metric([0, 1], [0.1])


# ------------------------------------------------ against the definitions


def naive_auc(y: list[int], s: list[float]) -> float:
    pos = [b for a, b in zip(y, s, strict=True) if a]
    neg = [b for a, b in zip(y, s, strict=True) if not a]
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p, n in itertools.product(pos, neg))
    return wins / (len(pos) * len(neg))


def naive_ap_and_f1(y: list[int], s: list[float]) -> tuple[float, float]:
    n_pos = sum(y)
    ap, last_recall, f1 = 0.0, 0.0, 0.0
    for threshold in sorted(set(s), reverse=True):
        tp = sum(1 for a, b in zip(y, s, strict=True) if a and b >= threshold)
        fp = sum(1 for a, b in zip(y, s, strict=True) if not a and b >= threshold)
        ap += (tp / n_pos - last_recall) * tp / (tp + fp)
        last_recall = tp / n_pos
        f1 = max(f1, 2 * tp / (2 * tp + fp + (n_pos - tp)))
    return ap, f1


labelled = st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40).filter(
    lambda rows: 0 < sum(a for a, _ in rows) < len(rows))


@settings(max_examples=200, deadline=None)
@given(labelled)
def test_metrics_match_their_definitions(rows: list[tuple[bool, int]]) -> None:
    y = [int(a) for a, _ in rows]
    s = [b / 6 for _, b in rows]  # few distinct values: many ties
    assert roc_auc(y, s) == pytest.approx(naive_auc(y, s))
    ap, f1 = naive_ap_and_f1(y, s)
    assert average_precision(y, s) == pytest.approx(ap)
    assert best_f1(y, s).f1 == pytest.approx(f1)


def test_metrics_match_scikit_learn() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 500)
    s = np.round(rng.random(500) + 0.3 * y, 1)  # rounded: ties
    assert roc_auc(y, s) == pytest.approx(metrics.roc_auc_score(y, s))
    assert average_precision(y, s) == pytest.approx(metrics.average_precision_score(y, s))
    precision, recall, _ = metrics.precision_recall_curve(y, s)
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.nan_to_num(2 * precision * recall / (precision + recall))
    assert best_f1(y, s).f1 == pytest.approx(f1.max())


# ------------------------------------------------------------- labels files


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "labels.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_load_labels_reads_extra_columns(tmp_path: Path) -> None:
    labels = load_labels(write(tmp_path, "file_a,file_b,label,kind\nb.py,a.py,1,L1\n"
                                         "a.py,c.py,0,ind\n"))
    assert labels.extra_columns == ("kind",)
    assert [p.key for p in labels.pairs] == [("a.py", "b.py"), ("a.py", "c.py")]
    assert [p.label for p in labels.pairs] == [1, 0]
    assert labels.pairs[0].extra == {"kind": "L1"}
    assert labels.files() == ["a.py", "b.py", "c.py"]
    assert labels.where({"kind": "L1"}).pairs == labels.pairs[:1]
    with pytest.raises(ValueError, match="no such column"):
        labels.where({"nope": "x"})


@pytest.mark.parametrize(("text", "message"), [
    ("a,b,label\nx,y,1\n", "header lacks column"),
    ("file_a,file_b,label\nx,y,2\n", "line 2: label must be 0 or 1"),
    ("file_a,file_b,label\nx,,1\n", "line 2: empty"),
    ("file_a,file_b,label\nx,./x,1\n", "itself"),
    ("file_a,file_b,label\n", "no labelled pairs"),
])
def test_load_labels_names_the_problem(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        load_labels(write(tmp_path, text))


def test_load_labels_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.csv"):
        load_labels(tmp_path / "nope.csv")


# ----------------------------------------------------------------- evaluate


def test_evaluate_scores_groups_against_all_negatives(tmp_path: Path) -> None:
    labels = load_labels(write(tmp_path, "\n".join([
        "file_a,file_b,label,kind",
        "o,c1,1,L1", "o,c2,1,L1", "o,d1,1,L6", "o,d2,1,L6",
        "o,i1,0,ind", "o,i2,0,ind", "i1,i2,0,ind",
    ]) + "\n"))
    similarity = {pair_key("o", "c1"): 0.9, pair_key("o", "c2"): 0.8,
                  pair_key("o", "d1"): 0.2, pair_key("o", "i1"): 0.3,
                  pair_key("o", "i2"): 0.1}  # (o, d2) and (i1, i2) absent: 0
    result = evaluate(labels, similarity)
    assert result.overall.n_pairs == 7
    assert result.overall.roc_auc == pytest.approx(naive_auc(
        [1, 1, 1, 1, 0, 0, 0], [0.9, 0.8, 0.2, 0.0, 0.3, 0.1, 0.0]))
    by_value = {g.value: g.scores for g in result.groups}
    assert by_value["L1"].roc_auc == 1.0 and by_value["L1"].n_negative == 3
    # L6 (0.2, 0.0) against 0.3, 0.1, 0.0: wins 0.2>0.1, 0.2>0, tie 0=0 -> 2.5 / 6
    assert by_value["L6"].roc_auc == pytest.approx(2.5 / 6)
    assert by_value["ind"].roc_auc is None and by_value["ind"].n_positive == 0
    assert evaluate(labels, similarity, group_columns=[]).groups == ()
    with pytest.raises(ValueError):
        evaluate(labels, similarity, group_columns=["nope"])


def test_evaluate_one_class_gives_counts_only() -> None:
    from winnow.evaluation import LabelledPair

    labels = LabelSet((LabelledPair("a", "b", 1), LabelledPair("a", "c", 1)), ())
    result = evaluate(labels, {})
    assert result.overall.n_positive == 2
    assert result.overall.roc_auc is None and result.overall.best_f1 is None


def test_labels_file_that_is_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "labels.csv"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match=r"labels\.csv"):
        load_labels(fifo)  # would block forever opening a FIFO for reading
