"""Speed and memory of ``winnow compare`` against compare50 (and optionally the other peers).

    .venv/bin/python benchmarks/compare.py [--workdir DIR] [--peers compare50[,copydetect,dolos]]
        [--sizes 2500,5000,10000,20000] [--skip-scaling] [--skip-peers]
        [-- WINNOW COMPARE OPTIONS ...]

1. **1000 files**: the 1000 standard-library ``.py`` files of the peers' own
   measurements (``/work/shared/peers/make_corpora.py``), one file per
   submission, all against all.  ``winnow compare --each`` (defaults: top 250
   pairs with passages, CSV output to a file) and each chosen peer run one
   after the other in the same run; the script prints wall time, peak memory
   and winnow's share of compare50's time.  Before timing, winnow is checked
   on the known-pairs sample (every modified copy must be paired with its
   original among the top pairs).
2. **Every pair** (``--every``): the same 1000 files with ``-n 0`` (every pair
   that shares anything, passages for the best 250, every CSV column),
   ``-n 0 --no-passages`` and ``-n 0 --columns file_a,file_b,similarity``
   (the peers' adapters' output: a name pair and a score per row) against
   compare50 (which scores every pair), in one run (each winnow variant
   ``--repeat`` times, alternating; the best time counts): targets each <=
   0.10 of compare50's time and < 500 MiB; then a class of 2,000 real ``.py``
   files (``corpus.python_pool``), ``-n 0`` and ``-n 0 --columns
   file_a,file_b,similarity`` against compare50 and Dolos.
3. **Profile** (``--profile``): the two every-pair inputs above, ``-n 0``
   through the library in this process, with the wall time of each stage
   (imports, fingerprinting by the workers, the pair table, scores, ranking,
   the whole comparison with passages, the CSV writer); run it on a quiet
   machine, the shares are what matter.
4. **Scaling**: winnow alone on 2,500 ... 20,000 distinct real ``.py`` files
   from this machine (``corpus.python_pool``), printing time and memory per
   size and per file, so near-linear growth can be read off.

Every command (winnow's and the peers') runs twice: once alone, timed, and
once with its process tree's memory sampled every 50 ms (sampling slows a
short multi-process run by 10-30 %; ``harness.timed_then_measured``).
Timings on a shared machine are noisy: the load average is printed with each.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from pathlib import Path

import corpus
from harness import (
    PEERS,
    WINNOW,
    Run,
    check,
    compile_winnow,
    timed_then_measured,
    uptime,
    warm,
    warm_up,
)

#: Memory samples of these runs of a few seconds and processes: every 50 ms
#: (each command is timed in a run of its own, unsampled: harness.timed_then_measured).
SHORT_SAMPLE_S = 0.05


#: The CSV the peers' adapters write (``file_a,file_b,score``, every pair that
#: scores above 0), in winnow's words: its similarity, the passages'
#: coverage for the best pairs (``--columns``).
ADAPTER = ["--columns", "file_a,file_b,similarity"]
ADAPTER_LABEL = " ".join(ADAPTER)


def winnow_command(folder: Path, out: Path, options: list[str]) -> list[str]:
    """``winnow compare --each folder`` with CSV output to ``out``."""
    return [*WINNOW, "compare", "--each", str(folder), "-q", "--format", "csv",
            "-o", str(out), *options]


def winnow_run(folder: Path, out: Path, options: list[str]) -> Run:
    """:func:`winnow_command`, timed, then measured."""
    run = timed_then_measured(winnow_command(folder, out, options), sample_s=SHORT_SAMPLE_S,
                              output=out)
    check(run, "winnow compare")
    return run


def peer_command(peer: str, folder: Path, out: Path) -> tuple[list[str], dict[str, str]]:
    """One peer adapter over ``folder`` (Python files), and its environment."""
    env = dict(os.environ, DOLOS_NODE_OPTIONS="--max-old-space-size=16000")
    return [str(PEERS / f"run_{peer}"), str(folder), str(out), "--lang", "python"], env


def peer_run(peer: str, folder: Path, out: Path, warmups: int = 0) -> Run:
    """:func:`peer_command`, after ``warmups`` untimed runs, timed, then measured."""
    command, env = peer_command(peer, folder, out)
    warm_up(command, env=env, times=warmups)
    run = timed_then_measured(command, env=env, sample_s=SHORT_SAMPLE_S, output=out)
    check(run, peer)
    return run


def check_sample(sample: Path, workdir: Path, options: list[str]) -> None:
    """winnow must pair every modified copy with its original (``truth.csv``)."""
    flat = workdir / "sample-flat"
    corpus.flatten(sample, flat)
    out = workdir / "sample.csv"
    winnow_run(flat, out, options)
    with out.open(newline="") as handle:
        ranked = [tuple(sorted((Path(r["file_a"]).name, Path(r["file_b"]).name)))
                  for r in csv.DictReader(handle)]
    with (sample / "truth.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            pair = tuple(sorted((corpus.flat_name(row["modified"]),
                                 corpus.flat_name(row["original"]))))
            rank = ranked.index(pair) + 1 if pair in ranked else None
            print(f"  sample: {row['kind']:<9} copy of {row['original']:<28} rank {rank}")


def thousand(args: argparse.Namespace, options: list[str]) -> None:
    print(f"\n== 1000 stdlib files, all against all ({uptime()})")
    flat, sample = corpus.stdlib_1000(args.workdir)
    size = sum(p.stat().st_size for p in flat.iterdir())
    print(f"  corpus: {flat} ({sum(1 for _ in flat.iterdir())} files, {size / 1e6:.2f} MB)")
    check_sample(sample, args.workdir, options)
    warm(flat)
    runs: dict[str, Run] = {}
    for repeat in range(args.repeat):
        runs[f"winnow #{repeat + 1}"] = winnow_run(flat, args.workdir / "winnow-1000.csv",
                                                   options)
        print(runs[f"winnow #{repeat + 1}"].line(f"winnow compare #{repeat + 1}"))
    if not args.skip_peers:
        for peer in args.peers.split(","):
            runs[peer] = peer_run(peer, flat, args.workdir / f"{peer}-1000.csv")
            print(runs[peer].line(peer))
    best = min((r for k, r in runs.items() if k.startswith("winnow")), key=lambda r: r.wall_s)
    if "compare50" in runs:
        ratio = best.wall_s / runs["compare50"].wall_s
        print(f"  winnow (best of {args.repeat}) / compare50 wall time: {ratio:.3f} "
              f"(target <= 0.100); winnow peak memory {best.tree_pss_mib:.0f} MiB PSS "
              "(target < 500)")


def alternating(folder: Path, out: Path, options: list[str], variants: dict[str, list[str]],
                args: argparse.Namespace) -> dict[str, list[Run]]:
    """Each variant's extra options run ``args.warmup`` times untimed, then
    ``args.repeat`` timed runs of each, alternating, so that all see the same load."""
    for extra in variants.values():
        warm_up(winnow_command(folder, out, [*options, *extra]), times=args.warmup)
    runs: dict[str, list[Run]] = {label: [] for label in variants}
    for _ in range(args.repeat):
        for label, extra in variants.items():
            runs[label].append(winnow_run(folder, out, [*options, *extra]))
    return runs


def every_pair(args: argparse.Namespace, options: list[str]) -> None:
    print(f"\n== every pair, 1000 stdlib files ({uptime()}); each tool after "
          f"{args.warmup} untimed run(s)")
    flat, _ = corpus.stdlib_1000(args.workdir)
    warm(flat)
    variants = {"-n 0": ["-n", "0"], "-n 0 --no-passages": ["-n", "0", "--no-passages"],
                f"-n 0 {ADAPTER_LABEL}": ["-n", "0", *ADAPTER]}
    runs = alternating(flat, args.workdir / "every-1000.csv", options, variants, args)
    c50 = peer_run("compare50", flat, args.workdir / "compare50-every-1000.csv", args.warmup)
    for label, tries in runs.items():
        for number, run in enumerate(tries, 1):
            print(run.line(f"winnow {label} #{number}") + f"  / compare50 "
                  f"{run.wall_s / c50.wall_s:.3f}")
        best = min(tries, key=lambda r: r.wall_s)
        worst = max(tries, key=lambda r: r.wall_s)
        print(f"  winnow {label} (best of {len(tries)}) / compare50 wall time: "
              f"{best.wall_s / c50.wall_s:.3f} (target <= 0.100), slowest "
              f"{worst.wall_s / c50.wall_s:.3f} (target <= 0.070 in every run); peak memory "
              f"{max(r.tree_pss_mib for r in tries):.0f} MiB PSS (target < 500)")
    print(c50.line("compare50"))
    if args.skip_class:
        return
    print(f"\n== every pair, a class of 2000 .py files ({uptime()})")
    folder = args.workdir / "pool-2000"
    files, size = corpus.subset(corpus.python_pool(), 2000, folder)
    warm(folder)
    variants = {"-n 0": ["-n", "0"], f"-n 0 {ADAPTER_LABEL}": ["-n", "0", *ADAPTER]}
    tries = alternating(folder, args.workdir / "every-2000.csv", options, variants, args)
    for label, runs_of in tries.items():
        for number, run in enumerate(runs_of, 1):
            print(run.line(f"winnow {label} #{number}, {files} files {size / 1e6:.0f} MB"))
    for peer in ("compare50", "dolos"):
        other = peer_run(peer, folder, args.workdir / f"{peer}-2000.csv", args.warmup)
        print(other.line(peer))
        for label, runs_of in tries.items():
            print(f"  winnow {label} / {peer} (each run) " + ", ".join(
                f"{run.wall_s / other.wall_s:.3f}" for run in runs_of))


def profile(args: argparse.Namespace) -> None:
    """Wall time per stage of ``compare(..., top=0)`` and ``write_csv``, in this process."""
    started = time.perf_counter()
    import winnow.matching  # noqa: F401  (the modules whose stages are timed)

    imports = time.perf_counter() - started
    flat, _ = corpus.stdlib_1000(args.workdir)
    pool = args.workdir / "pool-2000"
    corpus.subset(corpus.python_pool(), 2000, pool)
    for folder in (flat, pool):
        pairs, stages = _profile_one(folder, args.workdir / "profile.csv")
        print(f"  {folder.name}, {pairs:,} pairs ({uptime()}): imports {imports:.2f} s | "
              + " | ".join(f"{k} {v:.2f} s" for k, v in stages.items()))


def _profile_one(folder: Path, out_path: Path) -> tuple[int, dict[str, float]]:
    from winnow.matching import CompareOptions
    from winnow.reports.csv import write_csv
    from winnow.sources.submissions import load_submission

    module, batch = sys.modules["winnow.matching.compare"], sys.modules["winnow.matching.batch"]
    stages: dict[str, float] = {}
    undo: list[tuple[object, str, object]] = []

    def timed(owner: object, name: str) -> None:
        inner = getattr(owner, name)

        def wrapper(*a: object, **k: object) -> object:
            start = time.perf_counter()
            try:
                return inner(*a, **k)
            finally:
                key = f"{name} top={k['top']}" if "top" in k else name
                stages[key] = stages.get(key, 0.0) + time.perf_counter() - start
        setattr(owner, name, wrapper)
        undo.append((owner, name, inner))

    timed(batch.Batch, "fingerprint")
    for name in ("count_table", "pair_scores", "rank"):
        timed(module, name)
    start = time.perf_counter()
    subs = [load_submission(str(f)) for f in sorted(folder.iterdir())]
    result = module.compare(subs, None, CompareOptions(top=0), jobs=0)
    stages["compare (all)"] = time.perf_counter() - start
    start = time.perf_counter()
    with out_path.open("w", encoding="utf-8", newline="") as out:
        write_csv(result, out)
    stages["csv"] = time.perf_counter() - start
    for owner, name, inner in undo:
        setattr(owner, name, inner)
    return len(result.pairs), stages


def scaling(args: argparse.Namespace, options: list[str]) -> None:
    print(f"\n== scaling, winnow only ({uptime()})")
    pool = corpus.python_pool()
    print(f"  pool: {len(pool)} distinct .py files on this machine")
    previous: tuple[int, Run] | None = None
    for n in (int(s) for s in args.sizes.split(",")):
        folder = args.workdir / f"pool-{n}"
        files, size = corpus.subset(pool, n, folder)
        out = args.workdir / f"winnow-{n}.csv"
        run = winnow_run(folder, out, [*options, "-n", "250"])
        per_file = 1000 * run.wall_s / files
        growth = ""
        if previous:
            growth = (f"  x{run.wall_s / previous[1].wall_s:.2f} time, "
                      f"x{run.tree_pss_mib / previous[1].tree_pss_mib:.2f} memory "
                      f"for x{files / previous[0]:.2f} files")
        print(run.line(f"{files} files {size / 1e6:.0f} MB") + f"  {per_file:.2f} ms/file"
              + growth)
        previous = (files, run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/winnow-bench"))
    parser.add_argument("--peers", default="compare50",
                        help="peers to time on the 1000 files (comma-separated)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="winnow runs of each kind on 1000 files")
    parser.add_argument("--sizes", default="2500,5000,10000,20000")
    parser.add_argument("--skip-peers", action="store_true")
    parser.add_argument("--skip-thousand", action="store_true")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument("--every", action="store_true", help="the every-pair rows")
    parser.add_argument("--warmup", type=int, default=1, metavar="N",
                        help="untimed runs of each tool before its timed runs in the "
                             "every-pair rows (harness.warm_up)")
    parser.add_argument("--profile", action="store_true",
                        help="time the stages of -n 0 in this process, then stop")
    parser.add_argument("--skip-class", action="store_true",
                        help="every-pair rows: the 1000 files only, not the 2000-file class")
    parser.add_argument("options", nargs="*", help="winnow compare options (after --)")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    print(f"winnow compare benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}; "
          f"winnow options: {' '.join(args.options) or '(defaults)'}; "
          f"{compile_winnow()} modules compiled to bytecode first")
    if args.profile:
        profile(args)
        return
    if not args.skip_thousand:
        thousand(args, args.options)
    if args.every:
        every_pair(args, args.options)
    if not args.skip_scaling:
        scaling(args, args.options)


if __name__ == "__main__":
    main()
