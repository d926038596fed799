"""Running work in worker processes: one pool, one worker cap, one progress callback.

Every process pool of winnow (``compare``'s, made by :func:`make_pool`, and the
index's, started by :func:`start_pool`) is a :class:`WorkerPool`, at most
:data:`WORKERS_PER_CORE` workers per usable core (:func:`usable_cores`: the
cores this process may run on, CPU affinity included), whatever ``-j`` says.
Work advances through one :class:`Progress` callback,
``progress(stage, done, total)``.

A :class:`WorkerPool`'s workers cost only their own files when they die, and
die with their parent:

* every worker asks the kernel to kill it when its parent dies
  (``PR_SET_PDEATHSIG``, Linux), so a ``kill -9`` of winnow leaves no workers
  behind; and it exits at once if the parent is already gone.  A worker made
  by a fork server (whose parent is that server, which may outlive winnow)
  also watches winnow's process (a pidfd) and ends itself and the server
  when winnow is gone;
* every worker's data segment is capped (``RLIMIT_DATA``, Linux) at what it
  inherited plus :data:`WORKER_MEMORY_BYTES` (environment variable
  ``WINNOW_WORKER_MEMORY_MB``): an allocation past it raises ``MemoryError``
  in that worker (its file is skipped) instead of drawing the kernel's
  out-of-memory killer onto the machine;
* when a worker dies anyway (killed by the kernel or a signal), the pool is
  restarted, the tasks that were in flight are run again one at a time, each
  in a process of its own, and only a task that kills its process alone is
  lost: :meth:`WorkerPool.resilient_map` gives ``lost(item, reason)`` for it.
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import multiprocessing
import os
import select
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any, Protocol, TypeVar

from winnow.compiled import prepare_to_fork

T = TypeVar("T")
R = TypeVar("R")

#: Memory a worker may allocate beyond what it inherited from its parent.
WORKER_MEMORY_BYTES = 2 << 30

#: The reason given for a task whose worker died even when run alone.
WORKER_DIED = ("worker process died while reading this file (killed by the system, "
               "perhaps out of memory); skipped")

_PR_SET_PDEATHSIG = 1

#: The most worker processes per usable core a pool gets, whatever ``jobs`` says
#: (``-j 100000`` must not fork a process per file).
WORKERS_PER_CORE = 4


class Progress(Protocol):
    """``progress(stage, done, total)``: called as work advances, ``done`` of
    ``total`` units (files, pairs, bytes ...) of the named ``stage``."""

    def __call__(self, stage: str, done: int, total: int, /) -> None: ...


#: ``mapper(func, tasks, stage, progress)``: run the module-level ``func`` on
#: every picklable task somewhere else, results in order, ``progress(stage,
#: done, total)`` per task finished: a Ray cluster's, say
#: (:meth:`winnow.sharded.runners.RayRunner.map`).
Mapper = Callable[[Callable[[Any], Any], list[Any], str, "Progress | None"], list[Any]]


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def worker_count(jobs: int, tasks: int | None = None) -> int:
    """Workers for ``jobs`` (``0``: every usable core), at most ``tasks`` and at
    most :data:`WORKERS_PER_CORE` per usable core."""
    cores = usable_cores()
    workers = min(jobs if jobs > 0 else cores, WORKERS_PER_CORE * cores)
    return workers if tasks is None else min(workers, tasks)


def worker_memory_bytes() -> int:
    """:data:`WORKER_MEMORY_BYTES`, or ``WINNOW_WORKER_MEMORY_MB`` MiB when set (0 = no cap)."""
    raw = os.environ.get("WINNOW_WORKER_MEMORY_MB", "").strip()
    if raw.isdigit():
        return int(raw) << 20
    return WORKER_MEMORY_BYTES


def _data_size() -> int | None:
    """This process's data segment in bytes (``VmData``), or ``None`` where unknown."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def init_worker(parent: int | None, memory: int, watch: int | None = None) -> None:
    """Run first in every worker: die with the parent (``parent``: its pid when
    the worker was forked from it; ``watch``: the pid of winnow's process when
    a fork server stands between them), cap the memory (Linux only)."""
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent died before the request took effect
    if watch is not None:
        _watch(watch)
    import resource  # Unix only

    used = _data_size()
    if memory > 0 and used is not None:
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_DATA, (used + memory, used + memory))


