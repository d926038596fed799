"""``winnow groups``: sif's all-against-all groups, from the index alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from winnow.cli.grouping import GroupArgs, group_options, print_groups, sort_option
from winnow.cli.options import db_option, format_option, output_option
from winnow.cli.outputs import check_outputs
from winnow.cli.sharding import engine_choice, sharding_options


@click.command("groups")
@db_option()
@group_options
@sort_option
@sharding_options
@format_option(result="winnow.sif.groups.GroupsResult")
@output_option()
def groups_command(db: Path, sort: str, fmt: str, out_path: Path | None, **params: Any) -> None:
    """Print groups of identical files, then groups of similar files (sif's layout).

    Each similar group is a reference file (R100) and the files sharing at
    least the threshold's share of its fingerprints, with that share in
    percent and their sizes; a set is printed once.  Each identical group
    states the bytes reclaimable by keeping one copy (`winnow dedup-files` acts on
    them).  Groups are listed largest first (--sort).  Only the index is read.
    """
    args = GroupArgs.take(params)
    check_outputs([out_path], index=db)
    print_groups(db, args, fmt, out_path, engine_choice(params), sort)
