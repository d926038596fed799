"""``-j`` is capped: a huge value must not fork thousands of processes."""

from __future__ import annotations

import os
from typing import Any

import pytest

import winnow.parallel as parallel
import winnow.sif.build as build
from winnow.parallel import WORKERS_PER_CORE, make_pool, usable_cores, worker_count


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def test_compare_pool_is_capped() -> None:
    pool = make_pool(100_000, 100_000)  # workers start lazily: nothing is forked here
    assert pool is not None
    try:
        assert pool.workers <= WORKERS_PER_CORE * _cores()  # type: ignore[attr-defined]
    finally:
        pool.shutdown()


def test_index_pool_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class Recording:
        def __init__(self, workers: int, context: Any, **_: Any) -> None:
            started.append(workers)

        def map(self, func: Any, items: Any) -> list[Any]:
            return [func(item) for item in items]

    monkeypatch.setattr(parallel, "WorkerPool", Recording)
    build.fingerprint_pool(100_000)
    assert started == [min(100_000, WORKERS_PER_CORE * _cores())]


def test_the_core_count_honours_cpu_affinity(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process pinned to one core (``taskset -c 0``) gets one core's workers,
    however many the machine has."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert usable_cores() == 1
    assert worker_count(0) == 1 and worker_count(3) == 3
    assert worker_count(100) == WORKERS_PER_CORE
    assert worker_count(0, tasks=0) == 0 and make_pool(0, 100) is None


def test_a_reserved_worker_is_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``reserve``, the caller counts as workers of its own: the pool is
    smaller by as many, a pool of one included, and none when none is left."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert make_pool(1, 100, reserve=1) is None and make_pool(2, 1, reserve=1) is None
    assert make_pool(2, 100) is not None  # two workers
    for jobs, expected in ((2, 1), (3, 2)):
        pool = make_pool(jobs, 100, reserve=1)
        assert pool is not None
        try:
            assert pool.workers == expected  # type: ignore[attr-defined]
        finally:
            pool.shutdown()


def _double(x: int) -> int:
    return 2 * x


def test_one_by_one_takes_each_item_when_a_worker_is_free() -> None:
    """Items are drawn from the iterable one at a time, as workers free up, so
    another consumer (compare's own process) can share the iterable."""
    pool = make_pool(2, 100, reserve=1)  # one worker
    assert isinstance(pool, parallel.WorkerPool)
    drawn: list[int] = []

    def items() -> Any:
        for x in range(6):
            drawn.append(x)
            yield x

    try:
        results = pool.one_by_one(_double, items(), lambda item, reason: -1)
        assert next(results) == 0 and drawn == [0, 1]  # the free worker took the next
        assert list(results) == [2, 4, 6, 8, 10] and drawn == list(range(6))
    finally:
        pool.shutdown()


def _double_unless_two(x: int) -> int:
    if x == 2:
        os._exit(1)  # the worker dies, as one killed by the system would
    return 2 * x


def test_one_by_one_stands_in_for_an_item_that_kills_its_worker() -> None:
    pool = make_pool(3, 100, reserve=1)  # two workers
    assert isinstance(pool, parallel.WorkerPool)
    try:
        lost: list[tuple[int, str]] = []
        results = pool.one_by_one(_double_unless_two, iter(range(6)),
                                  lambda item, reason: lost.append((item, reason)) or -1)
        assert list(results) == [0, 2, -1, 6, 8, 10]  # in order, the others all done
        assert lost == [(2, parallel.WORKER_DIED)]
    finally:
        pool.shutdown()


def test_many_small_items_go_to_the_workers_in_larger_chunks() -> None:
    from winnow.parallel import chunk_size

    assert chunk_size(1000, 2) == 62  # about 8 tasks for each of two workers
    assert chunk_size(5000, 2) == 64  # never more than 64 items at a time
    assert chunk_size(1000, 16) == 7 and chunk_size(100, 16) == 1  # the default's reckoning
    assert chunk_size(3, 2) == 1


def test_parallel_map_sends_the_chunks_it_is_given() -> None:
    sizes: list[int] = []

    class Recording(parallel.Executor):
        def map(self, fn: Any, *iterables: Any, timeout: float | None = None,
                chunksize: int = 1) -> Any:
            sizes.append(chunksize)
            return map(fn, *iterables)

    items = list(range(300))
    assert list(parallel.parallel_map(abs, items, stage="s", progress=None,
                                      executor=Recording(), chunksize=40)) == items
    assert list(parallel.parallel_map(abs, items, stage="s", progress=None,
                                      executor=Recording())) == items
    assert sizes == [40, 2]