#: Arrow's allocator for winnow's processes, read by Arrow when it loads.
ARROW_POOL_VARIABLE = "ARROW_DEFAULT_MEMORY_POOL"


def prefer_system_allocator() -> None:
    """Have Arrow, when it loads, allocate with the system allocator.

    Arrow's default allocator (mimalloc) keeps the pages a task frees: a
    stage-2 worker of the sharded engine grew by about 8 MiB with every
    window it read, back down only when its task ended.  With the system
    allocator and :func:`release_memory` between windows it stays flat, at
    the same speed.  Called by the packages that load Arrow (``winnow.sharded``,
    ``winnow.corpus``) before they do; a value the user set wins, and a process
    that loaded Arrow before keeps its allocator.  Worker processes (forked,
    or Ray's on this machine) inherit the setting.
    """
    os.environ.setdefault(ARROW_POOL_VARIABLE, "system")


#: Allocations from this size up are mapped from the system, and unmapped
#: when freed, in a process that called :func:`map_large_allocations`.
MMAP_THRESHOLD = 256 << 10

_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameters
_M_MMAP_MAX = -4  # how many blocks may be mapped apart (0: none, holding_freed_memory)
_DEFAULT_MMAP_MAX = 65536
_mapping = False  # map_large_allocations was called in this process (or its parent)


def map_large_allocations() -> None:
    """Have the C allocator map every array of :data:`MMAP_THRESHOLD` or more
    on its own, so that freeing it gives its memory back at once.

    By default glibc raises that threshold, up to 32 MB, each time such a
    block is freed; the arrays of a task's next steps then come from the
    heap, which fragments and is given back only in part: a stage-2 worker
    of the sharded engine that had counted 50 windows needed 30-40 MiB more
    for its next window than one that had counted 5.  Setting the threshold
    fixes it (glibc only; elsewhere nothing happens).  The cost is a page
    fault per page of each new large array.
    """
    global _mapping
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None)
            libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
            libc.mallopt(_M_MMAP_MAX, _DEFAULT_MMAP_MAX)  # inside holding_freed_memory too
            _mapping = True


def small_pages(array: Any) -> None:
    """Have the system back the whole pages of ``array`` (a numpy array not
    yet written) with small pages, where it can (Linux; elsewhere nothing
    happens).  numpy asks for transparent huge pages (2 MiB) for every array
    of 4 MiB or more, so that the first write anywhere in 2 MiB maps all of
    it: an array filled in thousands of places at once (the rows put in
    parts, :func:`winnow.corpus.fingerprints.records_by_part`) is then
    wholly in memory from its first writes instead of growing as it is
    filled."""
    _advise(array, 0, array.nbytes, getattr(mmap, "MADV_NOHUGEPAGE", None))


def drop_pages(array: Any, start: int, stop: int, *, shared: bool = False) -> None:
    """Give the system back the whole pages of ``array[start:stop]`` (a
    contiguous one-dimensional numpy array that owns its memory, or a view
    of one), which the caller will never read again: they read as zeros
    afterwards (Linux; elsewhere nothing happens).  Lets a pass that
    consumes a large array give it back as it goes rather than at its end
    (:func:`winnow.corpus.groups.shared_groups`).  An array that is not
    contiguous keeps its pages.  ``shared``: the array lies in a shared
    mapping (:func:`winnow.corpus.shared_rows.shared_rows`), whose pages go
    only when removed (``MADV_REMOVE``), not when dropped."""
    if not array.flags.c_contiguous:
        return
    size = array.itemsize
    advice = "MADV_REMOVE" if shared else "MADV_DONTNEED"
    _advise(array, start * size, min(stop, array.shape[0]) * size, getattr(mmap, advice, None))


