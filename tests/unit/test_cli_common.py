"""Resolution of -k/-t against a front-end's defaults."""

from __future__ import annotations

import click
import pytest

from winnow.cli.common import build_config, resolve_kt


def test_missing_k_and_t_take_the_defaults() -> None:
    assert resolve_kt(None, None, (10, 13)) == (10, 13)


def test_k_alone_keeps_the_default_window() -> None:
    assert resolve_kt(20, None, (10, 13)) == (20, 23)


def test_explicit_values_win() -> None:
    assert resolve_kt(7, 9, (10, 13)) == (7, 9)
    assert resolve_kt(None, 30, (10, 13)) == (10, 30)


def test_bad_values_are_usage_errors() -> None:
    with pytest.raises(click.UsageError, match="t \\(guarantee threshold\\) must be >= k"):
        build_config(None, 5, "winnow", 0, defaults=(10, 13))
