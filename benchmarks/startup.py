"""Start-up: how long winnow takes before and around the work it is asked for.

    .venv/bin/python benchmarks/startup.py [--repeat 5] [--skip-build]

1. ``winnow --help``, ``winnow --version`` and ``winnow languages`` (targets:
   ``--help`` <= 0.3 s; none imports numba).
2. The README's first command (``winnow compare --each examples/python/submissions
   --base examples/python/starter --report ...``) as installed (the kernels
   compiled ahead of time by ``pip install``: a first run compiles nothing),
   then with numba's JIT (``WINNOW_KERNELS=jit``, what runs where the install
   could not compile them): with an empty numba cache (``NUMBA_CACHE_DIR``
   set to a new folder: every kernel compiles on first use), then warm
   (target: first run <= 20 s on this 2-core machine).
3. A warm one-file ``winnow query`` against an index of ``examples/``
   (target <= 0.5 s).
4. The ahead-of-time compile that ``pip install`` runs
   (``src/winnow/_aot_build.py``), on a copy of the package in a temporary
   folder (one run; ``--skip-build`` leaves it out).

Each figure is the median of ``--repeat`` runs (the cold run: one run),
wall time of the whole process, with the load average printed beside it.
winnow's modules are compiled to bytecode first, as an installed package
has them (:func:`harness.compile_winnow`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
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
    parser.add_argument("--skip-build", action="store_true",
                        help="leave out the ahead-of-time compile's timing")
    args = parser.parse_args()
    print(f"winnow start-up, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.cpu_count()} CPUs; {uptime()}; "
          f"{compile_winnow()} winnow modules compiled to bytecode first")
    for command in (["--help"], ["--version"], ["languages"]):
        print(f"  winnow {' '.join(command):<28} {median(command, args.repeat)}")
    readme = ["compare", "--each", "examples/python/submissions", "--base",
              "examples/python/starter"]
    with tempfile.TemporaryDirectory() as tmp:
        report = ["--report", str(Path(tmp) / "report.html")]
        print(f"  README command, first run:         {timed([*readme, *report]):.2f} s "
              f"({uptime()})")
        print(f"  README command, later runs:        {median([*readme, *report], args.repeat)}")
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba"), WINNOW_KERNELS="jit")
        print(f"  README command, JIT, empty cache:  {timed([*readme, *report], env):.2f} s "
              f"({uptime()})")
        warm = median([*readme, *report], args.repeat, env)
        print(f"  README command, JIT, warm:         {warm}")
        db = str(Path(tmp) / "examples.db")
        subprocess.run([*WINNOW, "index", "examples", "--db", db, "-q"], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        query = ["query", "examples/python/starter/textstats.py", "--db", db]
        timed(query)
        print(f"  one-file query, warm:              {median(query, args.repeat)}")
        if not args.skip_build:
            print(f"  ahead-of-time compile (pip install): {ahead_of_time_build(Path(tmp)):.1f} s "
                  f"({uptime()})")
    print(f"  ({uptime()})")


def ahead_of_time_build(tmp: Path) -> float:
    """Seconds of ``_aot_build.py`` on a copy of the package (what ``pip
    install`` adds), the built module checked to be there."""
    package = tmp / "src" / "winnow"
    shutil.copytree(ROOT / "src" / "winnow", package,
                    ignore=shutil.ignore_patterns("__pycache__", "_aot_kernels*"))
    start = time.perf_counter()
    subprocess.run([sys.executable, str(package / "_aot_build.py")], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    took = time.perf_counter() - start
    if not list(package.glob("_aot_kernels.*.so")) or not (package / "_aot_kernels.json").exists():
        raise SystemExit("the ahead-of-time compile wrote no module")
    return took


if __name__ == "__main__":
    main()
