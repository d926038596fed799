"""What a sharded count returns: per-document sizes and the pair sums on disk."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow.parquet as pq

from winnow.sharded.merge import merged_name
from winnow.sharded.plan import Store, task_name
from winnow.tables import SharedCounts

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

#: Pairs per block when iterating (40 bytes each: 2.5 MiB): a consumer that
#: reads every pair, such as clustering, holds one block at a time.
BLOCK_ROWS = 1 << 16


@dataclass(frozen=True)
class PairBlock:
    """Consecutive pairs ``a < b`` in ``(a, b)`` order, as parallel arrays:
    ``shared`` distinct kept hashes, their IDF ``weight`` and ``df`` sum."""

    a: I64
    b: I64
    shared: I64
    weight: F64
    df_sum: F64


@dataclass(frozen=True)
class PairSums:
    """The result of :func:`winnow.sharded.count_pairs`: the pair-counting
    stage's :class:`winnow.pairs.PairSums`.

    ``sizes[d]`` the distinct fingerprints of document ``d`` kept by the cap
    (base fingerprints included: the ``|F_d|`` of the scores, as
    :attr:`winnow.matching.table.FingerprintTable.sizes`); ``distinct[d]``
    all its distinct fingerprints; ``weight_totals[d]`` the IDF weight of its
    kept ones.  The pairs stay in the working folder: iterate blocks (``for
    a, b, shared in sums``, or :meth:`blocks` for every column), in ``(a, b)``
    order, or load them all with :meth:`shared_counts` when they fit.
    """

    store: Store
    partitions: int
    sizes: I64
    distinct: I64
    weight_totals: F64
    stats: dict[str, int]
    digests: U64 | None = None

    def blocks(self, rows: int = BLOCK_ROWS) -> Iterator[PairBlock]:
        """Every pair, in ``(a, b)`` order, ``rows`` at most per block."""
        filesystem, _ = self.store.fs()
        for q in range(self.partitions):
            path = self.store.path(merged_name(q))
            with filesystem.open_input_file(path) as source:
                for batch in pq.ParquetFile(source).iter_batches(batch_size=rows):
                    if batch.num_rows:
                        yield PairBlock(*(batch.column(i).to_numpy() for i in range(5)))

    def __iter__(self) -> Iterator[tuple[I64, I64, I64]]:
        for block in self.blocks():
            yield block.a, block.b, block.shared

    def __len__(self) -> int:
        return self.stats["pairs_sharing"]

    def arrays(self) -> tuple[I64, I64, I64]:
        """All pairs at once: ``(a, b, shared)``."""
        counts = self.shared_counts()
        return counts.a, counts.b, counts.shared

    def pair_counts(self) -> SharedCounts:
        """All pairs at once (:meth:`shared_counts`: the weights come free)."""
        return self.shared_counts()

    def shared_counts(self) -> SharedCounts:
        """All pairs at once, shaped as the in-memory counting's result."""
        blocks = list(self.blocks())
        if not blocks:
            z = np.zeros(0, dtype=np.int64)
            return SharedCounts(z, z, z, z.astype(np.float64), z.astype(np.float64))
        return SharedCounts(*(np.concatenate([getattr(b, f) for b in blocks])
                              for f in ("a", "b", "shared", "weight", "df_sum")))

    def excluded(self) -> U64:
        """The hashes dropped by the cap, sorted (as
        :attr:`winnow.matching.table.FingerprintTable.excluded`)."""
        filesystem, _ = self.store.fs()
        parts = [np.zeros(0, np.uint64)]
        for p in range(self.partitions):
            path = self.store.path("kept", f"{task_name('pairs', p)}-capped.parquet")
            parts.append(pq.read_table(path, filesystem=filesystem).column("hash")
                         .to_numpy().astype(np.uint64))
        return np.sort(np.concatenate(parts))
