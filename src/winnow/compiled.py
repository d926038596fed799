"""One way to compile the hot loops: numba, ahead of time when the install
built the kernels, else its nopython JIT, cached when possible.

Every compiled kernel in the package (engine, front-ends, sniffing, matching)
is decorated with :func:`jit`; the calls that take a kernel's several arrays
back run :func:`uninterrupted`.  Importing this module does not load numba,
so a caller that may never run a kernel can import it.

Ahead of time: installing winnow compiles the kernels, for the argument
types listed in ``kernel_signatures.json``, into one extension module
(:mod:`winnow._aot_build`, run by the build).  Where that module is present
and was built from the kernels' current sources, :func:`jit` gives a
:class:`Kernel` that calls the compiled function for those argument types
without loading numba at all (numba's import and its set-up took 0.5-1.0 s
of every run); other argument types, a missing or stale module, or
``WINNOW_KERNELS=jit`` in the environment fall back to the JIT, with the
same results.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: The environment variable that chooses how kernels run: ``jit`` for numba's
#: JIT even where the install compiled them ahead of time (anything else, or
#: nothing: ahead of time where possible).
KERNELS_ENV = "WINNOW_KERNELS"
#: The extension module of kernels compiled ahead of time, and its manifest
#: (what it exports, for which argument types, built from which sources).
AOT_MODULE = "_aot_kernels"
AOT_MANIFEST = Path(__file__).with_name(AOT_MODULE + ".json")


def jit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """The function compiled: a :class:`Kernel` where the install compiled
    the kernels ahead of time (numba is not loaded), else
    ``numba.njit(**options)`` (:func:`_njit`).  The result is typed ``Any``:
    both accept any argument types numba can compile for."""
    exports = _aot_exports()
    if exports is None:
        _load_numba()

        def decorate(func: Callable[..., Any]) -> Any:
            return _njit(func, options)

        return decorate

    def ahead(func: Callable[..., Any]) -> Any:
        return Kernel(func, options, exports.get(f"{func.__module__}:{func.__qualname__}", {}))

    return ahead


def _njit(func: Callable[..., Any], options: dict[str, Any]) -> Any:
    """``numba.njit(**options)(func)`` with the on-disk cache when one can be
    written.  Numba refuses to decorate a cached function when neither the
    package folder nor a user cache folder is writable (a read-only install,
    a user without a home); then the function is compiled in memory on each
    run instead of failing."""
    from numba import njit

    try:
        return njit(cache=True, **options)(func)
    except RuntimeError:
        return njit(cache=False, **options)(func)


class Kernel:
    """A kernel the install compiled ahead of time, for some argument types.

    Called with arguments whose numba types (:func:`type_key`) are among
    those compiled, it calls that compiled function: no numba.  Called with
    others (or keywords), it runs numba's JIT of the same function
    (:attr:`dispatcher`, made on first need), which loads numba then.  Numba
    sees a kernel as its dispatcher (``_numba_type_``, ``py_func``,
    ``targetoptions``), so a JIT-compiled kernel can call, or inline, another.
    """

    def __init__(self, func: Callable[..., Any], options: dict[str, Any],
                 compiled: dict[tuple[Any, ...], Callable[..., Any]]) -> None:
        self.py_func = func
        self.targetoptions = dict(options)
        self._compiled = compiled
        self._dispatcher: Any = None
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__module__ = func.__module__
        self.__doc__ = func.__doc__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not kwargs:
            compiled = self._compiled.get(tuple(map(type_key, args)))
            if compiled is not None:
                return compiled(*args)
        return self.dispatcher(*args, **kwargs)

    @property
    def dispatcher(self) -> Any:
        """Numba's JIT dispatcher of the function (numba loaded on first use)."""
        if self._dispatcher is None:
            _load_numba()
            self._dispatcher = _njit(self.py_func, self.targetoptions)
        return self._dispatcher

    @property
    def _numba_type_(self) -> Any:
        return self.dispatcher._numba_type_

    def __repr__(self) -> str:
        return f"<kernel {self.__module__}.{self.__qualname__} ({len(self._compiled)} compiled)>"


def type_key(value: Any) -> Any:
    """The numba type of an argument as :func:`_read_exports` keys the
    compiled functions: ``(dtype, ndim, layout, readonly)`` for an aligned
    array of booleans or numbers, the dtype for such a scalar; ``None`` for
    anything else (the JIT then types it).  It follows numba's dispatcher:
    a Python int is ``int64`` (one past its range is left to the JIT), a
    float ``float64``, a bool ``bool``; an array's layout is ``C`` when
    C-contiguous, else ``F`` when Fortran-contiguous, else ``A``.  Called for
    every argument of every call: a few attribute reads (the dtype objects
    compare and hash as their names would, a tenth of the time)."""
    if not _scalar_keys:
        _set_up_keys()
    kind = type(value)
    if kind is _ndarray or (_ndarray is not None and isinstance(value, _ndarray)):
        flags = value.flags.num
        if not flags & _ALIGNED or value.dtype.kind not in NUMERIC_KINDS:
            return None
        layout = "C" if flags & _C_CONTIGUOUS else "F" if flags & _F_CONTIGUOUS else "A"
        return (value.dtype, value.ndim, layout, not flags & _WRITEABLE)
    key = _scalar_keys.get(kind)
    if key is not None:
        return key
    if kind is int:  # numba's dispatcher types every Python int as int64
        return _scalar_keys[_INT64] if -(1 << 63) <= value < (1 << 63) else None
    return None


