"""Pieces shared by the commands: parameter options, output choice, errors."""

from __future__ import annotations

import csv
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NoReturn, TextIO, TypeVar

import click

from winnow.config import METHODS, WinnowConfig
from winnow.errors import InvalidConfig, OutputError, WinnowError
from winnow.outputs import atomic_text
from winnow.reports.table import safe

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("table", "csv", "json", "jsonl")

#: Exit codes shared by every command (documented in docs/cli.md):
#: 0 done; 1 some input could not be read or used (each named on standard
#: error, the rest is processed); 2 usage error (bad option or parameters,
#: parameters other than an index's, an output onto an input or the index);
#: 3 failed for a reason outside the input (output or report not writable,
#: index in use by another process) or an internal error (a defect).
EXIT_OK, EXIT_SKIPPED, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3


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


#: ``--anchor TEXT``: the strings of the ``anchors`` selection method (repeatable).
anchor_option = click.option(
    "--anchor", "anchors", multiple=True, metavar="TEXT",
    help="With --method anchors: fingerprint the k-gram at each occurrence of TEXT "
         "(repeatable; sif's anchors).")


def engine_options(func: F) -> F:
    """``-k``, ``-t``, ``--method`` (or ``--selection``), ``--anchor`` and
    ``--seed``, named as in the paper."""
    options = [
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
                 *, defaults: tuple[int, int], anchors: tuple[str, ...] = ()) -> WinnowConfig:
    """Turn the engine options into a validated config, or a usage error."""
    k_value, t_value = resolve_kt(k, t, defaults)
    try:
        return WinnowConfig(k=k_value, t=t_value, method=method, seed=seed,
                            anchors=anchors or None)
    except InvalidConfig as error:
        raise click.UsageError("; ".join(error.problems)) from error


def format_option(default: str = "table") -> Callable[[F], F]:
    """``--format`` with the choices every result-printing command shares."""
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default=default,
                        show_default=True, help="Output format.")


def output_option(func: F) -> F:
    """``-o/--output FILE``: where the result goes (default: standard output)."""
    return click.option("-o", "--output", "out_path",
                        type=click.Path(path_type=Path, readable=False),
                        default=None, metavar="FILE",
                        help="Write the result to FILE instead of standard output.")(func)


@contextmanager
def output(path: Path | None) -> Iterator[TextIO]:
    """``-o FILE`` opened for writing (UTF-8, no newline translation), or standard output.

    ``FILE`` is replaced only when the block ends without an exception (a
    temporary file beside it is renamed over it, :mod:`winnow.outputs`); check
    it with :func:`winnow.cli.outputs.check_outputs` before the work.
    """
    if path is None:
        if sys.stdout is None:
            raise OutputError("standard output", "closed (give -o FILE)")
        yield sys.stdout
        return
    with atomic_text(path) as handle:
        yield handle


def is_terminal(out: TextIO) -> bool:
    """Whether ``out`` is a terminal (where raw control characters would act)."""
    isatty = getattr(out, "isatty", None)
    return bool(isatty()) if callable(isatty) else False


def terminal_safe(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its strings escaped for a terminal (:func:`safe`)."""
    return {key: safe(value) if isinstance(value, str) else value
            for key, value in record.items()}


def write_records(records: Iterable[dict[str, Any]], fmt: str, out: TextIO,
                  fields: list[str]) -> None:
    """Write flat records as ``csv`` (header ``fields``), ``json`` (one list) or ``jsonl``.

    CSV written to a terminal has its control characters escaped like the
    tables (a file name with terminal escapes must not act); to a file or
    pipe it is written as is.  JSON escapes them by itself.
    """
    if fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=fields)
        writer.writeheader()
        writer.writerows(map(terminal_safe, records) if is_terminal(out) else records)
    elif fmt == "jsonl":
        for record in records:
            out.write(json.dumps(record) + "\n")
    elif fmt == "json":
        out.write(json.dumps(list(records), indent=2) + "\n")
    else:
        raise ValueError(f"write_records: no {fmt!r} format")


def warn(message: str) -> None:
    """A warning on standard error, prefixed with the program name; control
    characters (terminal escapes in file names) are shown escaped."""
    click.echo(f"winnow: warning: {safe(message)}", err=True)


def fail(error: WinnowError) -> None:
    """Report a library error on standard error (control characters escaped)."""
    click.echo(f"winnow: error: {safe(str(error))}", err=True)


def _set_debug(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    ctx.meta[DEBUG_KEY] = value


#: Where ``--debug`` is kept (``click.Context.meta``, shared by every sub-context).
DEBUG_KEY = "winnow.debug"


class WinnowGroup(click.Group):
    """The command group, turning errors no command handled into messages and exit codes.

    A :class:`WinnowError` leaves with its ``exit_code``; an :class:`OSError`
    (typically ``-o FILE`` not writable), a worker process that died (killed
    by the system, e.g. out of memory) and any other exception (a defect of
    winnow's: one line, the traceback with ``--debug``) with :data:`EXIT_FAILED`.
    A reader that stops early (``winnow ... | head``) ends the run quietly.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(click.Option(
            ["--debug"], is_flag=True, expose_value=False, callback=_set_debug,
            help="Show the traceback of an internal error (otherwise one line, exit 3)."))

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except WinnowError as error:
            fail(error)
            exit_with(error.exit_code)
        except BrokenProcessPool:
            click.echo("winnow: error: a worker process died (killed by the system, "
                       "perhaps out of memory); try fewer workers with -j", err=True)
            exit_with(EXIT_FAILED)
        except BrokenPipeError:
            quiet_stdout()
            raise SystemExit(EXIT_OK) from None
        except OSError as error:
            where = error.filename if error.filename is not None else "output"
            click.echo(f"winnow: error: {safe(str(where))}: {error.strerror or error}",
                       err=True)
            exit_with(EXIT_FAILED)
        except (click.exceptions.ClickException, click.exceptions.Exit,
                click.exceptions.Abort):
            raise
        except Exception as error:  # a defect: one line, the traceback on request
            internal_error(error, bool(ctx.meta.get(DEBUG_KEY)))


def internal_error(error: Exception, debug: bool) -> NoReturn:
    """Report an unexpected exception in one line (with ``debug``, its traceback too)
    and leave with :data:`EXIT_FAILED`."""
    if debug:
        traceback.print_exception(error)
    detail = f"{type(error).__name__}: {error}"
    click.echo(f"winnow: error: internal error ({safe(detail)[:300]})"
               f"{'' if debug else '; rerun with --debug for the traceback'}", err=True)
    exit_with(EXIT_FAILED)


def quiet_stdout() -> None:
    """Point standard output at /dev/null (after a broken pipe, so that flushing
    at exit cannot fail again)."""
    with suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def exit_with(code: int) -> NoReturn:
    """Leave with ``code`` after flushing the output (a closed or broken standard
    output is not an error at this point: what it lost was reported)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        quiet_stdout()
    raise SystemExit(code)
