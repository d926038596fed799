"""The command-line options several commands share, declared once.

A command takes these decorators rather than declaring its own ``--format``,
``-o``, ``--db``, ``-j``, ``--threshold``, engine or front-end options, so one
option means the same thing, with the same type and default, everywhere.
Option sets that belong to one family of commands stay with it
(``compare_options`` in :mod:`winnow.cli.compare`, the index parameters in
:mod:`winnow.cli.index`, the grouping options in :mod:`winnow.cli.groups`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from winnow.config import METHODS, WinnowConfig
from winnow.errors import InvalidConfig, WinnowError
from winnow.frontends import FrontEndOptions

F = TypeVar("F", bound=Callable[..., Any])

#: The output formats of every result-printing command.
FORMATS = ("table", "csv", "json", "jsonl")

#: The index file the sif commands use when ``--db`` is not given.
DEFAULT_DB = "winnow.db"

#: Where the ``-o`` path is kept (``click.Context.meta``), so that the command
#: group can name it in the message of a failed write.
OUTPUT_KEY = "winnow.output"


def _apply(func: F, options: list[Callable[[F], F]]) -> F:
    for option in reversed(options):
        func = option(func)
    return func


class Fraction(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2 on
    """A threshold or share, as a fraction from 0 to 1: the one unit of every
    winnow option (``0.25`` is 25 %).

    A percent sign states the other unit explicitly (``25%`` is read as 0.25);
    a bare number above 1 is refused with the fraction it probably meant, so
    a percentage is never silently read as a fraction nor the reverse.
    """

    name = "fraction"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "FRACTION"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, float):
            return value
        text = str(value).strip()
        percent = text.endswith("%")
        try:
            number = float(text[:-1] if percent else text)
        except ValueError:
            self.fail(f"{value!r} is not a number (a fraction from 0 to 1, e.g. 0.5)",
                      param, ctx)
        if percent:
            number /= 100.0
        if not 0.0 <= number <= 1.0:  # also refuses nan
            hint = (f"; did you mean {number / 100:g} ({number:g}%)?"
                    if not percent and 1.0 < number <= 100.0 else "")
            self.fail(f"{text} is not a fraction from 0 to 1 (thresholds are fractions: "
                      f"0.5 = 50%){hint}", param, ctx)
        return number


#: The parameter type of every threshold option (see :class:`Fraction`).
FRACTION = Fraction()


def format_option(default: str = "table", *, result: str | None = None) -> Callable[[F], F]:
    """``--format``: the formats registered for the command's ``result`` type
    (``module.Class``) in :data:`winnow.reports.writers.WRITERS`, so a format
    added there reaches the command line; :data:`FORMATS` without one."""
    from winnow.reports.writers import WRITERS

    choices = FORMATS if result is None else tuple(WRITERS[result])
    return click.option("--format", "fmt", type=click.Choice(choices), default=default,
                        show_default=True, help="Output format.")


def _remember_output(ctx: click.Context, param: click.Parameter,
                     value: Path | None) -> Path | None:
    if value is not None:
        ctx.meta[OUTPUT_KEY] = value
    return value


def output_option(name: str = "out_path") -> Callable[[F], F]:
    """``-o/--output FILE``: where the result goes (default: standard output),
    passed to the command as ``name``."""
    return click.option("-o", "--output", name,
                        type=click.Path(path_type=Path, readable=False),
                        default=None, metavar="FILE", callback=_remember_output,
                        help="Write the result to FILE instead of standard output.")


def db_option(default: str | None = DEFAULT_DB,
              help: str = "The index database file.") -> Callable[[F], F]:
    """``--db FILE``: the index (``default`` ``None``: a temporary one)."""
    return click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
                        default=None if default is None else Path(default),
                        show_default=default is not None, help=help)


def jobs_option(help: str = "Worker processes (0 = all cores).") -> Callable[[F], F]:
    """``-j/--jobs N``: how many processes do the work; 0 means one per core."""
    return click.option("-j", "--jobs", type=click.IntRange(0), default=0,
                        show_default=True, help=help)


def threshold_option(help: str, default: float = 0.5) -> Callable[[F], F]:
    """``--threshold FRACTION`` (see :class:`Fraction`)."""
    return click.option("--threshold", type=FRACTION, default=default, show_default=True,
                        help=help)


#: ``--anchor TEXT``: the strings of the ``anchors`` selection method (repeatable).
anchor_option = click.option(
    "--anchor", "anchors", multiple=True, metavar="TEXT",
    help="With --method anchors: fingerprint the k-gram at each occurrence of TEXT "
         "(repeatable; sif's anchors).")


def engine_options(func: F) -> F:
    """``-k``, ``-t``, ``--method`` (or ``--selection``), ``--anchor`` and
    ``--seed``, named as in the paper."""
    return _apply(func, [
        click.option("-k", "k", type=int, default=None,
                     help="Noise threshold: k-gram length in code units "
                          "(default: the front-end's, see `winnow.frontends.default_params`)."),
        click.option("-t", "t", type=int, default=None,
                     help="Guarantee threshold: matches this long are always found "
                          "(default: keeps the front-end's window w = t - k + 1)."),
        click.option("--method", "--selection", "method", type=click.Choice(METHODS),
                     default="robust", show_default=True,
                     help="Fingerprint selection method."),
        anchor_option,
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Hash seed (every stored hash depends on it)."),
    ])


def resolve_kt(k: int | None, t: int | None, defaults: tuple[int, int]) -> tuple[int, int]:
    """``k`` and ``t`` from the options, missing ones from a front-end's defaults.

    A ``k`` given without ``t`` keeps the default window ``w = t - k + 1``.
    """
    default_k, default_t = defaults
    k_value = default_k if k is None else k
    return k_value, (k_value + default_t - default_k) if t is None else t


def build_config(k: int | None, t: int | None, method: str, seed: int,
                 *, defaults: tuple[int, int], anchors: tuple[str, ...] = ()) -> WinnowConfig:
    """Turn the engine options into a validated config, or a usage error."""
    k_value, t_value = resolve_kt(k, t, defaults)
    try:
        return WinnowConfig(k=k_value, t=t_value, method=method, seed=seed,
                            anchors=anchors or None)
    except InvalidConfig as error:
        raise click.UsageError("; ".join(error.problems)) from error


def _known_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--lang`` checked once, up front: an unknown language is a usage error (exit 2)."""
    from winnow.frontends import is_text_lang
    from winnow.frontends.code import resolve_language

    if value is not None and not is_text_lang(value):
        try:
            resolve_language("", b"", value)
        except WinnowError as error:
            raise click.BadParameter(str(error)) from error
    return value


