"""``winnow scan``: index PATHS (into a temporary or given database) and print the groups."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import click

from winnow.cli.common import exit_with
from winnow.cli.grouping import GroupArgs, group_options, print_groups, sort_option
from winnow.cli.indexing import (
    build_params,
    params_options,
    print_summary,
    report_missing,
    run_index,
)
from winnow.cli.options import db_option, format_option, jobs_option, output_option
from winnow.cli.outputs import check_outputs
from winnow.errors import EXIT_SKIPPED


@click.command("scan")
@click.argument("paths", nargs=-1, required=True,
                type=click.Path(path_type=Path, readable=False))
@db_option(None, "Keep the index in this file (default: a temporary one).")
@params_options
@group_options
@sort_option
@jobs_option()
@click.option("--follow-links", is_flag=True, help="Follow symbolic links.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar, no summary.")
@format_option(result="winnow.sif.groups.GroupsResult")
@output_option()
def scan_command(paths: tuple[Path, ...], db: Path | None, k: int | None, t: int | None,
                 method: str | None, bits: int | None, anchors: tuple[str, ...],
                 seed: int | None, frontend: str | None, frontend_options: tuple[str, ...],
                 sort: str, jobs: int, follow_links: bool, quiet: bool, fmt: str,
                 out_path: Path | None,
                 **grouping: Any) -> None:
    """Find identical and similar files under PATHS in one command (index + groups)."""
    params = build_params(k, t, method, bits, seed, frontend, frontend_options, anchors)
    check_outputs([out_path], inputs=paths, index=db)
    args = GroupArgs.take(grouping)
    with tempfile.TemporaryDirectory(prefix="winnow-scan-") as tmp:
        target = db if db is not None else Path(tmp) / "scan.db"
        summary = run_index(target, paths, params, jobs, follow_links, quiet)
        if not quiet:
            print_summary(summary, command="scan")
        print_groups(target, args, fmt, out_path, sort=sort)
    if report_missing(summary):
        exit_with(EXIT_SKIPPED)
