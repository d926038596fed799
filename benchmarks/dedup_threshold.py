"""How ``winnow dedup``'s ``--min-similarity`` trades near-duplicates found
against independent texts linked: the figures behind its defaults.

    .venv/bin/python benchmarks/dedup_threshold.py [--records 100000]
        [--workdir /tmp/winnow-scale] [--data ../shared/data]
        [--similarities 0.5,0.4,0.3,0.25] [--candidates 0.05,0.08,0.1,0.12]
        [--fingerprint-similarities 0.25,0.15,0.1]

1. ``benchmarks/scale.py``'s corpus of N records (built and cached in
   ``WORKDIR/corpus-N``): for each setting, the in-memory engine's
   near-duplicate recall (all, and at 10 % edited words), containment recall
   and precision (:func:`scale.score`), the run's seconds and its candidate
   pairs (those whose word pairs were compared).  The default
   measure (``words``: word-pair resemblance of the pairs whose fingerprint
   resemblance reaches a candidate bound) for every candidate bound and
   similarity, and the fingerprints' resemblance (``fingerprints``) beside it.
2. Clough & Stevenson's short answers (``DATA/clough-stevenson``): every
   pair of answers whose writers worked independently (both ``non``, or
   answers to different questions), with the resemblance of dedup's
   fingerprints ``|Fa ∩ Fb| / |Fa ∪ Fb|`` and of its word pairs
   (:mod:`winnow.corpus.words`), and how many each setting links.

Append the printed block to ``benchmarks/scale.results.md``.
"""

from __future__ import annotations

import argparse
import csv
import glob
import itertools
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import scale
import scale_corpus
from harness import uptime

HERE = Path(__file__).resolve().parent
F64 = npt.NDArray[np.float64]


def planted(records: int, workdir: Path, **settings: Any) -> dict[str, float]:
    from winnow.corpus import DedupSettings, Fields, find_duplicates

    folder = workdir / f"corpus-{records}"
    if not (folder / "truth.npz").exists():
        scale_corpus.build(records, folder)
    chosen = DedupSettings(Fields("text", "id"), engine="in-memory", jobs=2, **settings)
    start = time.perf_counter()
    run = find_duplicates(sorted(glob.glob(str(folder / "part-*.jsonl"))), chosen)
    seconds = time.perf_counter() - start
    return {**scale.score(run.clusters.cluster, dict(np.load(folder / "truth.npz"))),
            "s": seconds, "candidates": run.candidates}


def independent_resemblances(root: Path) -> tuple[F64, F64]:
    """Fingerprint and word-pair resemblance of every independent pair."""
    from winnow.corpus.fingerprints import record_hashes
    from winnow.corpus.options import DedupSettings
    from winnow.corpus.readers import Fields
    from winnow.corpus.words import batch_word_pairs

    config = DedupSettings(Fields("text")).config
    with (root / "labels.csv").open(newline="") as handle:
        category = {row["file_b"]: row["cat_b"] for row in csv.DictReader(handle)}
    answers = sorted(name for name in category if "orig" not in name)
    texts = {name: (root / name).read_text(errors="replace") for name in answers}
    prints = {name: set(record_hashes(texts[name], config).tolist()) for name in answers}
    pairs = {name: set(batch_word_pairs([texts[name].encode()])[0].tolist())
             for name in answers}

    def task(name: str) -> str:
        return name.rsplit("_", 1)[-1]

    def jaccard(x: set[int], y: set[int]) -> float:
        return len(x & y) / len(x | y) if x | y else 0.0

    printed, worded = [], []
    for a, b in itertools.combinations(answers, 2):
        if task(a) != task(b) or category[a] == category[b] == "non":
            printed.append(jaccard(prints[a], prints[b]))
            worded.append(jaccard(pairs[a], pairs[b]))
    return np.array(printed), np.array(worded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/winnow-scale"))
    parser.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    parser.add_argument("--similarities", default="0.5,0.4,0.3,0.25")
    parser.add_argument("--candidates", default="0.05,0.08,0.1,0.12")
    parser.add_argument("--fingerprint-similarities", default="0.25,0.15,0.1")
    args = parser.parse_args()
    printed, worded = independent_resemblances(args.data / "clough-stevenson")
    print(f"dedup similarity thresholds ({uptime()}); {args.records:,} planted-pair records; "
          f"{printed.shape[0]:,} independent Clough pairs, highest resemblance: "
          f"fingerprints {printed.max():.3f}, word pairs {worded.max():.3f}")
    print(f"{'measure':<13}{'candidate':>9}{'similarity':>11}{'near':>7}{'near 10%':>9}"
          f"{'contain':>8}{'prec':>8}{'s':>6}{'candidates':>11} {'independent linked':>18}")
    runs: list[tuple[str, float | None, float]] = [
        ("words", float(c), float(x)) for c in args.candidates.split(",")
        for x in args.similarities.split(",")]
    runs += [("fingerprints", None, float(x))
             for x in args.fingerprint_similarities.split(",")]
    for measure, candidate, similarity in runs:
        extra = {} if candidate is None else {"candidate_similarity": candidate}
        s = planted(args.records, args.workdir, measure=measure, similarity=similarity,
                    **extra)
        linked = ((printed >= similarity) if candidate is None
                  else (printed >= candidate) & (worded >= similarity))
        print(f"{measure:<13}{'-' if candidate is None else candidate:>9}{similarity:>11}"
              f"{s['near all']:7.4f}{s['near 10%']:9.4f}{s['containment']:8.3f}"
              f"{s['precision']:8.5f}{s['s']:6.1f}{int(s['candidates']):>11} "
              f"{int(linked.sum()):>18}", flush=True)


if __name__ == "__main__":
    main()
