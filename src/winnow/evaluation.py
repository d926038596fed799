"""Score a ranking of pairs against labelled ground truth (``winnow evaluate``).

A *labels file* is a CSV with the header ``file_a,file_b,label`` (in any column
order) and optional extra columns; paths are relative to a root folder, label 1
marks a copied / re-used pair and 0 a known independent pair.  Any score can be
evaluated: a mapping from an unordered pair of paths to a number, higher meaning
more similar; labelled pairs that the mapping lacks score 0 (the comparison did
not report them because they share nothing).

Metrics, all computed here with numpy and all treating tied scores exactly:

* **ROC AUC** -- the probability that a random positive pair scores higher than
  a random negative one, ties counting one half (the Mann-Whitney U statistic
  divided by ``P * N``, computed from mid-ranks).
* **PR AUC** -- average precision, ``sum_i (R_i - R_{i-1}) * P_i`` over the
  distinct score thresholds in decreasing order (tied pairs enter together),
  as in scikit-learn's ``average_precision_score``.
* **Best F1** -- the largest ``F1 = 2 TP / (2 TP + FP + FN)`` over the rules
  "pair is positive when score >= threshold", with that threshold and its
  precision and recall.

Groups: for an extra column (e.g. IR-Plag's ``kind_b``), each of its values is
scored on the rows having it.  When those rows hold positives only (e.g. the
L4 copies), they are scored against *every* negative of the evaluated rows, so
"L4 vs independent" is a meaningful ROC AUC; a value holding no positive gets
counts only.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.errors import InvalidLabels
from winnow.fileio import open_regular
from winnow.matching.compare import compare
from winnow.matching.model import ComparisonResult
from winnow.matching.options import CompareOptions
from winnow.matching.prints import SubmissionLike
from winnow.parallel import Progress
from winnow.sources.submissions import ReadOptions, SubmissionSource, load_submission

REQUIRED_COLUMNS = ("file_a", "file_b", "label")

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


# --------------------------------------------------------------------- metrics


def _as_arrays(labels: npt.ArrayLike, scores: npt.ArrayLike) -> tuple[BoolArray, FloatArray]:
    y = np.asarray(labels).astype(bool)
    s = np.asarray(scores, dtype=np.float64)
    if y.shape != s.shape or y.ndim != 1:
        raise ValueError("labels and scores must be 1-D arrays of the same length")
    if np.isnan(s).any():
        raise ValueError("scores contain NaN")
    n_pos = int(y.sum())
    if n_pos == 0 or n_pos == y.size:
        raise ValueError("need at least one positive and one negative pair")
    return y, s


def _midranks(values: FloatArray) -> FloatArray:
    """1-based ranks of ``values``, tied values sharing the mean of their ranks."""
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    # start index of each run of equal values, and each run's length
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    lengths = np.diff(np.r_[starts, ordered.size])
    run_rank = starts + (lengths + 1) / 2.0
    ranks = np.empty(values.size, dtype=np.float64)
    ranks[order] = np.repeat(run_rank, lengths)
    return ranks


def roc_auc(labels: npt.ArrayLike, scores: npt.ArrayLike) -> float:
    """Area under the ROC curve, ties counted one half (Mann-Whitney U / (P N))."""
    y, s = _as_arrays(labels, scores)
    n_pos = int(y.sum())
    n_neg = y.size - n_pos
    rank_sum = float(_midranks(s)[y].sum())
    return (rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)


def _threshold_counts(y: BoolArray, s: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Distinct thresholds (descending) and the TP and FP counts at ``score >= each``."""
    order = np.argsort(-s, kind="mergesort")
    s_sorted = s[order]
    tp = np.cumsum(y[order], dtype=np.float64)
    fp = np.arange(1, y.size + 1, dtype=np.float64) - tp
    last_of_run = np.r_[s_sorted[1:] != s_sorted[:-1], True]
    return s_sorted[last_of_run], tp[last_of_run], fp[last_of_run]


def average_precision(labels: npt.ArrayLike, scores: npt.ArrayLike) -> float:
    """PR AUC as average precision: ``sum_i (R_i - R_{i-1}) P_i`` over distinct thresholds."""
    y, s = _as_arrays(labels, scores)
    _, tp, fp = _threshold_counts(y, s)
    precision = tp / (tp + fp)
    recall = tp / float(y.sum())
    return float(np.sum(np.diff(np.r_[0.0, recall]) * precision))


@dataclass(frozen=True)
class BestF1:
    """The best F1 over thresholds ``score >= threshold``, with its precision and recall."""

    f1: float
    threshold: float
    precision: float
    recall: float


def best_f1(labels: npt.ArrayLike, scores: npt.ArrayLike) -> BestF1:
    """The threshold maximising F1; on a tie, the highest such threshold."""
    y, s = _as_arrays(labels, scores)
    thresholds, tp, fp = _threshold_counts(y, s)
    n_pos = float(y.sum())
    f1 = 2.0 * tp / (tp + fp + n_pos)
    i = int(np.argmax(f1))  # first maximum = highest threshold
    return BestF1(float(f1[i]), float(thresholds[i]), float(tp[i] / (tp[i] + fp[i])),
                  float(tp[i] / n_pos))


