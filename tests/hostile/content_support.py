"""Shared pieces of the hostile-content suite: a class, a hostile student, runs.

The class is the bundled sample (examples/python/submissions: alice ... erin).
A hostile case adds a student ``mallory`` holding a copy of erin's file and the
hostile file(s); every case then checks the exit code, the message naming the
hostile file, and that every pair not involving mallory is exactly the pair of
a run without the hostile file (mallory holding only her copy: scores weigh
fingerprints by how many submissions hold them, so she stays in both runs).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from winnow.cli.main import main

SUBS = Path(__file__).resolve().parents[2] / "examples" / "python" / "submissions"
HOSTILE = "mallory"


def make_class(root: Path, hostile: dict[str, bytes] | None = None) -> Path:
    """The sample class copied under ``root/class``, plus ``mallory`` holding a copy
    of erin's file and the ``hostile`` files (name -> bytes) when given."""
    klass = root / "class"
    shutil.copytree(SUBS, klass)
    if hostile is not None:
        mallory = klass / HOSTILE
        mallory.mkdir()
        shutil.copy(SUBS / "erin" / "textstats.py", mallory / "textstats.py")
        for name, data in hostile.items():
            (mallory / name).parent.mkdir(parents=True, exist_ok=True)
            (mallory / name).write_bytes(data)
    return klass


def cli(*args: str) -> Result:
    """``winnow ARGS`` in this process (stderr kept apart)."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def compare_run(klass: Path, *extra: str) -> tuple[Result, dict[str, Any]]:
    """``winnow compare --each CLASS --format json`` and its parsed report."""
    result = cli("compare", "--each", str(klass), "-q", "-j", "1", "--format", "json", *extra)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return result, json.loads(result.stdout)


def others(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The pairs of ``report`` that do not involve mallory, named by student (the
    cluster number, which counts mallory's cluster too, left out)."""
    out = []
    for pair in report["pairs"]:
        a, b = (Path(pair["file_a"]).name, Path(pair["file_b"]).name)
        if HOSTILE not in (a, b):
            out.append({**{k: v for k, v in pair.items() if k != "cluster"},
                        "file_a": a, "file_b": b})
    assert out, "the class has pairs"
    return out


def baseline(root: Path, *extra: str) -> list[dict[str, Any]]:
    """The pairs of the class without the hostile file."""
    return others(compare_run(make_class(root / "plain", {}), *extra)[1])


def mallory_pairs(report: dict[str, Any]) -> list[dict[str, Any]]:
    """mallory's pairs (her copy of erin's file should pair her with erin)."""
    return [pair for pair in report["pairs"]
            if HOSTILE in (Path(pair["file_a"]).name, Path(pair["file_b"]).name)]
