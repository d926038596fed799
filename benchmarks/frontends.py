"""Front-end throughput on real files from this machine: MB/s per front-end.

Usage::

    python benchmarks/frontends.py [--code-dir DIR] [--c-dir DIR] [--html-dir DIR]
        [--text-dir DIR] [--fallback-dir DIR] [--max-mb N] [--big-mb 200] [--passes 2]
        [--structural LANG=DIR ...] [--structural-only]

Defaults: the Python standard library (code, fast path), /usr/include (C),
Debian's python3.11-doc HTML and its reST sources (prose), Perl modules
(Pygments fallback).  A missing directory prints how to get it and is skipped.
``--big-mb`` builds a single-line text file of that size in a temporary
directory and reports time and peak memory (``ru_maxrss`` of a child process)
for reading it through the text front-end.  Figures are whole-pipeline
(sniff + decode + normalise) unless the row says otherwise.  Each row gives
the first pass over the files (after a warm-up on one file; it includes
one-time costs such as loading compiled kernels and learning new characters)
and the best of ``--passes - 1`` further passes (steady state).
``--structural LANG=DIR`` (repeatable) adds a row for the structural
front-end on that language's files under DIR (by the language's extensions),
with the share of files it parsed (the rest fall back to the lexer);
``--structural-only`` skips every other row.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

from winnow.frontends import FrontEndOptions, make_document
from winnow.frontends.lexpygments import lex_pygments

PY_VERSION = f"{sys.version_info.major}.{sys.version_info.minor}"
DEFAULTS = {
    "code_dir": f"/usr/lib/python{PY_VERSION}",
    "c_dir": "/usr/include",
    "html_dir": f"/usr/share/doc/python{PY_VERSION}/html",
    "text_dir": f"/usr/share/doc/python{PY_VERSION}/html/_sources",
    "fallback_dir": "/usr/share/perl5",
}
HINTS = {
    "html_dir": f"apt-get install python{PY_VERSION}-doc",
    "text_dir": f"apt-get install python{PY_VERSION}-doc",
}


def collect(root: Path, patterns: Iterable[str], max_bytes: int) -> list[tuple[Path, bytes]]:
    """Files under ``root`` matching ``patterns``, in sorted order, up to ``max_bytes``."""
    out: list[tuple[Path, bytes]] = []
    total = 0
    for pattern in patterns:
        for path in sorted(root.rglob(pattern)):
            if total >= max_bytes or not path.is_file():
                continue
            data = path.read_bytes()
            out.append((path, data))
            total += len(data)
    return out


def measure(label: str, files: list[tuple[Path, bytes]],
            run: Callable[[Path, bytes], int], passes: int = 2) -> dict[str, object]:
    """Time ``run`` over every file and print MB/s: the first pass after a
    warm-up on one file (it pays one-time costs: compiled kernels loaded from
    the cache, per-process tables) and the best of the further passes."""
    run(*files[0])  # warm caches (compiled kernels, lexer classes)
    size = sum(len(d) for _, d in files)
    timings = []
    for _ in range(max(1, passes)):
        units = 0
        start, cpu = time.perf_counter(), time.process_time()
        for path, data in files:
            units += run(path, data)
        timings.append((time.perf_counter() - start, time.process_time() - cpu))
    first, again = timings[0], min(timings[1:], default=None)
    row: dict[str, object] = {"frontend": label, "files": len(files), "MB": round(size / 1e6, 2),
                              "units": units, "seconds": round(first[0], 3)}
    text = f"{label:<32} {len(files):>5} files {size / 1e6:>7.2f} MB"
    for name, (seconds, cpu_seconds) in (("first", first), ("again", again or first)):
        wall, cpu_rate = size / 1e6 / seconds, size / 1e6 / max(cpu_seconds, 1e-9)
        row[f"MB/s {name}"], row[f"CPU MB/s {name}"] = round(wall, 2), round(cpu_rate, 2)
        if name == "first" or again is not None:
            text += f" | {name} {wall:>7.2f} MB/s wall {cpu_rate:>7.2f} CPU"
    print(f"{text} | {units:>9} units", flush=True)
    return row


def doc_units(frontend: str | None = None, lang: str | None = None,
              options: FrontEndOptions | None = None) -> Callable[[Path, bytes], int]:
    def run(path: Path, data: bytes) -> int:
        return len(make_document(data, path.name, frontend=frontend, lang=lang,
                                 options=options).stream)
    return run


def pygments_units(alias: str) -> Callable[[Path, bytes], int]:
    def run(path: Path, data: bytes) -> int:
        return len(lex_pygments(data, alias, False, False)[0])
    return run


def joined(files: list[tuple[Path, bytes]]) -> list[tuple[Path, bytes]]:
    """All files as one document (throughput without per-file overhead); the
    first file is repeated first because :func:`measure` warms up on it."""
    first = files[0]
    return [first, (first[0], b"\n".join(d for _, d in files))]


def notebooks_from(files: list[tuple[Path, bytes]]) -> list[tuple[Path, bytes]]:
    """Jupyter notebooks built from real Python files (one cell per blank-line block)."""
    out = []
    for path, data in files:
        blocks = data.decode("utf-8", "replace").split("\n\n")
        cells: list[dict[str, object]] = [
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
             "source": block.splitlines(keepends=True)} for block in blocks]
        nb = {"cells": cells, "metadata": {"kernelspec": {"language": "python"}},
              "nbformat": 4, "nbformat_minor": 5}
        out.append((path.with_suffix(".ipynb"), json.dumps(nb, indent=1).encode()))
    return out


def big_single_line(text_files: list[tuple[Path, bytes]], megabytes: int) -> None:
    """Time and peak memory of the text front-end on one huge single-line file."""
    seed = b" ".join(d.replace(b"\n", b" ") for _, d in text_files)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "one-line.txt"
        with path.open("wb") as handle:
            written = 0
            while written < megabytes * 1_000_000:
                piece = seed[: megabytes * 1_000_000 - written]
                handle.write(piece)
                written += len(piece)
        code = ("import sys, time, resource; from pathlib import Path;"
                "from winnow.frontends import read_document;"
                "t = time.perf_counter(); d = read_document(Path(sys.argv[1]), max_bytes=None);"
                "s = time.perf_counter() - t;"
                "print(len(d.data), len(d.stream), s, d.line_of(int(d.stream.starts[-1])),"
                "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        result = subprocess.run([sys.executable, "-c", code, str(path)], check=True,
                                capture_output=True, text=True)
        size, units, seconds, line, rss_kb = result.stdout.split()
        print(f"single-line text file: {int(size) / 1e6:.0f} MB, {units} units, "
              f"{float(seconds):.2f} s ({int(size) / 1e6 / float(seconds):.0f} MB/s), "
              f"last unit on line {line}, peak RSS {int(rss_kb) / 1024:.0f} MiB "
              f"({int(rss_kb) * 1024 / int(size):.1f} bytes per input byte)")


def structural_rows(specs: list[str], cap: int, passes: int) -> None:
    """One row per ``LANG=DIR``: the structural front-end's MB/s, and how many
    files it parsed rather than lexed."""
    from winnow.frontends import find_language

    for spec in specs:
        lang, _, folder = spec.partition("=")
        known = find_language(lang)
        if known is None or not Path(folder).is_dir():
            print(f"skipping structural {lang}: unknown language or no folder {folder}")
            continue
        files = collect(Path(folder), [f"*{ext}" for ext in known.extensions], cap)
        if not files:
            print(f"skipping structural {lang}: no {lang} files under {folder}")
            continue
        parsed = sum(1 for path, data in files
                     if not make_document(data, path.name, frontend="structural").warnings)
        print(f"structural ({known.name}): {parsed} of {len(files)} files parsed")
        measure(f"structural ({known.name})", files, doc_units("structural"), passes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for key, value in DEFAULTS.items():
        parser.add_argument("--" + key.replace("_", "-"), default=value)
    parser.add_argument("--max-mb", type=float, default=20.0, help="per front-end")
    parser.add_argument("--fallback-mb", type=float, default=1.0)
    parser.add_argument("--big-mb", type=int, default=200, help="0 skips it")
    parser.add_argument("--passes", type=int, default=2,
                        help="timed passes per row: the first and the best of the others")
    parser.add_argument("--structural", action="append", default=[], metavar="LANG=DIR",
                        help="a structural front-end row for LANG's files under DIR")
    parser.add_argument("--structural-only", action="store_true")
    args = parser.parse_args(argv)
    cap = int(args.max_mb * 1e6)
    if args.structural_only:
        structural_rows(args.structural, cap, args.passes)
        return
    print(f"python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M')}")
    found: dict[str, list[tuple[Path, bytes]]] = {}
    patterns = {"code_dir": ["*.py"], "c_dir": ["*.h"], "html_dir": ["*.html"],
                "text_dir": ["*.txt", "*.rst"], "fallback_dir": ["*.pm"]}
    for key, pats in patterns.items():
        root = Path(getattr(args, key))
        limit = int(args.fallback_mb * 1e6) if key == "fallback_dir" else cap
        files = collect(root, pats, limit) if root.is_dir() else []
        if not files:
            hint = f" (install: {HINTS[key]})" if key in HINTS else ""
            print(f"skipping {key}: no files under {root}{hint}")
        found[key] = files
    rows = []
    timed = partial(measure, passes=args.passes)
    if found["text_dir"]:
        rows.append(timed("text (chars)", found["text_dir"], doc_units("text")))
        rows.append(timed("text (chars, one document)", joined(found["text_dir"]),
                          doc_units("text")))
        rows.append(timed("text (words)", found["text_dir"],
                          doc_units("text", options=FrontEndOptions(unit="words"))))
    if found["code_dir"]:
        rows.append(timed("code fast path (python)", found["code_dir"], doc_units("code")))
        rows.append(timed("code fast path (python, one doc)", joined(found["code_dir"]),
                          doc_units("code")))
        notebooks = notebooks_from(found["code_dir"][:200])
        rows.append(timed("notebook (python cells)", notebooks, doc_units("notebook")))
        small = collect(Path(args.code_dir), ["*.py"], int(args.fallback_mb * 1e6))
        rows.append(timed("code via Pygments (python)", small, pygments_units("python")))
    if found["c_dir"]:
        rows.append(timed("code fast path (c headers)", found["c_dir"], doc_units("code")))
    if found["fallback_dir"]:
        rows.append(timed("code fallback (perl, Pygments)", found["fallback_dir"],
                          doc_units("code")))
    if found["html_dir"]:
        rows.append(timed("html", found["html_dir"], doc_units("html")))
    binaries = collect(Path("/usr/lib/x86_64-linux-gnu"), ["*.so*"], cap)
    if binaries:
        rows.append(timed("bytes", binaries, doc_units("bytes")))
    structural_rows(args.structural, cap, args.passes)
    if args.big_mb and found["text_dir"]:
        big_single_line(found["text_dir"], args.big_mb)
    print(f"max RSS of this process: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
