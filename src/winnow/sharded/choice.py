"""Which engine counts the pairs: the in-memory one, or a sharded one.

``auto`` (the commands' default) keeps small inputs in memory, where one
sort is fastest, and shards inputs of more than :data:`SHARDED_ROWS`
fingerprint rows, where the in-memory table's sort and pair arrays would
outgrow the machine.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from winnow.errors import InvalidConfig
from winnow.sharded.plan import MAX_PARTITIONS, ShardPlan, partitions_for

EngineName = Literal["auto", "in-memory", "local-sharded", "ray"]
ENGINE_NAMES: tuple[str, ...] = ("auto", "in-memory", "local-sharded", "ray")

#: Fingerprint rows (distinct hashes per document, summed) above which
#: ``auto`` shards the count.  The in-memory engine peaks at about 120 bytes
#: a row (benchmarks/sharded.results.md: 1.2 GiB for 10 million rows), so
#: 20 million rows are about 2.4 GB; the sharded engine's tasks stay within
#: their budgets (docs/scale.md) whatever the rows.
SHARDED_ROWS = 20_000_000


@dataclass(frozen=True)
class EngineChoice:
    """An engine by name, with the sharded engines' settings: ``workdir``
    (``None``: a temporary folder, removed afterwards), ``partitions``
    (``None``: chosen from the rows, :func:`~winnow.sharded.plan.partitions_for`),
    ``ray_address`` and ``jobs`` (see :class:`ShardPlan`)."""

    engine: EngineName = "auto"
    workdir: Path | str | None = None
    partitions: int | None = None
    ray_address: str | None = None
    jobs: int | None = None

    def __post_init__(self) -> None:
        if self.engine not in ENGINE_NAMES:
            raise InvalidConfig([f"engine must be one of {', '.join(ENGINE_NAMES)}; "
                                 f"got {self.engine!r}"])
        if self.ray_address is not None and self.engine != "ray":
            raise InvalidConfig(["--ray-address goes with --engine ray"])
        if self.partitions is not None and not 1 <= self.partitions <= MAX_PARTITIONS:
            raise InvalidConfig([f"partitions must be in 1..{MAX_PARTITIONS}; "
                                 f"got {self.partitions}"])

    def sharded(self, rows: int) -> bool:
        """Whether ``rows`` fingerprint rows are counted by a sharded engine."""
        if self.engine == "auto":
            return rows > SHARDED_ROWS
        return self.engine != "in-memory"

    @contextmanager
    def plan(self, rows: int) -> Iterator[ShardPlan]:
        """The plan of a sharded run of about ``rows`` fingerprint rows, in
        ``workdir`` or a temporary folder."""
        engine: Literal["local-sharded", "ray"] = "ray" if self.engine == "ray" \
            else "local-sharded"
        temporary = None
        if self.workdir is None:
            temporary = tempfile.mkdtemp(prefix="winnow-sharded-")
        try:
            yield ShardPlan(self.workdir or temporary or "",
                            partitions=partitions_for(rows) if self.partitions is None
                            else self.partitions,
                            engine=engine, ray_address=self.ray_address, jobs=self.jobs)
        finally:
            if temporary is not None:
                shutil.rmtree(temporary, ignore_errors=True)
