"""The ``winnow`` command group: a thin skin over the library.

Each command lives in its own module and is registered here.  Errors become
messages and exit codes in one place, :class:`winnow.cli.common.WinnowGroup`;
nothing here does real work.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import sys
import threading
from typing import Any

import click

from winnow import __version__
from winnow.cli.common import WinnowGroup
from winnow.compiled import without_blas

#: Every command: its module and object, and its one-line help, so that
#: ``winnow --help`` lists them without importing any (a command's module
#: loads numpy, numba and its front-ends only when it runs).
COMMANDS: dict[str, tuple[str, str]] = {
    "fingerprint": ("winnow.cli.fingerprint:fingerprint_command",
                    "Print the fingerprints selected for each FILE, with positions, lines "
                    "and density."),
    "compare": ("winnow.cli.compare:compare_command",
                "Compare submissions all against all and rank the suspicious pairs."),
    "evaluate": ("winnow.cli.evaluate:evaluate_command",
                 "Score the ranking of `winnow compare` against labelled pairs."),
    "tokens": ("winnow.cli.tokens:tokens_command",
               "Show each FILE's normalised stream beside the original text."),
    "languages": ("winnow.cli.languages:languages_command",
                  "List the code front-end's languages, their file extensions and backend."),
    "index": ("winnow.cli.index:index_command",
              "Index the files under PATHS into one database file (sif's index)."),
    "query": ("winnow.cli.query:query_command",
              "List the indexed files similar to each FILE, best first."),
    "groups": ("winnow.cli.groups:groups_command",
               "Print groups of identical files, then groups of similar files (sif's layout)."),
    "scan": ("winnow.cli.scan:scan_command",
             "Find identical and similar files under PATHS in one command (index + groups)."),
    "dircmp": ("winnow.cli.dircmp:dircmp_command",
               "Compare DIR_A and DIR_B by content: identical, renamed, copied, modified, "
               "similar, only on one side, and an overall similarity for the two folders."),
    "dedup-files": ("winnow.cli.dedup_files:dedup_files_command",
                    "List the exact duplicates in the index (the files under PATHS, if "
                    "given) with the bytes they take, or replace them by hard links or "
                    "delete them."),
    "dedup": ("winnow.cli.dedup:dedup_command",
              "Cluster the near-duplicate records of DATA, and the records contained in "
              "others: JSON Lines files (plain, .gz, .bz2, .xz or .zst), Parquet files "
              "and folders of text files (each file a record)."),
    "contamination": ("winnow.cli.contamination:contamination_command",
                      "Find the evaluation items of EVAL in a training corpus: the longest "
                      "shared span, coverage and locations of each item."),
    "experiments": ("winnow.cli.experiments:experiments_command",
                    "Reproduce the winnowing and sif papers' experiments and write a report."),
    "serve": ("winnow.cli.serve:serve_command",
              "Run a self-hosted MOSS: MOSS clients submit, reports are served over HTTP."),
}


def load_command(name: str) -> click.Command:
    """The command ``name`` of :data:`COMMANDS`, importing its module."""
    module, attribute = COMMANDS[name][0].split(":")
    command: click.Command = getattr(importlib.import_module(module), attribute)
    return command


class LazyGroup(WinnowGroup):
    """The group, importing a command's module only when that command runs
    (``commands`` itself imports them all, for the reference and tests)."""

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        return {**{name: load_command(name) for name in COMMANDS}, **self._extra}

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._extra = dict(value)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*COMMANDS, *self._extra])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            command = load_command(cmd_name)
            _settle()
            return command
        return self._extra.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=text).get_short_help_str(limit))
                for name, (_, text) in sorted(COMMANDS.items())]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="winnow")
def main(**_: Any) -> None:
    """Find copied and similar content: winnowing (MOSS) and sif in one tool."""


def _settle() -> None:
    """After a command's modules are loaded: the objects they made (numba's
    alone are hundreds of thousands, none of them garbage) are frozen out of
    the garbage collector's reach (``gc.freeze``, unless DuckDB is loaded:
    see :func:`run`), and the collector, off while they loaded, runs again.
    Its full collections searched them all: 0.03 s during the imports, 0.05 s
    while the workers fingerprinted 2,000 files, each finding nothing."""
    if "duckdb" not in sys.modules:
        gc.freeze()
    gc.enable()


def run() -> None:
    """The ``winnow`` program (the console script and ``python -m winnow``):
    :func:`main`, with the objects alive at its end frozen (``gc.freeze``) so
    that the interpreter's exit does not search them for garbage cycles; with
    numba loaded that search took 0.05-0.15 s of every run.  Not when DuckDB
    was loaded: its binding (nanobind) checks at exit that its objects were
    freed, and prints a "leaked" report for every one the freeze kept.
    Numba loads without looking for scipy (:func:`winnow.compiled.without_blas`);
    the garbage collector waits until the command's modules are loaded
    (:func:`_settle`).  Nothing winnow does calls BLAS, so numpy's OpenBLAS
    starts no threads of its own (``OPENBLAS_NUM_THREADS=1`` unless set):
    each one it starts spins for a tenth of a second of CPU as numpy loads,
    on the cores the workers need."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads
    without_blas()
    gc.disable()
    try:
        main()
    except SystemExit as done:
        _exit_now(done.code)  # returns where the interpreter must end as usual
        raise
    finally:
        if "duckdb" not in sys.modules:
            gc.freeze()


#: Modules whose objects must be finalised by the interpreter's own exit:
#: DuckDB closes its databases, Ray its cluster connection.
_FINALISED_AT_EXIT = ("duckdb", "ray")


def _exit_now(code: object) -> None:
    """End the process with ``code`` once the standard streams are flushed
    and the :mod:`atexit` handlers have run (worker pools, temporary
    folders, logging), without the interpreter's teardown: freeing every
    module and object one by one took 0.04-0.05 s after a ``compare`` of
    2,000 files, about 2 % of the run, with nothing left to write.

    Returns, so that the interpreter ends as usual, when that teardown may
    matter: a module of :data:`_FINALISED_AT_EXIT` is loaded, a thread other
    than a daemon is still running (the usual exit waits for it), the code
    is not a number, or a standard stream cannot be flushed (the usual exit
    reports it)."""
    if code is not None and not isinstance(code, int):
        return
    if any(name in sys.modules for name in _FINALISED_AT_EXIT):
        return
    main_thread = threading.main_thread()
    if any(t is not main_thread and not t.daemon and t.is_alive()
           for t in threading.enumerate()):
        return
    if not _flushed():
        return
    atexit._run_exitfuncs()  # each handler once: the usual exit would find none left
    os._exit((code or 0) if _flushed() else 120)  # 120: Python's code for an unflushed stream


def _flushed() -> bool:
    """Whether standard output and error could be flushed."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True