def _advise(array: Any, first: int, last: int, advice: int | None) -> None:
    """``madvise`` the whole pages of bytes ``first:last`` of ``array``'s data."""
    if sys.platform != "linux" or advice is None or last <= first:
        return
    page = os.sysconf("SC_PAGE_SIZE")
    start = -(-(array.ctypes.data + first) // page) * page
    stop = (array.ctypes.data + last) // page * page
    if stop > start:
        with contextlib.suppress(OSError, AttributeError):
            madvise = ctypes.CDLL(None, use_errno=True).madvise
            madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
            madvise(start, stop - start, advice)


def release_memory() -> None:
    """Give the memory this process has freed back to the system: Arrow's
    pool's unused pages and the C allocator's free heap pages (glibc's
    ``malloc_trim``).  Called between the windows of a task, with
    :func:`map_large_allocations`, this keeps a worker at what one window
    needs, whatever it counted before."""
    if "pyarrow" in sys.modules:
        sys.modules["pyarrow"].default_memory_pool().release_unused()
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).malloc_trim(0)


#: glibc's trim threshold parameter and its default; what
#: :func:`reuse_freed_memory` sets the two thresholds to (the largest mmap
#: threshold glibc accepts).
_M_TRIM_THRESHOLD = -1
_DEFAULT_TRIM_THRESHOLD = 128 << 10
REUSE_MMAP_THRESHOLD = 32 << 20
REUSE_TRIM_THRESHOLD = 128 << 20
_reusing = False  # freed arrays kept for reuse now (reuse_freed_memory)


def _thresholds(mmap_threshold: int, trim_threshold: int) -> None:
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None)
            libc.mallopt(_M_MMAP_THRESHOLD, mmap_threshold)
            libc.mallopt(_M_TRIM_THRESHOLD, trim_threshold)


def reuse_freed_memory() -> None:
    """In a pool worker (a forked child): have the C allocator keep the
    arrays a task frees for its next steps, for the rest of the worker's life.
    A parent that maps its large arrays apart (:func:`map_large_allocations`)
    passes that on to the workers it forks: each 1 MiB batch of dedup's
    fingerprinting then got its tens of MB of arrays as new pages, faulted in
    and zeroed by the kernel (at 100,000 records of ``benchmarks/scale.py`` the
    run's system time fell from 1.2-1.3 s to 0.5-0.6 s with this).  For the
    workers of a pool that ends with its stage.  Nothing happens in the main
    process (:func:`reusing_freed_memory` is for it), where large arrays are
    not mapped apart, or off glibc."""
    global _reusing
    if _mapping and multiprocessing.parent_process() is not None:
        _thresholds(REUSE_MMAP_THRESHOLD, REUSE_TRIM_THRESHOLD)
        _reusing = True


@contextlib.contextmanager
def reusing_freed_memory() -> Iterator[None]:
    """:func:`reuse_freed_memory` for the block, in any process: the main
    process fingerprinting itself (``jobs`` 1), a worker of the sharded engines
    fingerprinting a shard or counting a window.  Then large arrays are
    mapped apart again (:func:`map_large_allocations`) and the freed heap given
    back (:func:`release_memory`), so that a long-lived worker starts its next
    window from what one window needs.  Inside such a block, in a worker
    that called :func:`reuse_freed_memory`, or in a process that does not map
    large arrays apart (a sharded run's caller with ``map_large_arrays``
    off: its allocator is left as it is), it changes nothing."""
    global _reusing
    if _reusing or not _mapping:
        yield
        return
    _thresholds(REUSE_MMAP_THRESHOLD, REUSE_TRIM_THRESHOLD)
    _reusing = True
    try:
        yield
    finally:
        _reusing = False
        _thresholds(MMAP_THRESHOLD, _DEFAULT_TRIM_THRESHOLD)
        map_large_allocations()
        release_memory()


@contextlib.contextmanager
def holding_freed_memory() -> Iterator[None]:
    """For the block, in this process: the C allocator takes every block from
    its heap, where what is freed is reused by the next allocations, instead
    of mapping each large array on its own and unmapping it when freed.

    Memory new to a process costs a page fault per page and the kernel's
    zeroing of it: the pair table of a 2,000-file class (sort buffers,
    groupings, pair sums, one after the other) spent 0.10-0.53 s of system
    time in a 0.6-1.1 s stage that way, 0.09-0.15 s with its arrays from the
    heap.  At the end the heap's free pages go back (:func:`release_memory`)
    and large arrays are mapped apart again.  Nothing happens in a process
    that maps its large arrays apart on purpose (:func:`map_large_allocations`,
    the sharded engines' bounded memory), or off glibc."""
    if _mapping or _reusing or sys.platform != "linux":
        yield
        return
    try:
        set_option = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        yield
        return
    set_option(_M_MMAP_MAX, 0)
    try:
        yield
    finally:
        set_option(_M_MMAP_MAX, _DEFAULT_MMAP_MAX)
        release_memory()


