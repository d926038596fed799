"""Corpora of real Python files for the speed benchmarks.

``stdlib_1000``: the 1000 standard-library files that the peers were timed on
(``/work/shared/peers/make_corpora.py``), copied into one flat folder so that
each file is one submission for every tool.

``python_pool``: every distinct ``.py`` file found on this machine under a few
roots (the Python standard library, the Google Cloud SDK, virtual
environments, Debian's dist-packages): deduplicated by path inside its package
and by content, empty files and files over 200 kB left out, generated API
clients and test folders skipped (they are near-copies of each other, and the
scaling benchmark wants "few pairs similar").  ``subset(pool, n)`` takes ``n``
of them evenly spaced in sorted order.  Deterministic on one machine.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

MAKE_CORPORA = Path("/work/shared/peers/make_corpora.py")
POOL_ROOTS = [
    Path(os.__file__).parent,  # the standard library (site-packages included)
    Path("/usr/lib/google-cloud-sdk"),
    Path(sys.prefix) / "lib",
    Path("/usr/lib/python3/dist-packages"),
    Path.home() / ".cache" / "winnow-peers",
]
SKIP_DIRS = {"__pycache__", "generated_clients", "apis", "test", "tests"}
MAX_BYTES = 200_000
_PACKAGE_PATH = re.compile(
    r"(?:site-packages|dist-packages|python3(?:\.\d+)?|google-cloud-sdk)/(.*)$")


def flat_name(relative: str) -> str:
    """``a/b/c.py`` -> ``a__b__c.py``: one flat, unique, readable name per file."""
    return relative.replace(os.sep, "__")


def flatten(src: Path, dst: Path) -> int:
    """Copy every file under ``src`` into ``dst`` (recreated) under its flat name."""
    if dst.exists():
        shutil.rmtree(dst)
    dst.mkdir(parents=True)
    count = 0
    for path in sorted(src.rglob("*")):
        if path.is_file():
            shutil.copyfile(path, dst / flat_name(str(path.relative_to(src))))
            count += 1
    return count


def stdlib_1000(workdir: Path, n: int = 1000) -> tuple[Path, Path]:
    """The peers' stdlib corpus (``make_corpora.py``), flattened; returns (flat, sample)."""
    sample, large = workdir / "sample", workdir / f"stdlib-{n}-tree"
    subprocess.run([sys.executable, str(MAKE_CORPORA), str(sample), str(large), str(n)],
                   check=True, stdout=subprocess.DEVNULL)
    flat = workdir / f"stdlib-{n}"
    flatten(large, flat)
    return flat, sample


def python_pool(roots: list[Path] | None = None) -> list[Path]:
    """Distinct real ``.py`` files on this machine, sorted by their package path."""
    seen_keys: set[str] = set()
    seen_digests: set[bytes] = set()
    found: list[tuple[str, Path]] = []
    for root in roots or POOL_ROOTS:
        for directory, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = Path(directory) / name
                match = _PACKAGE_PATH.search(str(path))
                key = match.group(1) if match else str(path)
                if key in seen_keys:
                    continue
                try:
                    data = path.read_bytes()
                except OSError:
                    continue
                digest = hashlib.sha1(data).digest()
                if not data or len(data) > MAX_BYTES or digest in seen_digests:
                    continue
                seen_keys.add(key)
                seen_digests.add(digest)
                found.append((key, path))
    return [path for _, path in sorted(found)]


def subset(pool: list[Path], n: int, dst: Path) -> tuple[int, int]:
    """Copy ``n`` files of ``pool``, evenly spaced, flat into ``dst``; (files, bytes)."""
    if n > len(pool):
        raise SystemExit(f"only {len(pool)} distinct .py files found, {n} asked")
    if dst.exists():
        shutil.rmtree(dst)
    dst.mkdir(parents=True)
    total = 0
    for i in range(n):
        path = pool[(i * len(pool)) // n]
        target = dst / f"{i:05d}__{path.name}"
        shutil.copyfile(path, target)
        total += target.stat().st_size
    return n, total
