"""How the sif walk scales with the depth of a folder tree.

Builds chains of nested folders (``d/d/d/...``, a small Python file every 100
levels) of each ``--depths`` value in a temporary folder, through directory
descriptors (no long path is ever used to build or remove them), then times:

* ``walk()`` of :mod:`winnow.sources.walk` alone (in this process);
* ``winnow index -q -j 1`` of the tree into a fresh index (a new process);
* ``winnow compare -q -j 1`` of the tree (the same walker, the submissions' policy), for a ratio.

A walk linear in depth keeps ``walk s / depth`` flat.  Prints one line per depth;
``--record`` also adds them, with the load average, at the top of
``benchmarks/sif_walk.results.md``.

Usage: ``python benchmarks/sif_walk.py [--depths 500 1000 2000] [--record]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from winnow.sources.walk import walk

CLI = [sys.executable, "-m", "winnow"]


def build(root: Path, depth: int, every: int = 100) -> int:
    """A chain of ``depth`` nested folders under ``root``, a small Python file every
    ``every`` levels; returns the number of files."""
    root.mkdir()
    fd, files = os.open(root, os.O_RDONLY), 0
    try:
        for level in range(depth):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
            if level % every == 0:
                out = os.open("f.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
                os.write(out, f"def f{level}(x):\n    return x * {level} + 1\n".encode() * 20)
                os.close(out)
                files += 1
    finally:
        os.close(fd)
    return files


def remove(root: Path) -> None:
    """Remove a chain made by :func:`build`, deepest first, through descriptors."""
    fds = [os.open(root, os.O_RDONLY)]
    while "d" in os.listdir(fds[-1]):
        fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
    while fds:
        fd = fds.pop()
        for name in os.listdir(fd):
            if name != "d":
                os.unlink(name, dir_fd=fd)
        if fds:
            os.rmdir("d", dir_fd=fds[-1])
        os.close(fd)
    os.rmdir(root)


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=600)
    return time.perf_counter() - started


def measure(depth: int, work: Path) -> str:
    tree = work / f"tree{depth}"
    files = build(tree, depth)
    try:
        started = time.perf_counter()
        found = walk([tree])
        walk_s = time.perf_counter() - started
        assert len(found.files) == files, (len(found.files), files, found.skipped[:3])
        index_s = timed([*CLI, "index", "-q", "-j", "1", "--db", str(work / f"i{depth}.db"),
                         str(tree)])
        compare_s = timed([*CLI, "compare", "-q", "-j", "1", str(tree)])
    finally:
        remove(tree)
    return (f"depth {depth:5d}: {files} files; walk {walk_s:6.2f} s "
            f"({1e3 * walk_s / depth:.3f} ms a level); winnow index {index_s:6.2f} s; "
            f"winnow compare {compare_s:6.2f} s (index/compare {index_s / compare_s:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--record", action="store_true",
                        help="add the figures to benchmarks/sif_walk.results.md")
    args = parser.parse_args()
    load = "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [f"sif walk by depth; {os.cpu_count()} cores; {load}"]
    print(lines[0], flush=True)
    with tempfile.TemporaryDirectory(prefix="winnow-walk-") as tmp:
        for depth in args.depths:
            lines.append(measure(depth, Path(tmp)))
            print(lines[-1], flush=True)
    if args.record:  # imported here: the tests load this file for its tree builder
        from history import commit, record, stamp

        record("sif_walk", f"{stamp()}, {commit()}",
               "```\n" + "\n".join(lines) + "\n```")


if __name__ == "__main__":
    main()
