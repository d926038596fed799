"""The command-line options several commands share, declared once.

A command takes these decorators rather than declaring its own ``--format``,
``-o``, ``--db``, ``-j``, ``--threshold``, ``-m/--max-df``, engine or front-end
options, so one option means the same thing, with the same type and default,
everywhere.  Option sets that belong to one family of commands live in a
module of their own, never in a command's (commands do not import each other):
:mod:`winnow.cli.comparing` (``compare``, ``evaluate``),
:mod:`winnow.cli.indexing` (``index``, ``scan``, ``dircmp``),
:mod:`winnow.cli.grouping` (``groups``, ``scan``), :mod:`winnow.cli.sharding`
(the pair engine).  Old spellings of renamed options: :mod:`winnow.cli.vocabulary`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any, TypeVar

import click

from winnow.config import DEFAULT_METHOD, DEFAULT_SEED, METHODS, MaxDf, WinnowConfig, check_max_df
from winnow.errors import WinnowError
from winnow.frontends.options import DEFAULT_OPTIONS, FrontEndOptions

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


class MaxDfType(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2 on
    """``-m/--max-df``, one type in every command (:data:`winnow.config.MaxDf`):
    a count of documents (an integer >= 1), a share of them (a fraction
    ``0 < f < 1``, or a percentage such as ``30%``), or ``0`` for no cap."""

    name = "max_df"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "N|FRACTION"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> MaxDf:
        if isinstance(value, int | float) and not isinstance(value, bool):
            number: MaxDf = value
        else:
            text = str(value).strip()
            percent = text.endswith("%")
            try:
                number = float(text[:-1] if percent else text)
            except ValueError:
                self.fail(f"{value!r} is not a number (a count of documents such as 50, "
                          "a share such as 0.1 or 10%, or 0 for no cap)", param, ctx)
            if percent and not 0 < number <= 100:
                self.fail(f"{text} is not a percentage above 0% and at most 100%", param, ctx)
            if percent:
                number = 0 if number == 100 else number / 100.0
        if not math.isfinite(number) or check_max_df(number) is not None:
            self.fail(f"{value} is not 0, a count (an integer >= 1) or a share (0 < x < 1, "
                      "or a percentage)", param, ctx)
        return int(number) if number == int(number) else number


#: The parameter type of ``-m/--max-df`` (see :class:`MaxDfType`).
MAX_DF = MaxDfType()


def max_df_option(default: MaxDf | None, what: str,
                  shown: str | None = None) -> Callable[[F], F]:
    """``-m/--max-df``: ignore fingerprints found in more ``what`` than this
    (MOSS ``-m``), with the one type of :class:`MaxDfType`; a ``None`` default is
    the library's own rule, described by ``shown``."""
    return click.option(
        "-m", "--max-df", "max_df", type=MAX_DF, default=default,
        show_default=True if shown is None else shown,
        help=f"Ignore fingerprints found in more {what} than N (MOSS -m); a fraction "
             f"below 1 (or a percentage, 10%) is that share of the {what}, rounded up; "
             f"0 = no cap.")


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
                     default=DEFAULT_METHOD, show_default=True,
                     help="Fingerprint selection method."),
        anchor_option,
        click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
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
    """Turn the engine options into a validated config (or
    :class:`~winnow.errors.InvalidConfig`, a usage error)."""
    k_value, t_value = resolve_kt(k, t, defaults)
    return WinnowConfig(k=k_value, t=t_value, method=method, seed=seed,
                        anchors=anchors or None)


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


#: Help of ``--frontend-option``, the one spelling of the front-end switches.
FRONTEND_OPTION_HELP = (
    "A front-end option (repeatable): keep_case, keep_punctuation, keep_whitespace, "
    "keep_identifiers, keep_literals, notebook_markdown=true keep what the front-end "
    "normally drops; unit=words; lexical=false: the structural front-end's "
    "language-neutral tokens only, not followed by the lexer's.")


def frontend_option_flag(func: F) -> F:
    """``--frontend-option NAME=VALUE`` (repeatable), parsed by
    :func:`parse_frontend_options`."""
    return click.option("--frontend-option", "frontend_options", multiple=True,
                        metavar="NAME=VALUE", help=FRONTEND_OPTION_HELP)(func)


def frontend_options(func: F) -> F:
    """``--frontend``, ``--lang``, ``--unit`` and ``--frontend-option``."""
    from winnow.frontends import FRONTENDS  # the front-ends load numpy: only when used

    return _apply(func, [
        click.option("--frontend", type=click.Choice(["auto", *sorted(FRONTENDS)]),
                     default=None, callback=_auto_is_default,
                     help="Front-end (default, or auto: from the file name, #! line and "
                          "content)."),
        click.option("--lang", default=None, callback=_known_lang,
                     help="Source language for the code front-end (see `winnow languages`; "
                          "any Pygments alias also works)."),
        click.option("--unit", type=click.Choice(["chars", "words"]),
                     default=DEFAULT_OPTIONS.unit, show_default=True,
                     help="Text unit: characters or words."),
        frontend_option_flag,
    ])


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def frontend_option(item: str) -> tuple[str, Any]:
    """One ``--frontend-option NAME=VALUE``, typed by its :class:`FrontEndOptions`
    field: a switch takes exactly true/false (yes/no, on/off, 1/0), never "any
    non-empty text" (``keep_case=no`` must not mean true).  A usage error otherwise."""
    name, sep, value = (part.strip() for part in item.partition("="))
    if not sep:
        raise click.UsageError(f"--frontend-option wants NAME=VALUE, got {item!r}")
    types = {f.name: f.type for f in fields(FrontEndOptions)}
    if name not in types:
        raise click.UsageError(f"--frontend-option: no option {name!r}; choose from "
                               f"{', '.join(types)}")
    if types[name] not in (bool, "bool"):
        return name, value
    if value.lower() in _TRUE + _FALSE:
        return name, value.lower() in _TRUE
    raise click.UsageError(f"--frontend-option {name} wants true or false, got {value!r}")


def parse_frontend_options(items: tuple[str, ...]) -> dict[str, Any]:
    """The ``--frontend-option`` items as :class:`FrontEndOptions` fields, checked
    together (a usage error names the bad value)."""
    parsed = dict(frontend_option(item) for item in items)
    try:
        FrontEndOptions(**parsed)
    except (TypeError, ValueError) as error:
        raise click.UsageError(f"bad --frontend-option: {error}") from error
    return parsed


def build_frontend_options(unit: str, items: tuple[str, ...]) -> FrontEndOptions:
    """The :class:`FrontEndOptions` of ``--unit`` and ``--frontend-option``
    (an option's ``unit=`` wins over ``--unit``)."""
    return FrontEndOptions(**{"unit": "words" if unit == "words" else "chars",
                              **parse_frontend_options(items)})
