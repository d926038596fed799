"""How ``winnow dedup``'s ``--min-similarity`` trades near-duplicates found
against independent texts linked: the figures behind its default.

    .venv/bin/python benchmarks/dedup_threshold.py [--records 100000]
        [--workdir /tmp/winnow-scale] [--data ../shared/data]
        [--similarities 0.4,0.3,0.25,0.2,0.15,0.1]

1. ``benchmarks/scale.py``'s corpus of N records (built and cached in
   ``WORKDIR/corpus-N``): for each similarity, the in-memory engine's
   near-duplicate recall (all, and at 10 % edited words) and precision
   (:func:`scale.score`).
2. Clough & Stevenson's short answers (``DATA/clough-stevenson``): the
   resemblance ``|Fa ∩ Fb| / |Fa ∪ Fb|`` of dedup's fingerprints for every
   pair of answers whose writers worked independently (both ``non``, or
   answers to different questions), and how many reach each similarity.

Append the printed block to ``benchmarks/scale.results.md``.
"""

from __future__ import annotations

import argparse
import csv
import glob
import itertools
from pathlib import Path

import numpy as np

import scale
import scale_corpus
from harness import uptime

HERE = Path(__file__).resolve().parent


def planted(records: int, workdir: Path, similarity: float) -> dict[str, float]:
    from winnow.corpus import DedupSettings, Fields, find_duplicates

    folder = workdir / f"corpus-{records}"
    if not (folder / "truth.npz").exists():
        scale_corpus.build(records, folder)
    settings = DedupSettings(Fields("text", "id"), engine="in-memory", jobs=2,
                             similarity=similarity)
    run = find_duplicates(sorted(glob.glob(str(folder / "part-*.jsonl"))), settings)
    return scale.score(run.clusters.cluster, dict(np.load(folder / "truth.npz")))


def independent_resemblances(root: Path) -> list[float]:
    from winnow.corpus.fingerprints import record_hashes
    from winnow.corpus.options import DedupSettings
    from winnow.corpus.readers import Fields

    config = DedupSettings(Fields("text")).config
    with (root / "labels.csv").open(newline="") as handle:
        category = {row["file_b"]: row["cat_b"] for row in csv.DictReader(handle)}
    answers = sorted(name for name in category if "orig" not in name)
    prints = {name: set(record_hashes((root / name).read_text(errors="replace"),
                                      config).tolist()) for name in answers}

    def task(name: str) -> str:
        return name.rsplit("_", 1)[-1]

    out = []
    for a, b in itertools.combinations(answers, 2):
        if task(a) != task(b) or category[a] == category[b] == "non":
            union = len(prints[a] | prints[b])
            out.append(len(prints[a] & prints[b]) / union if union else 0.0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/winnow-scale"))
    parser.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    parser.add_argument("--similarities", default="0.4,0.3,0.25,0.2,0.15,0.1")
    args = parser.parse_args()
    independent = np.array(independent_resemblances(args.data / "clough-stevenson"))
    print(f"dedup similarity thresholds ({uptime()}); {args.records:,} planted-pair records; "
          f"{independent.shape[0]:,} independent Clough pairs, highest resemblance "
          f"{independent.max():.3f}")
    print(f"{'similarity':>10} {'near':>7} {'near 10%':>9} {'prec':>7} {'independent linked':>19}")
    for similarity in (float(s) for s in args.similarities.split(",")):
        s = planted(args.records, args.workdir, similarity)
        linked = int((independent >= similarity).sum())
        print(f"{similarity:>10} {s['near all']:7.3f} {s['near 10%']:9.3f} "
              f"{s['precision']:7.4f} {linked:>19}", flush=True)


if __name__ == "__main__":
    main()
