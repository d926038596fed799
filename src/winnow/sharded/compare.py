"""The sharded engine under ``compare``: the fingerprint table of a batch
counted by :func:`winnow.sharded.count_pairs` instead of in one sort.

The batch's fingerprints are already in memory (the first pass of
:func:`winnow.matching.compare.compare` keeps them); they go out to the
tasks as input shards of whole submissions, so the counting's sort
temporaries and pair arrays are the tasks', bounded by their budgets.  The
table is the in-memory one's (:func:`winnow.matching.table.build_table`):
the same pairs and counts, weights equal to rounding (they are summed in
another order).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from winnow.matching.batch import Batch
from winnow.matching.table import FingerprintTable, in_sorted
from winnow.parallel import Progress
from winnow.sharded.choice import EngineChoice

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class OwnerShard:
    """Input shard: the distinct fingerprints of some submissions."""

    owners: list[int]
    hashes: list[U64]


def owner_prints(shard: OwnerShard) -> Iterator[tuple[int, U64]]:
    yield from zip(shard.owners, shard.hashes, strict=True)


class ShardedTable:
    """``table(batch, cap)`` for :func:`winnow.matching.compare.compare`: the
    in-memory table below the ``choice``'s threshold, else a sharded count."""

    def __init__(self, choice: EngineChoice, progress: Progress | None = None) -> None:
        self.choice = choice
        self.progress = progress

    def __call__(self, batch: Batch, cap: int) -> FingerprintTable:
        rows = sum(p.hashes.shape[0] for p in batch.prints if p is not None)
        if not self.choice.sharded(rows):
            return batch.table(cap)
        return sharded_table(batch, cap, self.choice, self.progress)


def _owner_sets(batch: Batch) -> list[U64]:
    """Each submission's distinct fingerprints (file arrays released as read)."""
    parts: list[list[U64]] = [[] for _ in batch.subs]
    for i, prints in enumerate(batch.prints):
        if prints is not None:
            parts[int(batch.owner[i])].append(prints.hashes)
    return [np.unique(np.concatenate([np.zeros(0, np.uint64), *p])) for p in parts]


def sharded_table(batch: Batch, cap: int, choice: EngineChoice,
                  progress: Progress | None = None) -> FingerprintTable:
    """The batch's :class:`FingerprintTable`, counted by the sharded engine."""
    sets = _owner_sets(batch)
    shards: list[OwnerShard] = []
    with choice.plan(sum(s.shape[0] for s in sets)) as plan:
        for owner, hashes in enumerate(sets):
            if not shards or sum(h.shape[0] for h in shards[-1].hashes) >= plan.row_budget:
                shards.append(OwnerShard([], []))
            shards[-1].owners.append(owner)
            shards[-1].hashes.append(hashes)
        archive = np.array([s.role == "archive" for s in batch.subs], dtype=bool)
        from winnow.sharded.engine import count_pairs

        sums = count_pairs(shards, owner_prints, plan, cap=cap, base=batch.base,
                           archive=archive, documents=len(batch.subs), progress=progress)
        excluded = sums.excluded()
        counts = sums.shared_counts()
    file_prints = np.zeros(len(batch.prints), dtype=np.int64)
    for i, prints in enumerate(batch.prints):
        if prints is not None:
            file_prints[i] = int((~in_sorted(prints.hashes, excluded)).sum())
            batch.prints[i] = replace(prints, hashes=np.zeros(0, np.uint64), own=None)
    ignored_base = sum(int((in_sorted(h, batch.base) & ~in_sorted(h, excluded)).sum())
                       for h in sets)
    return FingerprintTable(
        excluded=excluded, sizes=sums.sizes, weight_totals=sums.weight_totals,
        file_prints=file_prints, counts=counts,
        stats={"fingerprints": int(file_prints.sum()), "ignored_base": ignored_base,
               "ignored_common": sums.stats["ignored_common"],
               "distinct_hashes": sums.stats["distinct_hashes"],
               "pairs_sharing": int(counts.a.shape[0])})