# ---------------------------------------------------------------- label files


@dataclass(frozen=True)
class LabelledPair:
    """One row of a labels file: two paths relative to the root, a 0/1 label, extras."""

    file_a: str
    file_b: str
    label: int
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        """The unordered pair as a sorted tuple."""
        return pair_key(self.file_a, self.file_b)


@dataclass(frozen=True)
class LabelSet:
    """The rows of a labels file and the names of its extra columns."""

    pairs: tuple[LabelledPair, ...]
    extra_columns: tuple[str, ...]

    def files(self) -> list[str]:
        """Every path named in the labels, sorted, each once."""
        return sorted({p for pair in self.pairs for p in (pair.file_a, pair.file_b)})

    def where(self, conditions: Mapping[str, str]) -> LabelSet:
        """The rows whose extra columns equal every given value."""
        unknown = sorted(set(conditions) - set(self.extra_columns))
        if unknown:
            raise ValueError(f"no such column: {', '.join(unknown)}")
        kept = tuple(p for p in self.pairs
                     if all(p.extra.get(c) == v for c, v in conditions.items()))
        return LabelSet(kept, self.extra_columns)


def pair_key(a: str, b: str) -> tuple[str, str]:
    """An unordered pair of relative paths in one canonical (POSIX, sorted) form."""
    x, y = str(PurePosixPath(a)), str(PurePosixPath(b))
    return (x, y) if x <= y else (y, x)


def _parse_label(raw: str, where: str, path: str) -> int:
    value = raw.strip().lower()
    if value in ("1", "true", "yes"):
        return 1
    if value in ("0", "false", "no"):
        return 0
    raise InvalidLabels(path, f"{where}: label must be 0 or 1, got {raw!r}")


def _check_relative(name: str, where: str, path: str) -> None:
    """A labelled path must stay under the root: relative, without ``..``."""
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if PurePosixPath(name).is_absolute() or name.startswith("\\") or ".." in parts:
        raise InvalidLabels(path, f"{where}: {name!r} is not a path inside --root "
                               f"(absolute, or with '..')")


def _check_consistent(pair: LabelledPair, where: str,
                      first_seen: dict[tuple[str, str], tuple[int, str]], path: str) -> None:
    """The same pair labelled both 1 and 0 is a contradiction, not data."""
    label, first = first_seen.setdefault(pair.key, (pair.label, where))
    if label != pair.label:
        raise InvalidLabels(path, f"{where}: {pair.file_a!r}, {pair.file_b!r} labelled "
                               f"{pair.label}, but {label} on {first}")


