"""The records' rows grouped by shared hash, in memory: what dedup's pair count reads.

The rows (one per distinct ``(hash, record)``) come put in parts by the low
bits of their hashes; :func:`shared_groups` finds the hashes held by several
records a part at a time (one compiled pass, :func:`winnow.corpus._kernels.shared_groups`,
each part's hash table in the processor's cache), on two threads for a large
corpus, and keeps only those groups: the rows of a hash that one record holds
alone count in its size but pair nothing.  :mod:`winnow.corpus.pairs` counts
the pairs of the groups.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import numpy.typing as npt

from winnow.compiled import uninterrupted
from winnow.corpus import _kernels
from winnow.corpus.fingerprints import by_part
from winnow.parallel import drop_pages, usable_cores

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


#: :func:`shared_groups` looks at one part of the rows at a time: those whose
#: hashes' low bits are the same, about this many rows a part, so that each
#: part's hash table (an 8-byte slot per slot, 2-4 slots a row, and 32 bytes
#: a row beside it) stays in the cache.
PART_ROWS = 1 << 14


def part_bits(rows: int) -> int:
    """Low bits of the hashes that part ``rows`` rows into parts of about
    :data:`PART_ROWS`."""
    return min(16, max(0, (rows // PART_ROWS).bit_length()))


@dataclass(frozen=True)
class Groups:
    """The rows ``(hashes, owners)`` of the hashes in 2 to ``cap`` records,
    a hash's rows together and by owner, the hashes sorted (``by_hash``) or
    in the order found, each hash's ``df`` (row by row), and per
    record its ``kept`` rows (hashes in at most ``cap`` records) and those
    ``alone`` (hashes in no other record); ``capped``: the hashes in more
    than ``cap`` records, sorted; ``rows``/``distinct``: all rows, all hashes.
    The hashes and ``df`` are held a group at a time (``group_hashes``,
    ``sizes``) and spread over the rows only when asked for: the pair count
    that dedup runs (:func:`~winnow.corpus.pairs.count_kept`) needs neither row by row."""

    group_hashes: U64
    owners: I64
    kept: I64
    alone: I64
    capped: U64
    rows: int
    distinct: int
    #: the rows of each hash in turn (its ``df``), in the rows' order
    sizes: I64
    by_hash: bool = True

    @property
    def hashes(self) -> U64:
        """Every row's hash."""
        return np.repeat(self.group_hashes, self.sizes)

    @property
    def df(self) -> I64:
        """Every row's hash's document frequency (its group's size)."""
        return np.repeat(self.sizes, self.sizes)


