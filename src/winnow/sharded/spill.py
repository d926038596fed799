"""Input shards spilled to a sharded run's working folder, for postings that
stream out of a database (``groups``: the index's ``shared`` rows,
:meth:`winnow.index.FingerprintIndex.shared_postings`).

The ``(doc, hash)`` row batches, ordered by doc, are written as Parquet files
of whole documents, about a stage-1 budget each, which the tasks read back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.pairs import Shards
from winnow.sharded.plan import ShardPlan, Store, task_name

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


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


def spill(rows: Iterable[tuple[I64, I64]], plan: ShardPlan) -> Shards:
    """The ``(doc, hash)`` row batches as input shards of whole documents."""
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

    for d, h in rows:
        docs.append(d)
        hashes.append(h)
        pending = sum(x.shape[0] for x in docs)
        if pending >= plan.row_budget:
            last = np.concatenate(docs)
            cut = int(np.searchsorted(last, last[-1]))  # the last document may go on
            if cut > 0:
                flush(cut)
    if docs and sum(x.shape[0] for x in docs):
        flush(sum(x.shape[0] for x in docs))
    return Shards(shards, posting_prints)
