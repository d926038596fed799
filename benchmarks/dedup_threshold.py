"""How ``winnow dedup``'s ``--min-similarity`` trades near-duplicates found
against independent texts linked: the figures behind its defaults.

    .venv/bin/python benchmarks/dedup_threshold.py [--records 100000]
        [--workdir /tmp/winnow-scale] [--data ../shared/data]
        [--similarities 0.5,0.4,0.35,0.3,0.25] [--candidates 0.05,0.08,0.1]
        [--fingerprint-similarities 0.4,0.25,0.15,0.1]

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
from dataclasses import dataclass
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


@dataclass
class Pairs:
    """Per pair of texts: fingerprint resemblance, containment and the smaller
    record's fingerprints, and word-pair resemblance."""

    printed: F64
    contained: F64
    smaller: F64
    worded: F64

    def linked(self, measure: str, candidate: float | None, similarity: float) -> int:
        """How many pairs dedup links (containment 0.8 of 3 fingerprints or more)."""
        near = ((self.printed >= similarity) if measure == "fingerprints"
                else (self.printed >= (candidate or 0.0)) & (self.worded >= similarity))
        return int((near | ((self.contained >= 0.8) & (self.smaller >= 3))).sum())


def clough_pairs(root: Path) -> dict[str, Pairs]:
    """``independent``: every pair of answers written independently (both
    ``non``, or to different questions); ``derived``: each ``cut``, ``light``
    and ``heavy`` answer with the source text it was written from; ``unread``:
    each ``non`` answer with the source its writer did not read."""
    from winnow.corpus.fingerprints import record_hashes
    from winnow.corpus.options import DedupSettings
    from winnow.corpus.readers import Fields
    from winnow.corpus.words import batch_word_pairs

    config = DedupSettings(Fields("text")).config
    with (root / "labels.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    category = {row["file_b"]: row["cat_b"] for row in rows}
    answers = sorted(name for name in category if "orig" not in name)
    names = sorted({*answers, *(row["file_a"] for row in rows)})
    texts = {name: (root / name).read_text(errors="replace") for name in names}
    prints = {name: set(record_hashes(texts[name], config).tolist()) for name in names}
    words = {name: set(batch_word_pairs([texts[name].encode()])[0].tolist())
             for name in names}

    def task(name: str) -> str:
        return name.rsplit("_", 1)[-1]

    def measured(pairs: list[tuple[str, str]]) -> Pairs:
        out: list[tuple[float, float, float, float]] = []
        for a, b in pairs:
            fa, fb, wa, wb = prints[a], prints[b], words[a], words[b]
            shared, small = len(fa & fb), min(len(fa), len(fb))
            out.append((shared / len(fa | fb) if fa | fb else 0.0,
                        shared / small if small else 0.0, float(small),
                        len(wa & wb) / len(wa | wb) if wa | wb else 0.0))
        table = np.array(out, dtype=np.float64).reshape(-1, 4)
        return Pairs(table[:, 0], table[:, 1], table[:, 2], table[:, 3])

    independent = [(a, b) for a, b in itertools.combinations(answers, 2)
                   if task(a) != task(b) or category[a] == category[b] == "non"]
    sources = [(row["file_a"], row["file_b"], row["cat_b"]) for row in rows
               if "orig" not in row["file_b"]]
    return {"independent": measured(independent),
            "derived": measured([(a, b) for a, b, c in sources if c != "non"]),
            "unread": measured([(a, b) for a, b, c in sources if c == "non"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/winnow-scale"))
    parser.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    parser.add_argument("--similarities", default="0.5,0.4,0.35,0.3,0.25")
    parser.add_argument("--candidates", default="0.05,0.08,0.1")
    parser.add_argument("--fingerprint-similarities", default="0.4,0.25,0.15,0.1")
    args = parser.parse_args()
    clough = clough_pairs(args.data / "clough-stevenson")
    independent, derived, unread = clough["independent"], clough["derived"], clough["unread"]
    print(f"dedup similarity thresholds ({uptime()}); {args.records:,} planted-pair records; "
          f"{independent.printed.shape[0]:,} independent Clough pairs, highest resemblance: "
          f"fingerprints {independent.printed.max():.3f}, word pairs "
          f"{independent.worded.max():.3f}; {derived.printed.shape[0]} answers derived from "
          f"their source, {unread.printed.shape[0]} written without it")
    print(f"{'measure':<13}{'candidate':>9}{'similarity':>11}{'near':>7}{'near 10%':>9}"
          f"{'contain':>8}{'prec':>8}{'s':>6}{'candidates':>11}{'independent':>12}"
          f"{'derived':>8}{'unread':>7}")
    runs: list[tuple[str, float | None, float]] = [
        ("words", float(c), float(x)) for c in args.candidates.split(",")
        for x in args.similarities.split(",")]
    runs += [("fingerprints", None, float(x))
             for x in args.fingerprint_similarities.split(",")]
    for measure, candidate, similarity in runs:
        extra = {} if candidate is None else {"candidate_similarity": candidate}
        s = planted(args.records, args.workdir, measure=measure, similarity=similarity,
                    **extra)
        print(f"{measure:<13}{'-' if candidate is None else candidate:>9}{similarity:>11}"
              f"{s['near all']:7.4f}{s['near 10%']:9.4f}{s['containment']:8.3f}"
              f"{s['precision']:8.5f}{s['s']:6.1f}{int(s['candidates']):>11}"
              f"{independent.linked(measure, candidate, similarity):>12}"
              f"{derived.linked(measure, candidate, similarity):>8}"
              f"{unread.linked(measure, candidate, similarity):>7}", flush=True)


if __name__ == "__main__":
    main()
