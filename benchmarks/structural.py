"""The structural front-end's accuracy beyond benchmarks/accuracy.py.

    .venv/bin/python benchmarks/structural.py hjc851 [--data DIR] [-m N] [--neutral-only]
        [--frontend F ...]
    .venv/bin/python benchmarks/structural.py translations [--frontend F ...]

``hjc851``: on ``hjc851-dataset2`` (each SPPlagiarise variant against each
base program, ``*.java`` only, ``analytics.json`` left out), the share of the
variants of each obfuscation level whose score against their own base is
above the 99th percentile of the unrelated pairs (a variant against another
base), per front-end.

``translations``: ``benchmarks/translations/labels.csv`` pairs the seven
IR-Plag originals with translations written for this project (Python,
Kotlin): label 1 for a translation of the original or of one of its
plagiarised copies, 0 for a translation of an independent solution.  Scores
come from one ``winnow compare`` of the Java originals and all translations
(the neutral alphabet only, as ``winnow compare`` reads a batch in several
languages: ``--frontend structural --frontend-option lexical=false``); it
prints the ROC AUC per target language, and the same for Java against Java with the same labels
(``java_same``: the original against the Java files the translations were
made from) as the same-language reference.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from harness import uptime
from winnow.evaluation import (
    compare_labelled,
    labelled_submissions,
    load_labels,
    pair_key,
    roc_auc,
)
from winnow.frontends.options import FrontEndOptions
from winnow.matching import CompareOptions
from winnow.matching.options import default_configs
from winnow.sources.submissions import ReadOptions

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1] / "shared" / "data"  # ../shared/data from the project root


def scores(labels_path: Path, root: Path, frontend: str | None, include: tuple[str, ...] = (),
           max_occurrences: float | None = None, literal_k: int | None = None,
           lexical: bool = True) -> tuple[list[dict[str, str]], list[float]]:
    """Every labelled pair (its CSV row) and its similarity, from one comparison
    (``lexical``: the structural front-end's option of that name)."""
    labels = load_labels(labels_path)
    read = ReadOptions(frontend=frontend, include=include,
                       options=FrontEndOptions(lexical=lexical))
    subs = labelled_submissions(labels, root, read)
    config, per_frontend = default_configs(subs, read)
    options = CompareOptions(max_occurrences=max_occurrences)
    if literal_k is not None:
        options = dataclasses.replace(options, literal_k=literal_k)
    similarity, _ = compare_labelled(subs, config, options, jobs=0,
                                     frontend_configs=per_frontend)
    with labels_path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    keyed = [similarity.get(pair_key(r["file_a"], r["file_b"]), 0.0) for r in rows]
    return rows, keyed


def auc(positive: list[float], negative: list[float]) -> float:
    """ROC AUC of positive and negative scores (:func:`winnow.evaluation.roc_auc`)."""
    return roc_auc([1] * len(positive) + [0] * len(negative), [*positive, *negative])


def hjc851(args: argparse.Namespace) -> None:
    root = args.data / "hjc851-dataset2"
    for frontend in args.frontend:
        start = time.perf_counter()
        rows, values = scores(root / "labels.csv", root, frontend or None, ("*.java",),
                              args.m, args.literal_k, not args.neutral_only)
        negatives = np.asarray([v for r, v in zip(rows, values, strict=True)
                                if r["label"] == "0"])
        cut = float(np.percentile(negatives, 99))
        shares = []
        for level in sorted({r["level"] for r in rows}):
            pos = [v for r, v in zip(rows, values, strict=True)
                   if r["label"] == "1" and r["level"] == level]
            shares.append(f"L{level} {100 * sum(v > cut for v in pos) / len(pos):.0f} %")
        positives = [v for r, v in zip(rows, values, strict=True) if r["label"] == "1"]
        area = auc(positives, list(negatives))
        print(f"{frontend or 'default':<11} ROC AUC {area:.3f}; 99th pct of unrelated {cut:.3f}: "
              f"{', '.join(shares)} ({time.perf_counter() - start:.0f} s, {uptime()})")


def translations(args: argparse.Namespace) -> None:
    labels = HERE / "translations" / "labels.csv"
    with labels.open(newline="") as handle:
        names = {name for row in csv.DictReader(handle)
                 for name in (row["file_a"], row["file_b"])}
    with tempfile.TemporaryDirectory() as tmp:  # the Java files copied there, not here
        root = Path(tmp)
        for name in names:
            source = (HERE / name) if name.startswith("translations/") else args.data / name
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, root / name)
        shutil.copyfile(labels, root / "labels.csv")
        for frontend in args.frontend:
            rows, values = scores(root / "labels.csv", root, frontend or None,
                                  max_occurrences=args.m, literal_k=args.literal_k,
                                  lexical=False)
            by_lang: dict[str, tuple[list[float], list[float]]] = {}
            for row, value in zip(rows, values, strict=True):
                pos, neg = by_lang.setdefault(row["lang"], ([], []))
                (pos if row["label"] == "1" else neg).append(value)
            cells = [f"{lang} {auc(*pn):.3f} ({len(pn[0])}+/{len(pn[1])}-)"
                     for lang, pn in sorted(by_lang.items())]
            print(f"{frontend or 'default':<11} ROC AUC: {', '.join(cells)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("hjc851", "translations"))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("-m", type=float, default=None,
                        help="max occurrences (MOSS -m); compare's default when left out")
    parser.add_argument("--literal-k", type=int, default=None, help="the literal channel's k")
    parser.add_argument("--neutral-only", action="store_true",
                        help="hjc851: the structural front-end without the lexer's tokens "
                             "(--frontend-option lexical=false)")
    parser.add_argument("--frontend", action="append",
                        help="front-end to compare with (repeatable; '' = default)")
    args = parser.parse_args()
    args.frontend = args.frontend or ["", "structural"]
    print(f"benchmarks/structural.py {args.what}, -m {'default' if args.m is None else args.m}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {uptime()}")
    (hjc851 if args.what == "hjc851" else translations)(args)


if __name__ == "__main__":
    main()
