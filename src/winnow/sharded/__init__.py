"""Pair counting beyond one process's memory: hash-partitioned, sorted shards.

The first pass of MOSS (Schleimer, Wilkerson, Aiken 2003, section 5.2:
index every fingerprint, then pair the documents that share one) as three
stages of independent tasks that hand each other Parquet files in a working
folder, so they run in a local process pool or as Ray tasks on a cluster,
and a run that stops resumes from its finished tasks:

1. **prints** (one task per input shard): the caller's ``fingerprint``
   turns the shard into ``(doc, hashes)``; the rows go to hash partitions,
   sorted by ``(hash, doc)``;
2. **pairs** (one task per hash partition): a hash's documents are all in
   its partition, so the ``-m`` cap and the base exclusion apply there, and
   :func:`winnow.pairs.counting.count_shared` sums the pairs sharing each
   hash, by windows of the hash range;
3. **merge** (one task per pair bucket, a range of first documents): the
   partial sums of a pair, one per partition, are added up, in ``(a, b)``
   order.

Each task's memory is bounded by the plan's budgets, not by the corpus
(docs/scale.md states the bound and its measurement).  The pair-counting
stage (:mod:`winnow.pairs`) runs it as its ``local-sharded`` and ``ray``
engines (:mod:`winnow.sharded.stage`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from winnow.errors import ShardedRunError
from winnow.parallel import prefer_system_allocator

prefer_system_allocator()  # before any stage loads Arrow

if TYPE_CHECKING:
    from winnow.sharded.engine import count_pairs
    from winnow.sharded.plan import ENGINES, ShardPlan
    from winnow.sharded.result import PairBlock, PairSums

__all__ = ["ENGINES", "PairBlock", "PairSums", "ShardPlan", "ShardedRunError", "count_pairs"]

#: Exports imported on first use, so that choosing an engine (``--pair-engine``,
#: :mod:`winnow.pairs.registry`) loads neither pyarrow nor the stages.
_LAZY = {"count_pairs": "engine", "ENGINES": "plan", "ShardPlan": "plan",
         "PairBlock": "result", "PairSums": "result"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'winnow.sharded' has no attribute {name!r}")
    return getattr(importlib.import_module(f"winnow.sharded.{_LAZY[name]}"), name)
