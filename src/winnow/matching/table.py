"""The in-memory fingerprint table of one comparison: what counting needs.

The distinct fingerprints of every file of a batch, with common fingerprints
removed (MOSS ``-m``, winnowing paper section 5.2: a fingerprint in too many
documents is ignored), the per-submission set sizes and weights, and the
shared counts per pair.  Fingerprints of base code (MOSS ``-b``,
:mod:`winnow.matching.base`) stay in their submission's set, so scores are
shares of whole submissions, but are never counted as shared.  Positions
are not kept: the
passages of the few reported pairs re-fingerprint their files
(:mod:`winnow.matching.pairs`), so the table costs 12 bytes per distinct
fingerprint of a file rather than 24 per occurrence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from winnow.compiled import uninterrupted
from winnow.matching import _kernels
from winnow.pairs.counting import count_shared, group_bounds
from winnow.tables import PairCounts, SharedCounts, idf_weights

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class FingerprintTable:
    """What was counted.

    ``excluded`` the sorted hashes ignored everywhere (capped by ``-m``);
    ``sizes[x] = |F_x|``; ``weight_totals[x] = W_x`` (base fingerprints
    included); ``file_prints[f]`` the distinct kept fingerprints of file ``f``.
    """

    excluded: U64
    sizes: I64
    weight_totals: F64
    file_prints: I64
    counts: SharedCounts
    stats: dict[str, int]
    #: The ``(hash, owner)`` postings of the fingerprints at least ``many``
    #: submissions hold outside the base code, capped ones included, sorted
    #: by hash (:mod:`winnow.matching.common`); empty when not asked for.
    many_hashes: U64 = field(default_factory=lambda: np.zeros(0, np.uint64))
    many_owners: I64 = field(default_factory=lambda: np.zeros(0, np.int64))


def in_sorted(values: U64, sorted_set: U64) -> Bools:
    """``values[i] in sorted_set`` for every ``i`` (binary search; the set stays small)."""
    if sorted_set.shape[0] == 0:
        return np.zeros(values.shape[0], dtype=bool)
    idx = np.minimum(np.searchsorted(sorted_set, values), sorted_set.shape[0] - 1)
    hit: Bools = sorted_set[idx] == values
    return hit


def stable_order(hashes: U64) -> tuple[I64, U64]:
    """``np.argsort(hashes, kind="stable")`` and ``hashes`` in that order, by
    a bucket sort of the hashes' high bits carrying the row numbers
    (:func:`_kernels.hash_sorted`): the rows are winnowed hashes, spread over
    the 64 bits, so the buckets stay small (the class of
    ``benchmarks/compare.py``, 2.7 M rows: 0.07-0.09 s, about half of
    ``np.sort`` of the hashes alone)."""
    if hashes.shape[0] < 2:
        order = np.argsort(hashes, kind="stable")
        return order, hashes[order]
    rows = np.arange(hashes.shape[0], dtype=np.uint32 if hashes.shape[0] < 1 << 32 else np.int64)
    with uninterrupted():  # two arrays come back (winnow.compiled.uninterrupted)
        ordered, order = _kernels.hash_sorted(hashes, rows)  # 32-bit rows: _group's signature
    return order.astype(np.int64), ordered


@dataclass(frozen=True)
class Groups:
    """What one sort by hash tells: the kept distinct (hash, owner) postings with
    their document frequency and whether any of their rows is outside the base
    code, the capped hashes and the kept rows per file."""

    hashes: U64
    owners: I64
    df: I64
    own: Bools
    capped: U64
    file_prints: I64
    distinct: int
    many_hashes: U64
    many_owners: I64


def _group(hashes: U64, files: I32, file_owner: I64, own: Bools, cap: int, many: int = 0,
           many_is_base: bool = False) -> Groups:
    """:func:`group_words` of the rows of ``files`` (grouped by owner), each
    row's file and base flag packed in one word (:func:`row_words`)."""
    return group_words(hashes, row_words(files, own, file_owner.shape[0]), file_owner, cap,
                       many, many_is_base)


def word_type(n_files: int) -> type[np.unsignedinteger]:
    """The word :func:`group_words` takes for ``n_files`` files: ``file << 1 | own``."""
    return np.uint64 if n_files >= 1 << 31 else np.uint32


def row_words(files: I32, own: Bools, n_files: int) -> npt.NDArray[np.unsignedinteger]:
    """Each row's ``file << 1 | own`` in :func:`word_type`'s word."""
    word = word_type(n_files)
    rows = np.left_shift(files.astype(word), 1, dtype=word)
    np.bitwise_or(rows, own.astype(word), out=rows)
    return rows


def group_words(hashes: U64, words: npt.NDArray[np.unsignedinteger], file_owner: I64, cap: int,
                many: int = 0, many_is_base: bool = False) -> Groups:
    """Sort the rows (distinct per file, grouped by owner) stably by hash,
    each row's file and base flag carried along in one word (``words[i] =
    file << 1 | own``, :func:`row_words`;
    :func:`winnow.matching._kernels.hash_sorted`), and read every grouping
    off them in one compiled pass (:func:`winnow.matching._kernels.group_rows`),
    which writes the postings themselves: no array of row numbers, and no
    gather of the rows' columns before or after (the 2,000-file class of
    ``benchmarks/compare.py``, 2.7 M rows: 0.13 -> 0.09 s, best of five in
    one process, against sorting the row numbers and gathering)."""
    with uninterrupted():  # several arrays come back (winnow.compiled.uninterrupted)
        h, rows = _kernels.hash_sorted(hashes, words)
        (kept, post_hash, post_owner, post_df, post_own, n_capped, capped, file_prints,
         n_many, many_hash, many_owner, distinct) = _kernels.group_rows(
            h, rows, np.ascontiguousarray(file_owner, dtype=np.int64), int(cap), int(many),
            bool(many_is_base))
    del h, rows
    return Groups(
        hashes=post_hash[:kept], owners=post_owner[:kept], df=post_df[:kept],
        own=post_own[:kept], capped=capped[:n_capped], file_prints=file_prints,
        distinct=int(distinct), many_hashes=many_hash[:n_many], many_owners=many_owner[:n_many],
    )


