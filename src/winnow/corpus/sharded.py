"""Pair counting of corpus records through the sharded engine (:mod:`winnow.sharded`).

The engine maps :func:`~winnow.corpus.fingerprints.fingerprint_shard` over the
input shards (worker processes, or Ray tasks), writes the postings as
hash-partitioned sorted Parquet shards in its work folder, and counts one
partition at a time: memory is bounded by a partition, not by the corpus.
"""

from __future__ import annotations

from collections.abc import Sequence

from winnow.corpus.fingerprints import ShardJob, fingerprint_shard
from winnow.corpus.options import DedupSettings
from winnow.corpus.pairs import PairSource
from winnow.errors import ShardedRunError
from winnow.parallel import Progress


def count_sharded(jobs: Sequence[ShardJob], records: int, settings: DedupSettings,
                  engine: str, workdir: str, progress: Progress | None,
                  rows: int) -> PairSource:
    """The pair sums of ``jobs`` from the sharded engine (``local-sharded`` or
    ``ray``), its shards in ``workdir`` (which must outlive the result), in
    ``settings.partitions`` hash partitions or as many as about ``rows``
    fingerprint rows need.  ``progress`` follows the stages: ``records``
    fingerprinted, then the engine's ``pairs`` and ``merge`` tasks."""
    from winnow.sharded import ShardPlan, count_pairs
    from winnow.sharded.plan import partitions_for

    partitions = partitions_for(rows) if settings.partitions is None else settings.partitions
    plan = ShardPlan(workdir, partitions=partitions,
                     engine=engine,  # type: ignore[arg-type]  # checked by DedupSettings
                     ray_address=settings.ray_address, jobs=settings.jobs or None)
    try:
        result: PairSource = count_pairs(jobs, fingerprint_shard, plan,
                                         cap=settings.max_occurrences,
                                         progress=None if progress is None
                                         else _in_records(progress, records),
                                         documents=records)
    except Exception as error:
        if not type(error).__module__.startswith("ray"):
            raise
        raise ShardedRunError(_ray_failed(error, settings.workdir)) from error
    return result


def _ray_failed(error: BaseException, workdir: str | None) -> str:
    """What to say when Ray lost the run (a worker, agent or node died past
    Ray's retries): the finished tasks are in the working folder, and a run
    given the same folder again goes on from them."""
    what = f"the Ray run failed ({type(error).__name__}: {str(error).splitlines()[0]})" \
        if str(error) else f"the Ray run failed ({type(error).__name__})"
    if workdir is None:
        return (f"{what}; its temporary working folder is removed: give --workdir DIR "
                "to keep the finished tasks and resume by running the command again")
    return (f"{what}; the finished tasks are kept in {workdir}: run the same command "
            "again to resume from them")


def _in_records(progress: Progress, records: int) -> Progress:
    """``progress`` with the ``prints`` stage (input shards done) told as
    ``records`` (the records of the shards done, in proportion)."""

    def told(stage: str, done: int, total: int) -> None:
        if stage == "prints":
            progress("records", records * done // max(total, 1), records)
        else:
            progress(stage, done, total)

    return told
