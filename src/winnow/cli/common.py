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
                     help="Noise threshold: k-gram length in code units "
                          "(default: the front-end's, see `winnow.frontends.default_params`)."),
        click.option("-t", "t", type=int, default=None,
                     help="Guarantee threshold: matches this long are always found "
                          "(default: keeps the front-end's window w = t - k + 1)."),
        click.option("--method", type=click.Choice(METHODS), default="robust",
                     show_default=True, help="Fingerprint selection method."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Hash seed (every stored hash depends on it)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def resolve_kt(k: int | None, t: int | None, defaults: tuple[int, int]) -> tuple[int, int]:
    """``k`` and ``t`` from the options, missing ones from a front-end's defaults.

    A ``k`` given without ``t`` keeps the default window ``w = t - k + 1``.
    """
    default_k, default_t = defaults
    k_value = default_k if k is None else k
    return k_value, (k_value + default_t - default_k) if t is None else t


def build_config(k: int | None, t: int | None, method: str, seed: int,
                 *, defaults: tuple[int, int]) -> WinnowConfig:
    """Turn the engine options into a validated config, or a usage error."""
    k_value, t_value = resolve_kt(k, t, defaults)
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
