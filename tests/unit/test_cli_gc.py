"""The command's garbage collector: off while its modules load, their objects
frozen out of its reach after (``winnow.cli.main._settle``)."""

from __future__ import annotations

import subprocess
import sys


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
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
