"""The engines by name, and the one rule that ``auto`` follows.

Adding an engine is one :class:`Engine` subclass and one
line in :data:`ENGINES`: ``--pair-engine``, :class:`EngineChoice`, ``compare``,
``groups`` and ``dedup`` then know it.  An entry names its class as
``"module:Class"``, imported on first use: choosing an engine (``--help``,
``auto`` below the threshold) loads neither pyarrow nor Ray, and an engine's
package sits above this stage (it imports :mod:`winnow.pairs`, never the
reverse).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from winnow.errors import InvalidConfig
from winnow.pairs.model import ROW_BYTES, PairSums, Postings
from winnow.parallel import Progress

#: Every engine: its name and its class.
ENGINES: dict[str, str] = {
    "in-memory": "winnow.pairs.memory:InMemory",
    "local-sharded": "winnow.sharded.stage:LocalSharded",
    "ray": "winnow.sharded.stage:RayCluster",
}

#: An engine's name, or ``auto``: one of :data:`ENGINE_NAMES`, checked when an
#: :class:`EngineChoice` is made (a plain string, so that a new engine is one
#: line in :data:`ENGINES`).
EngineName = str
#: What ``--pair-engine`` accepts: ``auto`` and every engine.
ENGINE_NAMES: tuple[str, ...] = ("auto", *ENGINES)

#: Fingerprint rows (distinct hashes per document, summed) above which
#: ``auto`` shards the count of postings of :data:`~winnow.pairs.model.ROW_BYTES`
#: a row.  The in-memory engine peaks at about 120 bytes a row
#: (benchmarks/sharded.results.md: 1.2 GiB for 10 million rows), so 20
#: million rows are about 2.4 GB; postings that take fewer bytes a row
#: (:attr:`~winnow.pairs.model.Postings.row_bytes`) stay in memory up to the
#: same 2.4 GB.  The sharded engine's tasks stay within their budgets
#: (docs/scale.md) whatever the rows.
SHARDED_ROWS = 20_000_000

#: What ``auto`` picks above :data:`SHARDED_ROWS`.
AUTO_SHARDED = "local-sharded"


class Engine(ABC):
    """A pair-counting engine: one class, and one line in :data:`ENGINES`."""

    #: the engine's name in the registry (``--pair-engine``)
    name: ClassVar[str]
    #: whether it spreads the count over input shards (and a working folder)
    sharded: ClassVar[bool] = False

    @abstractmethod
    def count(self, postings: Postings, cap: int, choice: EngineChoice,
              progress: Progress | None) -> AbstractContextManager[PairSums]:
        """The pair sums of ``postings``, dropping hashes in more than ``cap``
        documents; valid until the context closes (a sharded run's temporary
        folder goes then)."""


def engine_named(name: str) -> Engine:
    """The engine registered as ``name``; an unknown name is refused
    (:class:`~winnow.errors.InvalidConfig`, naming the known ones)."""
    if name not in ENGINES:
        raise InvalidConfig([f"unknown pair-counting engine {name!r}; one of "
                             f"{', '.join(ENGINES)} (or auto)"])
    module, _, cls = ENGINES[name].partition(":")
    engine: Engine = getattr(importlib.import_module(module), cls)()
    return engine


@dataclass(frozen=True)
class EngineChoice:
    """An engine by name, with the sharded engines' settings: ``workdir``
    (``None``: a temporary folder, removed afterwards), ``partitions``
    (``None``: chosen from the rows, :func:`winnow.sharded.plan.partitions_for`;
    at most :data:`winnow.sharded.plan.MAX_PARTITIONS`, checked by the run),
    ``ray_address`` and ``jobs`` (worker processes; ``None``: every core)."""

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
            raise InvalidConfig(["--ray-address goes with --pair-engine ray"])
        if self.partitions is not None and self.partitions < 1:
            raise InvalidConfig([f"partitions must be at least 1; got {self.partitions}"])

    def resolve(self, rows: int, row_bytes: int = ROW_BYTES) -> str:
        """The engine that counts ``rows`` fingerprint rows of ``row_bytes``
        bytes each (:attr:`~winnow.pairs.model.Postings.row_bytes`): the one
        named, or for ``auto`` the in-memory one up to the peak of
        :data:`SHARDED_ROWS` rows of :data:`~winnow.pairs.model.ROW_BYTES`
        (one sort is fastest) and :data:`AUTO_SHARDED` above (bounded memory)."""
        if self.engine != "auto":
            return self.engine
        return AUTO_SHARDED if rows * row_bytes > SHARDED_ROWS * ROW_BYTES else "in-memory"