@dataclass(frozen=True)
class MemoryTable:
    """compare's postings as a fingerprint table, counted in one pass.

    ``hashes``/``owners`` the distinct ``(hash, owner)`` postings sorted by
    hash then owner; ``own[i]`` says posting ``i`` has an occurrence outside
    the base code (base postings count in document frequencies, never as
    shared); ``archive[x]`` marks owners never paired with each other;
    ``df[i]``, when known, the number of owners holding ``hashes[i]``
    (counted again otherwise).
    """

    hashes: U64
    owners: I64
    own: Bools
    archive: Bools
    df: I64 | None = None

    def pair_counts(self, owners: npt.NDArray[np.integer], max_df: int) -> PairCounts:
        """:meth:`shared_counts` (the weights come free)."""
        return self.shared_counts(owners, max_df)

    def shared_counts(self, owners: npt.NDArray[np.integer], max_df: int) -> SharedCounts:
        """Every pair ``a < b`` of ``owners`` sharing a hash held by at most
        ``max_df`` of them, with weights (``N = len(owners)``): one pass over the
        postings of ``owners`` (:func:`winnow.pairs.counting.count_shared`);
        no posting array is copied when every posting counts."""
        n_all = self.archive.shape[0]
        chosen = np.asarray(owners, dtype=np.int64)
        hashes, posting_owner, own, df = self.hashes, self.owners, self.own, self.df
        if chosen.shape[0] != n_all or not np.array_equal(chosen, np.arange(n_all)):
            member = np.zeros(n_all, dtype=bool)
            member[chosen] = True
            rows = member[self.owners]
            hashes, posting_owner, own, df = hashes[rows], posting_owner[rows], own[rows], None
        if df is None:
            _starts, sizes = group_bounds(hashes)
            df = np.repeat(sizes, sizes)
        weights = idf_weights(df, chosen.shape[0])
        shared = own & (df <= max_df)
        del df
        if not shared.all():
            hashes, posting_owner, weights = hashes[shared], posting_owner[shared], weights[shared]
        del shared
        return count_shared(hashes, posting_owner, n_all, weights=weights,
                            excluded_owner_pairs=self.archive)


def build_table(
    hashes: U64, files: I32, file_owner: I64, n_owners: int, *,
    cap: int, archive: Bools, own: Bools | None = None, many: int = 0,
    many_is_base: bool = False,
) -> FingerprintTable:
    """Drop capped hashes, count per-owner sets and shared pairs.

    ``hashes[i]`` is a fingerprint of file ``files[i]`` (each distinct within
    its file); ``own[i]`` says it has an occurrence outside the base code
    (default: all do); ``cap`` is the largest number of owners a kept hash
    may appear in; ``archive[x]`` marks owners never paired with each other.
    One stable sort by hash (of rows grouped by owner) gives every grouping:
    distinct (hash, owner) postings, rows per file, and each hash's document
    frequency (:func:`group_postings`).  Base postings count in the sizes,
    weights and document frequencies (as without base code) but are not
    shared.  With ``many >= 2``, the postings of fingerprints at least
    ``many`` owners hold (outside the base code) are kept apart too, and
    with ``many_is_base`` those are treated as base code.
    """
    groups = group_postings(hashes, files, file_owner, cap=cap, own=own, many=many,
                            many_is_base=many_is_base)
    return count_groups(groups, n_owners, cap=cap, archive=archive)


def group_postings(
    hashes: U64, files: I32, file_owner: I64, *, cap: int, own: Bools | None = None,
    many: int = 0, many_is_base: bool = False,
) -> Groups:
    """:func:`build_table`'s first step: the rows grouped into postings.  A
    caller holding the rows drops them before :func:`count_groups` (their
    memory is then free for the count)."""
    own = np.ones(hashes.shape[0], dtype=bool) if own is None else own
    owners = file_owner.astype(np.int32)[files]
    if owners.shape[0] and (np.diff(owners) < 0).any():  # group rows by owner
        by_owner = np.argsort(owners, kind="stable")
        hashes, files, own = hashes[by_owner], files[by_owner], own[by_owner]
    del owners
    return _group(hashes, files, file_owner, own, cap, many, many_is_base)


def count_groups(groups: Groups, n_owners: int, *, cap: int, archive: Bools) -> FingerprintTable:
    """:func:`build_table`'s second step: sizes, weights and shared pairs of the postings."""
    postings = MemoryTable(groups.hashes, groups.owners, groups.own, archive, groups.df)
    counts = postings.shared_counts(np.arange(n_owners), cap)
    idf = idf_weights(groups.df, n_owners)
    return FingerprintTable(
        excluded=groups.capped.astype(np.uint64),
        sizes=np.bincount(groups.owners, minlength=n_owners).astype(np.int64),
        weight_totals=np.bincount(groups.owners, weights=idf,
                                  minlength=n_owners).astype(np.float64),
        file_prints=groups.file_prints,
        counts=counts,
        stats={
            "fingerprints": int(groups.file_prints.sum()),
            "ignored_base": int((~groups.own).sum()),
            "ignored_common": int(groups.capped.shape[0]),
            "distinct_hashes": groups.distinct,
            "pairs_sharing": int(counts.a.shape[0]),
        },
        many_hashes=groups.many_hashes.astype(np.uint64), many_owners=groups.many_owners,
    )
