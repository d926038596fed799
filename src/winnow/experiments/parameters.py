"""Experiment 7: parameters for users — accuracy and time as functions of k and t.

On the labelled sets (``labels*.csv``: ``file_a,file_b,label``), every
``(k, w)`` of a grid is run through the same comparison and scoring as
``winnow evaluate`` (:func:`winnow.evaluation.compare_labelled`, default
options otherwise, one process): ROC AUC, best F1 and the comparison's CPU time,
for code (IR-Plag, SOCO Java and C) and for prose (Clough & Stevenson).
``t = k + w - 1``.  The defaults (code k = 10, t = 10; text k = 16, t = 23)
are marked.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.evaluation import (
    compare_labelled,
    evaluate,
    labelled_submissions,
    load_labels,
    unread_files,
)
from winnow.experiments.report import LinePlot, Section, Series, Table, md_escape, series
from winnow.frontends.options import DEFAULT_PARAMS
from winnow.matching.model import ComparisonResult


@dataclass(frozen=True)
class LabelledSet:
    """A labels file under the data folder, and whether it holds code or prose."""

    name: str
    folder: str
    labels: str
    kind: str


SETS = (
    LabelledSet("IR-Plag", "irplag", "labels.csv", "code"),
    LabelledSet("SOCO Java", "soco14-train", "labels-java.csv", "code"),
    LabelledSet("SOCO C", "soco14-train", "labels-c.csv", "code"),
    LabelledSet("Clough & Stevenson", "clough-stevenson", "labels.csv", "prose"),
)
DEFAULTS = {"code": DEFAULT_PARAMS["code"], "prose": DEFAULT_PARAMS["text"]}
TITLE = "7. Parameters for users"
INTRO = (
    "Each labelled set compared all against all at every (k, w) of a grid, t = k + w − 1, "
    "every other option at its default, and scored as `winnow evaluate` scores it; time is "
    "the CPU time of reading, fingerprinting and comparing the set (one process).  Plots "
    "show the mean over a kind's sets (time: the sum).  Defaults: code "
    f"k = {DEFAULTS['code'][0]}, t = {DEFAULTS['code'][1]}; prose "
    f"k = {DEFAULTS['prose'][0]}, t = {DEFAULTS['prose'][1]}.")


@dataclass(frozen=True)
class Grid:
    """The ``k`` values and windows ``w`` tried for one kind of data."""

    ks: tuple[int, ...]
    ws: tuple[int, ...]


@dataclass(frozen=True)
class Point:
    """One set at one ``(k, w)``; ``roc_auc`` is NaN where it is undefined (the
    labels of the pairs scored are all of one class)."""

    k: int
    w: int
    roc_auc: float
    best_f1: float
    seconds: float


def _auc(value: float) -> str:
    return "undefined" if np.isnan(value) else f"{value:.3f}"


def unusable(result: ComparisonResult) -> list[str]:
    """The labelled submissions of a comparison that gave nothing to compare
    (missing, over the file budget, unreadable or empty), with why: each
    scores 0 in every pair, so the sweep's figures count them as misses."""
    reasons = {issue.path: issue.reason for issue in result.issues}

    def why(name: str) -> str:
        found = reasons.get(name) or next((r for p, r in reasons.items() if name in p), None)
        return found or "no usable file"

    return [f"{name} ({why(name)})" for name in sorted(set(unread_files(result)))]


def sweep(root: Path, labels_file: str, grid: Grid) -> tuple[list[Point], list[str]]:
    """Compare and score one labelled set at every ``(k, w)`` of ``grid``; and
    its :func:`unusable` submissions."""
    labels = load_labels(root / labels_file)
    _, first = compare_labelled(labelled_submissions(labels, root))  # warms up the kernels
    points = []
    for k in grid.ks:
        for w in grid.ws:
            started = time.process_time()
            similarity, _ = compare_labelled(labelled_submissions(labels, root),
                                             WinnowConfig(k=k, t=k + w - 1))
            seconds = time.process_time() - started
            scores = evaluate(labels, similarity).overall
            points.append(Point(k, w, np.nan if scores.roc_auc is None else scores.roc_auc,
                                scores.best_f1.f1 if scores.best_f1 else 0.0, seconds))
    return points, unusable(first)