#: numpy's kinds of the dtypes :func:`type_key` keys: booleans, signed and
#: unsigned integers, floats.
NUMERIC_KINDS = "biuf"
#: numpy's array flag bits (``ndarray.flags.num``).
_C_CONTIGUOUS, _F_CONTIGUOUS, _ALIGNED, _WRITEABLE = 0x1, 0x2, 0x100, 0x400
_INT64 = "int64"
#: ``numpy.ndarray`` once numpy is imported (:func:`_set_up_keys`); the key of
#: each scalar type, by Python type, and of a Python int.
_ndarray: Any = None
_scalar_keys: dict[Any, Any] = {}


def _set_up_keys() -> None:
    global _ndarray
    import numpy as np

    _ndarray = np.ndarray
    _scalar_keys.update({bool: np.dtype(np.bool_), float: np.dtype(np.float64),
                         _INT64: np.dtype(np.int64)})
    for scalar in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                   np.uint32, np.uint64, np.float32, np.float64):
        _scalar_keys[scalar] = np.dtype(scalar)


#: The ahead-of-time exports, once read: ``{"module:qualname": {type keys: function}}``,
#: or ``None`` (none usable: the JIT for every kernel).
_exports: dict[str, dict[tuple[Any, ...], Callable[..., Any]]] | None = None
_exports_read = False
_exports_lock = threading.Lock()


def _aot_exports() -> dict[str, dict[tuple[Any, ...], Callable[..., Any]]] | None:
    global _exports, _exports_read
    if not _exports_read:
        with _exports_lock:
            if not _exports_read:
                with contextlib.suppress(Exception):  # any doubt: the JIT, the same results
                    _exports = _read_exports()
                _exports_read = True
    return _exports


def ahead_of_time() -> bool:
    """Whether the kernels run compiled ahead of time (where their argument
    types were compiled for) in this process."""
    return _aot_exports() is not None


#: numba's settings that change what a kernel does, which the compiled
#: module does not follow: set, the kernels run under the JIT.
NUMBA_SETTINGS = ("NUMBA_DISABLE_JIT", "NUMBA_BOUNDSCHECK")


def _read_exports() -> dict[str, dict[tuple[Any, ...], Callable[..., Any]]] | None:
    """The manifest's exports, if the environment allows (:data:`KERNELS_ENV`,
    :data:`NUMBA_SETTINGS`), the manifest is there, the module it names is
    the one Python imports and is unchanged, it was compiled for this CPU
    (:func:`cpu_signature`), and every source it was built from is unchanged
    (:func:`source_digest`): a few milliseconds, once a process."""
    if os.environ.get(KERNELS_ENV, "").strip().lower() == "jit" or not AOT_MANIFEST.is_file():
        return None
    if any(os.environ.get(name, "").strip() not in ("", "0") for name in NUMBA_SETTINGS):
        return None
    manifest = json.loads(AOT_MANIFEST.read_text(encoding="utf-8"))
    package = AOT_MANIFEST.parent
    if manifest["cpu"] != cpu_signature():
        return None
    for relative, digest in manifest["sources"].items():
        if source_digest(package / relative) != digest:
            return None
    module = importlib.import_module(f"{__package__}.{AOT_MODULE}")
    built = Path(str(module.__file__))
    if built.name != manifest["module"] or source_digest(built) != manifest["module_sha256"]:
        return None  # another build's module (another Python's, or an older one)
    _set_up_keys()
    return {kernel: {_as_key(args): getattr(module, name) for name, args in entries}
            for kernel, entries in manifest["exports"].items()}


def cpu_signature() -> str:
    """The machine's architecture and CPU features (on Linux, the flags of
    ``/proc/cpuinfo``), hashed: the module is compiled for the CPU it was
    built on, and used only on one that has the same features."""
    features = ""
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="ascii",
                                            errors="replace") as cpuinfo:
        for line in cpuinfo:
            if line.startswith(("flags", "Features")):
                features = " ".join(sorted(line.partition(":")[2].split()))
                break
    return hashlib.sha256(f"{os.uname().machine} {features}".encode()).hexdigest()[:16]


def source_digest(path: Path) -> str:
    """The SHA-256 of a source file's bytes (the manifest's stamp)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _as_key(args: list[Any]) -> tuple[Any, ...]:
    """A manifest's argument types as :func:`type_key` gives them: an array
    ``[dtype name, ndim, layout, readonly]``, a scalar its dtype's name."""
    import numpy as np

    return tuple((np.dtype(a[0]), a[1], a[2], a[3]) if isinstance(a, list) else np.dtype(a)
                 for a in args)


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
    changes but the time (``NUMBA_*`` environment variables apply to the JIT
    as always).
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
