"""Fixtures shared by more than one test folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    """A real local Ray cluster of 2 CPUs on loopback, for one test module
    (skipped where Ray, the ``ray`` extra, is not installed)."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             _node_ip_address="127.0.0.1")
    try:
        yield
    finally:
        ray.shutdown()
