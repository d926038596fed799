"""Measurement history: one ``<benchmark>.results.md`` beside each benchmark script.

Each file is a title, a few lines saying what an entry holds, then one ``## `` entry
per recorded run, **newest first**: :func:`record` inserts a new entry above the
others.  The documentation gives the current figures with their command; dates,
loads, earlier code and abandoned attempts live here.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def results_path(benchmark: str) -> Path:
    """``benchmarks/<benchmark>.results.md`` (``benchmark`` is the script's stem)."""
    return HERE / f"{benchmark}.results.md"


def commit() -> str:
    """The checked-out commit, ``-dirty`` when the tree has changes (``?`` outside git)."""
    done = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=HERE,
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or "?"


def stamp() -> str:
    """Now, to the minute, in UTC."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def record(benchmark: str, title: str, body: str) -> Path:
    """Insert ``## title`` and ``body`` above the newest entry of the benchmark's file.

    A missing file is started with a title line; the text before the first ``## ``
    heading (title and description) stays on top.
    """
    path = results_path(benchmark)
    text = (path.read_text(encoding="utf-8") if path.exists()
            else f"# benchmarks/{benchmark}.py results\n\nNewest first.\n")
    entry = f"## {title}\n\n{body.strip()}\n\n"
    at = text.find("\n## ")
    head, rest = (text, "") if at < 0 else (text[:at + 1], text[at + 1:])
    text = head.rstrip("\n") + "\n\n" + entry + rest
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    return path
