"""``winnow dedup-files``: the index's identical files, listed, hard-linked or deleted safely."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import click

from winnow.cli.common import exit_with, fail, output
from winnow.cli.grouping import sort_option
from winnow.cli.options import db_option, format_option, output_option
from winnow.cli.outputs import check_outputs
from winnow.errors import EXIT_OK, EXIT_SKIPPED, InputError
from winnow.index import FingerprintIndex
from winnow.reports.writers import write
from winnow.sif.dedup import KEEP_RULES, DedupOptions, DedupResult, KeepRule, Row, deduplicate


def sorted_rows(result: DedupResult, by: str) -> DedupResult:
    """``result``'s groups in the order ``by`` says (``reclaimable``: the bytes keeping
    one copy frees, largest first, ties in path order; ``path``: as found), numbered
    from 1 in that order; each group's rows keep their order (kept copy first)."""
    if by == "path":
        return result
    groups: dict[int, list[Row]] = {}
    for row in result.rows:
        groups.setdefault(row.group, []).append(row)

    def frees(rows: list[Row]) -> int:
        return sum(r.size for r in rows if r.action != "keep")

    ordered = sorted(groups.values(), key=lambda rows: (-frees(rows), rows[0].group))
    renumbered = [replace(row, group=number) for number, rows in enumerate(ordered, 1)
                  for row in rows]
    return replace(result, rows=renumbered)


@click.command("dedup-files")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@db_option()
@click.option("--link", is_flag=True,
              help="Replace each duplicate by a hard link to the kept copy (same file "
                   "system only).")
@click.option("--delete", is_flag=True, help="Delete each duplicate; the kept copy stays.")
@click.option("--dry-run/--apply", "dry_run", default=True,
              help="Only show what --link/--delete would do (the default), or do it.")
@click.option("--keep-copy", "keep", type=click.Choice(KEEP_RULES),
              default=DedupOptions("list").keep, show_default=True,
              help="The copy of each group that stays: first path, oldest or newest mtime.")
@sort_option
@format_option(result="winnow.sif.dedup.DedupResult")
@output_option()
def dedup_files_command(paths: tuple[Path, ...], db: Path, link: bool, delete: bool,
                        dry_run: bool, keep: KeepRule, sort: str, fmt: str,
                        out_path: Path | None) -> None:
    """List the exact duplicates in the index (the files under PATHS, if given)
    with the bytes they take, or replace them by hard links or delete them.

    Without --link/--delete the duplicates of each group are listed for
    deletion; with either, the default is a dry run and --apply acts.  One
    file per group is kept and never touched.  Before acting, each file is
    checked again: a regular file reached without symbolic links, size and
    mtime as indexed, content equal to the kept copy byte for byte, and the
    same device, inode, size and mtime right before the change.  A file that
    fails a check is skipped and named (exit 1).  Hard links never cross file
    systems.  Deleted files leave the index.  Details: docs/sif.md.
    """
    if link and delete:
        raise click.UsageError("--link and --delete: choose one")
    options = DedupOptions("link" if link else "delete" if delete else "list",
                           apply=not dry_run, keep=keep)
    writes = options.apply and options.action == "delete"
    check_outputs([out_path], inputs=paths, index=db, indexed=_indexed(db))
    with FingerprintIndex(db, read_only=not writes) as index:
        result = deduplicate(index, options, [str(p) for p in paths] if paths else None)
    for row in result.skipped:
        fail(InputError(row.path, row.reason))
    with output(out_path) as out:
        write(sorted_rows(result, sort), fmt, out)
    exit_with(EXIT_SKIPPED if result.skipped else EXIT_OK)


def _indexed(db: Path) -> Callable[[Sequence[str]], str | None]:
    """Which of some paths the index at ``db`` holds (the files --link and
    --delete may change or keep: never a place for the report)."""
    def lookup(paths: Sequence[str]) -> str | None:
        if not db.exists():
            return None  # the run's own error names the missing index
        with FingerprintIndex(db, read_only=True) as index:
            found = {row.path for row in index.documents(list(paths))}
        return next((path for path in paths if path in found), None)
    return lookup
