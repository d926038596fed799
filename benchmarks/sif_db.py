"""Which embedded database for the sif index?  DuckDB versus SQLite, measured.

The workload of ``winnow index`` / ``groups`` / ``query``: a bulk insert of
(hash, doc, pos) rows, a group-by-hash self-join that counts the fingerprints
every pair of documents shares, and point look-ups of one file's fingerprints.
Synthetic rows shaped like a kernel-tree index: ``--docs`` documents with about
``--rows / --docs`` fingerprints each; a fifth of the documents are edited copies
of others, so hashes are shared.  Fixed seed.

Usage: ``python benchmarks/sif_db.py [--rows 10000000] [--docs 75000] [--dir D]``
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import numpy.typing as npt

PAIRS_SQL = """
WITH shared AS (
    SELECT hash FROM fingerprints GROUP BY hash
    HAVING count(DISTINCT doc) BETWEEN 2 AND 50
), post AS (
    SELECT DISTINCT f.hash, f.doc FROM fingerprints f JOIN shared USING (hash)
)
SELECT a.doc, b.doc, count(*) FROM post a JOIN post b
    ON a.hash = b.hash AND a.doc < b.doc GROUP BY a.doc, b.doc
"""


def make_rows(n_rows: int, n_docs: int, seed: int = 0) -> dict[str, npt.NDArray[np.int64]]:
    """(hash, doc, pos) rows sorted by doc, as the indexer writes them."""
    rng = np.random.default_rng(seed)
    per_doc = rng.poisson(n_rows / n_docs, n_docs).astype(np.int64) + 1
    doc = np.repeat(np.arange(n_docs, dtype=np.int64), per_doc)
    starts = np.concatenate([[0], np.cumsum(per_doc)[:-1]])
    pos = (np.arange(doc.size) - starts[doc]) * 300 + rng.integers(0, 250, doc.size)
    hashes = rng.integers(0, 2**63 - 1, doc.size, dtype=np.int64)
    copies = rng.choice(n_docs, n_docs // 5, replace=False)
    for target in copies:  # an edited copy: 70 % of another document's hashes
        source = int(rng.integers(0, n_docs))
        a, b = starts[target], starts[target] + per_doc[target]
        src = hashes[starts[source]: starts[source] + per_doc[source]]
        m = min(b - a, src.size)
        keep = rng.random(m) < 0.7
        hashes[a: a + m][keep] = src[:m][keep]
    return {"hash": hashes, "doc": doc, "pos": pos}


def timed(label: str, func, results: dict[str, float]) -> object:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = func()
    results[label] = time.perf_counter() - t0
    print(f"  {label:<28} {results[label]:8.2f} s", flush=True)
    return out


def lookups(run_one, rows, n: int = 50) -> float:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(1)
    times = []
    for doc in rng.integers(0, int(rows["doc"].max()), n):
        qh = rows["hash"][rows["doc"] == doc]
        t0 = time.perf_counter()
        run_one([int(h) for h in qh])
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_duckdb(path: Path, rows: dict[str, npt.NDArray[np.int64]]) -> dict[str, float]:
    print("duckdb", duckdb.__version__)
    res: dict[str, float] = {}
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE fingerprints(hash BIGINT, doc INTEGER, pos INTEGER)")
    step = 1_000_000

    def insert() -> None:
        con.execute("BEGIN")
        for i in range(0, rows["hash"].size, step):
            chunk = {k: v[i: i + step] for k, v in rows.items()}  # noqa: F841
            con.execute("INSERT INTO fingerprints SELECT * FROM chunk")
        con.execute("COMMIT")
        con.execute("CHECKPOINT")

    timed("bulk insert", insert, res)
    res["size_mb"] = path.stat().st_size / 1e6
    print(f"  {'file size':<28} {res['size_mb']:8.1f} MB")
    out = timed("pairs (self-join)", lambda: con.execute(PAIRS_SQL).fetchall(), res)
    print(f"  pairs found: {len(out)}")  # type: ignore[arg-type]

    def one(hashes: list[int]) -> object:
        q = {"hash": np.array(hashes, dtype=np.int64)}  # noqa: F841
        return con.execute(
            "SELECT f.doc, count(*) FROM fingerprints f SEMI JOIN q USING (hash)"
            " GROUP BY f.doc").fetchall()

    res["lookup_median_s"] = lookups(one, rows)
    print(f"  {'query median':<28} {res['lookup_median_s'] * 1000:8.1f} ms")
    con.close()
    return res


def bench_sqlite(path: Path, rows: dict[str, npt.NDArray[np.int64]]) -> dict[str, float]:
    print("sqlite", sqlite3.sqlite_version)
    res: dict[str, float] = {}
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute("PRAGMA cache_size=-262144")
    con.execute("CREATE TABLE fingerprints(hash INTEGER, doc INTEGER, pos INTEGER)")

    def insert() -> None:
        con.execute("BEGIN")
        con.executemany("INSERT INTO fingerprints VALUES (?,?,?)", zip(
            rows["hash"].tolist(), rows["doc"].tolist(), rows["pos"].tolist(), strict=True))
        con.execute("CREATE INDEX fp_hash ON fingerprints(hash)")
        con.execute("COMMIT")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    timed("bulk insert + index", insert, res)
    res["size_mb"] = path.stat().st_size / 1e6
    print(f"  {'file size':<28} {res['size_mb']:8.1f} MB")
    out = timed("pairs (self-join)", lambda: con.execute(PAIRS_SQL).fetchall(), res)
    print(f"  pairs found: {len(out)}")  # type: ignore[arg-type]

    def one(hashes: list[int]) -> object:
        marks = ",".join("?" * len(hashes))
        return con.execute(
            f"SELECT doc, count(*) FROM fingerprints WHERE hash IN ({marks}) GROUP BY doc",
            hashes).fetchall()

    res["lookup_median_s"] = lookups(one, rows)
    print(f"  {'query median':<28} {res['lookup_median_s'] * 1000:8.1f} ms")
    con.close()
    return res


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--docs", type=int, default=75_000)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--only", choices=["duckdb", "sqlite"], default=None)
    args = parser.parse_args()
    rows = make_rows(args.rows, args.docs)
    print(f"{rows['hash'].size} rows, {args.docs} documents, load {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        if args.only in (None, "duckdb"):
            bench_duckdb(Path(tmp) / "bench.duckdb", rows)
        if args.only in (None, "sqlite"):
            bench_sqlite(Path(tmp) / "bench.sqlite", rows)


if __name__ == "__main__":
    main()
