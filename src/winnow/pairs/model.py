"""The stage's types: the postings that go in and the pair sums that come out
(the engines that turn one into the other: :mod:`winnow.pairs.registry`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from winnow.parallel import Progress
from winnow.tables import PairCounts, SharedCounts

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

#: Bytes a fingerprint row takes at the in-memory engine's peak where the
#: postings say nothing else (:attr:`Postings.row_bytes`): 1.2 GiB for 10
#: million rows (benchmarks/sharded.results.md).
ROW_BYTES = 120

@dataclass(frozen=True)
class DocBatch:
    """Many documents' fingerprints at once: document ``docs[i]`` has the
    ``counts[i]`` distinct hashes that follow those of ``docs[:i]`` in
    ``hashes``.  A reader gives these where one ``(document, hashes)`` pair
    per document would cost more in Python than the fingerprinting."""

    docs: I64
    counts: I64
    hashes: U64
    #: a digest of each document's distinct hashes (0 for none), when the
    #: reader gives one: documents with the same set have the same digest,
    #: and the engines hand them back (:attr:`PairSums.digests`)
    digests: U64 | None = None

    def owners(self) -> I64:
        """The document of every hash."""
        return np.repeat(self.docs, self.counts)


#: ``read(shard)``: the ``(document, hashes)`` of every document of an input
#: shard, or :class:`DocBatch` objects; a module-level function, so that
#: worker processes and Ray tasks can be handed it.
Reader = Callable[[Any], Iterable["tuple[int, Any] | DocBatch"]]


@dataclass(frozen=True)
class Shards:
    """Input shards (picklable, each holding whole documents) and their reader."""

    items: Sequence[Any]
    read: Reader


class Layout(Protocol):
    """What a sharded engine offers the postings it asks for input shards:
    the rows one input shard should hold, and a place to spill postings that
    stream out of a database."""

    @property
    def row_budget(self) -> int: ...

    def spill(self, rows: Iterable[tuple[I64, I64]]) -> Shards:
        """Input shards of ``(document, hash)`` row batches, ordered by
        document, written to the run's working folder."""
        ...


class PairFilter(Protocol):
    """Which summed pairs a client can use at all, from their shared counts and
    the documents' kept sizes: ``keep(a, b, shared, sizes)`` is ``True`` for
    those.  Picklable (the sharded engines' merge tasks call it), with a
    ``repr`` that names its parameters (a working folder's run is tied to it)."""

    def __call__(self, a: I64, b: I64, shared: I64, sizes: I64) -> Bools: ...


class Postings(ABC):
    """The stage's input: documents ``0 .. documents - 1`` and their fingerprints.

    ``rows`` the fingerprint rows (exact or estimated: the ``auto`` rule and
    a sharded run's partitions are chosen from it, the rule with
    ``row_bytes``); ``base`` hashes counted in
    their documents' sizes but never shared; ``archive[d]`` marks documents
    never paired with each other; ``keep`` the pairs the client can use: an
    engine may leave the others out of its sums (the sharded engines do, as
    they merge, so that the pairs they write and the client reads are only
    those; the corpus's in-memory count does as it sums them).  A client
    subclasses it once and gives its postings both ways, so that every
    engine can count them.
    """

    documents: int
    rows: int
    #: bytes a row of ``rows`` takes at the peak of :meth:`in_memory`, about:
    #: what ``auto`` weighs (:meth:`winnow.pairs.registry.EngineChoice.resolve`)
    row_bytes: int = ROW_BYTES
    base: U64 | None = None
    archive: Bools | None = None
    keep: PairFilter | None = None

    @abstractmethod
    def in_memory(self, cap: int, progress: Progress | None) -> PairSums:
        """The pair sums counted in this process, in one sort: the
        ``in-memory`` engine (:func:`winnow.pairs.memory.count_postings` over
        gathered postings, or a table's own count)."""

    @abstractmethod
    def shards(self, layout: Layout) -> Shards:
        """The postings as input shards of about ``layout.row_budget`` rows,
        for a sharded engine's workers."""


class PairSums(Protocol):
    """The stage's output.

    ``sizes[d]`` the distinct fingerprints of document ``d`` kept by the cap
    (base ones included), ``weight_totals[d]`` their IDF weight
    (:func:`winnow.tables.idf_weights`); :meth:`excluded` the capped hashes,
    sorted.  The pairs ``a < b`` sharing a kept, non-base hash: block by
    block (``for a, b, shared in sums``, in the engine's deterministic order),
    or all at once.
    """

    @property
    def sizes(self) -> I64: ...

    @property
    def weight_totals(self) -> F64: ...

    @property
    def stats(self) -> dict[str, int]: ...

    @property
    def digests(self) -> U64 | None:
        """Per document, the digest of its distinct hashes its reader gave in
        :class:`DocBatch` objects (0 for a document without one), or ``None``
        where the reader gave none."""
        ...

    def excluded(self) -> U64: ...

    def pair_counts(self) -> PairCounts:
        """Every pair and its shared count (the cheapest form a table gives)."""
        ...

    def shared_counts(self) -> SharedCounts:
        """Every pair, with the weights and document-frequency sums."""
        ...

    def __iter__(self) -> Iterator[tuple[I64, I64, I64]]: ...
