"""``count_pairs``: the three stages of a sharded count, wired together.

See :mod:`winnow.sharded` for the method and docs/scale.md for the bounds.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import pyarrow.parquet as pq

from winnow.errors import InvalidConfig, ShardedRunError
from winnow.pairs.model import PairFilter, Reader
from winnow.parallel import Progress, map_large_allocations, release_memory
from winnow.sharded.merge import SIZES, MergeTask, merge_bucket
from winnow.sharded.pairs import PartitionDone, PartitionTask, count_partition
from winnow.sharded.plan import (
    FORMAT_VERSION,
    ROW_GROUP,
    ShardPlan,
    Store,
    bucket_range,
    partition_of,
    task_name,
)
from winnow.sharded.prints import ShardDone, ShardTask, write_shard
from winnow.sharded.result import PairSums
from winnow.sharded.runners import Runner, make_runner
from winnow.tables import idf_weights

Item = TypeVar("Item")
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


def count_pairs(
    inputs: Sequence[Item],
    fingerprint: Reader,
    plan: ShardPlan,
    *,
    cap: int,
    base: U64 | None = None,
    progress: Progress | None = None,
    archive: Bools | None = None,
    documents: int | None = None,
    keep: PairFilter | None = None,
) -> PairSums:
    """Count the distinct hashes shared by every pair of documents, sharded.

    ``inputs`` are picklable input shards; ``fingerprint(input)`` (picklable:
    a module-level function) yields ``(doc, hashes)`` for each document of
    the shard, ``doc`` a dense id unique over all shards, ``hashes`` its
    uint64 fingerprints.  Hashes in more than ``cap`` documents are dropped
    (MOSS ``-m``); hashes of ``base`` count in their documents' sizes but are
    never shared; documents marked in ``archive`` are never paired with each
    other.  ``documents`` is the number of document ids (default: the
    largest id seen plus one).  ``keep`` (a
    :class:`~winnow.pairs.PairFilter`) leaves out, as the buckets are merged,
    the pairs it rejects given their shared counts and the documents' kept
    sizes: the pairs written and read back are then only those the caller
    can use.  ``progress(stage, done, total)`` follows the stages
    ``"prints"``, ``"pairs"`` and ``"merge"``.

    The run's files stay in ``plan.workdir``; a run interrupted and started
    again with the same inputs reuses every finished task (the same output),
    and a run with another ``cap``, ``base`` or ``archive`` reuses stage 1.
    The pair sums are exact (no budget cuts them, unlike the in-memory
    counting of a huge uncapped batch).  This process keeps 24 bytes per
    document (the returned sizes and weights); unless
    ``plan.map_large_arrays`` is off, its C allocator is set to give large
    arrays back when freed, as the workers' are.
    """
    if cap < 1:
        raise InvalidConfig([f"cap must be at least 1; got {cap}"])
    if plan.map_large_arrays:
        map_large_allocations()
    store = Store.of(plan.workdir)
    _claim(store, {"version": FORMAT_VERSION, "partitions": plan.partitions,
                   "inputs": len(inputs), "digest": _inputs_digest(inputs, fingerprint)},
           "plan.json", ())
    runner = make_runner(plan)
    try:
        shards = runner.map(write_shard, [
            ShardTask(store, i, item, fingerprint, plan.partitions, plan.row_budget)
            for i, item in enumerate(inputs)], "prints", progress)
        distinct, digests = _distinct_sizes(store, shards, documents)
        n_docs = distinct.shape[0]
        base_set = np.unique(np.zeros(0, np.uint64) if base is None
                             else np.asarray(base, dtype=np.uint64))
        _claim(store, {"cap": cap, "documents": n_docs, "base": _digest(base_set),
                       "archive": _digest(archive)}, "counting.json",
               ("pairs", "merged", "kept", "done/pairs", "done/merge"))
        parts = _count(runner, store, plan, shards, n_docs, cap, base_set, archive, progress)
        sizes, weights = _kept(store, plan, distinct, n_docs)
        _claim(store, {"keep": repr(keep)}, "merging.json", ("merged", "done/merge"))
        if keep is not None:
            store.write_array(sizes, SIZES)
        pairs = _merge(runner, store, plan, parts, n_docs, progress, keep)
    finally:
        runner.close()
    return _result(store, plan, distinct, sizes, weights, parts, pairs, digests)


def _claim(store: Store, identity: dict[str, Any], name: str, stale: tuple[str, ...]) -> None:
    """Record the run's ``identity`` in ``name``; a folder that holds another
    run is refused (``stale == ()``) or has its ``stale`` folders removed."""
    if store.exists(name) and (found := store.read_json(name)) != identity:
        if not stale:
            if "version" in identity and found.get("version") != identity["version"]:
                raise ShardedRunError(
                    f"{store.uri} holds another run, of another winnow (working folder "
                    f"format {found.get('version')}, this winnow's {identity['version']}); "
                    "use an empty working folder")
            raise ShardedRunError(
                f"{store.uri} holds another run ({found}); use an empty working folder")
        for folder in stale:
            store.delete(folder)
    store.makedirs()
    store.write_json(identity, name)


def _inputs_digest(inputs: Sequence[Any], fingerprint: Callable[..., Any]) -> str:
    """SHA-256 of the pickled inputs and the fingerprint function's name: a
    working folder is reused only for the same inputs (inputs that name files
    stand for their names, not their contents)."""
    digest = hashlib.sha256(f"{fingerprint.__module__}.{fingerprint.__qualname__}".encode())
    for item in inputs:
        digest.update(hashlib.sha256(pickle.dumps(item, protocol=5)).digest())
    return digest.hexdigest()


def _digest(values: npt.NDArray[Any] | None) -> str:
    if values is None:
        return ""
    return hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()


def _distinct_sizes(store: Store, shards: list[ShardDone], documents: int | None
                    ) -> tuple[I64, U64 | None]:
    """Distinct fingerprints per document id, from every shard's document file
    (read one at a time: the driver holds 8 bytes per document here), and
    the digests of the documents' hash sets where every shard's reader gave
    them (:class:`~winnow.pairs.DocBatch`; another 8 bytes a document)."""
    filesystem, _ = store.fs()
    largest = max((s.max_doc for s in shards), default=-1)
    n_docs = largest + 1 if documents is None else documents
    if largest >= n_docs:
        raise ShardedRunError(f"document id {largest} >= documents = {n_docs}")
    out = np.full(n_docs, -1, dtype=np.int64)
    digests: U64 | None = np.zeros(n_docs, dtype=np.uint64)
    for i in range(len(shards)):
        table = pq.read_table(store.path("docs", f"{task_name('prints', i)}.parquet"),
                              filesystem=filesystem)
        docs = table.column("doc").to_numpy()
        if docs.shape[0] and int(docs.min()) < 0:
            raise ShardedRunError(f"document ids must be >= 0; got {int(docs.min())}")
        if (out[docs] >= 0).any() or np.unique(docs).shape[0] != docs.shape[0]:
            raise ShardedRunError("a document id was yielded twice: ids must be unique")
        out[docs] = table.column("distinct").to_numpy()
        if "digest" not in table.column_names:
            digests = None
        elif digests is not None:
            digests[docs] = table.column("digest").to_numpy()
    release_memory()  # what reading the files took
    return np.maximum(out, 0, out=out), digests  # ids never yielded: no fingerprints


def _count(runner: Runner, store: Store, plan: ShardPlan, shards: list[ShardDone],
           n_docs: int, cap: int, base: U64, archive: Bools | None,
           progress: Progress | None) -> list[PartitionDone]:
    base_part = partition_of(base, plan.partitions)
    tasks = [PartitionTask(
        store, p, [f for s in shards for f in s.files.get(p, [])],
        sum(s.rows[p] for s in shards), n_docs, plan.partitions, cap,
        base[base_part == p], archive, plan.window_rows) for p in range(plan.partitions)]
    return runner.map(count_partition, tasks, "pairs", progress)


def _merge(runner: Runner, store: Store, plan: ShardPlan, parts: list[PartitionDone],
           n_docs: int, progress: Progress | None, keep: PairFilter | None) -> list[int]:
    tasks = [MergeTask(store, q, [p.files[q] for p in parts if q in p.files],
                       sum(p.rows.get(q, 0) for p in parts),
                       *bucket_range(q, n_docs, plan.partitions), plan.merge_rows, keep)
             for q in range(plan.partitions)]
    return runner.map(merge_bucket, tasks, "merge", progress)


def _kept(store: Store, plan: ShardPlan, distinct: I64, n_docs: int) -> tuple[I64, F64]:
    """Each document's kept fingerprints (its distinct ones less its capped
    ones) and their IDF weight: ``w1`` for each one in no other document,
    plus the weights of its shared ones that stage 2 summed.  The weights
    are multiples of 2^-24, so every sum and product here is exact; the
    arrays are filled in place (the driver's memory is these three)."""
    filesystem, _ = store.fs()
    w1 = float(idf_weights(np.ones(1, np.int64), n_docs)[0])
    sizes = distinct.copy()
    weights = distinct.astype(np.float64)
    weights *= w1  # as if every fingerprint were in no other document; corrected below
    for p in range(plan.partitions):  # only documents sharing a hash: read by blocks
        path = store.path("kept", f"{task_name('pairs', p)}.parquet")
        with filesystem.open_input_file(path) as source:
            for batch in pq.ParquetFile(source).iter_batches(batch_size=ROW_GROUP):
                docs, capped, shared, weight = (c.to_numpy() for c in batch.columns)
                np.subtract.at(sizes, docs, capped)
                np.add.at(weights, docs, weight - w1 * (shared + capped))
    release_memory()  # what reading the files took
    return sizes, weights


def _result(store: Store, plan: ShardPlan, distinct: I64, sizes: I64, weights: F64,
            parts: list[PartitionDone], pairs: list[int], digests: U64 | None) -> PairSums:
    """The run's sums: the kept sizes and weights, the merged pairs, the statistics."""
    n_docs = distinct.shape[0]
    stats = {"documents": n_docs, "fingerprints": int(distinct.sum()),
             "kept": int(sizes.sum()), "ignored_common": sum(p.capped for p in parts),
             "distinct_hashes": sum(p.distinct for p in parts),
             "pairs_sharing": sum(pairs)}
    return PairSums(store, plan.partitions, sizes, distinct, weights, stats, digests)
