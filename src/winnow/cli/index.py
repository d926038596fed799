"""``winnow index``: build, update, inspect or shrink the sif index (one DuckDB file).

Also the index parameters ``scan`` shares, and the end-of-run summary.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import fields
from pathlib import Path
from typing import Any, TypeVar

import click
from tqdm import tqdm

from winnow.cli.common import exit_with, fail, output
from winnow.cli.options import (
    anchor_option,
    db_option,
    format_option,
    jobs_option,
    output_option,
)
from winnow.cli.outputs import check_outputs
from winnow.config import METHODS
from winnow.errors import EXIT_SKIPPED, InputError, InvalidConfig
from winnow.frontends.options import FrontEndOptions
from winnow.index import FingerprintIndex, IndexParams
from winnow.parallel import worker_count
from winnow.reports.writers import write
from winnow.sif.build import BuildSummary, fingerprint_pool, remove_paths, update_index
from winnow.sif.fingerprinting import MAX_FINGERPRINT_BYTES
from winnow.sources.walk import NOT_FOUND

F = TypeVar("F", bound=Callable[..., Any])

def params_options(func: F) -> F:
    """How fingerprints are made; omitted options mean "what the index has"."""
    options = [
        click.option("-k", "k", type=int, default=None,
                     help="k-gram length in front-end units (sif default 50 bytes)."),
        click.option("-t", "t", type=int, default=None,
                     help="Guarantee threshold for winnowing methods (default k + 99)."),
        click.option("--method", "--selection", "method", type=click.Choice(METHODS),
                     default=None,
                     help="Fingerprint selection (default sif: hash's last --bits bits zero, "
                          "no overlaps)."),
        click.option("--bits", type=int, default=None,
                     help="sif selection: keep about one k-gram in 2^bits (default 8)."),
        anchor_option,
        click.option("--seed", type=int, default=None, help="Hash seed (default 0)."),
        click.option("--frontend", default=None,
                     help="Front-end: bytes (default, sif's way), text, code, auto ..."),
        click.option("--frontend-option", "frontend_options", multiple=True,
                     metavar="NAME=VALUE",
                     help="A front-end option, e.g. keep_case=true (repeatable)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def frontend_option(item: str) -> tuple[str, Any]:
    """One ``--frontend-option NAME=VALUE``, typed by its :class:`FrontEndOptions`
    field: a switch takes exactly true/false (yes/no, on/off, 1/0), never "any
    non-empty text" (``keep_case=no`` must not mean true).  A usage error otherwise."""
    name, sep, value = (part.strip() for part in item.partition("="))
    if not sep:
        raise click.UsageError(f"--frontend-option wants NAME=VALUE, got {item!r}")
    types = {f.name: f.type for f in fields(FrontEndOptions)}
    if name not in types:
        raise click.UsageError(f"--frontend-option: no option {name!r}; choose from "
                               f"{', '.join(types)}")
    if types[name] not in (bool, "bool"):
        return name, value
    if value.lower() in _TRUE + _FALSE:
        return name, value.lower() in _TRUE
    raise click.UsageError(f"--frontend-option {name} wants true or false, got {value!r}")


def build_params(k: int | None, t: int | None, method: str | None, bits: int | None,
                 seed: int | None, frontend: str | None,
                 frontend_options: tuple[str, ...], anchors: tuple[str, ...] = ()
                 ) -> IndexParams | None:
    """The requested parameters (defaults: :meth:`IndexParams.create`), or
    ``None`` when none was given."""
    if all(v is None for v in (k, t, method, bits, seed, frontend)) and not (
            frontend_options or anchors):
        return None
    fe_options: dict[str, Any] = {}
    for item in frontend_options:
        name, value = frontend_option(item)
        fe_options[name] = value
    from winnow.frontends import FRONTENDS  # the front-ends: only when parameters are given

    known = ("auto", *FRONTENDS)
    if frontend is not None and frontend not in known:
        raise click.UsageError(f"unknown front-end {frontend!r}; choose from {', '.join(known)}")
    try:
        FrontEndOptions(**fe_options)
    except (TypeError, ValueError) as error:
        raise click.UsageError(f"bad --frontend-option: {error}") from error
    try:
        return IndexParams.create(k=k, t=t, method=method, seed=seed, frontend=frontend,
                                  frontend_options=fe_options, bits=bits,
                                  anchors=anchors or None)
    except InvalidConfig as error:
        raise click.UsageError("; ".join(error.problems)) from error


