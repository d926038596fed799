"""``winnow groups``: sif's all-against-all groups, from the index alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import click

from winnow.cli.common import output
from winnow.cli.options import FRACTION, db_option, format_option, output_option, threshold_option
from winnow.cli.outputs import check_outputs
from winnow.cli.sharding import engine_choice, sharding_options
from winnow.index import FingerprintIndex
from winnow.pairs import EngineChoice
from winnow.reports.sif import reclaimable
from winnow.reports.writers import write
from winnow.sif.groups import Group, GroupOptions, GroupsResult, find_groups

F = TypeVar("F", bound=Callable[..., Any])


def group_options(func: F) -> F:
    """Post-processing options: none of them re-reads a file."""
    options = [
        threshold_option("Minimum similarity, a fraction (0.5 = 50%): the share of the "
                         "reference file's fingerprints found in the other file."),
        click.option("--size-ratio", type=FRACTION, default=None,
                     help="Only pair files whose smaller size is at least this fraction "
                          "of the larger."),
        click.option("--same-suffix", is_flag=True,
                     help="Only pair files with the same extension."),
        click.option("--mix-kinds", is_flag=True,
                     help="Also compare text files with binary files."),
        click.option("--max-df", type=click.IntRange(2), default=200, show_default=True,
                     help="Ignore fingerprints found in more distinct files than this."),
        click.option("--include-empty", is_flag=True,
                     help="Group empty files as identical too."),
        click.option("--interesting", is_flag=True,
                     help="Also list sif's interesting sets: maximal sets of files every "
                          "two of which share the threshold's share of the smaller file's "
                          "fingerprints."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


#: ``--sort`` of groups and dedup-files: largest first (fclones, rmlint), or by path.
SORTS = ("reclaimable", "path")


def sort_option(func: F) -> F:
    """``--sort``: the order groups are listed (and numbered) in."""
    return click.option(
        "--sort", type=click.Choice(SORTS), default="reclaimable", show_default=True,
        help="List groups by bytes reclaimable by keeping one copy, largest first "
             "(similar groups by their total size), or by path.")(func)


def _total(group: Group) -> int:
    return sum(m.size for m in group.members)


def sorted_groups(result: GroupsResult, by: str) -> GroupsResult:
    """``result``'s groups in the order ``by`` says, numbered from 1 in that order:
    ``reclaimable``: identical groups by the bytes keeping one copy frees, the others
    by their total size, largest first (ties by path); ``path``: as found."""
    if by == "path":
        return result
    def order(groups: list[Group], key: Callable[[Group], int]) -> list[Group]:
        return sorted(groups, key=lambda g: (-key(g), g.members[0].path))

    lists = [order(result.identical, reclaimable), order(result.similar, _total),
             None if result.interesting is None else order(result.interesting, _total)]
    number = 0
    out: list[list[Group] | None] = []
    for groups in lists:
        if groups is None:
            out.append(None)
            continue
        renumbered = []
        for group in groups:
            number += 1
            renumbered.append(replace(group, number=number))
        out.append(renumbered)
    return replace(result, identical=out[0] or [], similar=out[1] or [], interesting=out[2])


def print_groups(db: Path, options: GroupOptions, fmt: str, out_path: Path | None,
                 engine: EngineChoice | None = None, sort: str = "reclaimable") -> None:
    with FingerprintIndex(db, read_only=True) as index:
        result = find_groups(index, options, engine or EngineChoice())
    with output(out_path) as out:
        write(sorted_groups(result, sort), fmt, out)


@click.command("groups")
@db_option()
@group_options
@sort_option
@sharding_options
@format_option(result="winnow.sif.groups.GroupsResult")
@output_option()
def groups_command(db: Path, threshold: float, size_ratio: float | None, same_suffix: bool,
                   mix_kinds: bool, max_df: int, include_empty: bool, interesting: bool,
                   sort: str, fmt: str, out_path: Path | None, **engine: Any) -> None:
    """Print groups of identical files, then groups of similar files (sif's layout).

    Each similar group is a reference file (R100) and the files sharing at
    least the threshold's share of its fingerprints, with that share in
    percent and their sizes; a set is printed once.  Each identical group
    states the bytes reclaimable by keeping one copy (`winnow dedup-files` acts on
    them).  Groups are listed largest first (--sort).  Only the index is read.
    """
    options = GroupOptions(100.0 * threshold, size_ratio, same_suffix, mix_kinds, max_df,
                           include_empty, interesting)
    check_outputs([out_path], index=db)
    choice = engine_choice(engine)
    print_groups(db, options, fmt, out_path, choice, sort)
