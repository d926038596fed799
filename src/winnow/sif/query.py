"""One-against-all: which indexed files are similar to this one (Manber 1994, section 3).

The query file is fingerprinted with the index's own parameters and its
fingerprints looked up in the index.  For a query ``Q`` and an indexed file
``D``, with ``F(X)`` the *set* of distinct fingerprint hashes of ``X``:

* ``shared    = |F(Q) ∩ F(D)|``
* ``contained = shared / |F(Q)|`` — how much of the query is found in
  ``D`` (sif's figure; the threshold applies to it by default);
* ``contains  = shared / |F(D)|`` — how much of ``D`` is found in the query.

Both are set-based fractions, so they lie in [0, 1] (the tables print them as
percentages).  sif counted occurrences and noted its figure can pass 100 % when
fingerprints repeat; that figure is reported too, as ``sif_similarity =
(occurrences in D of hashes of F(Q)) / (fingerprints of Q, with repeats)``, a
fraction that can pass 1.  ``identical`` compares checksums, so
exact copies are found even when a file is too small to have fingerprints.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from winnow.errors import InputError
from winnow.fileio import printable, read_regular
from winnow.index.params import IndexParams
from winnow.index.store import DocRow, FingerprintIndex
from winnow.sif.fingerprinting import checksum, fingerprint_data
from winnow.sif.shares import check_threshold
from winnow.sources.walk import describe_error

Measure = Literal["contained", "contains", "max"]


@dataclass(frozen=True)
class Match:
    """One indexed file sharing fingerprints with the query."""

    query: str
    match: str
    contained: float
    contains: float
    shared: int
    size: int
    identical: bool
    sif_similarity: float
    match_fingerprints: int


@dataclass(frozen=True)
class QueryResult:
    """A query file and its matches, best first."""

    query: str
    size: int
    fingerprints: int
    distinct: int
    matches: list[Match] = field(default_factory=list)
    #: The best-scoring file left out by the threshold (by the larger of
    #: ``contained`` and ``contains``), so a caller can say what a lower
    #: threshold or another measure would find; ``None`` if none shares anything.
    best_excluded: Match | None = None


def score(m: Match, measure: Measure) -> float:
    """``m``'s share under ``measure``, a fraction."""
    if measure == "contained":
        return m.contained
    if measure == "contains":
        return m.contains
    return max(m.contained, m.contains)


def _read(path: str) -> bytes:
    if os.path.isdir(path):
        raise InputError(printable(path), "is a directory (give files)")
    try:
        return read_regular(path)
    except FileNotFoundError as error:
        reason = "broken symbolic link" if os.path.islink(path) else "no such file"
        raise InputError(printable(path), reason) from error
    except OSError as error:
        raise InputError(printable(path), describe_error(error)) from error


def _match(query: str, row: DocRow, shared: int, occurrences: int, q_fp: int,
           q_distinct: int, identical: bool) -> Match:
    return Match(
        query=query, match=row.path,
        contained=shared / q_distinct if q_distinct else (1.0 if identical else 0.0),
        contains=shared / row.n_distinct if row.n_distinct else (1.0 if identical else 0.0),
        shared=shared, size=row.size, identical=identical,
        sif_similarity=occurrences / q_fp if q_fp else (1.0 if identical else 0.0),
        match_fingerprints=row.n_distinct,
    )


def query_file(index: FingerprintIndex, params: IndexParams, path: str, *,
               threshold: float = 0.5, measure: Measure = "contained",
               include_self: bool = False, limit: int | None = None) -> QueryResult:
    """The indexed files similar to ``path``, ranked by ``measure`` then ``shared``.

    Files scoring below ``threshold``, a fraction from 0 to 1 (0.5 = 50 %), are
    left out (identical files never are).  The query's own path is left out unless ``include_self``.
    ``limit`` keeps only the best ``limit`` matches.
    Raises :class:`InputError` if the file cannot be read and
    :class:`~winnow.errors.InvalidConfig` if ``threshold`` is not a fraction.
    """
    check_threshold(threshold)
    data = _read(path)
    printed = fingerprint_data(data, path, params, short=True)
    digest = checksum(data)
    distinct = int(np.unique(printed.hashes).size)
    own = os.path.abspath(path)
    matches, excluded = [], []
    for row, shared, occ in index.matches(printed.hashes, digest):
        if row.path == own and not include_self:
            continue
        found = _match(printable(path), row, shared, occ, int(printed.hashes.size), distinct,
                       row.checksum == digest)
        if found.identical or score(found, measure) >= threshold:
            matches.append(found)
        elif found.shared:
            excluded.append(found)
    matches.sort(key=lambda m: (-score(m, measure), -m.shared, m.match))
    best = min(excluded, key=lambda m: (-score(m, "max"), -score(m, measure), m.match),
               default=None)
    return QueryResult(query=printable(path), size=len(data), fingerprints=int(printed.hashes.size),
                       distinct=distinct, matches=matches[:limit], best_excluded=best)