def load_labels(path: Path) -> LabelSet:
    """Read a labels CSV; every problem raises :class:`InvalidLabels` naming the line.

    Paths must be relative and stay under the root (no ``..``); one pair may
    not be labelled both 1 and 0.
    """
    try:
        with io.TextIOWrapper(open_regular(path), encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            header = [name.strip() for name in reader.fieldnames or []]
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                raise InvalidLabels(str(path), f"header lacks column(s) {', '.join(missing)} "
                                 "(expected file_a,file_b,label[,extra columns])")
            reader.fieldnames = header
            extras = tuple(c for c in header if c not in REQUIRED_COLUMNS)
            pairs = []
            first_seen: dict[tuple[str, str], tuple[int, str]] = {}
            for row in reader:
                where = f"line {reader.line_num}"
                if any(not (row.get(c) or "").strip() for c in REQUIRED_COLUMNS):
                    raise InvalidLabels(str(path), f"{where}: empty file_a, file_b or label")
                a, b = row["file_a"].strip(), row["file_b"].strip()
                _check_relative(a, where, str(path))
                _check_relative(b, where, str(path))
                if pair_key(a, b)[0] == pair_key(a, b)[1]:
                    raise InvalidLabels(str(path), f"{where}: a file paired with itself")
                pairs.append(LabelledPair(a, b, _parse_label(row["label"], where, str(path)),
                                          {c: (row.get(c) or "").strip() for c in extras}))
                _check_consistent(pairs[-1], where, first_seen, str(path))
    except OSError as error:
        raise InvalidLabels(str(path), error.strerror or str(error)) from error
    except (UnicodeDecodeError, csv.Error) as error:
        raise InvalidLabels(str(path), f"not a readable CSV: {error}") from error
    if not pairs:
        raise InvalidLabels(str(path), "no labelled pairs")
    return LabelSet(tuple(pairs), extras)


# ----------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class Scores:
    """Counts and metrics for one set of labelled pairs; metrics are None for one class."""

    n_pairs: int
    n_positive: int
    n_negative: int
    roc_auc: float | None
    pr_auc: float | None
    best_f1: BestF1 | None


@dataclass(frozen=True)
class GroupScores:
    """The scores of the rows whose ``column`` equals ``value``."""

    column: str
    value: str
    scores: Scores


@dataclass(frozen=True)
class Evaluation:
    """Overall and per-group scores, and the labelled files the comparison lacked."""

    overall: Scores
    groups: tuple[GroupScores, ...]
    missing_files: tuple[str, ...] = ()


def score_arrays(labels: npt.ArrayLike, scores: npt.ArrayLike) -> Scores:
    """All metrics for one array of 0/1 labels and one of scores."""
    y = np.asarray(labels).astype(bool)
    s = np.asarray(scores, dtype=np.float64)
    n_pos = int(y.sum())
    n_neg = int(y.size - n_pos)
    if n_pos == 0 or n_neg == 0:
        return Scores(int(y.size), n_pos, n_neg, None, None, None)
    return Scores(int(y.size), n_pos, n_neg, roc_auc(y, s), average_precision(y, s),
                  best_f1(y, s))


def evaluate(label_set: LabelSet, similarity: Mapping[tuple[str, str], float],
             group_columns: Sequence[str] | None = None,
             missing_files: Sequence[str] = ()) -> Evaluation:
    """Score ``similarity`` (keyed by :func:`pair_key`; absent pairs = 0) against the labels.

    ``group_columns`` defaults to every extra column of the labels file.
    """
    columns = label_set.extra_columns if group_columns is None else tuple(group_columns)
    unknown = sorted(set(columns) - set(label_set.extra_columns))
    if unknown:
        raise ValueError(f"no such column: {', '.join(unknown)}")
    pairs = label_set.pairs
    y = np.fromiter((p.label for p in pairs), dtype=bool, count=len(pairs))
    s = np.fromiter((similarity.get(p.key, 0.0) for p in pairs), dtype=np.float64,
                    count=len(pairs))
    groups = []
    for column in columns:
        values = np.array([p.extra[column] for p in pairs], dtype=object)
        for value in sorted(set(values.tolist())):
            rows = values == value
            if y[rows].all():  # positives only: against every negative
                rows = rows | ~y
            groups.append(GroupScores(column, value, score_arrays(y[rows], s[rows])))
    return Evaluation(score_arrays(y, s), tuple(groups), tuple(missing_files))


def evaluation_rows(evaluation: Evaluation) -> list[dict[str, object]]:
    """One flat record per line of the report: overall first (``column`` None), then groups.

    Keys: ``column, value, n_pairs, n_positive, n_negative, roc_auc, pr_auc, best_f1,
    threshold, precision, recall`` (metrics None where a group has one class).
    """
    records = [_record(None, "all", evaluation.overall)]
    records += [_record(g.column, g.value, g.scores) for g in evaluation.groups]
    return records


def _record(column: str | None, value: str, scores: Scores) -> dict[str, object]:
    best = scores.best_f1
    return {
        "column": column, "value": value, "n_pairs": scores.n_pairs,
        "n_positive": scores.n_positive, "n_negative": scores.n_negative,
        "roc_auc": scores.roc_auc, "pr_auc": scores.pr_auc,
        "best_f1": best.f1 if best else None, "threshold": best.threshold if best else None,
        "precision": best.precision if best else None, "recall": best.recall if best else None,
    }


def labelled_submissions(label_set: LabelSet, root: Path,
                         read_options: ReadOptions | None = None) -> list[SubmissionSource]:
    """One submission per file the labels name, named by its path relative to ``root``.

    Raises :class:`InvalidLabels` for a path that leads outside ``root`` through a
    symbolic link (the labels may only name files under the root).
    """
    real_root = os.path.realpath(root)
    for name in label_set.files():
        real = os.path.realpath(root / name)
        if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
            raise InvalidLabels(str(root / name), "leads outside --root (symbolic link); "
                                               "the labels may only name files under it")
    return [load_submission(str(root / name), read_options=read_options, name=name)
            for name in label_set.files()]


def compare_labelled(
    submissions: Sequence[SubmissionLike], config: WinnowConfig | None = None,
    options: CompareOptions | None = None, *, base: Sequence[SubmissionLike] = (),
    jobs: int = 1, progress: Progress | None = None,
    frontend_configs: Mapping[str, WinnowConfig] | None = None,
) -> tuple[dict[tuple[str, str], float], ComparisonResult]:
    """Compare the submissions all against all and return every pair's ``score``
    (what orders the pairs), keyed by :func:`pair_key` of the submission names,
    with the comparison itself.

    Every pair that shares anything is scored (``top`` = 0, no ``min_similarity``);
    passages are not computed (no ranking score needs them).
    """
    opts = dataclasses.replace(options or CompareOptions(), top=0, min_similarity=0.0,
                               passages=False)
    result = compare(submissions, config, opts, base=base, jobs=jobs, progress=progress,
                     frontend_configs=frontend_configs)
    return {pair_key(p.a, p.b): p.score for p in result.pairs}, result


def unread_files(result: ComparisonResult) -> tuple[str, ...]:
    """Submissions of which no file could be used (missing, unreadable, empty ...)."""
    return tuple(s.name for s in result.submissions if not s.files)
