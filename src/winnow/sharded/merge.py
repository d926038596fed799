"""Stage 3: the exact pair sums of one pair bucket.

A pair's shared count is the sum of its partial counts over the hash
partitions (each hash lives in exactly one), and so are its weight and its
``df`` sum.  A bucket holds the partial rows of a contiguous range of first
documents ``a`` (:func:`winnow.sharded.plan.bucket_of`); it is summed in
windows of that range of at most about :data:`~winnow.sharded.plan.MERGE_ROWS`
rows (if the rows spread evenly over ``a``): read, sorted by ``(a, b)``,
added up per pair, appended to ``merged/qNNNN.parquet``.  The buckets in
order are therefore all pairs in ``(a, b)`` order.  A run given a pair
filter (:class:`~winnow.pairs.PairFilter`) writes only the pairs it keeps,
judged on their summed counts and the documents' kept sizes (:data:`SIZES`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.parquet as pq

from winnow.pairs.model import PairFilter
from winnow.parallel import reusing_freed_memory
from winnow.sharded.pairs import PAIR_SCHEMA, by_pair
from winnow.sharded.plan import PARQUET, ROW_GROUP, Store, read_range, stage_task, task_name

COLUMNS = ("a", "b", "shared", "weight", "df_sum")


@dataclass(frozen=True)
class MergeTask:
    """Stage 3's work: the partial pair files of ``bucket`` (``rows`` in all),
    whose first documents are in ``[lo, hi)``."""

    store: Store
    bucket: int
    files: list[str]
    rows: int
    lo: int
    hi: int
    merge_rows: int
    keep: PairFilter | None = None  #: reads the kept sizes the driver wrote (:data:`SIZES`)


#: The file of the documents' kept sizes that a merge's pair filter reads.
SIZES = "kept/sizes.npy"


def merged_name(bucket: int) -> str:
    return f"merged/{task_name('merge', bucket)}.parquet"


def _read(task: MergeTask, lo: int, hi: int, expected: int) -> dict[str, npt.NDArray[Any]]:
    """The partial rows of the bucket whose first document is in ``[lo, hi)``."""
    return read_range(task.store, task.files, "a", lo, hi,
                      {name: PAIR_SCHEMA.field(name).type.to_pandas_dtype() for name in COLUMNS},
                      expected)


def sum_pairs(cols: dict[str, npt.NDArray[Any]]) -> pa.Table:
    """Partial rows summed per ``(a, b)``, in ``(a, b)`` order."""
    order = by_pair(cols["a"], cols["b"])  # the files' sorted runs, merged
    a, b = cols["a"][order], cols["b"][order]
    if a.shape[0] == 0:
        return PAIR_SCHEMA.empty_table()
    first = np.ones(a.shape[0], dtype=bool)
    first[1:] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    starts = np.flatnonzero(first)
    out = {"a": a[starts], "b": b[starts]}
    for name in COLUMNS[2:]:
        out[name] = np.add.reduceat(cols[name][order], starts)
    return pa.table(out, schema=PAIR_SCHEMA)


@stage_task
def merge_bucket(task: MergeTask) -> int:
    """Run stage 3 on one bucket (or read its marker); returns its pairs."""
    store = task.store
    marker = ("done", "merge", f"{task_name('merge', task.bucket)}.json")
    if store.exists(*marker):
        return int(store.read_marker(*marker)["pairs"])
    store.makedirs("merged")
    target = store.path(merged_name(task.bucket))
    temporary = f"{target}.tmp"
    filesystem, _ = store.fs()
    windows = max(1, -(-task.rows // task.merge_rows))
    span = task.hi - task.lo
    pairs = 0
    sizes = None if task.keep is None else store.read_array(SIZES)
    with pq.ParquetWriter(temporary, PAIR_SCHEMA, filesystem=filesystem, **PARQUET) as writer:
        for window in range(windows if task.files else 0):
            lo = task.lo + window * span // windows
            hi = task.lo + (window + 1) * span // windows
            with reusing_freed_memory():  # the window's arrays, given back at its end
                table = sum_pairs(_read(task, lo, hi, task.rows // windows))
                if task.keep is not None and sizes is not None and table.num_rows:
                    a, b, shared = (table.column(name).to_numpy()
                                    for name in ("a", "b", "shared"))
                    table = table.filter(task.keep(a, b, shared, sizes))
                writer.write_table(table, row_group_size=ROW_GROUP)
                pairs += table.num_rows
                del table  # before the next window is read
    filesystem.move(temporary, target)
    store.write_marker({"pairs": pairs}, [merged_name(task.bucket)], *marker)
    return pairs
