"""sif's grouping options and the printing of groups, shared by ``groups`` and ``scan``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, TypeVar

import click

from winnow.cli.common import output
from winnow.cli.options import FRACTION, max_df_option, threshold_option
from winnow.config import MaxDf, max_df_count
from winnow.index import FingerprintIndex
from winnow.pairs import EngineChoice
from winnow.reports.sif import reclaimable
from winnow.reports.writers import write
from winnow.sif.groups import Group, GroupOptions, GroupsResult, find_groups

F = TypeVar("F", bound=Callable[..., Any])

#: The library's defaults are the CLI's (one place to tune them).
DEFAULTS = GroupOptions()


def group_options(func: F) -> F:
    """Post-processing options, read back as a :class:`GroupArgs`: none of them
    re-reads a file."""
    options = [
        threshold_option("Minimum similarity, a fraction (0.5 = 50%): the share of the "
                         "reference file's fingerprints found in the other file.",
                         DEFAULTS.threshold),
        click.option("--min-size-ratio", "size_ratio", type=FRACTION, default=None,
                     help="Only pair files whose smaller size is at least this fraction "
                          "of the larger."),
        click.option("--same-suffix", is_flag=True,
                     help="Only pair files with the same extension."),
        click.option("--mix-kinds", is_flag=True,
                     help="Also compare text files with binary files."),
        max_df_option(DEFAULTS.max_df, "distinct files"),
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


@dataclass(frozen=True)
class GroupArgs:
    """The parsed :func:`group_options`, one typed field each."""

    threshold: float
    size_ratio: float | None
    same_suffix: bool
    mix_kinds: bool
    max_df: MaxDf
    include_empty: bool
    interesting: bool

    @classmethod
    def take(cls, params: dict[str, Any]) -> GroupArgs:
        """Its fields, removed from a command's keyword arguments ``params``."""
        return cls(**{f.name: params.pop(f.name) for f in fields(cls)})

    def options(self, documents: int) -> GroupOptions:
        """The library's :class:`GroupOptions` for an index of ``documents`` files
        (``-m`` as a count of them; raises :class:`~winnow.errors.InvalidConfig`)."""
        return GroupOptions(self.threshold, self.size_ratio, self.same_suffix,
                            self.mix_kinds, max_df_count(self.max_df, documents),
                            self.include_empty, self.interesting)


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


def print_groups(db: Path, args: GroupArgs, fmt: str, out_path: Path | None,
                 engine: EngineChoice | None = None, sort: str = "reclaimable") -> None:
    """Find the groups of the index ``db`` and write them, in the order ``sort`` says."""
    with FingerprintIndex(db, read_only=True) as index:
        documents = index.info().documents if args.max_df < 1 else 0
        result = find_groups(index, args.options(documents), engine or EngineChoice())
    with output(out_path) as out:
        write(sorted_groups(result, sort), fmt, out)
