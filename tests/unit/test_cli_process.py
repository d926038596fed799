"""How the ``winnow`` command sets up its process (``winnow.cli.main.run``):
the garbage collector off while a command's modules load, their objects
frozen out of its reach after (``_settle``); OpenBLAS without threads."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _run(code: str, env: dict[str, str] | None = None) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120, env=env)
    return done.stdout.split()


def test_a_command_runs_with_its_modules_frozen_and_the_collector_on() -> None:
    out = _run("import gc, click\n"
               "from winnow.cli.main import main\n"
               "gc.disable()\n"
               "before = gc.get_freeze_count()\n"
               "command = main.get_command(click.Context(main), 'compare')\n"
               "print(command.name, gc.isenabled(), gc.get_freeze_count() > before + 10000)")
    assert out == ["compare", "True", "True"]


def test_nothing_is_frozen_once_duckdb_is_loaded() -> None:
    # DuckDB's binding reports every object of its own still alive at exit
    out = _run("import gc, click, duckdb\n"
               "from winnow.cli.main import main\n"
               "gc.disable()\n"
               "before = gc.get_freeze_count()\n"
               "main.get_command(click.Context(main), 'index')\n"
               "print(gc.isenabled(), gc.get_freeze_count() == before)")
    assert out == ["True", "True"]


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("3", "3")])
def test_openblas_starts_no_threads_unless_the_user_says(given: str | None,
                                                         expected: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    out = _run("import os, sys\n"
               "from winnow.cli.main import run\n"
               "sys.argv = ['winnow', '--version']\n"
               "try:\n    run()\nexcept SystemExit:\n    pass\n"
               "print(os.environ['OPENBLAS_NUM_THREADS'], 'numpy' in sys.modules)", env)
    assert out[-2:] == [expected, "False"]
