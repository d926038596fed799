"""Worker processes that cost only their own files when they die, and die with their parent.

Both process pools (``compare``'s, in :mod:`winnow.matching.prints`, and the
index's, in :mod:`winnow.sif.build`) are :class:`WorkerPool` instances:

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
import os
import select
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Memory a worker may allocate beyond what it inherited from its parent.
WORKER_MEMORY_BYTES = 2 << 30

#: The reason given for a task whose worker died even when run alone.
WORKER_DIED = ("worker process died while reading this file (killed by the system, "
               "perhaps out of memory); skipped")

_PR_SET_PDEATHSIG = 1


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

    def _submit(self, func: Callable[[T], R], item: T) -> Future[R]:
        """``submit``, with a pool found broken meanwhile giving a failed future."""
        try:
            return self._pool.submit(func, item)
        except BrokenProcessPool as error:
            failed: Future[R] = Future()
            failed.set_exception(error)
            return failed

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
        yield from self._one_by_one(func, items[done:], lost)

    def _one_by_one(self, func: Callable[[T], R], items: Sequence[T],
                    lost: Callable[[T, str], R]) -> Iterator[R]:
        """Items one per task, at most ``workers`` in flight; after a death the
        unfinished ones in flight are run alone (:meth:`alone`)."""
        pending: deque[tuple[T, Future[R]]] = deque()
        ahead = iter(items)
        while True:
            for item in ahead:
                pending.append((item, self._submit(func, item)))
                if len(pending) >= self.workers:
                    break
            if not pending:
                return
            item, future = pending.popleft()
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
