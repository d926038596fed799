"""``winnow dircmp``: compare two directories by content (sif's future-work item)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from winnow.cli.common import output
from winnow.cli.indexing import print_summary, run_index
from winnow.cli.options import (
    db_option,
    format_option,
    jobs_option,
    output_option,
    threshold_option,
)
from winnow.cli.outputs import check_outputs
from winnow.index import FingerprintIndex
from winnow.reports.sif_changes import DircmpView
from winnow.reports.writers import write
from winnow.sif.dircmp import check_disjoint, check_folders, compare_dirs


@click.command("dircmp")
@click.argument("dir_a", type=click.Path(path_type=Path))
@click.argument("dir_b", type=click.Path(path_type=Path))
@db_option(None, "Index both folders into this file (default: a temporary one).")
@threshold_option("Minimum similarity for pairing differently named files, a fraction "
                  "(0.5 = 50%).")
@jobs_option()
@click.option("--changes-only", is_flag=True,
              help="List only differences, no identical files and no closing lines (like "
                   "diff -rq): nothing listed means the folders hold the same files.")
@click.option("-q", "--quiet", is_flag=True,
              help="No progress bar, no summary: neither the indexing summary on standard "
                   "error nor the table's closing lines.")
@format_option(result="winnow.reports.sif_changes.DircmpView")
@output_option()
def dircmp_command(dir_a: Path, dir_b: Path, db: Path | None, threshold: float,
                   jobs: int, changes_only: bool, quiet: bool, fmt: str,
                   out_path: Path | None) -> None:
    """Compare DIR_A and DIR_B by content: identical, renamed, copied, modified,
    similar, only on one side, and an overall similarity for the two folders.

    A changed file is never shown 100 % similar (docs/sif.md).  The exit
    status does not say whether the folders differ (1 means unreadable input,
    as for every command): test the output of --changes-only for that.
    """
    check_outputs([out_path], inputs=(dir_a, dir_b), index=db)
    check_folders(str(dir_a), str(dir_b))
    check_disjoint(str(dir_a), str(dir_b))
    with tempfile.TemporaryDirectory(prefix="winnow-dircmp-") as tmp:
        target = db if db is not None else Path(tmp) / "dircmp.db"
        summary = run_index(target, (dir_a, dir_b), None, jobs, False, quiet)
        if not quiet:
            print_summary(summary, command="dircmp")
        with FingerprintIndex(target, read_only=True) as index:
            result = compare_dirs(index, str(dir_a), str(dir_b), threshold)
    with output(out_path) as out:
        write(DircmpView(result, changes_only=changes_only,
                         summary_lines=not (quiet or changes_only)), fmt, out)
