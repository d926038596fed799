"""Resolution of -k/-t against a front-end's defaults."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import click
import pytest
from click.testing import CliRunner

from winnow.cli.common import WinnowGroup
from winnow.cli.options import build_config, resolve_kt
from winnow.errors import EXIT_FAILED, InvalidConfig


def test_missing_k_and_t_take_the_defaults() -> None:
    assert resolve_kt(None, None, (10, 13)) == (10, 13)


def test_k_alone_keeps_the_default_window() -> None:
    assert resolve_kt(20, None, (10, 13)) == (20, 23)


def test_explicit_values_win() -> None:
    assert resolve_kt(7, 9, (10, 13)) == (7, 9)
    assert resolve_kt(None, 30, (10, 13)) == (10, 30)


def test_bad_values_are_usage_errors() -> None:
    with pytest.raises(InvalidConfig, match="t \\(guarantee threshold\\) must be >= k"):
        build_config(None, 5, "winnow", 0, defaults=(10, 13))


def _die() -> None:
    os._exit(1)  # a worker killed mid-task, as by the out-of-memory killer


def test_a_dead_worker_is_a_message_and_exit_3_not_a_traceback() -> None:
    @click.group(cls=WinnowGroup)
    def group() -> None:
        pass

    @group.command()
    def work() -> None:
        with ProcessPoolExecutor(max_workers=1) as pool:
            pool.submit(_die).result(timeout=60)

    result = CliRunner().invoke(group, ["work"])
    assert result.exit_code == EXIT_FAILED
    assert "a worker process died" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
