"""Pieces shared by the commands: the command group (the one place that turns errors
into messages and exit codes), the output, warnings and records.

The options themselves are in :mod:`winnow.cli.options`; the exit codes and the
error classes in :mod:`winnow.errors`.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NoReturn, TextIO

import click

from winnow.cli.options import OUTPUT_KEY
from winnow.cli.vocabulary import renamed_args
from winnow.errors import EXIT_FAILED, EXIT_OK, OutputError, WinnowError
from winnow.outputs import atomic_text
from winnow.reports.table import safe


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
    """The command group: the one place where errors become messages and exit codes.

    Commands raise; they do not catch to report.  A :class:`WinnowError` leaves
    with its own ``exit_code`` (:mod:`winnow.errors`); an :class:`OSError`
    (typically ``-o FILE`` not writable: the message names it), a worker
    process that died (killed by the system, e.g. out of memory) and any other
    exception (a defect of winnow's: one line, the traceback with ``--debug``)
    with :data:`~winnow.errors.EXIT_FAILED`.  A reader that stops early
    (``winnow ... | head``, whichever command, ``--help`` included) ends the run
    quietly with
    :data:`~winnow.errors.EXIT_OK`: the reader had what it wanted, and the
    codes stay those of the table (a shell's 141 would fail ``set -o pipefail``
    scripts that only wanted the first lines).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(click.Option(
            ["--debug"], is_flag=True, expose_value=False, callback=_set_debug,
            help="Show the traceback of an internal error (otherwise one line, exit 3)."))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """The group's own options; ``--help`` and ``--version`` print here."""
        try:
            return super().parse_args(ctx, args)
        except BrokenPipeError:
            reader_gone()

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command and its arguments, old option spellings renamed
        (:func:`winnow.cli.vocabulary.renamed_args`)."""
        name, command, rest = super().resolve_command(ctx, args)
        return name, command, rest if name is None else renamed_args(name, rest)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            if sys.stdout is not None:  # a reader gone before the last write shows here
                sys.stdout.flush()
            return result
        except (click.exceptions.ClickException, click.exceptions.Exit,
                click.exceptions.Abort):
            raise
        except WinnowError as error:
            fail(error)
            exit_with(error.exit_code)
        except BrokenProcessPool:
            click.echo("winnow: error: a worker process died (killed by the system, "
                       "perhaps out of memory); try fewer workers with -j", err=True)
            exit_with(EXIT_FAILED)
        except BrokenPipeError:
            reader_gone()
        except OSError as error:
            where = error.filename if error.filename is not None \
                else ctx.meta.get(OUTPUT_KEY, "output")
            click.echo(f"winnow: error: {safe(str(where))}: {error.strerror or error}",
                       err=True)
            exit_with(EXIT_FAILED)
        except Exception as error:  # a defect: one line, the traceback on request
            stop = swallowed_stop(error)
            if stop is not None:
                raise stop from None
            internal_error(error, bool(ctx.meta.get(DEBUG_KEY)))


def swallowed_stop(error: BaseException) -> SystemExit | KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM exit behind ``error``, if any.

    A signal handler's exception raised while compiled code (a numba kernel,
    an extension) was running can come back wrapped: the function "returned a
    result with an exception set" (``SystemError``), the interrupt as its
    cause.  The run was stopped, not broken: it ends as the signal asks."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, (SystemExit, KeyboardInterrupt)):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def internal_error(error: Exception, debug: bool) -> NoReturn:
    """Report an unexpected exception in one line (with ``debug``, its traceback too)
    and leave with :data:`EXIT_FAILED`."""
    if debug:
        traceback.print_exception(error)
    detail = f"{type(error).__name__}: {error}"
    click.echo(f"winnow: error: internal error ({safe(detail)[:300]})"
               f"{'' if debug else '; rerun with --debug for the traceback'}", err=True)
    exit_with(EXIT_FAILED)


def reader_gone() -> NoReturn:
    """End the run quietly with :data:`EXIT_OK`: standard output's reader has gone."""
    quiet_stdout()
    raise SystemExit(EXIT_OK) from None


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