def _plots(kind: str, grid: Grid, results: dict[str, list[Point]]) -> list[LinePlot]:
    """Mean ROC AUC and best F1 over the kind's sets, and their total time, against k."""
    plots = []
    for metric, label in (("roc_auc", "mean ROC AUC"), ("best_f1", "mean best F1"),
                          ("seconds", "total CPU time (s)")):
        lines: list[Series] = []
        for w in grid.ws:
            values = [[getattr(p, metric) for p in points if p.w == w]
                      for points in results.values()]
            combined = np.sum(values, axis=0) if metric == "seconds" \
                else _nanmean(values, axis=0)
            lines.append(series(f"w = {w} (t = k + {w - 1})", grid.ks, combined))
        name = metric.replace("_", "-")
        plots.append(LinePlot(f"parameters-{kind}-{name}",
                              f"{kind}: {label} against k ({', '.join(results)})",
                              "k (noise threshold)", label, tuple(lines)))
    return plots


def _summary(kind: str, grid: Grid, results: dict[str, list[Point]]) -> str:
    """One sentence: the best mean ROC AUC and best F1 of the grid, against the default's."""
    default_k, default_t = DEFAULTS[kind]
    cells = [(k, w) for k in grid.ks for w in grid.ws]

    def mean(metric: str, cell: tuple[int, int]) -> float:
        return float(_nanmean([getattr(p, metric) for points in results.values()
                               for p in points if (p.k, p.w) == cell]))

    parts = []
    for metric, label in (("roc_auc", "ROC AUC"), ("best_f1", "best F1")):
        defined = [cell for cell in cells if not np.isnan(mean(metric, cell))]
        if not defined:
            parts.append(f"the mean {label} is undefined everywhere (one class of labels)")
            continue
        k, w = max(defined, key=lambda cell: mean(metric, cell))
        default = (default_k, default_t - default_k + 1)
        at_default = (f"{_auc(mean(metric, default))} at the default"
                      if default in cells else "the default is not in the grid")
        parts.append(f"the highest mean {label} is {mean(metric, (k, w)):.3f}, at k = {k}, "
                     f"t = {k + w - 1} ({at_default})")
    return f"{kind.capitalize()} ({', '.join(results)}): " + "; ".join(parts) + "."


def _nanmean(values: npt.ArrayLike, axis: int | None = None) -> npt.NDArray[np.float64]:
    """The mean of ``values`` without their NaNs (NaN where all are), quietly."""
    array = np.asarray(values, dtype=np.float64)
    counts = np.sum(~np.isnan(array), axis=axis)
    sums = np.nansum(array, axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def run(data: Path, grids: dict[str, Grid], kinds: Sequence[str] = ("code", "prose")
        ) -> Section:
    """The sweep on every labelled set present under ``data``."""
    section = Section("parameters", TITLE, INTRO)
    missing = []
    for kind in kinds:
        grid = grids[kind]
        results = {}
        for spec in (s for s in SETS if s.kind == kind):
            root = data / spec.folder
            if not (root / spec.labels).is_file():
                missing.append(spec.name)
                continue
            points, lost = sweep(root, spec.labels, grid)
            results[spec.name] = points
            if lost:
                warning = (f"{spec.name}: {len(lost)} labelled submission(s) could not be "
                           f"compared and score 0 in every pair: {', '.join(lost[:5])}"
                           + (" ..." if len(lost) > 5 else ""))
                section.warnings.append(warning)
                section.notes.append(md_escape(warning))
            default_k, default_t = DEFAULTS[kind]
            rows = []
            for p in points:
                mark = " (default)" if (p.k, p.k + p.w - 1) == (default_k, default_t) else ""
                if not np.isnan(p.roc_auc):  # an undefined AUC is no figure
                    section.add(f"{spec.name} k={p.k} w={p.w} ROC AUC", p.roc_auc)
                section.add(f"{spec.name} k={p.k} w={p.w} best F1", p.best_f1)
                rows.append((f"{p.k}", f"{p.w}", f"{p.k + p.w - 1}{mark}", _auc(p.roc_auc),
                             f"{p.best_f1:.3f}", f"{p.seconds:.2f}"))
            section.tables.append(Table((f"{spec.name}: k", "w", "t", "ROC AUC", "best F1",
                                         "CPU time (s)"), tuple(rows)))
        if results:
            section.plots += _plots(kind, grid, results)
            section.notes.append(md_escape(_summary(kind, grid, results)))
    if missing and not section.tables:
        section.skipped = f"no labelled set found under {data}"
    elif missing:
        section.notes.append(f"Sets not found under the data folder: {', '.join(missing)}.")
    return section
