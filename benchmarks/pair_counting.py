"""All-against-all pair counting by the two tables that count themselves.

The same synthetic postings go into both fingerprint tables (what the
pair-counting stage's in-memory engine runs for compare and groups,
:mod:`winnow.pairs`): compare's in-memory table
(:class:`winnow.matching.table.MemoryTable`) and sif's DuckDB index
(:class:`winnow.index.FingerprintIndex`).  ``--docs`` documents of
``--per-doc`` fingerprints each, a fifth of them edited copies of others (90 %
of the original's fingerprints kept), plus a pool of common fingerprints every
document draws a few from (so the ``--max-df`` cap has work to do).  Both
tables count every pair; the counts are checked to be identical and the best
of ``--repeat`` times of each is printed, with the load average.

    .venv/bin/python benchmarks/pair_counting.py [--docs 20000] [--per-doc 150]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from winnow.index import FingerprintIndex, NewDocument
from winnow.matching.table import MemoryTable
from winnow.tables import SharedCounts


def synthetic(docs: int, per_doc: int, seed: int = 1994) -> list[np.ndarray]:
    """Distinct sorted hashes per document: originals, edited copies, common ones."""
    rng = np.random.default_rng(seed)
    pool = rng.integers(1, 2**62, 2_000)
    out: list[np.ndarray] = []
    for i in range(docs):
        if i % 5 == 4:  # an edited copy of an earlier document
            source = out[int(rng.integers(0, i))]
            own = source[rng.random(source.size) < 0.9]
        else:
            own = rng.integers(1, 2**62, per_doc)
        common = rng.choice(pool, 5, replace=False)
        out.append(np.unique(np.concatenate([own, common])).astype(np.int64))
    return out


def best_of(table: MemoryTable | FingerprintIndex, owners: np.ndarray, max_df: int,
            repeat: int) -> tuple[float, SharedCounts]:
    best, counts = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        counts = table.shared_counts(owners, max_df)
        best = min(best, time.perf_counter() - start)
    assert counts is not None
    return best, counts


def canonical(counts: SharedCounts, ids: np.ndarray) -> np.ndarray:
    """``(a, b, shared)`` rows in document numbering, sorted."""
    back = np.empty(int(ids.max()) + 1, dtype=np.int64)
    back[ids] = np.arange(ids.size)
    rows = np.stack([back[counts.a], back[counts.b], counts.shared], axis=1)
    return rows[np.lexsort((rows[:, 1], rows[:, 0]))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--docs", type=int, default=20_000)
    parser.add_argument("--per-doc", type=int, default=150)
    parser.add_argument("--max-df", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sets = synthetic(args.docs, args.per_doc)
    owners = np.concatenate([np.full(s.size, i, dtype=np.int64) for i, s in enumerate(sets)])
    hashes = np.concatenate(sets).astype(np.uint64)
    order = np.lexsort((owners, hashes))
    memory = MemoryTable(hashes[order], owners[order], np.ones(order.size, dtype=bool),
                         np.zeros(len(sets), dtype=bool))
    print(f"{len(sets)} documents, {hashes.size} postings, max_df {args.max_df}, "
          f"best of {args.repeat}; load average {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores")
    seconds, counts = best_of(memory, np.arange(len(sets)), args.max_df, args.repeat)
    print(f"  in-memory table: {seconds:7.3f} s, {len(counts)} pairs")
    expected = canonical(counts, np.arange(len(sets)))
    with tempfile.TemporaryDirectory() as tmp, FingerprintIndex(Path(tmp) / "p.db") as index:
        with index.transaction():
            index.resolve_params(None)
            for i, doc in enumerate(sets):
                index.add(NewDocument(f"/{i}", 1, 1, str(i), "text", "bytes", doc,
                                      np.arange(doc.size, dtype=np.int64)))
        ids = np.array([r.id for r in sorted(index.documents(), key=lambda r: int(r.path[1:]))])
        seconds, counts = best_of(index, ids, args.max_df, args.repeat)
        print(f"  DuckDB index:    {seconds:7.3f} s, {len(counts)} pairs")
        same = np.array_equal(canonical(counts, ids), expected)
    print(f"  identical counts: {same}")
    if not same:
        raise SystemExit("the two tables disagree")


if __name__ == "__main__":
    main()
