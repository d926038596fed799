"""The index's shared postings as the pair-counting stage's input
(:mod:`winnow.pairs`), for ``groups`` (Manber 1994, section 4).

In memory, the index counts them itself: one SQL self-join over its table of
shared postings (:meth:`winnow.index.FingerprintIndex.pair_counts`).  A
sharded engine reads them streamed, by document
(:meth:`~winnow.index.FingerprintIndex.shared_postings`), and spills them to
its working folder as input shards.  Documents are numbered by their
position in the chosen ``ids``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from winnow.index.store import FingerprintIndex
from winnow.pairs import Layout, PairSums, Postings, Shards
from winnow.parallel import Progress
from winnow.tables import PairCounts, SharedCounts, idf_weights

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


class IndexPostings(Postings):
    """The shared postings of the documents ``ids`` of ``index``; ``rows`` the
    fingerprint rows that size the run (default: every indexed document's)."""

    def __init__(self, index: FingerprintIndex, ids: npt.NDArray[np.integer],
                 rows: int | None = None) -> None:
        self.index = index
        self.ids = np.asarray(ids, dtype=np.int64)
        self.documents = int(self.ids.shape[0])
        self.rows = sum(r.n_distinct for r in index.documents()) if rows is None else rows

    def in_memory(self, cap: int, progress: Progress | None) -> PairSums:
        return IndexSums(self, cap)

    def shards(self, layout: Layout) -> Shards:
        return layout.spill(self.index.shared_postings(self.ids.astype(np.int32)))

    def positions(self, counts: PairCounts) -> tuple[I64, I64]:
        """The pairs' index ids as positions in :attr:`ids`."""
        position = np.full(int(self.ids.max(initial=-1)) + 1, -1, dtype=np.int64)
        position[self.ids] = np.arange(self.ids.shape[0])
        return position[counts.a], position[counts.b]


@dataclass
class IndexSums:
    """The index's own count (:class:`~winnow.pairs.PairSums`): the pairs by
    its self-join; the documents' sums over their shared postings, which
    ``groups`` does not read, when asked.  Weights follow the index's formula
    (:meth:`~winnow.index.FingerprintIndex.shared_counts`), equal to the
    other engines' to rounding."""

    postings: IndexPostings
    cap: int
    _pairs: PairCounts | None = field(default=None, repr=False)
    digests: None = None  #: the index keeps no digests of its documents' sets

    def pair_counts(self) -> PairCounts:
        if self._pairs is None:
            p = self.postings
            counts = p.index.pair_counts(p.ids, self.cap)
            self._pairs = PairCounts(*p.positions(counts), counts.shared)
        return self._pairs

    def shared_counts(self) -> SharedCounts:
        p = self.postings
        counts = p.index.shared_counts(p.ids, self.cap)
        return SharedCounts(*p.positions(counts), counts.shared, counts.weight, counts.df_sum)

    def __iter__(self) -> Iterator[tuple[I64, I64, I64]]:
        counts = self.pair_counts()
        yield counts.a, counts.b, counts.shared

    @cached_property
    def _documents(self) -> tuple[I64, F64, U64]:
        """Each document's kept postings and their weight, and the capped
        hashes: its shared postings, less those of hashes in more than
        ``cap`` of the chosen documents."""
        p = self.postings
        n = p.documents
        parts = list(p.index.shared_postings(p.ids.astype(np.int32)))
        docs = np.concatenate([np.zeros(0, np.int64), *(d for d, _ in parts)])
        hashes = np.concatenate([np.zeros(0, np.int64), *(h for _, h in parts)])
        unique, inverse, df = np.unique(hashes, return_inverse=True, return_counts=True)
        row_df = df[inverse]
        kept = row_df <= self.cap
        sizes = np.bincount(docs[kept], minlength=n).astype(np.int64)
        weights = np.bincount(docs[kept], weights=idf_weights(row_df[kept], n), minlength=n)
        return sizes, weights.astype(np.float64), np.sort(unique[df > self.cap].view(np.uint64))

    @property
    def sizes(self) -> I64:
        return self._documents[0]

    @property
    def weight_totals(self) -> F64:
        return self._documents[1]

    def excluded(self) -> U64:
        return self._documents[2]

    @property
    def stats(self) -> dict[str, int]:
        return {"documents": self.postings.documents, "kept": int(self.sizes.sum()),
                "ignored_common": int(self.excluded().shape[0]),
                "pairs_sharing": len(self.pair_counts())}
