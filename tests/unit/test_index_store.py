"""The DuckDB fingerprint store: parameters, transactions, look-ups, locking."""

from __future__ import annotations

import select
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from winnow.config import WinnowConfig
from winnow.errors import IndexBusy, IndexCorrupt, IndexMismatch, IndexMissing
from winnow.index import FORMAT_VERSION, FingerprintIndex, IndexParams, NewDocument


def doc(path: str, hashes: list[int], size: int = 100, checksum: str = "c") -> NewDocument:
    array = np.array(hashes, dtype=np.int64)
    return NewDocument(path=path, size=size, mtime_ns=1, checksum=checksum, kind="text",
                       frontend="bytes", hashes=array,
                       positions=np.arange(array.size, dtype=np.int64) * 10)


def test_new_index_records_default_params(tmp_path: Path) -> None:
    db = tmp_path / "i.db"
    with FingerprintIndex(db) as index, index.transaction():
        assert index.resolve_params(None) == IndexParams()
    with FingerprintIndex(db, read_only=True) as index:
        stored = index.params
        assert stored is not None
        assert stored.config.method == "sif" and stored.config.k == 50
        assert stored.as_dict()["format_version"] == FORMAT_VERSION
        assert stored.frontend == "bytes"


def test_mismatched_params_refused_with_every_difference(tmp_path: Path) -> None:
    db = tmp_path / "i.db"
    with FingerprintIndex(db) as index, index.transaction():
        index.resolve_params(IndexParams())
    other = IndexParams(config=WinnowConfig(k=30, t=30, method="sif", bits=6),
                        frontend="text")
    with FingerprintIndex(db) as index, pytest.raises(IndexMismatch) as info:
        index.resolve_params(other)
    message = str(info.value)
    assert "config.k: index has 50, requested 30" in message
    assert "config.bits" in message and "frontend" in message


def test_format_version_checked(tmp_path: Path) -> None:
    db = tmp_path / "i.db"
    with FingerprintIndex(db) as index, index.transaction():
        index.resolve_params(None)
    import duckdb

    con = duckdb.connect(str(db))
    con.execute("UPDATE meta SET value = replace(value, ?, '\"format_version\": 99')",
                [f'"format_version": {FORMAT_VERSION}'])
    con.close()
    for read_only in (False, True):  # checked on open, whatever the command reads
        with pytest.raises(IndexMismatch, match="version 99"):
            FingerprintIndex(db, read_only=read_only)


def test_transaction_rolls_back_on_error(tmp_path: Path) -> None:
    db = tmp_path / "i.db"
    with FingerprintIndex(db) as index:
        with index.transaction():
            index.resolve_params(None)
            index.add(doc("/a", [1, 2, 3]))
        with pytest.raises(RuntimeError), index.transaction():
            index.add(doc("/b", [4, 5]))
            index._flush()  # written, but not committed
            raise RuntimeError("boom")
        assert [d.path for d in index.documents()] == ["/a"]
        assert index.info().fingerprints == 3


def test_lookup_counts_distinct_and_occurrences(tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        with index.transaction():
            index.resolve_params(None)
            index.add(doc("/a", [1, 2, 2, 3]))
            index.add(doc("/b", [3, 4]))
            index.add(doc("/c", [9]))
        ids = {d.path: d.id for d in index.documents()}
        rows = {r[0]: r[1:] for r in index.lookup(np.array([2, 3, 3, 7], dtype=np.int64))}
        assert rows == {ids["/a"]: (2, 3), ids["/b"]: (1, 1)}
        counts = index.shared_counts(np.array(list(ids.values()), dtype=np.int32), 10)
        assert list(zip(counts.a.tolist(), counts.b.tolist(), counts.shared.tolist(),
                        strict=True)) == [
            (ids["/a"], ids["/b"], 1)]
        assert index.documents(["/a"])[0].n_distinct == 3


def test_documents_under_prefix_not_sibling(tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        with index.transaction():
            index.resolve_params(None)
            for path in ("/x/a", "/x/sub/b", "/xy/c", "/x"):
                index.add(doc(path, [1]))
        assert [d.path for d in index.documents(["/x"])] == ["/x", "/x/a", "/x/sub/b"]
        assert index.documents([]) == []


def test_not_an_index(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(IndexCorrupt):
        FingerprintIndex(junk)
    other = tmp_path / "other.duckdb"
    import duckdb

    con = duckdb.connect(str(other))
    con.execute("CREATE TABLE sales(x INTEGER)")
    con.close()
    with pytest.raises(IndexCorrupt, match="not a winnow index; refusing"):
        FingerprintIndex(other)
    con = duckdb.connect(str(other), read_only=True)
    assert [r[0] for r in con.execute("SHOW TABLES").fetchall()] == ["sales"]
    con.close()
    with pytest.raises(IndexMissing, match="no such index"):
        FingerprintIndex(tmp_path / "missing.db", read_only=True)


def test_second_writer_gets_clear_busy_error(tmp_path: Path) -> None:
    db = tmp_path / "i.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from winnow.index import FingerprintIndex
            ix = FingerprintIndex({str(db)!r})
            print("ready", flush=True)
            sys.stdin.readline()
        """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        ready, _, _ = select.select([holder.stdout], [], [], 120)  # never wait forever
        assert ready and holder.stdout.readline().strip() == "ready"
        with pytest.raises(IndexBusy, match="in use by another winnow process"):
            FingerprintIndex(db)
    finally:
        try:
            holder.communicate("\n", timeout=30)
        except subprocess.TimeoutExpired:
            holder.kill()  # do not leave a process holding the index behind
            holder.communicate()
    with FingerprintIndex(db) as index:  # free again
        assert index.documents() == []
