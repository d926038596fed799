"""Check that every number ``winnow compare`` shows is explained by its passages.

    .venv/bin/python benchmarks/check_scores.py [--data ../shared/data]

On each IR-Plag task (every submission a folder: ``non-plagiarized/NN`` and
``plagiarized/LN/NN``), without and with the original as ``--base``, every
pair that shares anything (``-n 0 --passages-top 0``) is checked:

* its ``similarity`` is at most the larger of ``coverage_a`` and
  ``coverage_b`` (the shares the report highlights) plus 0.05;
* every passage's ``fingerprints`` fit in it: no more than the k-grams of
  the two channels that start and end inside its shorter side.

Prints one line per run and the worst case found; exits 1 if any check fails.
The submissions are read in place (nothing is copied).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from winnow.config import WinnowConfig
from winnow.matching import CompareOptions, compare
from winnow.sources.submissions import SubmissionSource, load_submission

HERE = Path(__file__).resolve().parent


def task_submissions(case: Path) -> list[SubmissionSource]:
    folders = sorted(case.glob("non-plagiarized/*")) + sorted(case.glob("plagiarized/*/*"))
    return [load_submission(str(f), name=str(f.relative_to(case))) for f in folders]


def kgrams(span: int, k: int) -> int:
    return max(0, span - k + 1)


def check(case: Path, with_base: bool) -> tuple[int, int, float, int]:
    """Pairs checked, failures, the largest ``similarity - max(coverage)``,
    and passages checked."""
    base = [load_submission(str(case / "original"), role="base", name="original")] \
        if with_base else []
    result = compare(task_submissions(case), options=CompareOptions(top=0, passages_top=0),
                     base=base)
    config = WinnowConfig(**{k: v for k, v in result.config.items()
                             if k in ("k", "t", "method", "seed")})
    literal_k = int(result.parameters["literal_k"])
    failures, worst, passages = 0, -1.0, 0
    for pair in result.pairs:
        shown = max(pair.coverage_a or 0.0, pair.coverage_b or 0.0)
        worst = max(worst, pair.similarity - shown)
        if not pair.passages_computed or pair.similarity > shown + 0.05:
            failures += 1
            print(f"  similarity {pair.similarity:.3f} > highlighted {shown:.3f} + 0.05: "
                  f"{pair.a} {pair.b}")
        for passage in pair.passages:
            passages += 1
            span = min(passage.a.units.end - passage.a.units.start,
                       passage.b.units.end - passage.b.units.start)
            fit = kgrams(span, config.k) + (kgrams(span, literal_k) if literal_k else 0)
            if not 0 <= passage.fingerprints <= fit:
                failures += 1
                print(f"  passage of {span} units claims {passage.fingerprints} "
                      f"fingerprints (at most {fit}): {pair.a} {pair.b}")
    return len(result.pairs), failures, worst, passages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parents[1] / "shared" / "data")
    args = parser.parse_args()
    root = args.data / "irplag" / "IR-Plag-Dataset"
    total_failures = 0
    for case in sorted(root.glob("case-*")):
        for with_base in (False, True):
            start = time.perf_counter()
            pairs, failures, worst, passages = check(case, with_base)
            total_failures += failures
            print(f"{case.name} {'--base original' if with_base else 'no base':<15} "
                  f"{pairs:5d} pairs, {passages:5d} passages, {failures} failures; "
                  f"max(similarity - larger share) = {worst:+.3f} "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    sys.exit(1 if total_failures else 0)


if __name__ == "__main__":
    main()
