"""How the ``winnow`` command sets up its process (``winnow.cli.main.run``):
the garbage collector off while a command's modules load, their objects
frozen out of its reach after (``_settle``); OpenBLAS without threads; the
process ended without the interpreter's teardown where nothing needs it."""

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


def test_dedup_loads_without_the_comparison() -> None:
    # the comparison's modules cost every `winnow dedup` run 15-30 ms for nothing
    out = _run("import sys, click\n"
               "from winnow.cli.main import main\n"
               "main.get_command(click.Context(main), 'dedup')\n"
               "print('winnow.corpus' in sys.modules, 'winnow.matching' in sys.modules)")
    assert out == ["True", "False"]


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("3", "3")])
def test_openblas_starts_no_threads_unless_the_user_says(given: str | None,
                                                         expected: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    out = _run("import atexit, os, sys\n"
               "from winnow.cli.main import run\n"
               "atexit.register(lambda: print(os.environ['OPENBLAS_NUM_THREADS'],\n"
               "                              'numpy' in sys.modules))\n"
               "sys.argv = ['winnow', '--version']\n"
               "run()\n", env)
    assert out[-2:] == [expected, "False"]


def _exit_of(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=120)


#: A command that ends with a usage error (exit code 2), its output
#: buffered (a pipe), an exit handler, and code after ``run`` that the usual
#: exit (``SystemExit`` caught) would reach; ``released`` is set there.
_ENDING = ("import atexit, sys, threading\n"
           "from winnow.cli.main import run\n"
           "released = threading.Event()\n"
           "{before}"
           "atexit.register(lambda: print('handler', flush=True))\n"
           "print('buffered')\n"
           "sys.argv = ['winnow', 'compare', '/no/such/folder']\n"
           "try:\n    run()\nexcept SystemExit as done:\n    print('usual', done.code)\n"
           "    released.set()\n")


def test_a_command_ends_at_once_after_flushing_and_the_exit_handlers() -> None:
    done = _exit_of(_ENDING.format(before=""))
    assert done.returncode == 2
    assert done.stdout.split() == ["buffered", "handler"]  # each once; "usual" never reached
    assert "no such file or folder" in done.stderr


def test_a_running_thread_or_duckdb_gets_the_usual_exit() -> None:
    waiting = ("threading.Thread(target=lambda: (released.wait(60), print('thread', flush=True)))"
               ".start()\n")
    done = _exit_of(_ENDING.format(before=waiting))
    assert done.returncode == 0
    assert done.stdout.split() == ["buffered", "usual", "2", "thread", "handler"]
    done = _exit_of(_ENDING.format(before="import duckdb\n"))
    assert done.returncode == 0
    assert done.stdout.split() == ["buffered", "usual", "2", "handler"]
