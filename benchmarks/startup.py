"""Start-up: how long winnow takes before and around the work it is asked for.

    .venv/bin/python benchmarks/startup.py [--repeat 5]

1. ``winnow --help``, ``winnow --version`` and ``winnow languages`` (targets:
   ``--help`` <= 0.3 s; none imports numba).
2. The README's first command (``winnow compare --each examples/python/submissions
   --base examples/python/starter --report ...``) with an empty numba cache
   (``NUMBA_CACHE_DIR`` set to a new folder: every kernel compiles, as on a
   fresh install; the ``pip install`` itself is not timed), then warm
   (target: first run <= 20 s on this 2-core machine).
3. A warm one-file ``winnow query`` against an index of ``examples/``
   (target <= 0.5 s).

Each figure is the median of ``--repeat`` runs (the cold run: one run),
wall time of the whole process, with the load average printed beside it.
winnow's modules are compiled to bytecode first, as an installed package
has them (:func:`harness.compile_winnow`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from harness import ROOT, WINNOW, compile_winnow, uptime


def timed(args: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run([*WINNOW, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, cwd=ROOT, check=False)
    return time.perf_counter() - start


def median(args: list[str], repeat: int, env: dict[str, str] | None = None) -> str:
    runs = [timed(args, env) for _ in range(repeat)]
    return f"median {statistics.median(runs):.2f} s (min {min(runs):.2f}, max {max(runs):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"winnow start-up, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.cpu_count()} CPUs; {uptime()}; "
          f"{compile_winnow()} winnow modules compiled to bytecode first")
    for command in (["--help"], ["--version"], ["languages"]):
        print(f"  winnow {' '.join(command):<28} {median(command, args.repeat)}")
    readme = ["compare", "--each", "examples/python/submissions", "--base",
              "examples/python/starter"]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba"))
        report = ["--report", str(Path(tmp) / "report.html")]
        print(f"  README command, empty kernel cache: {timed([*readme, *report], env):.2f} s "
              f"({uptime()})")
        warm = median([*readme, *report], args.repeat, env)
        print(f"  README command, warm:              {warm}")
        db = str(Path(tmp) / "examples.db")
        subprocess.run([*WINNOW, "index", "examples", "--db", db, "-q"], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        query = ["query", "examples/python/starter/textstats.py", "--db", db]
        timed(query)
        print(f"  one-file query, warm:              {median(query, args.repeat)}")
    print(f"  ({uptime()})")


if __name__ == "__main__":
    main()
