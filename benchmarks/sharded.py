"""Memory and throughput of the sharded pair engine (``winnow.sharded``).

    .venv/bin/python benchmarks/sharded.py [--sizes 100000,1000000] [--skip-ray]
        [--skip-in-memory] [--workdir DIR]

A synthetic fingerprint source (:mod:`winnow.sharded.synthetic`: 100 random
64-bit fingerprints per document, every tenth document copying about half of
an earlier one, 3 boilerplate fingerprints from a pool of 50 that ``-m 50``
drops) in input shards of 10,000 documents, counted with ``cap = 50`` and 10
partitions under budgets of 2^20 rows (stage 1 chunks, stage 2 windows): a
partition of 100,000 documents is one window at the budget, one of 1,000,000
ten such windows, so the sizes compare tasks of equal windows:

1. the local-sharded engine at each size with 2 workers, and at the smallest
   with 1 worker (the per-core figures of docs/scale.md);
2. the Ray engine (a new local cluster of 2 CPUs) at the smallest size;
3. the in-memory engine (:func:`winnow.matching.table.build_table`) at the
   smallest size.

Each run is a separate process; the harness samples the memory of its
whole process tree (driver, pool workers, Ray's daemons and workers), and
adds up the processes' own peaks as the kernel keeps them (``VmHWM``): a
bound that a short spike between two samples cannot escape.  It
prints wall time, peak memory, per-stage seconds and documents per second,
and checks that every planted pair was found.  Timings on a shared machine
are noisy: the load average is printed with each.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import measure, uptime

PER_SHARD = 10_000
PARTITIONS = 10
BUDGET = 1 << 20
CAP = 50


def one(docs: int, engine: str, jobs: int, workdir: str) -> dict[str, Any]:
    """Run one count here and return its figures (the measured child's job)."""
    import numpy as np

    from winnow.sharded import ShardPlan, count_pairs
    from winnow.sharded.synthetic import planted_pairs, synthetic_prints, synthetic_shards

    shards = synthetic_shards(docs, PER_SHARD)
    stages: dict[str, float] = {}
    start = time.perf_counter()

    def progress(stage: str, done: int, total: int) -> None:
        stages[stage] = time.perf_counter() - start

    if engine == "in-memory":
        from winnow.matching.table import build_table

        hashes = np.concatenate([h for s in shards for _, h in synthetic_prints(s)])
        files = np.repeat(np.arange(docs, dtype=np.int32), 100)
        stages["prints"] = time.perf_counter() - start
        table = build_table(hashes, files, np.arange(docs), docs, cap=CAP,
                            archive=np.zeros(docs, dtype=bool))
        stages["pairs"] = time.perf_counter() - start
        keys = table.counts.a * docs + table.counts.b
        pairs = int(keys.shape[0])
    else:
        plan = ShardPlan(workdir, partitions=PARTITIONS, engine=engine,  # type: ignore[arg-type]
                         jobs=jobs, row_budget=BUDGET, window_rows=BUDGET)
        sums = count_pairs(shards, synthetic_prints, plan, cap=CAP, progress=progress)
        keys = np.concatenate([np.zeros(0, np.int64),
                               *(a * docs + b for a, b, _ in sums)])
        pairs = len(sums)
    a, b = planted_pairs(docs)
    found = float(np.isin(a * docs + b, keys).mean())
    return {"stages": stages, "pairs": pairs, "planted_found": found,
            "seconds": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--skip-in-memory", action="store_true")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--one", nargs=4, metavar=("DOCS", "ENGINE", "JOBS", "WORKDIR"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        docs, engine, jobs, workdir = args.one
        print(json.dumps(one(int(docs), engine, int(jobs), workdir)))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    runs = [(n, "local-sharded", 2) for n in sizes] + [(sizes[0], "local-sharded", 1)]
    if not args.skip_ray:
        runs.append((sizes[0], "ray", 2))
    if not args.skip_in_memory:
        runs.append((sizes[0], "in-memory", 1))
    root = Path(tempfile.mkdtemp(dir=args.workdir, prefix="winnow-sharded-bench-"))
    print(f"sharded engine benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"Python {sys.version.split()[0]}; {PER_SHARD} docs/shard, {PARTITIONS} partitions, "
          f"budgets {BUDGET} rows, cap {CAP}")
    try:
        for docs, engine, jobs in runs:
            workdir = root / f"{engine}-{docs}-{jobs}"
            out = root / "out.json"
            print(f"\n== {docs:,} documents, {engine}, {jobs} worker(s) ({uptime()})", flush=True)
            run = measure([sys.executable, __file__, "--one", str(docs), engine, str(jobs),
                           str(workdir)], stdout_path=out)
            if run.returncode != 0:
                sys.exit(f"failed (rc {run.returncode}):\n{run.stderr_tail}")
            figures = json.loads(out.read_text())
            size = sum(f.stat().st_size for f in workdir.rglob("*") if f.is_file()) \
                if workdir.exists() else 0
            print(run.line(f"{engine} x{jobs}"))
            print(f"  sum of the processes' own peaks (an upper bound of the tree's peak "
                  f"RSS): {run.tree_hwm_mib:,.1f} MiB")
            stages = "  ".join(f"{k} {v:.1f} s" for k, v in figures["stages"].items())
            print(f"  stages done at: {stages};  {docs / run.wall_s:,.0f} docs/s;  "
                  f"pairs {figures['pairs']:,};  planted found {figures['planted_found']:.4f};"
                  f"  workdir {size / 2**20:,.0f} MiB", flush=True)
            shutil.rmtree(workdir, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
