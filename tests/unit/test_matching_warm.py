"""A first run's table and passages kernels compiled by a second process
(``winnow.matching.warm``), each case in a process of its own with an empty
kernel cache, under numba's JIT (``WINNOW_KERNELS=jit``: kernels compiled
ahead of time have nothing to compile or load)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _jit(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's preloading as under the JIT, whatever the install built."""
    from winnow.matching import warm

    monkeypatch.setattr(warm, "ahead_of_time", lambda: False)


def _run(code: str, cache: Path) -> list[str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), WINNOW_KERNELS="jit")
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


# --- preloading: the cached kernels loaded by a thread while the workers run ---

def test_preloading_loads_every_kernel_in_a_thread_once_started() -> None:
    from winnow.compiled import uncached
    from winnow.matching import warm

    warm.warm()  # the cache holds them (as after any earlier run)
    assert uncached(*warm.kernels()) == 0
    loaded: list[str] = []
    real = warm.warm
    try:
        warm.warm = lambda: loaded.append(threading.current_thread().name)  # type: ignore[assignment]
        with warm.preloading(2) as start:
            assert loaded == []  # nothing before the caller says so
            start()
            start()  # once only
        assert loaded == ["winnow-preload"]  # in its thread, done when the block ends
        assert warm._loading is None
        with warm.preloading(1) as start:  # one core: nothing to overlap
            start()
        assert loaded == ["winnow-preload"]
    finally:
        warm.warm = real  # type: ignore[assignment]


def test_kernels_compiled_ahead_of_time_are_not_preloaded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from winnow.matching import warm

    monkeypatch.setattr(warm, "ahead_of_time", lambda: True)
    loaded: list[str] = []
    monkeypatch.setattr(warm, "warm", lambda: loaded.append("loaded"))
    with warm.preloading(2) as start:
        start()
    assert loaded == [] and warm._loading is None


def test_an_uncached_kernel_leaves_the_loading_to_the_comparison(tmp_path: Path) -> None:
    out = _run("import threading\n"
               "from winnow.matching.warm import preloading\n"
               "with preloading(2) as start:\n"
               "    start()\n"
               "    names = [t.name for t in threading.enumerate()]\n"
               "print('winnow-preload' in names)", tmp_path)
    assert out == ["False"]


def test_a_fork_waits_for_the_loading_thread() -> None:
    from winnow.matching import warm

    release = threading.Event()
    thread = threading.Thread(target=release.wait, args=(5,), name="winnow-preload")
    thread.start()
    warm._loading = thread
    try:
        threading.Timer(0.2, release.set).start()
        warm._wait_for_loading()  # as os.fork calls it first
        assert not thread.is_alive()
    finally:
        release.set()
        warm._loading = None


def test_fingerprinting_says_when_its_workers_are_forked(tmp_path: Path) -> None:
    import multiprocessing

    from winnow.matching.batch import Batch, Run
    from winnow.matching.options import CompareOptions, default_configs
    from winnow.parallel import make_pool
    from winnow.sources.submissions import load_submissions

    for i in range(6):
        source = f"def f{i}(x):\n    return [x * {i} for _ in range(9)]\n"
        (tmp_path / f"s{i}.py").write_text(source)
    subs = load_submissions([str(tmp_path)], each=True)
    config, defaults = default_configs(subs)
    seen: list[int] = []

    def started() -> None:
        seen.append(len(multiprocessing.active_children()))

    # once, with both workers forked; never without a pool, nor for two files
    # (the second is fingerprinted here: no worker is forked at all)
    for jobs, chosen, expected, forked in ((2, subs, [2], 2), (1, subs, [], 0),
                                           (2, subs[:2], [], 0)):
        seen.clear()
        batch = Batch(chosen, [])
        batch.set_configs(config, CompareOptions(), defaults)
        run = Run(None, make_pool(jobs, len(batch.files)), jobs)
        try:
            batch.fingerprint(CompareOptions(), run, started=started)
            assert len(multiprocessing.active_children()) == forked
        finally:
            run.close()
        assert seen == expected
        assert all(p is not None and p.hashes.shape[0] for p in batch.prints)


def test_blocks_started_at_once_in_threads_load_once() -> None:
    from winnow.matching import warm

    warm.warm()
    release, barrier = threading.Event(), threading.Barrier(4)
    runs: list[str] = []
    real = warm.warm

    def comparison() -> None:
        with warm.preloading(2) as start:
            barrier.wait()
            start()
            barrier.wait()  # every block has tried to start before any ends
            if threading.current_thread().name == "c0":
                release.set()

    def slow() -> None:
        runs.append(threading.current_thread().name)
        release.wait(5)

    try:
        warm.warm = slow  # type: ignore[assignment]
        threads = [threading.Thread(target=comparison, name=f"c{i}") for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert runs == ["winnow-preload"]  # one thread loads, the other blocks load nothing
        assert warm._loading is None
    finally:
        release.set()
        warm.warm = real  # type: ignore[assignment]


def test_a_ctrl_c_while_a_fork_waits_comes_back_after_the_wait(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    from winnow.matching import warm

    class Loading:  # a loading thread whose first join is interrupted
        ident, joins = 1, 0

        def is_alive(self) -> bool:
            return self.joins < 2

        def join(self) -> None:
            self.joins += 1
            if self.joins == 1:
                raise KeyboardInterrupt

    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(warm.os, "kill", lambda pid, number: sent.append((pid, number)))
    loading = Loading()
    monkeypatch.setattr(warm, "_loading", loading)
    warm._wait_for_loading()  # as os.fork calls it: raising there would be dropped
    assert loading.joins == 2  # the wait went on to the end
    assert sent == [(os.getpid(), signal.SIGINT)]  # and the Ctrl-C is sent again


def test_a_second_block_leaves_the_first_ones_thread_watched() -> None:
    from winnow.matching import warm

    warm.warm()
    release = threading.Event()
    real = warm.warm
    try:
        warm.warm = lambda: release.wait(5)  # type: ignore[assignment]
        with warm.preloading(2) as start:
            start()
            first = warm._loading
            with warm.preloading(2) as other:
                other()  # another comparison's block, meanwhile: loads nothing
            assert warm._loading is first  # a fork still waits for the first thread
            release.set()
        assert warm._loading is None
    finally:
        release.set()
        warm.warm = real  # type: ignore[assignment]
