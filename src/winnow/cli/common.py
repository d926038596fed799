"""Pieces shared by the commands: parameter options, output choice, errors."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from winnow.config import METHODS, WinnowConfig
from winnow.errors import InvalidConfig, WinnowError

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("table", "csv", "json", "jsonl")


def engine_options(func: F) -> F:
    """``-k``, ``-t``, ``--method`` and ``--seed``, named as in the paper."""
    options = [
        click.option("-k", "k", type=int, default=None,
                     help="Noise threshold: k-gram length in code units (default 50)."),
        click.option("-t", "t", type=int, default=None,
                     help="Guarantee threshold: matches this long are always found "
                          "(default k + 99, so the window w = t - k + 1 is 100)."),
        click.option("--method", type=click.Choice(METHODS), default="robust",
                     show_default=True, help="Fingerprint selection method."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Hash seed (every stored hash depends on it)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def build_config(k: int | None, t: int | None, method: str, seed: int) -> WinnowConfig:
    """Turn the engine options into a validated config, or a usage error."""
    k_value = 50 if k is None else k
    t_value = k_value + 99 if t is None else t
    try:
        return WinnowConfig(k=k_value, t=t_value, method=method, seed=seed)
    except InvalidConfig as error:
        raise click.UsageError("; ".join(error.problems)) from error


def format_option(default: str = "table") -> Callable[[F], F]:
    """``--format`` with the choices every result-printing command shares."""
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default=default,
                        show_default=True, help="Output format.")


def warn(message: str) -> None:
    """A warning on standard error, prefixed with the program name."""
    click.echo(f"winnow: warning: {message}", err=True)


def fail(error: WinnowError) -> None:
    """Report a library error on standard error."""
    click.echo(f"winnow: error: {error}", err=True)


def exit_with(code: int) -> None:
    """Leave with ``code`` after flushing the output."""
    sys.stdout.flush()
    raise SystemExit(code)
