"""A first run's table and passages kernels compiled by a second process
(``winnow.matching.warm``), each case in a process of its own with an empty
kernel cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _run(code: str, cache: Path) -> list[str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=300, env=env)
    return done.stdout.split()


PREAMBLE = ("import time\n"
            "from winnow.compiled import uncached\n"
            "from winnow.matching.warm import kernels, warming\n"
            "missing = uncached(*kernels())\n"
            "total = len(kernels())\n")


@pytest.mark.slow
def test_a_forked_process_compiles_the_kernels_into_the_cache(tmp_path: Path) -> None:
    out = _run(PREAMBLE + "import multiprocessing\n"
               "with warming(2):\n"
               "    deadline = time.perf_counter() + 240\n"
               "    while multiprocessing.active_children() and time.perf_counter() < deadline:\n"
               "        time.sleep(0.1)  # the run's own work, as long as the compiling\n"
               "print(missing == total > 5, uncached(*kernels()))", tmp_path)
    assert out == ["True", "0"]  # all missing, then all cached


def test_one_core_or_a_warm_cache_forks_nothing(tmp_path: Path) -> None:
    out = _run(PREAMBLE + "import multiprocessing\n"
               "with warming(1):\n    alive = multiprocessing.active_children()\n"
               "print(missing == total > 5, len(alive), uncached(*kernels()) == total)", tmp_path)
    assert out == ["True", "0", "True"]


def test_a_block_that_raises_stops_the_compiling_process(tmp_path: Path) -> None:
    out = _run(PREAMBLE + "import multiprocessing\n"
               "start = time.perf_counter()\n"
               "try:\n"
               "    with warming(2):\n"
               "        alive = multiprocessing.active_children()\n"
               "        raise KeyboardInterrupt\n"
               "except KeyboardInterrupt:\n"
               "    pass\n"
               "print(len(alive), time.perf_counter() - start < 5, "
               "len(multiprocessing.active_children()))", tmp_path)
    assert out == ["1", "True", "0"]


def test_a_compiling_process_that_has_not_finished_never_holds_the_run_up(
        tmp_path: Path) -> None:
    out = _run("import time\n"
               "from winnow.matching import warm\n"
               "warm.warm = lambda: time.sleep(60)  # stuck, as on a lock taken at the fork\n"
               "start = time.perf_counter()\n"
               "with warm.warming(2):\n"
               "    pass\n"
               "print(time.perf_counter() - start < 5)", tmp_path)
    assert out == ["True"]
