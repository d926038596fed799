"""Accuracy of winnow and of today's peers on the labelled sets, in one run.

    .venv/bin/python benchmarks/accuracy.py [--data ../shared/data] [--workdir DIR]
        [--sets irplag,soco-java,soco-c,clough] [--no-peers] [--peer-cache DIR]
        [-- WINNOW COMPARE OPTIONS ...]

For every labelled set it runs ``winnow evaluate`` (the CLI, ``--format json``)
and the three peers through ``/work/shared/peers/run_{copydetect,compare50,dolos}``
on the same folder, scores every tool's ranking with the same code
(:mod:`winnow.evaluation`: pairs a tool does not list score 0) and prints one
table: ROC AUC, PR AUC and best F1 per tool and set, then IR-Plag per
plagiarism level (the original against its L1..L6 copies, negatives = the
original against the independent solutions) and Clough & Stevenson per
category (each category against every independent answer).

``--peer-cache DIR`` keeps the peers' CSVs there and reuses them when present
(for tuning runs); without it the peers run every time, as the published
figures need.  Options after ``--`` go to ``winnow evaluate`` unchanged.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from harness import PEERS, WINNOW, uptime
from winnow.evaluation import (
    Evaluation,
    LabelSet,
    evaluate,
    evaluation_rows,
    load_labels,
    pair_key,
)


@dataclass(frozen=True)
class LabelledSet:
    """One labels file: where it lives, the peers' language, how to break it down."""

    name: str
    folder: str
    labels: str
    lang: str
    where: tuple[tuple[str, str], ...] = ()
    group: str | None = None


SETS = {
    "irplag": LabelledSet("irplag", "irplag", "labels.csv", "java",
                          (("kind_a", "original"),), "kind_b"),
    "soco-java": LabelledSet("soco-java", "soco14-train", "labels-java.csv", "java"),
    "soco-c": LabelledSet("soco-c", "soco14-train", "labels-c.csv", "c"),
    "clough": LabelledSet("clough", "clough-stevenson", "labels.csv", "text", (), "cat_b"),
}
PEER_NAMES = ("copydetect", "compare50", "dolos")


def peer_scores(peer: str, root: Path, lang: str, out: Path) -> dict[tuple[str, str], float]:
    """Run one peer over ``root`` (unless ``out`` exists) and read its pair scores."""
    if not out.exists():
        start = time.perf_counter()
        subprocess.run([str(PEERS / f"run_{peer}"), str(root), str(out), "--lang", lang],
                       check=True, stderr=subprocess.DEVNULL)
        print(f"  {peer}: {time.perf_counter() - start:.1f} s ({uptime()})", file=sys.stderr)
    scores: dict[tuple[str, str], float] = {}
    with out.open(newline="") as handle:
        for record in csv.DictReader(handle):
            scores[pair_key(record["file_a"], record["file_b"])] = float(record["score"])
    return scores


def winnow_eval(spec: LabelledSet, data: Path, options: list[str],
                where: bool) -> dict[str, object]:
    """``winnow evaluate`` on one set, its JSON output as a dict."""
    command = [*WINNOW, "evaluate", str(data / spec.folder / spec.labels),
               "--root", str(data / spec.folder), "--format", "json", *options]
    if where:
        command += [f"--where={c}={v}" for c, v in spec.where]
    if spec.group:
        command += ["--group", spec.group]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        sys.exit(f"winnow evaluate failed:\n{done.stderr}")
    print(f"  winnow: {time.perf_counter() - start:.1f} s ({uptime()})", file=sys.stderr)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def row(tool: str, overall: dict[str, object]) -> str:
    def fmt(key: str) -> str:
        value = overall.get(key)
        return f"{value:.3f}" if isinstance(value, float) else "  -  "

    return (f"  {tool:<12} {fmt('roc_auc'):>7} {fmt('pr_auc'):>7} {fmt('best_f1'):>7} "
            f"{fmt('threshold'):>9}")


def as_dict(evaluation: Evaluation) -> dict[str, object]:
    """The JSON shape of ``winnow evaluate`` for a peer's evaluation."""
    rows = evaluation_rows(evaluation)
    return {"overall": rows[0], "groups": rows[1:]}


def report(spec: LabelledSet, results: dict[str, dict[str, object]],
           detail: dict[str, dict[str, object]]) -> None:
    print(f"\n{spec.name} ({spec.folder}/{spec.labels})")
    print(f"  {'tool':<12} {'ROC AUC':>7} {'PR AUC':>7} {'best F1':>7} {'threshold':>9}")
    for tool, result in results.items():
        print(row(tool, result["overall"]))  # type: ignore[arg-type]
    if not spec.group:
        return
    title = " and ".join(f"{c}={v}" for c, v in spec.where) or "all pairs"
    print(f"  ROC AUC per {spec.group} ({title}; each against every negative)")
    tools = list(detail)
    print("  " + f"{'value':<12}" + "".join(f"{t:>12}" for t in tools))
    values = [g["value"] for g in detail[tools[0]]["groups"]]  # type: ignore[index,union-attr]
    for value in values:
        cells = []
        for tool in tools:
            group = next(g for g in detail[tool]["groups"]  # type: ignore[union-attr]
                         if g["value"] == value)
            auc = group["roc_auc"]
            cells.append(f"{auc:12.3f}" if isinstance(auc, float) else f"{'-':>12}")
        print("  " + f"{value:<12}" + "".join(cells))


def run_set(spec: LabelledSet, args: argparse.Namespace, options: list[str]) -> None:
    data: Path = args.data
    root = data / spec.folder
    print(f"[{spec.name}]", file=sys.stderr)
    labels = load_labels(root / spec.labels)
    restricted: LabelSet = labels.where(dict(spec.where)) if spec.where else labels
    groups = [spec.group] if spec.group else []
    results = {"winnow": winnow_eval(spec, data, options, where=False)}
    detail = {"winnow": winnow_eval(spec, data, options, where=True)} if spec.group else {}
    if not args.no_peers:
        cache: Path = args.peer_cache or args.workdir
        for peer in PEER_NAMES:
            scores = peer_scores(peer, root, spec.lang, cache / f"{spec.name}-{peer}.csv")
            results[peer] = as_dict(evaluate(labels, scores, group_columns=groups))
            if spec.group:
                detail[peer] = as_dict(evaluate(restricted, scores, group_columns=groups))
    report(spec, results, detail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2]
                        / "shared" / "data")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/winnow-accuracy"))
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--peer-cache", type=Path, default=None)
    parser.add_argument("options", nargs="*", help="options for winnow evaluate (after --)")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.peer_cache:
        args.peer_cache.mkdir(parents=True, exist_ok=True)
    else:  # fresh peer runs
        for old in args.workdir.glob("*.csv"):
            old.unlink()
    print(f"winnow accuracy benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{uptime()}; winnow options: {' '.join(args.options) or '(defaults)'}")
    for name in args.sets.split(","):
        run_set(SETS[name], args, args.options)


if __name__ == "__main__":
    main()