def _auto_is_default(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--frontend auto`` (as ``index`` takes it) is the default: chosen per file."""
    return None if value == "auto" else value


def frontend_options(func: F) -> F:
    """``--frontend``, ``--lang``, ``--unit`` and the keep-switches."""
    from winnow.frontends import FRONTENDS  # the front-ends load numpy: only when used

    return _apply(func, [
        click.option("--frontend", type=click.Choice(["auto", *sorted(FRONTENDS)]),
                     default=None, callback=_auto_is_default,
                     help="Front-end (default, or auto: from the file name, #! line and "
                          "content)."),
        click.option("--lang", default=None, callback=_known_lang,
                     help="Source language for the code front-end (see `winnow languages`; "
                          "any Pygments alias also works)."),
        click.option("--unit", type=click.Choice(["chars", "words"]), default="chars",
                     show_default=True, help="Text unit: characters or words."),
        click.option("--keep", "keep", multiple=True,
                     type=click.Choice(["case", "punctuation", "whitespace", "identifiers",
                                        "literals", "markdown"]),
                     help="Keep what the front-end normally drops (repeatable)."),
    ])


def build_frontend_options(unit: str, keep: tuple[str, ...]) -> FrontEndOptions:
    """The :class:`FrontEndOptions` for the shared command-line options."""
    return FrontEndOptions(
        unit="words" if unit == "words" else "chars",
        keep_case="case" in keep, keep_punctuation="punctuation" in keep,
        keep_whitespace="whitespace" in keep, keep_identifiers="identifiers" in keep,
        keep_literals="literals" in keep, notebook_markdown="markdown" in keep,
    )
