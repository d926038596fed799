"""``winnow index``: build, update, inspect or shrink the sif index (one DuckDB file).

The index parameters and the run it shares with ``scan`` and ``dircmp`` are in
:mod:`winnow.cli.indexing`.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from winnow.cli.common import exit_with, fail, output
from winnow.cli.indexing import (
    build_params,
    params_options,
    print_summary,
    report_missing,
    run_index,
)
from winnow.cli.options import db_option, format_option, jobs_option, output_option
from winnow.cli.outputs import check_outputs
from winnow.errors import EXIT_SKIPPED, InputError
from winnow.index import FingerprintIndex
from winnow.reports.writers import write
from winnow.sif.build import remove_paths
from winnow.sif.fingerprinting import MAX_FINGERPRINT_BYTES
from winnow.sources.walk import NOT_FOUND


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


@click.command("index")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, readable=False))
@db_option()
@params_options
@jobs_option("Worker processes for fingerprinting (0 = all cores).")
@click.option("--follow-links", is_flag=True, help="Follow symbolic links (loops are skipped).")
@click.option("--max-file-size", "max_mb", type=click.IntRange(1),
              default=MAX_FINGERPRINT_BYTES >> 20,
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
