"""The sharded engines of the pair-counting stage (:mod:`winnow.pairs`):
``local-sharded`` (a process pool on this machine) and ``ray`` (Ray tasks),
both :func:`winnow.sharded.engine.count_pairs` over the postings' input shards.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from winnow.pairs import Engine, EngineChoice, PairSums, Postings, Shards
from winnow.parallel import Progress
from winnow.sharded.plan import Engine as Runner
from winnow.sharded.plan import ShardPlan, partitions_for

I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class PlanLayout:
    """The :class:`winnow.pairs.Layout` of a plan: its input budget, its folder."""

    plan: ShardPlan

    @property
    def row_budget(self) -> int:
        return self.plan.row_budget

    def spill(self, rows: Iterable[tuple[I64, I64]]) -> Shards:
        from winnow.sharded.spill import spill

        return spill(rows, self.plan)


@contextmanager
def make_plan(choice: EngineChoice, runner: Runner, rows: int) -> Iterator[ShardPlan]:
    """The plan of a run of about ``rows`` fingerprint rows on ``runner``, in
    the choice's working folder or a temporary one (removed at the end)."""
    temporary = None
    if choice.workdir is None:
        temporary = tempfile.mkdtemp(prefix="winnow-sharded-")
    try:
        yield ShardPlan(choice.workdir or temporary or "",
                        partitions=partitions_for(rows) if choice.partitions is None
                        else choice.partitions,
                        engine=runner, ray_address=choice.ray_address, jobs=choice.jobs)
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)


class _Sharded(Engine):
    sharded = True
    runner: ClassVar[Runner]

    @contextmanager
    def count(self, postings: Postings, cap: int, choice: EngineChoice,
              progress: Progress | None) -> Iterator[PairSums]:
        from winnow.sharded.engine import count_pairs

        with make_plan(choice, self.runner, postings.rows) as plan:
            shards = postings.shards(PlanLayout(plan))
            yield count_pairs(shards.items, shards.read, plan, cap=cap, base=postings.base,
                              archive=postings.archive, documents=postings.documents,
                              progress=progress)


class LocalSharded(_Sharded):
    """``local-sharded``: the stages' tasks in a process pool on this machine."""

    name = "local-sharded"
    runner = "local-sharded"


class RayCluster(_Sharded):
    """``ray``: the same tasks on a Ray cluster."""

    name = "ray"
    runner = "ray"
