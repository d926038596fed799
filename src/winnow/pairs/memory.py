"""The in-memory engine: every posting in this process, counted in one sort.

Fastest below :data:`~winnow.pairs.registry.SHARDED_ROWS` rows; memory
grows with the postings.  The postings gather themselves
(:meth:`~winnow.pairs.model.Postings.in_memory`): records fingerprinted on
worker processes and counted by :func:`winnow.pairs.counting.count_postings`
(``dedup``), a batch's table (``compare``), or an index's own self-join
(``groups``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.pairs.model import PairSums, Postings
from winnow.pairs.registry import Engine, EngineChoice
from winnow.parallel import Progress
from winnow.tables import PairCounts, SharedCounts

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

#: Pairs per block when iterating.
BLOCK = 1 << 20


@dataclass(frozen=True)
class MemorySums:
    """Pair sums held in memory (:class:`~winnow.pairs.model.PairSums`);
    ``capped`` the hashes dropped by the cap, sorted."""

    sizes: I64
    weight_totals: F64
    counts: SharedCounts
    capped: U64
    stats: dict[str, int]
    digests: U64 | None = None

    def excluded(self) -> U64:
        return self.capped

    def pair_counts(self) -> PairCounts:
        return self.counts

    def shared_counts(self) -> SharedCounts:
        return self.counts

    def __iter__(self) -> Iterator[tuple[I64, I64, I64]]:
        counts = self.counts
        for start in range(0, len(counts), BLOCK):
            stop = start + BLOCK
            yield counts.a[start:stop], counts.b[start:stop], counts.shared[start:stop]


class InMemory(Engine):
    """``in-memory``: the postings' own one-process count."""

    name = "in-memory"

    @contextmanager
    def count(self, postings: Postings, cap: int, choice: EngineChoice,
              progress: Progress | None) -> Iterator[PairSums]:
        yield postings.in_memory(cap, progress)
