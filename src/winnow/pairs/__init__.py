"""The pair-counting stage: postings in, pair sums out.

MOSS's first pass (winnowing paper, section 5.2) and sif's all-against-all
(Manber 1994, section 4) ask one question of ``(hash, document)`` postings:
for every pair of documents, how many distinct fingerprints do they share,
ignoring the fingerprints more than ``cap`` documents hold?  Every command
that needs the answer (``compare``, ``groups``, ``dedup``) asks it here, in
one call::

    with count_pairs(postings, cap, EngineChoice("auto")) as sums:
        for a, b, shared in sums: ...

* **Postings** (:class:`Postings`): the client's documents, numbered
  ``0 .. documents - 1``, with about ``rows`` fingerprint rows, optional
  ``base`` hashes (counted in the sizes, never shared) and ``archive``
  documents (never paired with each other).  They come out either all at
  once in this process (:meth:`Postings.in_memory`), or as picklable input
  shards for workers (:meth:`Postings.shards`).
* **Engines** (:mod:`winnow.pairs.registry`): ``in-memory`` (one sort in
  this process), ``local-sharded`` and ``ray`` (hash-partitioned Parquet
  shards, :mod:`winnow.sharded`), registered by name; ``auto`` picks one from
  the postings' rows (:meth:`EngineChoice.resolve`, the one rule).
* **Pair sums** (:class:`PairSums`): each document's kept fingerprints and
  IDF weight, the capped hashes, and every pair ``a < b`` sharing a kept
  fingerprint, with the shared count, the shared hashes' IDF weight and
  document-frequency sum; the same sums whatever the engine.
* **Counting** (:mod:`winnow.pairs.counting`, loops in
  :mod:`winnow.pairs._kernels`): the functions over ``(hash, owner)`` arrays
  that every engine, compare's table and dedup's groups count with: grouping
  the rows by hash, the frequency cap, and the pair sums (a sparse product of
  the owner x hash incidence matrix).
"""

from __future__ import annotations

from winnow.pairs.model import (
    DocBatch,
    Layout,
    PairFilter,
    PairSums,
    Postings,
    Reader,
    Shards,
)
from winnow.pairs.registry import (
    ENGINE_NAMES,
    ENGINES,
    SHARDED_ROWS,
    Engine,
    EngineChoice,
    EngineName,
    engine_named,
)
from winnow.pairs.stage import count_pairs

__all__ = ["ENGINES", "ENGINE_NAMES", "SHARDED_ROWS", "DocBatch", "Engine", "EngineChoice",
           "EngineName", "Layout", "PairFilter", "PairSums", "Postings", "Reader", "Shards",
           "count_pairs", "engine_named"]
