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

from winnow.errors import ShardedRunError
from winnow.pairs import Engine, EngineChoice, PairSums, Postings, Shards
from winnow.parallel import Progress
from winnow.sharded.plan import Engine as Runner
from winnow.sharded.plan import ShardPlan, Store, partitions_for

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
    the choice's working folder or a temporary one (removed at the end); the
    folder is locked for the run (:meth:`Store.lock`: a second run on it fails
    at once)."""
    temporary = None
    if choice.workdir is None:
        temporary = tempfile.mkdtemp(prefix="winnow-sharded-")
    folder = choice.workdir or temporary or ""
    try:
        with Store.of(folder).lock():
            yield ShardPlan(folder,
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
        from winnow.sharded import count_pairs  # the package's export (tests replace it)

        with make_plan(choice, self.runner, postings.rows) as plan:
            shards = postings.shards(PlanLayout(plan))
            try:
                sums = count_pairs(shards.items, shards.read, plan, cap=cap,
                                   base=postings.base, archive=postings.archive,
                                   documents=postings.documents, progress=progress,
                                   keep=postings.keep)
            except Exception as error:
                if not type(error).__module__.startswith("ray"):
                    raise
                raise ShardedRunError(ray_failed(error, choice.workdir)) from error
            yield sums


def ray_failed(error: BaseException, workdir: object) -> str:
    """What to say when Ray lost the run (a worker, agent or node died past
    Ray's retries): the finished tasks are in the working folder, and a run
    given the same folder again goes on from them."""
    first = str(error).splitlines()[0] if str(error) else ""
    what = f"the Ray run failed ({type(error).__name__}{': ' + first if first else ''})"
    if workdir is None:
        return (f"{what}; its temporary working folder is removed: give --workdir DIR "
                "to keep the finished tasks and resume by running the command again")
    return (f"{what}; the finished tasks are kept in {workdir}: run the same command "
            "again to resume from them")


class LocalSharded(_Sharded):
    """``local-sharded``: the stages' tasks in a process pool on this machine."""

    name = "local-sharded"
    runner = "local-sharded"


class RayCluster(_Sharded):
    """``ray``: the same tasks on a Ray cluster."""

    name = "ray"
    runner = "ray"
