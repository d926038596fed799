"""Shared pieces of the sharded-engine tests: the in-memory reference count,
and a fingerprint source that kills its process part-way (resumption)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import numpy as np

from winnow.matching.base import in_base
from winnow.matching.table import FingerprintTable, build_table
from winnow.sharded import PairSums
from winnow.sharded.synthetic import SyntheticShard, synthetic_prints

#: Shards whose first document is at least this die (see :func:`dying_prints`).
DIE_FROM = "WINNOW_TEST_DIE_FROM"


def in_memory(shards: list[SyntheticShard], cap: int, base: np.ndarray,
              archive: np.ndarray) -> FingerprintTable:
    """The in-memory engine's table of the same documents."""
    hashes, files = [], []
    for shard in shards:
        for doc, h in synthetic_prints(shard):
            hashes.append(h)
            files.append(np.full(h.shape[0], doc, dtype=np.int32))
    h = np.concatenate(hashes)
    n = archive.shape[0]
    return build_table(h, np.concatenate(files), np.arange(n), n, cap=cap, archive=archive,
                       own=~in_base(h, base))


def sorted_counts(table: FingerprintTable) -> tuple[np.ndarray, ...]:
    c = table.counts
    order = np.lexsort((c.b, c.a))
    return c.a[order], c.b[order], c.shared[order], c.weight[order], c.df_sum[order]


def assert_same_as_in_memory(sums: PairSums, table: FingerprintTable) -> None:
    """Pair for pair: the same pairs, counts and weights, to the last bit."""
    a, b, shared, weight, df_sum = sorted_counts(table)
    got = sums.shared_counts()
    assert a.shape[0] > 0
    np.testing.assert_array_equal(got.a, a)
    np.testing.assert_array_equal(got.b, b)
    np.testing.assert_array_equal(got.shared, shared)
    np.testing.assert_array_equal(got.df_sum, df_sum)
    np.testing.assert_array_equal(got.weight, weight)
    np.testing.assert_array_equal(sums.sizes, table.sizes)
    np.testing.assert_array_equal(sums.weight_totals, table.weight_totals)
    np.testing.assert_array_equal(sums.excluded(), table.excluded)


def dying_prints(shard: SyntheticShard) -> Iterator[tuple[int, np.ndarray]]:
    """:func:`synthetic_prints`, but the process is killed (SIGKILL, no
    clean-up) in the middle of the first shard at or past ``$DIE_FROM``."""
    die_from = int(os.environ.get(DIE_FROM, "-1"))
    for n, item in enumerate(synthetic_prints(shard)):
        if 0 <= die_from <= shard.first and n == shard.count // 2:
            os.kill(os.getpid(), signal.SIGKILL)
        yield item
