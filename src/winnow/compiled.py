"""One way to compile the hot loops: numba's nopython JIT, cached when possible.

Every compiled kernel in the package (engine, front-ends, sniffing, matching)
is decorated with :func:`jit`.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from numba import njit


def jit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(**options)`` with the on-disk cache when one can be written.

    Numba refuses to decorate a cached function when neither the package
    folder nor a user cache folder is writable (a read-only install, a user
    without a home); then the function is compiled in memory on each run
    instead of failing.  The compiled function is typed ``Any``: numba
    dispatchers accept any argument types they can compile for.
    """

    def decorate(func: Callable[..., Any]) -> Any:
        try:
            kernel = njit(cache=True, **options)(func)
        except RuntimeError:
            kernel = njit(cache=False, **options)(func)
        return kernel

    return decorate


def uncached(*kernels: Any) -> int:
    """How many of ``kernels`` have nothing in the on-disk cache yet: a first
    run compiles them (seconds each), later runs load them."""
    missing = 0
    for kernel in kernels:
        try:
            index = kernel._cache._cache_file._index_path  # numba's cache layout
        except AttributeError:  # no cache (read-only install) or another layout
            continue
        missing += not os.path.exists(index)
    return missing


#: The signals a run ends on by raising an exception in its main thread.
STOPS = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back from this thread while the block runs.

    A Python signal handler runs where the interpreter next checks for
    signals, which can be inside numba's conversion of a kernel's results to
    Python objects: the exception it raises (``KeyboardInterrupt``, the
    ``SystemExit`` of a SIGTERM handler) then comes back wrapped in a
    ``SystemError``, or, for a kernel that returns several arrays, crashes
    the process (a segmentation fault in 1 of 5 runs stopped with SIGTERM
    while fingerprinting).  Blocked during the call, the signal waits and
    arrives just after it, where raising is safe.  Two system calls: use it
    around calls of a millisecond or more, not in per-item loops.
    """
    if threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "pthread_sigmask"):
        yield  # signals are handled by the main thread only; Windows has no masks
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
