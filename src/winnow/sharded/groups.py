"""The sharded engine under ``groups``: sif's all-against-all pair counts
(Manber 1994, section 4) by :func:`winnow.sharded.count_pairs` instead of
the index's self-join.

The index streams the ``shared`` rows of the chosen files, by file
(:meth:`winnow.index.FingerprintIndex.shared_postings`); they are written
to input shards in the working folder (whole files, about a stage-1 budget
each), which the tasks read back.  ``--max-df`` is the cap; the counts are
the self-join's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.index.store import FingerprintIndex
from winnow.parallel import Progress
from winnow.sharded.choice import EngineChoice
from winnow.sharded.plan import ShardPlan, Store, task_name
from winnow.tables import PairCounts, SharedCounts

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]


@dataclass(frozen=True)
class PostingShard:
    """Input shard: a Parquet file of ``(doc, hash)`` rows, sorted by doc."""

    store: Store
    name: str
    digest: str  # of the rows: a reused working folder holds the same inputs


def posting_prints(shard: PostingShard) -> Iterator[tuple[int, U64]]:
    import pyarrow.parquet as pq

    filesystem, _ = shard.store.fs()
    table = pq.read_table(shard.store.path(shard.name), filesystem=filesystem)
    docs = table.column("doc").to_numpy()
    hashes = table.column("hash").to_numpy().view(np.uint64)
    cuts = np.flatnonzero(np.diff(docs)) + 1
    for lo, hi in zip(np.r_[0, cuts].tolist(), np.r_[cuts, docs.shape[0]].tolist(),
                      strict=True):
        if hi > lo:
            yield int(docs[lo]), hashes[lo:hi]


def write_inputs(index: FingerprintIndex, doc_ids: I32, plan: ShardPlan) -> list[PostingShard]:
    """The chosen files' shared rows as input shards of whole files."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    store = Store.of(plan.workdir)
    store.makedirs("input")
    filesystem, _ = store.fs()
    shards: list[PostingShard] = []
    docs: list[I64] = []
    hashes: list[I64] = []

    def flush(upto: int) -> None:  # write the rows before index ``upto`` of the pending ones
        d, h = np.concatenate(docs), np.concatenate(hashes)
        name = f"input/{task_name('prints', len(shards))}.parquet"
        pq.write_table(pa.table({"doc": d[:upto], "hash": h[:upto]}), store.path(name),
                       filesystem=filesystem)
        digest = hashlib.sha256(d[:upto].tobytes())
        digest.update(h[:upto].tobytes())
        shards.append(PostingShard(store, name, digest.hexdigest()))
        docs[:], hashes[:] = [d[upto:]], [h[upto:]]

    for d, h in index.shared_postings(doc_ids):
        docs.append(d)
        hashes.append(h)
        pending = sum(x.shape[0] for x in docs)
        if pending >= plan.row_budget:
            last = np.concatenate(docs)
            cut = int(np.searchsorted(last, last[-1]))  # the last file may go on
            if cut > 0:
                flush(cut)
    if docs and sum(x.shape[0] for x in docs):
        flush(sum(x.shape[0] for x in docs))
    return shards


class ShardedCounter:
    """The index's pairs (:class:`winnow.tables.PairCounter`) for
    :func:`winnow.sif.groups.find_groups`: the index's own count below the
    ``choice``'s threshold, else a sharded one over its shared postings."""

    def __init__(self, index: FingerprintIndex, choice: EngineChoice,
                 progress: Progress | None = None) -> None:
        self.index = index
        self.choice = choice
        self.progress = progress

    def pair_counts(self, owners: npt.NDArray[np.integer], max_df: int) -> PairCounts:
        doc_ids = np.asarray(owners, dtype=np.int32)
        rows = self._sharded_rows()
        if rows is None:
            return self.index.pair_counts(doc_ids, max_df)
        counts = self._count(doc_ids, max_df, rows)
        return PairCounts(counts.a, counts.b, counts.shared)

    def shared_counts(self, owners: npt.NDArray[np.integer], max_df: int) -> SharedCounts:
        doc_ids = np.asarray(owners, dtype=np.int32)
        rows = self._sharded_rows()
        if rows is None:
            return self.index.shared_counts(doc_ids, max_df)
        return self._count(doc_ids, max_df, rows)

    def _sharded_rows(self) -> int | None:
        """The index's fingerprint rows when the ``choice`` sends them to the
        sharded engine (they size its partitions), else ``None``."""
        if self.choice.engine == "in-memory":
            return None
        rows = sum(row.n_distinct for row in self.index.documents())
        return rows if self.choice.sharded(rows) else None

    def _count(self, doc_ids: I32, max_df: int, rows: int) -> SharedCounts:
        """The sharded count of ``doc_ids``' pairs, in the index's document ids."""
        from winnow.sharded.engine import count_pairs

        with self.choice.plan(rows) as plan:
            shards = write_inputs(self.index, doc_ids, plan)
            counts = count_pairs(shards, posting_prints, plan, cap=max_df,
                                 documents=len(doc_ids), progress=self.progress
                                 ).shared_counts()
        ids = np.asarray(doc_ids, dtype=np.int64)
        return SharedCounts(ids[counts.a], ids[counts.b], counts.shared, counts.weight,
                            counts.df_sum)
