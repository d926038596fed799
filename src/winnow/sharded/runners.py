"""Where the stages' tasks run: a local process pool, or Ray.

Both run the same module-level task functions (:mod:`winnow.sharded.prints`,
:mod:`~winnow.sharded.pairs`, :mod:`~winnow.sharded.merge`) on picklable task
descriptions and collect their results in order; the tasks talk only
through the working folder.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from winnow.errors import MissingExtra
from winnow.parallel import Progress, make_pool, map_large_allocations, parallel_map
from winnow.sharded.plan import ShardPlan

T = TypeVar("T")
R = TypeVar("R")


class Runner(Protocol):
    def map(self, func: Callable[[T], R], tasks: Sequence[T], stage: str,
            progress: Progress | None) -> list[R]: ...

    def close(self) -> None: ...


def in_worker(func: Callable[[T], R], task: T) -> R:
    """``func(task)`` in a worker process of the run, whose C allocator first
    gives large arrays back when they are freed
    (:func:`winnow.parallel.map_large_allocations`, a setting the process
    keeps): never run in the caller's own process, whose allocator is left
    as it is."""
    map_large_allocations()
    return func(task)


class LocalRunner:
    """Tasks in a pool of ``jobs`` forked workers (``0`` = every usable core)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def map(self, func: Callable[[T], R], tasks: Sequence[T], stage: str,
            progress: Progress | None) -> list[R]:
        pool = make_pool(self.jobs, len(tasks))
        work = func if pool is None else functools.partial(in_worker, func)
        try:
            return list(parallel_map(work, tasks, stage=stage, progress=progress,
                                     executor=pool))
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)

    def close(self) -> None:
        return None


class RayRunner:
    """Tasks as Ray tasks on the cluster at ``address`` (``None``: the one this
    process already joined, or a new local one of ``jobs`` CPUs)."""

    def __init__(self, address: str | None, jobs: int, option: str = "--pair-engine ray"
                 ) -> None:
        try:
            import ray
        except ImportError as exc:  # the extra is not installed: ``option`` needs it
            raise MissingExtra.of("ray", option) from exc
        self.ray: Any = ray
        self.started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {"address": address, "log_to_driver": False,
                                       "include_dashboard": False}
            if address is None:
                options["num_cpus"] = jobs or None
            ray.init(**options)
            self.started = True

    def map(self, func: Callable[[T], R], tasks: Sequence[T], stage: str,
            progress: Progress | None) -> list[R]:
        remote = self.ray.remote(max_retries=2)(in_worker)
        refs = [remote.remote(func, task) for task in tasks]
        waiting = list(refs)
        while waiting:
            _, waiting = self.ray.wait(waiting, num_returns=1)
            if progress is not None:
                progress(stage, len(refs) - len(waiting), len(refs))
        results: list[R] = self.ray.get(refs)
        return results

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def make_runner(plan: ShardPlan) -> Runner:
    jobs = 0 if plan.jobs is None else plan.jobs
    if plan.engine == "ray":
        return RayRunner(plan.ray_address, jobs)
    return LocalRunner(jobs)
