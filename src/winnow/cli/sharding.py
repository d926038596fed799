"""``--pair-engine`` and its settings, shared by the commands that count pairs
(the fingerprinting engine is ``-k``, ``-t``, ``--method``: no option says "engine"
for two things)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import click

from winnow.pairs.model import ROW_BYTES
from winnow.pairs.registry import ENGINE_NAMES, SHARDED_ROWS, EngineChoice, EngineName
from winnow.sharded.plan import MAX_PARTITIONS, PARTITION_ROWS

F = TypeVar("F", bound=Callable[..., Any])

ENGINE_HELP = (
    "Who counts the shared fingerprints: in-memory (one process), local-sharded "
    "(hash-partitioned Parquet shards, bounded memory, this machine's cores), ray "
    "(the same tasks on a Ray cluster), or auto: sharded where the in-memory count "
    f"would pass about {SHARDED_ROWS * ROW_BYTES / 1e9:.1f} GB ({SHARDED_ROWS:,} fingerprint "
    "rows; more for dedup, whose rows take less).  Same results; docs/scale.md."
)


def sharding_options(func: F) -> F:
    """``--pair-engine``, ``--workdir``, ``--partitions`` and ``--ray-address``."""
    options = [
        click.option("--pair-engine", "engine", type=click.Choice(ENGINE_NAMES),
                     default=EngineChoice().engine,
                     show_default=True, help=ENGINE_HELP),
        # a string, not a click.Path: a Path would fold "s3://b/run" into "s3:/b/run"
        click.option("--workdir", default=None, metavar="DIR|URI",
                     help="Working folder of a sharded run: a folder, or a URI such as "
                          "s3://bucket/run or any fsspec path (shared storage for Ray; kept, "
                          "so an interrupted run resumes). Default: a temporary folder."),
        click.option("--partitions", type=click.IntRange(1, MAX_PARTITIONS), default=None,
                     help="Hash partitions of a sharded run (default: one per "
                          f"{PARTITION_ROWS:,} fingerprint rows, so each task holds about "
                          "as much whatever the input)."),
        click.option("--ray-address", default=None, metavar="ADDR",
                     help="Ray cluster to run on (with --pair-engine ray; default: a new "
                          "local one)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def engine_choice(params: dict[str, Any], jobs: int | None = None) -> EngineChoice:
    """The :class:`EngineChoice` of the parsed :func:`sharding_options`
    (removed from ``params``)."""
    if params.get("ray_address") is not None and params["engine"] != "ray":
        raise click.UsageError("--ray-address goes with --pair-engine ray")
    return EngineChoice(cast(EngineName, params.pop("engine")), params.pop("workdir"),
                        params.pop("partitions"), params.pop("ray_address"),
                        jobs or None)
