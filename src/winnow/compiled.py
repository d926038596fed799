"""One way to compile the hot loops: numba's nopython JIT, cached when possible.

Every compiled kernel in the package (engine, front-ends, sniffing, matching)
is decorated with :func:`jit`; the calls that take a kernel's several arrays
back run :func:`uninterrupted`.  Importing this module does not load numba
(the kernel modules do, as they decorate), so a caller that may never run a
kernel can import it.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


def jit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(**options)`` with the on-disk cache when one can be written.

    Numba refuses to decorate a cached function when neither the package
    folder nor a user cache folder is writable (a read-only install, a user
    without a home); then the function is compiled in memory on each run
    instead of failing.  The compiled function is typed ``Any``: numba
    dispatchers accept any argument types they can compile for.
    """

    _load_numba()
    from numba import njit

    def decorate(func: Callable[..., Any]) -> Any:
        try:
            kernel = njit(cache=True, **options)(func)
        except RuntimeError:
            kernel = njit(cache=False, **options)(func)
        return kernel

    return decorate


#: Whether numba may load without scipy (:func:`without_blas`).
_blas_free = False


def without_blas() -> None:
    """Let numba, when this process first loads it, skip its look for scipy.

    Numba's array math checks, as numba loads it, whether scipy's BLAS can be
    imported (for ``np.dot`` and ``np.linalg`` inside kernels).  With scipy
    installed, that imports ``scipy.linalg``: 0.1 s and 16 MiB of every run.
    No kernel of winnow calls BLAS, so a process that runs only winnow (the
    ``winnow`` command calls this first) loads the array math while
    ``scipy.linalg`` is hidden from the import system; numba then records
    that it has no BLAS, and ``scipy.linalg`` stays importable.  A library
    caller's process is left alone: its own kernels may need numba's BLAS.
    The array math is then loaded when the first kernel is defined rather
    than when one first runs (a command that never runs one pays 0.04 s),
    and numba without pyyaml where it would have nothing to read with it
    (:func:`_load_numba`).
    """
    global _blas_free
    _blas_free = True


#: The file numba reads its settings from, in the folder it runs in; the
#: only thing it imports pyyaml for.
NUMBA_CONFIG_FILE = ".numba_config.yaml"


def _load_numba() -> None:
    """Import numba, with its array math loaded as :func:`without_blas` says.

    In such a process, numba is also imported with pyyaml hidden when there
    is no :data:`NUMBA_CONFIG_FILE` in the current folder: numba imports
    pyyaml at once (0.02 s) only to read that file; without it, nothing
    changes but the time (``NUMBA_*`` environment variables apply as always).
    And with scipy hidden: numba imports it (0.01 s) only to check that its
    version is at least 1.0, which matters to the BLAS calls no kernel of
    winnow makes.  Both stay importable afterwards.
    """
    if not _blas_free or "numba.np.arraymath" in sys.modules:
        return
    hidden = []
    if "numba" not in sys.modules:
        if "yaml" not in sys.modules and not os.path.isfile(NUMBA_CONFIG_FILE):
            hidden.append("yaml")
        if "scipy" not in sys.modules:
            hidden.append("scipy")
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # its import fails
    try:
        import numba  # noqa: F401  (its array math imports the rest first)
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]

    if "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # its import fails
    try:
        with contextlib.suppress(Exception):  # numba's layout: speed only, never fatal
            importlib.import_module("numba.np.arraymath")
    finally:
        if "scipy.linalg" in sys.modules and sys.modules["scipy.linalg"] is None:
            del sys.modules["scipy.linalg"]


def prepare_to_fork() -> None:
    """Set up numba's compiler target in this process, when numba is loaded,
    so that workers forked next inherit it.

    A process's first kernel call (even one loaded from the on-disk cache)
    first sets up that target: about 0.3 s of CPU, once per process.  Done in
    the parent before its workers are forked, it is paid once; done after,
    every worker pays it again while the parent waits (two workers and the
    parent: 0.3 s of a 4.7 s ``compare -n 0`` of 2,000 files).  Nothing
    happens when numba is not loaded, or if its layout has changed.
    """
    if "numba" not in sys.modules:
        return
    with contextlib.suppress(Exception):  # numba's internals: speed only, never fatal
        from numba.core.registry import cpu_target

        cpu_target.target_context.refresh()


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
STOPS = (signal.SIGINT, signal.SIGTERM)
#: Signals that arrived inside :func:`uninterrupted` blocks, not yet handled.
_held: list[int] = []


def _raw_signal_functions() -> tuple[Callable[[int], Any], Callable[[int, Any], Any]]:
    """``getsignal`` and ``signal`` of the C module under :mod:`signal`: the
    same calls, without the conversion of handlers to enums and back, which
    costs more than the ``sigaction`` itself (a ``ValueError`` raised and
    caught for every handler that is a function: 21 us a block, 3 us raw)."""
    try:
        raw = importlib.import_module("_signal")
        return raw.getsignal, raw.signal
    except (ImportError, AttributeError):  # another Python: the public ones
        return signal.getsignal, signal.signal


_getsignal, _setsignal = _raw_signal_functions()


def _hold(signum: int, frame: object) -> None:
    _held.append(signum)


@contextmanager
def uninterrupted() -> Iterator[None]:
    """Keep Python's Ctrl-C and SIGTERM handlers from running inside the block;
    a signal that arrives meanwhile is handled as the block ends.

    A Python signal handler runs where the interpreter next checks for
    signals, which can be inside numba's conversion of a kernel's results to
    Python objects: the exception it raises (``KeyboardInterrupt``, the
    ``SystemExit`` of a SIGTERM handler) then comes back wrapped in a
    ``SystemError``, or, for a kernel that returns several arrays, crashes
    the process (a segmentation fault in 1 of 5 runs stopped with SIGTERM
    while fingerprinting).  So the block runs with handlers that only note
    the signal, and the real one is called once the block is over, where
    raising is safe.  (Blocking the signal would not do: another thread, a
    pool's or a library's, takes it, and the main thread still runs the
    handler at its next check.)  A signal with the default action (SIGTERM
    without a handler) still ends the process at once: no Python code runs.
    Four ``sigaction`` calls: use it around calls of a millisecond or more.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # handlers run in the main thread only; nothing to hold here
        return
    saved: dict[int, Callable[[int, Any], Any]] = {}
    for stop in STOPS:
        handler = _getsignal(stop)
        if callable(handler) and handler is not _hold:
            saved[stop] = handler
            _setsignal(stop, _hold)
    try:
        yield
    finally:
        for held_signal, handler in saved.items():
            _setsignal(held_signal, handler)
        arrived = [number for number in _held if number in saved]
        _held[:] = [number for number in _held if number not in saved]
        if arrived:
            saved[arrived[0]](arrived[0], None)
