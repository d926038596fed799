"""The counting pass of ``winnow compare`` alone, on synthetic fingerprints.

Measures :func:`winnow.matching.table.build_table` plus scores, ranking and
clusters (tracemalloc follows build_table's own allocations, which slows
it) for growing numbers of files, with ``PER_FILE`` fingerprints per
file of which ``COMMON`` share come from a pool of common fragments (so some
pairs share a little, as in a real class), and the peak memory of each run
in a fresh process.  Run: ``.venv/bin/python benchmarks/matching_counting.py
[N ...]`` (default 1000 5000 20000).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
import tracemalloc

import numpy as np

PER_FILE = 200
COMMON = 0.05
POOL = 20_000


def run_one(n: int) -> None:
    """Build and count one synthetic batch of ``n`` files; print one line."""
    from winnow.matching.clusters import connected_clusters
    from winnow.matching.scores import pair_scores, rank
    from winnow.matching.table import build_table

    rng = np.random.default_rng(0)
    hashes = rng.integers(0, 2**63, size=n * PER_FILE, dtype=np.uint64)
    pool = rng.integers(0, 2**63, size=POOL, dtype=np.uint64)
    common = rng.random(n * PER_FILE) < COMMON
    hashes[common] = rng.choice(pool, size=int(common.sum()))
    files = np.repeat(np.arange(n, dtype=np.int32), PER_FILE)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    start = time.perf_counter()
    table = build_table(hashes, files, np.arange(n, dtype=np.int64), n,
                        cap=10, archive=np.zeros(n, dtype=bool))
    counted = time.perf_counter()
    table_peak = (tracemalloc.get_traced_memory()[1] - before) // 2**20
    tracemalloc.stop()
    scores = pair_scores(table.counts, table.sizes, table.weight_totals, n)
    names = [f"s{i}" for i in range(n)]
    rank(scores.dice, scores.shared, names, scores.a, scores.b, top=250, min_similarity=0)
    connected_clusters(names, scores.a, scores.b, scores.dice, 0.5)
    done = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"{n:>7} files  {n * PER_FILE:>9} fingerprints  table {counted - start:6.2f} s  "
          f"scores+rank+clusters {done - counted:5.2f} s  pairs sharing "
          f"{table.stats['pairs_sharing']:>8}  peak RSS {peak} MB  "
          f"(build_table allocates at most {table_peak} MB)")


def main() -> None:
    """Each size in its own process, so peak memory is per size."""
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        run_one(int(sys.argv[2]))
        return
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 5000, 20000]
    for n in sizes:
        subprocess.run([sys.executable, __file__, "--one", str(n)], check=True)


if __name__ == "__main__":
    main()