def _watch(pid: int) -> None:
    """End this worker and its fork server once process ``pid`` has exited."""
    try:
        handle = os.pidfd_open(pid)
    except (OSError, AttributeError):
        return  # gone already, or no pidfd (Linux < 5.3): PR_SET_PDEATHSIG only

    def wait_then_end() -> None:
        select.select([handle], [], [])
        server = os.getppid()
        if server not in (1, pid):
            with contextlib.suppress(OSError):
                os.kill(server, signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=wait_then_end, name="winnow-parent-watch", daemon=True).start()


def submit(executor: Executor, fn: Callable[..., R], /, *args: Any) -> Future[R]:
    """``executor.submit(fn, *args)``, a pool found broken meanwhile giving a failed
    future (settled with the others) rather than raising here."""
    try:
        return executor.submit(fn, *args)
    except BrokenProcessPool as error:
        failed: Future[R] = Future()
        failed.set_exception(error)
        return failed


class WorkerPool(Executor):
    """A :class:`ProcessPoolExecutor` of ``workers`` processes made by ``context``
    (workers set up by :func:`init_worker`) that can be restarted after a worker died."""

    def __init__(self, workers: int, context: BaseContext, *, direct: bool = True) -> None:
        self.workers = workers
        self._context = context
        #: forked straight from this process (else from a fork server: another parent)
        self._parent = os.getpid() if direct else None
        self._watch = None if direct else os.getpid()
        self._pool = self._make(workers)

    def _make(self, workers: int) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(workers, mp_context=self._context, initializer=init_worker,
                                   initargs=(self._parent, worker_memory_bytes(), self._watch))

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        return self._pool.submit(fn, *args, **kwargs)

    def map(self, fn: Callable[..., R], *iterables: Any, timeout: float | None = None,
            chunksize: int = 1) -> Iterator[R]:
        return self._pool.map(fn, *iterables, timeout=timeout, chunksize=chunksize)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def restart(self) -> None:
        """Replace the (broken) pool with a fresh one."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._make(self.workers)

    def alone(self, func: Callable[[T], R], item: T, lost: Callable[[T, str], R]) -> R:
        """``func(item)`` in a process of its own; ``lost(item, ...)`` if it dies."""
        single = self._make(1)
        try:
            return single.submit(func, item).result()
        except BrokenProcessPool:
            return lost(item, WORKER_DIED)
        finally:
            single.shutdown(wait=True, cancel_futures=True)

    def resilient_map(self, func: Callable[[T], R], items: Sequence[T], chunksize: int,
                      lost: Callable[[T, str], R]) -> Iterator[R]:
        """``map(func, items)`` in order; a worker's death costs only the item(s)
        that kill a process of their own (``lost(item, reason)`` stands for them)."""
        done = 0
        try:
            for result in self._pool.map(func, items, chunksize=chunksize):
                yield result
                done += 1
            return
        except BrokenProcessPool:
            self.restart()
        yield from self.one_by_one(func, items[done:], lost)

    def one_by_one(self, func: Callable[[T], R], items: Iterable[T],
                   lost: Callable[[T, str], R]) -> Iterator[R]:
        """``map(func, items)`` in order, items one per task, at most
        ``workers`` running, each item taken from ``items`` only when a
        worker is free for it (so another consumer of ``items`` may share
        them); after a death the unfinished ones in flight are run alone
        (:meth:`alone`)."""
        pending: deque[tuple[T, Future[R]]] = deque()
        ahead = iter(items)
        more = True
        while True:
            running = sum(1 for _, started in pending if not started.done())
            while more and running < self.workers:
                try:
                    item = next(ahead)
                except StopIteration:
                    more = False
                    break
                pending.append((item, submit(self._pool, func, item)))
                running += 1
            if not pending:
                return
            item, future = pending[0]
            if not future.done():  # a worker freed by another item takes the next one
                wait([started for _, started in pending if not started.done()],
                     return_when=FIRST_COMPLETED)
                continue
            pending.popleft()
            try:
                yield future.result()
                continue
            except BrokenProcessPool:
                suspects = [(item, future), *pending]
                pending.clear()
            self.restart()
            for suspect, started in suspects:
                if started.done() and started.exception() is None:
                    yield started.result()
                else:
                    yield self.alone(func, suspect, lost)


def make_pool(jobs: int, tasks: int, *, reserve: int = 0) -> Executor | None:
    """A pool of :func:`worker_count` workers for ``tasks`` tasks, or ``None``
    when one process is enough (``jobs == 1`` or fewer than two tasks).
    With ``reserve``, the caller works beside the pool as that many of the
    workers: the pool has that many fewer (``None`` when none is left), one
    worker included.

    On Linux the workers are forked, so they start at once and need no
    ``if __name__ == "__main__"`` guard in the caller's script; elsewhere they
    are spawned (the caller's script must then have that guard).  Workers start
    with their first task.
    """
    workers = worker_count(jobs, tasks) - reserve
    if workers < 1 or (workers == 1 and not reserve):
        return None
    method = "fork" if sys.platform == "linux" else "spawn"
    if method == "fork":
        prepare_to_fork()
    return WorkerPool(workers, multiprocessing.get_context(method), direct=True)


def _fork_is_quiet() -> bool:
    """Whether forking now is safe and silent.  Python 3.12+ warns when a process
    with several OS threads forks (numpy's BLAS pool counts), so there the fork
    server is used unless this process has a single thread."""
    if sys.version_info < (3, 12):
        return threading.active_count() == 1
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _noop(_: int) -> None:
    return None


def start_pool(jobs: int, *, fork: bool = True, preload: Sequence[str] = ()) -> WorkerPool:
    """A pool of :func:`worker_count` workers (``jobs`` 0: every usable core),
    every worker started now.

    Workers are forked from this process when that is safe (``fork`` and this
    process runs no other thread), so they inherit what it has loaded and
    compiled; else they come from a fork server that imports ``preload`` once.
    Pass ``fork=False`` when this process holds threads :mod:`threading` does
    not see (an open database): forked mid-work, they would deadlock.
    """
    workers = worker_count(jobs)
    safe = fork and _fork_is_quiet() and "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if safe else "forkserver")
    if not safe:
        context.set_forkserver_preload(list(preload))
    if safe:
        prepare_to_fork()
    pool = WorkerPool(workers, context, direct=safe)
    list(pool.map(_noop, range(workers)))
    return pool


def parallel_map(
    func: Callable[[T], R], items: Sequence[T], *, stage: str,
    progress: Progress | None, executor: Executor | None = None,
    lost: Callable[[T, str], R] | None = None, chunksize: int | None = None,
) -> Iterator[R]:
    """``map(func, items)`` in order, on ``executor`` if given (else here),
    calling ``progress(stage, done, total)`` after each item.  On a
    :class:`WorkerPool` with ``lost``, a worker that dies costs only the items
    that kill a process alone: ``lost(item, reason)`` stands for each.
    ``chunksize`` items go to a worker at a time (default: few, so that a
    few slow items even out; a caller with many small items sends more)."""
    total = len(items)
    size = chunksize or chunk_size(total, 16)
    results: Iterable[R]
    if isinstance(executor, WorkerPool) and lost is not None and total > 1:
        results = executor.resilient_map(func, items, size, lost)
    elif executor is not None and total > 1:
        results = executor.map(func, items, chunksize=size)
    else:
        results = map(func, items)
    for done, result in enumerate(results, 1):
        if progress is not None:
            progress(stage, done, total)
        yield result


def chunk_size(total: int, workers: int) -> int:
    """Items per task: about 8 tasks per worker, at most 64 items."""
    return max(1, min(64, total // (workers * 8) or 1))
