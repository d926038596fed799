"""Near-duplicate and containment detection over text corpora (``winnow dedup``).

Records come from JSON Lines files (plain or compressed), Parquet files and
folders of text files (:mod:`~winnow.corpus.readers`); each is fingerprinted
by winnowing (:mod:`~winnow.corpus.fingerprints`), pairs are counted in
memory or by the sharded engine (:mod:`~winnow.corpus.pairs`), linked pairs
clustered (:mod:`~winnow.corpus.clusters`), and :mod:`~winnow.corpus.dedup`
wires the stages.
"""

from __future__ import annotations

from winnow.corpus.clusters import Clusters, Thresholds, cluster_pairs
from winnow.corpus.dedup import DedupRun, DuplicateRow, find_duplicates, read_back
from winnow.corpus.options import DedupSettings
from winnow.corpus.readers import BadRecord, Fields, Record, Shard, plan_shards, read_shard
from winnow.parallel import prefer_system_allocator

prefer_system_allocator()  # the stages load Arrow when they run, after this

__all__ = ["BadRecord", "Clusters", "DedupRun", "DedupSettings", "DuplicateRow", "Fields",
           "Record", "Shard", "Thresholds", "cluster_pairs", "find_duplicates",
           "plan_shards", "read_back", "read_shard"]