def run_index(db: Path, paths: tuple[Path, ...], params: IndexParams | None, jobs: int | None,
              follow_links: bool, quiet: bool,
              max_file_bytes: int = MAX_FINGERPRINT_BYTES) -> BuildSummary:
    """Index ``paths``, with a progress bar on a terminal unless ``quiet``."""
    workers = worker_count(jobs or 0)
    with ExitStack() as stack:
        # the pool first: its workers fork before any database or tqdm thread exists
        pool = stack.enter_context(fingerprint_pool(workers)) if workers > 1 else None
        bar = stack.enter_context(tqdm(total=0, unit="B", unit_scale=True, desc="indexing",
                                       leave=False, disable=quiet or not sys.stderr.isatty()))

        def progress(stage: str, done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        index = stack.enter_context(FingerprintIndex(db))
        return update_index(index, list(paths), params, executor=pool,
                            follow_links=follow_links, progress=progress,
                            max_file_bytes=max_file_bytes)


def print_summary(s: BuildSummary, show_skipped: bool = False, command: str = "index") -> None:
    """The indexing summary on standard error, each line headed ``winnow COMMAND:``
    (``dircmp`` and ``scan`` index too, into a file the user may not know of)."""
    head = f"winnow {command}:"
    click.echo(
        f"{head} {s.files_seen} files, {s.bytes_total / 1e6:.1f} MB in {s.seconds:.1f} s "
        f"({s.mb_per_s:.1f} MB/s); {s.added} added, {s.updated} updated, "
        f"{s.unchanged} unchanged, {s.removed} removed; {s.bytes_read / 1e6:.1f} MB read",
        err=True)
    if s.checksum_only:
        click.echo(f"{head} {s.checksum_only} files over the size limit were "
                   f"checksummed only (found when identical, never as similar)", err=True)
    if s.skipped:
        reasons = Counter(item.reason for item in s.skipped)
        listed = ", ".join(f"{n} {reason}" for reason, n in reasons.most_common())
        click.echo(f"{head} skipped {len(s.skipped)}: {listed}", err=True)
        for item in s.skipped if show_skipped else []:
            click.echo(f"  skipped {item.path!r}: {item.reason}", err=True)


def compact_index(db: Path, quiet: bool) -> None:
    before = db.stat().st_size if db.exists() else 0
    with FingerprintIndex(db) as index:
        index.compact()
    if not quiet:
        click.echo(f"winnow index: compacted {db}: {before} -> {db.stat().st_size} bytes",
                   err=True)


def print_info(db: Path, fmt: str, out_path: Path | None) -> None:
    """``--info``: the index's size and parameters, in any of the output formats."""
    with FingerprintIndex(db, read_only=True) as index:
        info = index.info()
    with output(out_path) as out:
        write(info, fmt, out)


def report_missing(summary: BuildSummary) -> bool:
    """Name on standard error each given PATH that does not exist; True if any."""
    missing = [s.path for s in summary.skipped if s.reason == NOT_FOUND]
    for path in missing:
        fail(InputError(path, NOT_FOUND))
    return bool(missing)


@click.command("index")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, readable=False))
@db_option()
@params_options
@jobs_option("Worker processes for fingerprinting (0 = all cores).")
@click.option("--follow-links", is_flag=True, help="Follow symbolic links (loops are skipped).")
@click.option("--max-file-size", "max_mb", type=click.IntRange(1), default=64,
              show_default=True,
              help="Fingerprint files up to this many MiB; larger ones are only checksummed.")
@click.option("--remove", is_flag=True, help="Remove PATHS (files or folders) from the index.")
@click.option("--info", is_flag=True, help="Show the index's size and parameters.")
@format_option(result="winnow.index.store.IndexInfo")
@output_option()
@click.option("--compact", is_flag=True,
              help="Rewrite the index file without the space of removed files "
                   "(after indexing PATHS, if any).")
@click.option("--show-skipped", is_flag=True, help="List every skipped path.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar, no summary.")
def index_command(paths: tuple[Path, ...], db: Path, k: int | None, t: int | None,
                  method: str | None, bits: int | None, anchors: tuple[str, ...],
                  seed: int | None,
                  frontend: str | None, frontend_options: tuple[str, ...], jobs: int,
                  follow_links: bool, max_mb: int, remove: bool, info: bool, compact: bool,
                  show_skipped: bool, quiet: bool, fmt: str, out_path: Path | None) -> None:
    """Index the files under PATHS into one database file (sif's index).

    New and changed files are fingerprinted (changes found by size and mtime,
    confirmed by checksum); files gone from PATHS are dropped.  The run is one
    transaction: interrupted, the index keeps its previous state.  The
    summary goes to standard error; --format and -o apply to --info.
    """
    params = build_params(k, t, method, bits, seed, frontend, frontend_options, anchors)
    check_outputs([out_path] if info else [], inputs=paths, index=db)
    if info:
        print_info(db, fmt, out_path)
    elif remove:
        with FingerprintIndex(db) as index:
            n = remove_paths(index, list(paths))
        click.echo(f"winnow index: removed {n} files", err=True)
    elif not paths and not compact:
        raise click.UsageError("give PATHS to index (or --info / --remove / --compact)")
    elif paths and not db.exists() and not any(os.path.lexists(p) for p in paths):
        for path in paths:  # nothing to index: no new, empty database file either
            fail(InputError(str(path), NOT_FOUND))
        exit_with(EXIT_SKIPPED)
    elif paths:
        summary = run_index(db, paths, params, jobs, follow_links, quiet, max_mb << 20)
        if not quiet:
            print_summary(summary, show_skipped)
        if report_missing(summary):
            exit_with(EXIT_SKIPPED)
    if compact and not info:
        compact_index(db, quiet)
