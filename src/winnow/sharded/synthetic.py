"""A synthetic fingerprint source with planted copies, for tests and benchmarks.

Every document has ``prints`` random 64-bit fingerprints, regenerated from
``(seed, doc)`` alone, so any shard yields any document without the others;
every ``copy_every``-th document copies the second half of an earlier
document's fingerprints, a half no document overwrites (the planted pairs,
:func:`planted_pairs`), and every document holds ``boiler`` fingerprints
drawn from a small pool of ``pool`` common ones (boilerplate the ``-m`` cap
is for).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class SyntheticShard:
    """Documents ``first .. first + count - 1`` of a synthetic corpus."""

    first: int
    count: int
    prints: int = 100
    seed: int = 0
    copy_every: int = 10
    boiler: int = 3
    pool: int = 50


def source_of(doc: int, copy_every: int) -> int:
    """The earlier document that ``doc`` copies from (``-1``: none)."""
    if copy_every <= 0 or doc < 2 or doc % copy_every:
        return -1
    return (doc * 2654435761 // 4096) % doc


def _own(doc: int, shard: SyntheticShard) -> U64:
    rng = np.random.default_rng([shard.seed, doc])
    hashes = rng.integers(0, np.iinfo(np.uint64).max, shard.prints, dtype=np.uint64,
                          endpoint=True)
    common = rng.integers(0, shard.pool, shard.boiler, dtype=np.uint64)
    hashes[:shard.boiler] = (common + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
    return hashes


def synthetic_prints(shard: SyntheticShard) -> Iterator[tuple[int, U64]]:
    """``(doc, fingerprints)`` of every document of ``shard``."""
    for doc in range(shard.first, shard.first + shard.count):
        hashes = _own(doc, shard)
        source = source_of(doc, shard.copy_every)
        if source >= 0:  # the source's second half (never overwritten) into the first
            half = shard.boiler + (shard.prints - shard.boiler) // 2
            copied = _own(source, shard)[half:]
            hashes[shard.boiler:shard.boiler + copied.shape[0]] = copied
        yield doc, hashes


def synthetic_shards(documents: int, per_shard: int, **settings: int) -> list[SyntheticShard]:
    """The shards of a corpus of ``documents`` documents, ``per_shard`` each."""
    return [SyntheticShard(first, min(per_shard, documents - first), **settings)
            for first in range(0, documents, per_shard)]


def planted_pairs(documents: int, copy_every: int = 10) -> tuple[I64, I64]:
    """The planted ``(a, b)`` pairs (``a < b``) of a corpus of ``documents``."""
    b = np.array([d for d in range(documents) if source_of(d, copy_every) >= 0], np.int64)
    a = np.array([source_of(int(d), copy_every) for d in b], np.int64)
    return a, b
