"""``-j`` is capped: a huge value must not fork thousands of processes."""

from __future__ import annotations

import os
from typing import Any

import pytest

import winnow.sif.build as build
from winnow.matching.prints import WORKERS_PER_CORE, make_pool


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

    monkeypatch.setattr(build, "WorkerPool", Recording)
    build.fingerprint_pool(100_000)
    assert started == [min(100_000, build.WORKERS_PER_CORE * _cores())]