def shared_groups(hashes: U64, owners: npt.NDArray[np.integer], documents: int, cap: int,
                  bounds: I64 | None = None, *, by_hash: bool = True,
                  consume: bool = False) -> Groups:
    """The rows of the hashes in several records, found and grouped by one
    compiled pass (:func:`winnow.corpus._kernels.shared_groups`) a part of
    about :data:`PART_ROWS` rows at a time, each part's hash table in the
    cache; only the groups are sorted.  100,000 records (3.9 million rows)
    of ``benchmarks/scale.py``: 0.07 s, against 0.21 s for one table of every
    row.  ``bounds``: where the rows of each part are, as
    :meth:`~winnow.corpus.pairs.CorpusPostings.gather` gives them; without it the rows are put
    in parts here (:func:`~winnow.corpus.fingerprints.by_part`).  Not
    ``by_hash``: the groups in the order the pass found them (what
    :func:`~winnow.corpus.pairs.count_kept` counts; :func:`hash_ordered` sorts them).

    From :data:`SPLIT_ROWS` rows on, with two usable cores, two threads
    (the pass runs without the GIL) each take the parts before and after
    the one that halves the rows, writing into the same arrays at offsets
    that the other cannot reach; the second's groups are then moved down
    behind the first's: the same arrays as one pass gives.  ``consume``:
    the caller will not read ``hashes`` and ``owners`` again (given in one
    run of parts), and their pages are given back as the parts are grouped
    (:func:`~winnow.parallel.drop_pages`), about :data:`GROUP_ROWS` rows at a
    time, so that they and the groups are never both whole (1,000,000
    records of ``benchmarks/scale.py``: 160 MiB less at the run's peak)."""
    n = hashes.shape[0]
    if bounds is None:
        hashes, owners, parts = by_part(hashes, owners, part_bits(n))
        bounds = np.zeros((1, parts.shape[0] + 1), dtype=np.int64)
        np.cumsum(parts, out=bounds[0, 1:])
    hashes = np.ascontiguousarray(hashes, dtype=np.uint64)
    rows = np.empty(n, dtype=np.int64)  # bounds: pages never written are never mapped
    group_hash = np.empty(n // 2 + 1, dtype=np.uint64)
    size = np.empty(n // 2 + 1, dtype=np.int64)
    kept = np.zeros(documents, dtype=np.int64)
    alone = np.zeros(documents, dtype=np.int64)
    capped = np.empty(n // (cap + 1) + 2, dtype=np.uint64)
    per_part = (bounds[:, 1:] - bounds[:, :-1]).sum(axis=0)
    ends = np.cumsum(per_part)
    cut = int(np.searchsorted(ends, n // 2)) if two_threads(n) else 0
    run = partial(_group_parts, hashes, owners, bounds, ends, cap,
                  consume and bounds.shape[0] == 1)
    if not 0 < cut < per_part.shape[0]:
        groups, filled, n_capped, distinct = run(0, per_part.shape[0], rows, group_hash, size,
                                                 kept, alone, capped)
    else:
        m = int(ends[cut - 1])  # the first thread's rows: its groups' bounds
        g, c = m // 2 + 1, m // (cap + 1) + 1
        later_kept = np.zeros(documents, dtype=np.int64)
        later_alone = np.zeros(documents, dtype=np.int64)
        calls = [(0, cut, rows[:m], group_hash[:g], size[:g], kept, alone, capped[:c]),
                 (cut, per_part.shape[0], rows[m:], group_hash[g:], size[g:], later_kept,
                  later_alone, capped[c:])]
        with ThreadPoolExecutor(2, thread_name_prefix="winnow-groups") as pool:
            (groups, filled, n_capped, distinct), (groups2, filled2, n_capped2, distinct2) = \
                pool.map(lambda x: run(*x), calls)
        del calls  # no view of the arrays outlives the threads: they are resized below
        _move_down(rows, filled, m, filled2)
        _move_down(group_hash, groups, g, groups2)
        _move_down(size, groups, g, groups2)
        _move_down(capped, n_capped, c, n_capped2)
        kept += later_kept
        alone += later_alone
        del later_kept, later_alone
        groups, filled = groups + groups2, filled + filled2
        n_capped, distinct = n_capped + n_capped2, distinct + distinct2
    for grown, used in ((rows, filled), (group_hash, groups), (size, groups)):
        grown.resize(used, refcheck=False)  # in place: the pages past it given back
    found = Groups(group_hash, rows, kept, alone, np.sort(capped[:n_capped]), n, distinct, size,
                   by_hash=False)
    return hash_ordered(found) if by_hash else found


#: Rows :func:`shared_groups` groups between two givings back of its
#: input's pages (``consume``).
GROUP_ROWS = 1 << 21


def _group_parts(hashes: U64, owners: npt.NDArray[np.integer], bounds: I64, ends: I64,
                 cap: int, consume: bool, first: int, last: int, rows: I64, group_hash: U64,
                 size: I64, kept: I64, alone: I64, capped: U64) -> tuple[int, int, int, int]:
    """:func:`winnow.corpus._kernels.shared_groups` on parts ``first`` to
    ``last - 1`` (``ends``: the rows up to each part's end), filling the
    arrays from their starts; with ``consume``, a stretch of about
    :data:`GROUP_ROWS` rows at a time, each stretch's rows of ``hashes``
    and ``owners`` given back once grouped.  Returns the kernel's
    ``(groups, grouped rows, capped hashes, distinct hashes)``, summed."""
    totals = [0, 0, 0, 0]
    step = GROUP_ROWS if consume else None
    start = first
    while start < last:
        stop = last if step is None else max(start + 1, min(last, int(np.searchsorted(
            ends, ends[start] + step, "right"))))
        groups, filled, n_capped = totals[:3]
        with uninterrupted():  # several values come back (winnow.compiled.uninterrupted)
            found = _kernels.shared_groups(
                hashes, owners, np.ascontiguousarray(bounds[:, start:stop + 1]), cap,
                rows[filled:], group_hash[groups:], size[groups:], kept, alone,
                capped[n_capped:])
        totals = [t + f for t, f in zip(totals, found, strict=True)]
        if consume:
            drop_pages(hashes, int(bounds[0, start]), int(bounds[0, stop]))
            drop_pages(owners, int(bounds[0, start]), int(bounds[0, stop]))
        start = stop
    return totals[0], totals[1], totals[2], totals[3]


#: Rows (or, for :func:`~winnow.corpus.pairs.count_kept`, pair incidences) from which the
#: compiled passes run on two threads: below, the threads cost more than
#: they save.
SPLIT_ROWS = 1 << 20


def two_threads(work: int) -> bool:
    """Whether ``work`` (:data:`SPLIT_ROWS`' units) is worth two threads here."""
    return work >= SPLIT_ROWS and usable_cores() >= 2


def _move_down(values: npt.NDArray[np.generic], to: int, start: int, n: int) -> None:
    """``values[to:to + n] = values[start:start + n]`` (``to <= start``), a
    stretch that does not overlap its source at a time, so that numpy makes
    no temporary copy of them."""
    gap = start - to
    if n <= 0 or gap == 0:
        return
    if gap < 1 << 16:  # a short gap: one copy (the groups a thread found fill its rows)
        values[to:to + n] = values[start:start + n].copy()
        return
    for done in range(0, n, gap):
        step = min(gap, n - done)
        values[to + done:to + done + step] = values[start + done:start + done + step]


def hash_ordered(groups: Groups) -> Groups:
    """``groups`` with the hashes sorted (a hash's rows stay together, by owner)."""
    if groups.by_hash:
        return groups
    size = groups.sizes
    starts = np.cumsum(size) - size
    order = np.argsort(groups.group_hashes, kind="stable")
    size = size[order]
    where = np.repeat(starts[order] - (np.cumsum(size) - size), size)
    where += np.arange(groups.owners.shape[0], dtype=np.int64)
    return replace(groups, group_hashes=groups.group_hashes[order], owners=groups.owners[where],
                   sizes=size, by_hash=True)


__all__ = ["GROUP_ROWS", "PART_ROWS", "SPLIT_ROWS", "Groups", "hash_ordered", "part_bits",
           "shared_groups", "two_threads"]
