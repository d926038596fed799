"""Stage 2: the partial pair sums of one hash partition.

A partition holds every row of its hashes, so a hash's document frequency
is complete there: the MOSS ``-m`` cap (a hash in more than ``cap``
documents is dropped; winnowing paper, section 5.2) and the base exclusion
(base hashes count in their documents' sets but are never shared) are exact
per partition.  The partition is read in windows of its hash range, at most
about :data:`~winnow.sharded.plan.WINDOW_ROWS` rows each (its files are
sorted by hash, so a window reads only its row groups); each window's rows
are counted by :func:`winnow.pairs.counting.count_shared`, in slices of
whole hash groups generating at most :data:`~winnow.sharded.plan.PAIR_SLICE`
pairs, so the counting never falls back to its approximation for huge
groups (a single group of ``d`` documents generates ``C(d, 2)`` pairs: the
cap bounds it).  The partial sums go to the pair buckets of their first
document, for stage 3 to add up.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.parquet as pq

from winnow.matching.table import in_sorted
from winnow.pairs.counting import (
    count_shared,
    distinct_postings,
    group_bounds,
    repeated,
)
from winnow.parallel import reusing_freed_memory
from winnow.sharded.plan import (
    PAIR_BUFFER,
    PAIR_SLICE,
    PARQUET,
    ROW_GROUP,
    Store,
    bucket_of,
    read_range,
    stage_task,
    task_name,
)
from winnow.tables import SharedCounts, idf_weights

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

#: Per document of a window with rows of hashes in other documents: its
#: ``capped`` rows, its ``shared`` kept rows and their IDF ``weight``.
KEPT_SCHEMA = pa.schema([("doc", pa.int64()), ("capped", pa.int64()), ("shared", pa.int64()),
                         ("weight", pa.float64())])
PAIR_SCHEMA = pa.schema([("a", pa.int64()), ("b", pa.int64()), ("shared", pa.int64()),
                         ("weight", pa.float64()), ("df_sum", pa.float64())])


@dataclass(frozen=True)
class PartitionTask:
    """Stage 2's work for hash partition ``partition``: its stage-1 ``files``
    (``rows`` in all), the partition's ``base`` hashes (sorted), ``archive``
    documents never paired with each other."""

    store: Store
    partition: int
    files: list[str]
    rows: int
    n_docs: int
    buckets: int
    cap: int
    base: U64
    archive: Bools | None
    window_rows: int


@dataclass(frozen=True)
class PartitionDone:
    """Files written per pair bucket and their rows; capped hashes."""

    files: dict[int, str]
    rows: dict[int, int]
    capped: int
    distinct: int


def read_window(store: Store, files: list[str], window: int, windows: int,
                expected: int = 0) -> tuple[U64, I64]:
    """The ``(hash, doc)`` rows of ``files`` in window ``window`` of ``windows``
    equal ranges of the 64-bit hash space, about ``expected`` of them (only
    the row groups that meet it are read: :func:`~winnow.sharded.plan.read_range`)."""
    lo = window * (1 << 64) // windows
    hi = (window + 1) * (1 << 64) // windows
    rows = read_range(store, files, "hash", lo, hi if hi < 1 << 64 else None,
                      {"hash": np.uint64, "doc": np.int64}, expected)
    return rows["hash"], rows["doc"]


def pair_slices(sizes: I64, budget: int) -> Iterator[tuple[int, int]]:
    """Ranges ``[g0, g1)`` of hash groups (of ``sizes`` documents) generating at
    most ``budget`` pairs each (a single larger group forms its own range)."""
    generated = np.cumsum(sizes * (sizes - 1) // 2)
    g0 = 0
    done = 0
    n = sizes.shape[0]
    while g0 < n:
        g1 = int(np.searchsorted(generated, done + budget, side="right"))
        g1 = max(g1, g0 + 1)
        yield g0, g1
        done = int(generated[g1 - 1])
        g0 = g1


def count_rows(hashes: U64, docs: I64, weights: F64, archive: Bools | None,
               budget: int = PAIR_SLICE) -> Iterator[SharedCounts]:
    """Shared counts of distinct sorted ``(hash, doc)`` rows (whole hash groups,
    capped and base hashes removed), in slices of at most ``budget`` generated
    pairs; documents are renumbered densely per slice, so the counting's
    scratch space is the slice's documents, not the corpus's."""
    starts, sizes = group_bounds(hashes)
    ends = starts + sizes
    for g0, g1 in pair_slices(sizes, budget):
        lo, hi = int(starts[g0]), int(ends[g1 - 1])
        ids, local = np.unique(docs[lo:hi], return_inverse=True)
        counts = count_shared(hashes[lo:hi], local.astype(np.int64), int(ids.shape[0]),
                              weights=weights[lo:hi],
                              excluded_owner_pairs=None if archive is None else archive[ids])
        yield SharedCounts(ids[counts.a], ids[counts.b], counts.shared, counts.weight,
                           counts.df_sum)


def by_pair(a: I64, b: I64) -> I64:
    """The stable order of the pairs ``(a[i], b[i])`` by ``a``, then ``b``: one
    sort of a 64-bit key, which exploits the sorted runs a concatenation of
    sorted pieces has (512,000 rows in 64 runs: 0.022 s, ``np.lexsort`` 0.098 s)."""
    if a.shape[0] and (int(a.min()) < 0 or int(b.min()) < 0 or int(a.max()) >= 1 << 31
                       or int(b.max()) >= 1 << 32):
        return np.lexsort((b, a))
    return np.argsort((a.astype(np.int64) << 32) | b.astype(np.int64), kind="stable")


class _Writers:
    """One Parquet writer per pair bucket this partition sends pairs to; the
    slices' pairs wait until :data:`~winnow.sharded.plan.PAIR_BUFFER` of them
    (or the window's end) and go out together, so that a partition writes a
    few large row groups per bucket, not one small one per slice: 1,000,000
    records wrote 18,000 row groups of about 1,000 pairs with a slice's 2^16,
    and Parquet's per-call cost was a quarter of the run."""

    def __init__(self, task: PartitionTask) -> None:
        self.task = task
        self.open: dict[int, pq.ParquetWriter] = {}
        self.files: dict[int, str] = {}
        self.rows: dict[int, int] = {}
        self.waiting: list[SharedCounts] = []
        self.waiting_rows = 0

    def write(self, counts: SharedCounts) -> None:
        self.waiting.append(counts)
        self.waiting_rows += counts.a.shape[0]
        if self.waiting_rows >= PAIR_BUFFER:
            self.flush()

    def flush(self) -> None:
        """Write the waiting pairs to their buckets' files, sorted by ``(a, b)``."""
        if not self.waiting_rows:
            self.waiting = []
            return
        a, b, shared, weight, df_sum = (np.concatenate([getattr(c, name) for c in self.waiting])
                                        for name in ("a", "b", "shared", "weight", "df_sum"))
        self.waiting, self.waiting_rows = [], 0
        order = by_pair(a, b)
        first = a[order]
        columns = [first, *(c[order] for c in (b, shared, weight, df_sum))]
        bucket = bucket_of(first, self.task.n_docs, self.task.buckets)
        bounds = np.searchsorted(bucket, np.arange(self.task.buckets + 1))
        for q in np.flatnonzero(np.diff(bounds)).tolist():
            lo, hi = int(bounds[q]), int(bounds[q + 1])
            table = pa.table([pa.array(c[lo:hi]) for c in columns], schema=PAIR_SCHEMA)
            self._writer(q).write_table(table, row_group_size=ROW_GROUP)
            self.rows[q] = self.rows.get(q, 0) + hi - lo

    def _writer(self, q: int) -> pq.ParquetWriter:
        if q not in self.open:
            store = self.task.store
            folder = f"pairs/q{q:04d}"
            store.makedirs(folder)
            name = f"{folder}/{task_name('pairs', self.task.partition)}.parquet"
            self.open[q] = pq.ParquetWriter(store.path(name), PAIR_SCHEMA,
                                            filesystem=store.fs()[0], **PARQUET)
            self.files[q] = name
        return self.open[q]

    def close(self) -> None:
        for writer in self.open.values():
            writer.close()


@stage_task
def count_partition(task: PartitionTask) -> PartitionDone:
    """Run stage 2 on one partition (or read its marker if already done)."""
    store = task.store
    name = task_name("pairs", task.partition)
    marker = ("done", "pairs", f"{name}.json")
    if store.exists(*marker):
        value = store.read_marker(*marker)
        return PartitionDone({int(q): f for q, f in value["files"].items()},
                             {int(q): r for q, r in value["rows"].items()}, value["capped"],
                             value["distinct"])
    capped: list[U64] = []
    distinct = 0
    writers = _Writers(task)
    store.makedirs("kept")
    kept = pq.ParquetWriter(store.path("kept", f"{name}.parquet"), KEPT_SCHEMA,
                            filesystem=store.fs()[0], **PARQUET)
    windows = max(1, -(-task.rows // task.window_rows))
    try:
        for window in range(windows if task.files else 0):
            with reusing_freed_memory():  # a window's arrays reuse each other's pages
                distinct += _count_window(task, window, windows, kept, capped, writers)
            # its end gives them back: the next window starts from one window's memory
    finally:
        writers.close()
        kept.close()
    pq.write_table(pa.table({"hash": pa.array(np.sort(np.concatenate(
        [np.zeros(0, np.uint64), *capped])), pa.uint64())}),
                   store.path("kept", f"{name}-capped.parquet"), filesystem=store.fs()[0])
    done = PartitionDone(writers.files, writers.rows, int(sum(c.shape[0] for c in capped)),
                         distinct)
    store.write_marker({"files": {str(q): f for q, f in done.files.items()},
                        "rows": {str(q): r for q, r in done.rows.items()},
                        "capped": done.capped, "distinct": distinct},
                       [*done.files.values(), f"kept/{name}.parquet",
                        f"kept/{name}-capped.parquet"], *marker)
    return done


def _count_window(task: PartitionTask, window: int, windows: int, kept: pq.ParquetWriter,
                  capped: list[U64], writers: _Writers) -> int:
    """Count one window; returns its distinct hashes.

    Only the rows of hashes in two documents or more go further than the
    first sort: they are the window's capped hashes (to ``capped``), its
    pairs (to the writers) and, per document that has any, its capped rows
    and the count and IDF weight of its kept shared rows (to ``kept``).  A
    document's other kept rows are its hashes in no other document, whose
    weight is the same constant (``df = 1``): the driver derives them from
    the document's distinct count (:func:`winnow.sharded.engine.count_pairs`),
    so no array here is as long as the corpus, or as the window's documents.
    The window's arrays are freed on return, before the next one is read.
    """
    hashes, docs = read_window(task.store, task.files, window, windows,
                               task.rows // windows)
    multi, distinct = repeated(hashes)  # the rows of hashes in more than one row
    hashes, docs = distinct_postings(hashes[multi], docs[multi])
    starts, sizes = group_bounds(hashes)
    capped.append(hashes[starts[sizes > task.cap]])
    row_df = np.repeat(sizes, sizes)
    is_capped = row_df > task.cap
    shared = (row_df >= 2) & ~is_capped  # kept rows of hashes in other documents
    idf = idf_weights(row_df, task.n_docs)
    ids, local = np.unique(docs, return_inverse=True)
    if ids.shape[0]:  # a window whose every hash is in one document writes nothing here
        kept.write_table(pa.table({
            "doc": ids.astype(np.int64),
            "capped": np.bincount(local, weights=is_capped,
                                  minlength=ids.shape[0]).astype(np.int64),
            "shared": np.bincount(local, weights=shared, minlength=ids.shape[0]).astype(np.int64),
            "weight": np.bincount(local, weights=np.where(shared, idf, 0.0),
                                  minlength=ids.shape[0]),
        }, schema=KEPT_SCHEMA))
    share = shared & ~in_sorted(hashes, task.base)
    for counts in count_rows(hashes[share], docs[share], idf[share], task.archive):
        writers.write(counts)
    writers.flush()
    return distinct
