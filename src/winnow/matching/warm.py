"""A first run's kernels compiled by two processes instead of one.

On an empty kernel cache (a fresh install), a comparison compiles some 70
functions one after the other in one process: the front-end's for the first
file, then the pair table's, then the passages' (22 s for the README's
sample on a 2-core machine, one core idle).  The table's and the passages'
kernels do not depend on the files read, so :func:`warming` forks a process
at the start that runs them on a few rows (:func:`warm`), which compiles
them into numba's on-disk cache while this process compiles the
front-end's; this process then loads them from the cache when it reaches
them, or compiles those the other has not finished (the same code either
way: only the time changes).  Nothing happens when the cache holds them.

When it holds them, :func:`preloading` loads them in a thread of this
process while the workers fingerprint (this process only waits for them
then), instead of one by one as the comparison reaches them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from winnow.compiled import ahead_of_time, uncached
from winnow.matching import _kernels, _score_kernels, _span_kernels
from winnow.matching.head import load_kernels
from winnow.matching.scores import pair_scores
from winnow.matching.table import build_table
from winnow.pairs import _kernels as _pair_kernels


def kernels() -> tuple[Any, ...]:
    """The kernels :func:`warm` compiles."""
    return (_kernels.hash_sorted, _kernels.group_rows,
            _pair_kernels.owner_plan, _pair_kernels.pair_sums, _kernels.extend_seeds,
            _kernels.claim_runs, _score_kernels.pair_ratios,
            _span_kernels.shared_hashes, _span_kernels.shared_extent,
            _span_kernels.literal_units, _span_kernels.position_order)


def warm() -> None:
    """Run the pair table's kernels, the scores' and the passages' once, on a
    few rows and with the argument types a comparison gives them."""
    hashes = np.array([5, 9, 5, 7, 9, 5], dtype=np.uint64)
    files = np.array([0, 0, 1, 1, 2, 2], dtype=np.int32)
    owner = np.arange(3, dtype=np.int64)
    table = build_table(hashes, files, owner, 3, cap=3, archive=np.zeros(3, dtype=bool),
                        own=np.ones(6, dtype=bool), many=2, many_is_base=False)
    pair_scores(table.counts, table.sizes, table.weight_totals, 3)
    load_kernels()


@contextlib.contextmanager
def warming(cores: int) -> Iterator[None]:
    """Within the block, a forked process compiles :func:`kernels` when the
    cache lacks any of them and ``cores`` (the run's usable cores) are two or
    more.  When the block ends it is stopped if it has not finished: this
    process has compiled what it needed by then, and a forked process must
    never hold it up (one stuck on a lock another thread held at the fork)."""
    if cores < 2 or not uncached(*kernels()) or \
            "fork" not in multiprocessing.get_all_start_methods():
        yield
        return
    process = multiprocessing.get_context("fork").Process(
        target=_compile, name="winnow-warm", daemon=True)
    process.start()
    try:
        yield
    finally:
        if process.is_alive():
            process.terminate()  # numba writes each cache entry whole (a rename)
        process.join()


def _compile() -> None:
    """The forked process: :func:`warm`, quietly (Ctrl-C is the parent's to
    handle, SIGTERM ends it at once whatever handler the parent had set; a
    failure only means the parent compiles the kernels itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(Exception):
        warm()


#: The thread of :func:`preloading` while it may run, set and cleared under
#: :data:`_starting` (two comparisons in threads of one process).
_loading: threading.Thread | None = None
_starting = threading.Lock()


def _wait_for_loading() -> None:
    """Before any fork of this process: the loading thread ends first, so
    that no child inherits a lock it holds (numba's compiler lock).  An
    exception raised here would be dropped and the fork go on, so a Ctrl-C
    meanwhile does not stop the wait: it is sent again once the thread is
    done (about 0.05 s), to be handled after the fork."""
    thread = _loading
    if thread is None or thread is threading.current_thread() or thread.ident is None:
        return
    interrupted = False
    while thread.is_alive():
        try:
            thread.join()
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        os.kill(os.getpid(), signal.SIGINT)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_wait_for_loading)


@contextlib.contextmanager
def preloading(cores: int) -> Iterator[Callable[[], None]]:
    """A block that gives a function starting a thread which loads
    :func:`kernels` from numba's cache (:func:`warm`), when the cache holds
    them all and ``cores`` (the run's usable cores) are two or more; the
    block ends when the thread is done.  Call the function once this
    process only waits (for its fingerprinting workers, once forked): the
    kernels took about 0.05 s to load one by one on the path of a
    comparison of 1000 files.  A fork meanwhile waits for the thread first;
    a block whose thread could not start (another block's runs, or the
    system has no thread to give) loads nothing, nor does one whose kernels
    were compiled ahead of time (:func:`winnow.compiled.ahead_of_time`)."""
    if cores < 2 or ahead_of_time() or uncached(*kernels()):
        yield _nothing
        return
    thread = threading.Thread(target=_load, name="winnow-preload", daemon=True)

    def start() -> None:
        global _loading
        with _starting:
            if _loading is not None or thread.ident is not None:
                return
            _loading = thread
            try:
                thread.start()
            except RuntimeError:  # no thread to be had: the kernels load as they are called
                _loading = None

    try:
        yield start
    finally:
        _finish(thread)


def _finish(thread: threading.Thread) -> None:
    """The end of a :func:`preloading` block: its thread joined, and no
    longer the one forks wait for, even if the join is interrupted."""
    global _loading
    try:
        if thread.ident is not None:
            thread.join()
    finally:
        with _starting:
            if _loading is thread:
                _loading = None


def _nothing() -> None:
    return None


def _load() -> None:
    """The thread of :func:`preloading`: a failure only means the comparison
    loads the kernels itself."""
    with contextlib.suppress(Exception):
        warm()


__all__ = ["kernels", "preloading", "warm", "warming"]
