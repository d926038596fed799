"""ROC AUC of candidate ranking scores on every labelled set, from one real comparison each.

    .venv/bin/python benchmarks/score_candidates.py [--data ../shared/data]
        [--sets irplag,soco-java,soco-c,clough,rewrites] [--m 50,0.5,0]

For each set and ``-m`` value it runs :func:`winnow.matching.compare` once
(the library, with the CLI's defaults otherwise and no passages), keeps the
fingerprint table it counted, and scores every candidate below from it, so
each candidate is exactly what ``compare`` would rank by.  With ``F_x``
the distinct fingerprints of ``x``, ``S`` the shared ones (not base code),
``c_x = |S| / |F_x|`` and ``w_x = Σ_S idf / W_x``:

* ``weighted-dice`` (the default before), ``dice``, ``jaccard``;
* ``max`` = ``max(c_a, c_b)``, ``mean``, ``geo`` = ``sqrt(c_a c_b)``,
  ``pow2``/``pow4`` = the power means ``((c_a^p + c_b^p) / 2)^(1/p)``;
* ``wmax``, ``wmean``, ``wpow2`` ... ``wpow8``: the same on ``w_x``.

Prints ROC AUC per set (and per IR-Plag level, per Clough & Stevenson
category, per kind of rewrite) and the share of positive pairs above the
99th percentile of the negatives (``>p99``); on ``rewrites``, per kind of
machine-made copy, its mean score over the plain copy's (``insert/pl`` ...),
the mean score of the hand-written rewrites (``hand``) and the margin of the
lowest of them over the highest negative (``hand-neg``).
``rewrites`` is the project's own set (``benchmarks/rewrites``, made by
``benchmarks/rewrites/make.py``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from accuracy import SETS, LabelledSet
from winnow.evaluation import (
    LabelSet,
    evaluate,
    labelled_submissions,
    load_labels,
    pair_key,
)
from winnow.matching import CompareOptions, compare
from winnow.matching.batch import Batch
from winnow.matching.scores import pair_scores
from winnow.matching.table import FingerprintTable

F64 = np.ndarray
HERE = Path(__file__).resolve().parent

ALL_SETS = {**SETS, "rewrites": LabelledSet("rewrites", "rewrites", "labels.csv", "java",
                                            (), "kind")}


def _pmean(x: F64, y: F64, p: float) -> F64:
    out: F64 = ((x ** p + y ** p) / 2.0) ** (1.0 / p)
    return out


CANDIDATES: dict[str, Callable[[dict[str, F64]], F64]] = {
    "weighted-dice": lambda s: s["weighted_dice"],
    "dice": lambda s: s["dice"],
    "jaccard": lambda s: s["jaccard"],
    "max": lambda s: np.maximum(s["ca"], s["cb"]),
    "mean": lambda s: (s["ca"] + s["cb"]) / 2,
    "geo": lambda s: np.sqrt(s["ca"] * s["cb"]),
    "pow2": lambda s: _pmean(s["ca"], s["cb"], 2),
    "pow4": lambda s: _pmean(s["ca"], s["cb"], 4),
    "wmax": lambda s: np.maximum(s["wa"], s["wb"]),
    "wmean": lambda s: (s["wa"] + s["wb"]) / 2,
    "wpow2": lambda s: _pmean(s["wa"], s["wb"], 2),
    "wpow3": lambda s: _pmean(s["wa"], s["wb"], 3),
    "wpow4": lambda s: _pmean(s["wa"], s["wb"], 4),
    "wpow8": lambda s: _pmean(s["wa"], s["wb"], 8),
}


def columns(table: FingerprintTable, n: int) -> dict[str, F64]:
    """Every quantity the candidates need, per pair the table counted."""
    scores = pair_scores(table.counts, table.sizes, table.weight_totals, n)
    wa = np.zeros(scores.a.shape[0])
    wb = np.zeros(scores.a.shape[0])
    ta, tb = table.weight_totals[scores.a], table.weight_totals[scores.b]
    np.divide(table.counts.weight, ta, out=wa, where=ta > 0)
    np.divide(table.counts.weight, tb, out=wb, where=tb > 0)
    return {"a": scores.a, "b": scores.b, "ca": scores.containment_a,
            "cb": scores.containment_b, "dice": scores.dice, "jaccard": scores.jaccard,
            "weighted_dice": scores.weighted_dice, "wa": np.minimum(wa, 1.0),
            "wb": np.minimum(wb, 1.0)}


def above_p99(labels: LabelSet, scores: dict[tuple[str, str], float]) -> float:
    """The share of positive pairs scoring above the 99th percentile of the negatives."""
    y = np.array([p.label for p in labels.pairs], dtype=bool)
    s = np.array([scores.get(p.key, 0.0) for p in labels.pairs])
    return float((s[y] > np.percentile(s[~y], 99)).mean())


def kind_means(labels: LabelSet, scores: dict[tuple[str, str], float]
               ) -> list[tuple[str, float]]:
    """Per kind of machine-made copy, its mean score over that of the plain copy
    of the same original (1 = scored as high as a plain copy)."""
    by: dict[tuple[str, str], float] = {}
    for p in labels.pairs:
        if p.label:
            by[(p.file_a, p.extra["kind"])] = scores.get(p.key, 0.0)
    out = []
    for kind in ("insert", "append", "split", "reorder"):
        ratios = [v / by[(a, "plain")] for (a, k), v in by.items()
                  if k == kind and by.get((a, "plain"))]
        out.append((f"{kind[:6]}/pl", float(np.mean(ratios))))
    hand = [v for (_, k), v in by.items() if k == "hand"]
    negatives = [scores.get(p.key, 0.0) for p in labels.pairs if not p.label]
    out.append(("hand", float(np.mean(hand))))
    out.append(("hand-neg", float(min(hand) - max(negatives))))
    return out


def run(spec: LabelledSet, data: Path, m: float, rewrites: Path) -> None:
    root = rewrites if spec.name == "rewrites" else data / spec.folder
    labels = load_labels(root / spec.labels)
    subs = labelled_submissions(labels, root)
    kept: list[FingerprintTable] = []

    def keep(batch: Batch, cap: int) -> FingerprintTable:
        table = Batch.table(batch, cap)
        kept.append(table)
        return table

    result = compare(subs, options=CompareOptions(top=0, passages=False, max_occurrences=m),
                     table=keep)
    names = [s.name for s in result.submissions]
    cols = columns(kept[0], len(names))
    groups = [spec.group] if spec.group else []
    restricted = labels.where(dict(spec.where)) if spec.where else labels
    print(f"\n{spec.name} -m {m:g}")
    header = None
    for cand, formula in CANDIDATES.items():
        values = formula(cols)
        scores = {pair_key(names[a], names[b]): float(v) for a, b, v in zip(
            cols["a"].tolist(), cols["b"].tolist(), values.tolist(), strict=True)}
        overall = evaluate(labels, scores, group_columns=[])
        detail = evaluate(restricted, scores, group_columns=groups)
        cells = [("all", overall.overall.roc_auc)]
        cells += [(g.value, g.scores.roc_auc) for g in detail.groups]
        cells.append((">p99", above_p99(labels, scores)))
        if spec.name == "rewrites":
            cells += kind_means(labels, scores)
        if header is None:
            header = [c for c, _ in cells]
            print(f"  {'score':<14}" + "".join(f"{c:>9}" for c in header))
        print(f"  {cand:<14}" + "".join(
            f"{v:9.4f}" if isinstance(v, float) else f"{'-':>9}" for _, v in cells))
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    parser.add_argument("--sets", default=",".join(ALL_SETS))
    parser.add_argument("--m", default="50")
    parser.add_argument("--rewrites", type=Path, default=Path("/tmp/winnow-rewrites"),
                        help="where benchmarks/rewrites/make.py wrote the set")
    args = parser.parse_args()
    for name in args.sets.split(","):
        for m in args.m.split(","):
            run(ALL_SETS[name], args.data, float(m), args.rewrites)


if __name__ == "__main__":
    main()
