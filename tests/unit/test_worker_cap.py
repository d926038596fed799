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
