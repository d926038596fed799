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
from winnow.matching.prints import Progress


def count_sharded(jobs: Sequence[ShardJob], settings: DedupSettings, engine: str,
                  workdir: str, progress: Progress | None) -> PairSource:
    """The pair sums of ``jobs`` from the sharded engine (``local-sharded`` or
    ``ray``), its shards in ``workdir`` (which must outlive the result)."""
    from winnow.sharded import ShardPlan, count_pairs

    plan = ShardPlan(workdir, partitions=settings.partitions,
                     engine=engine,  # type: ignore[arg-type]  # checked by DedupSettings
                     ray_address=settings.ray_address, jobs=settings.jobs or None)
    result: PairSource = count_pairs(jobs, fingerprint_shard, plan,
                                     cap=settings.max_occurrences, progress=progress)
    return result
