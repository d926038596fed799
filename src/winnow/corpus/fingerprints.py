"""Fingerprints of corpus records, one input shard at a time.

A record's text goes through the text front-end (Unicode-aware; case,
whitespace and punctuation dropped: winnowing paper, section 5.2) and robust
winnowing (section 3, and 5.1 for the robust tie rule); its fingerprints are
the *distinct* selected hashes.  Winnowing's guarantee carries over to
records: two records that share a passage of at least ``t`` normalised
characters share at least one fingerprint, whatever surrounds the passage.

:func:`fingerprint_shard` is the function the pair engines map over the
input shards: module-level and picklable, so it runs in worker processes and
Ray tasks alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.corpus.readers import Fields, Record, Shard, read_shard
from winnow.engine import fingerprint
from winnow.frontends.text import char_units

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class ShardJob:
    """One unit of work of the pair engines: a shard, where its records'
    text is, and the fingerprinting parameters."""

    shard: Shard
    fields: Fields
    config: WinnowConfig

    @property
    def records(self) -> int:
        return self.shard.count


def record_hashes(text: str, config: WinnowConfig) -> U64:
    """The distinct fingerprint hashes of one record's text, sorted."""
    units = char_units(text.encode("utf-8")).cps
    if units.shape[0] < config.k:
        return np.zeros(0, dtype=np.uint64)
    return np.unique(fingerprint(units, config)["hash"])


def fingerprint_shard(job: ShardJob) -> Iterator[tuple[int, U64]]:
    """``(doc, distinct hashes)`` of every usable record of the shard (bad
    records give nothing here; the writer's pass names them)."""
    for record in read_shard(job.shard, job.fields):
        if isinstance(record, Record):
            yield record.doc, record_hashes(record.text, job.config)


def shard_postings(job: ShardJob) -> tuple[U64, I64]:
    """Every ``(hash, doc)`` row of one shard as two arrays (for a process pool,
    which cannot return a generator)."""
    hashes: list[U64] = []
    docs: list[I64] = []
    for doc, found in fingerprint_shard(job):
        hashes.append(found)
        docs.append(np.full(found.shape[0], doc, dtype=np.int64))
    if not hashes:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64)
    return np.concatenate(hashes), np.concatenate(docs)


__all__ = ["ShardJob", "fingerprint_shard", "record_hashes", "shard_postings"]
