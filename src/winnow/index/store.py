"""The persistent fingerprint store: one embedded DuckDB file, no server.

Layout (format version :data:`winnow.index.params.FORMAT_VERSION`):

* ``meta(key, value)``: ``params`` (JSON of :class:`IndexParams`).
* ``documents(id, path, size, mtime_ns, checksum, kind, frontend, n_fp,
  n_distinct)``: one row per indexed file; ``checksum`` is a hex BLAKE2b-128
  of the whole file, ``n_fp`` its number of fingerprints and ``n_distinct``
  the number of distinct fingerprint hashes.
* ``fingerprints(hash, doc, pos)``: every selected fingerprint; ``hash`` is
  the engine's 64-bit value shifted right by ``IndexParams.hash_shift`` (sif's
  selection leaves the low ``bits`` bits zero: dropping them saves a byte a
  row, as Manber suggests) and stored as a BIGINT, ``pos`` the byte offset in
  the file where the fingerprinted k-gram starts.
* ``shared(hash, doc)``: sif's *Sorted_Fingers* (section 4): one row per file
  and hash, only for hashes held by two or more files, sorted by hash; rebuilt
  at the end of every write transaction, it is all that ``groups`` reads (in
  the kernel tree a fifth of the fingerprints; sif saw 30 times fewer).

Why DuckDB (measured with ``benchmarks/sif_db.py``, see ``docs/sif.md``): its
columnar, compressed storage keeps ``(hash, doc, pos)`` near 11 bytes a row,
bulk inserts from numpy arrays and the group-by-hash self-join of ``groups``
run vectorised, and one process holds the write lock, so a second indexer
gets a clear :class:`IndexBusy` instead of interleaving writes.  Each index
run is one transaction: a crash (even ``kill -9``) leaves the old or the new
state, which DuckDB's write-ahead log restores on the next open.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from winnow.errors import IndexCorrupt, IndexMismatch, IndexMissing
from winnow.index.connection import connect, quote_identifier, refuse_special
from winnow.index.params import FORMAT_VERSION, IndexParams
from winnow.model import Kind
from winnow.tables import PairCounts, SharedCounts

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta(key VARCHAR, value VARCHAR)",
    "CREATE TABLE IF NOT EXISTS documents(id INTEGER, path VARCHAR, size BIGINT,"
    " mtime_ns BIGINT, checksum VARCHAR, kind VARCHAR, frontend VARCHAR,"
    " n_fp INTEGER, n_distinct INTEGER)",
    "CREATE TABLE IF NOT EXISTS fingerprints(hash BIGINT, doc INTEGER, pos BIGINT)",
    "CREATE TABLE IF NOT EXISTS shared(hash BIGINT, doc INTEGER)",
)

#: Rows of fingerprints buffered before one bulk insert.
FLUSH_ROWS = 1_000_000


@dataclass(frozen=True)
class DocRow:
    """One indexed file as stored; ``frontend`` is ``None`` for a file only
    checksummed (too large to fingerprint)."""

    id: int
    path: str
    size: int
    mtime_ns: int
    checksum: str
    kind: Kind
    frontend: str | None
    n_fp: int
    n_distinct: int


@dataclass(frozen=True)
class NewDocument:
    """A fingerprinted file ready to store (``hashes``/``positions`` aligned);
    ``frontend`` is ``None`` for a file only checksummed (no fingerprints)."""

    path: str
    size: int
    mtime_ns: int
    checksum: str
    kind: Kind
    frontend: str | None
    hashes: npt.NDArray[np.int64]
    positions: npt.NDArray[np.int64]

    @property
    def n_distinct(self) -> int:
        return int(np.unique(self.hashes).size)


@dataclass(frozen=True)
class IndexInfo:
    """``winnow index --info``: sizes of the corpus and of the index."""

    path: str
    documents: int
    fingerprints: int
    bytes_indexed: int
    index_bytes: int
    params: dict[str, Any] | None

    @property
    def percent_of_corpus(self) -> float:
        """Index file size as a percentage of the bytes indexed (sif: 5 %)."""
        return 100.0 * self.index_bytes / self.bytes_indexed if self.bytes_indexed else 0.0


class FingerprintIndex:
    """An open index.  Use as a context manager; writes go in :meth:`transaction`.

    ``read_only`` opens for queries (several readers may share the file); a
    writer holds it alone.  A missing file is created unless ``read_only``.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = Path(path)
        if read_only and not self.path.exists():
            raise IndexMissing(f"{self.path}: no such index (build one with `winnow index`)")
        refuse_special(self.path)
        self._con = connect(self.path, read_only)
        self.read_only = read_only
        try:
            if not read_only:
                existing = {row[0] for row in self._con.execute("SHOW TABLES").fetchall()}
                if existing and "meta" not in existing:  # someone else's database
                    raise IndexCorrupt(f"{self.path}: a DuckDB file but not a winnow index; "
                                       f"refusing to add tables to it")
                for statement in _SCHEMA:
                    self._con.execute(statement)
            self._check_tables()
            self.params  # noqa: B018 (checks the format version and parameters on open)
        except BaseException:
            self._con.close()
            raise
        self._pending: list[NewDocument] = []
        self._pending_rows = 0
        self._next_id = 0
        self._dirty = False

    def _check_tables(self) -> None:
        names = {row[0] for row in self._con.execute("SHOW TABLES").fetchall()}
        missing = {"meta", "documents", "fingerprints", "shared"} - names
        if missing:
            raise IndexCorrupt(f"{self.path}: not a winnow index (no table {sorted(missing)[0]})")

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> FingerprintIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- parameters -------------------------------------------------------------

    @property
    def params(self) -> IndexParams | None:
        """The stored parameters, or ``None`` for an empty new index."""
        rows = self._con.execute("SELECT value FROM meta WHERE key = 'params'").fetchall()
        if not rows:
            return None
        try:
            data = json.loads(rows[0][0]) if len(rows) == 1 else None
            version = data.get("format_version") if isinstance(data, dict) else None
        except (TypeError, ValueError) as error:
            raise IndexCorrupt(f"{self.path}: the stored parameters are unreadable "
                               f"({error}); rebuild the index") from error
        if not isinstance(data, dict):
            raise IndexCorrupt(f"{self.path}: the stored parameters are not one JSON "
                               f"object; rebuild the index")
        if version != FORMAT_VERSION:
            raise IndexMismatch(
                f"{self.path}: index format version {version!r} is not "
                f"{FORMAT_VERSION}, the one this winnow reads; rebuild the index"
            )
        try:
            return IndexParams.from_dict(data)
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            raise IndexCorrupt(f"{self.path}: the stored parameters are invalid "
                               f"({type(error).__name__}: {error}); rebuild the index") from error

    def resolve_params(self, requested: IndexParams | None) -> IndexParams:
        """The parameters to use: the stored ones, checked against ``requested``.

        A new index takes ``requested`` (or the sif defaults) and records them
        (inside the current transaction).  Raises :class:`IndexMismatch`, listing
        every difference, when both exist and differ.
        """
        stored = self.params
        if stored is None:
            chosen = requested if requested is not None else IndexParams()
            if not self.read_only:
                self._con.execute("INSERT INTO meta VALUES ('params', ?)", [chosen.to_json()])
            return chosen
        if requested is not None and stored != requested:
            lines = "; ".join(stored.differences(requested))
            raise IndexMismatch(
                f"{self.path} was built with other parameters ({lines}); use the index's "
                f"own parameters (omit the options) or build a new index with --db"
            )
        return stored

    # -- writing -----------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All-or-nothing: commit at the end, roll back on any exception."""
        self._con.execute("BEGIN TRANSACTION")
        try:
            row = self._con.execute("SELECT coalesce(max(id), -1) + 1 FROM documents").fetchone()
            self._next_id = int(row[0]) if row else 0
            yield
            self._flush()
            if self._dirty:
                self._refresh_shared()
            self._con.execute("COMMIT")
        except BaseException:
            self._pending.clear()
            self._pending_rows = 0
            self._con.execute("ROLLBACK")
            raise
        finally:
            self._dirty = False
        self._con.execute("CHECKPOINT")

    def _refresh_shared(self) -> None:
        self._con.execute(
            """
            CREATE OR REPLACE TABLE shared AS
            WITH post AS (SELECT DISTINCT hash, doc FROM fingerprints)
            SELECT hash, doc FROM post WHERE hash IN (
                SELECT hash FROM post GROUP BY hash HAVING count(*) >= 2)
            ORDER BY hash, doc
            """)

    def add(self, document: NewDocument) -> None:
        """Store one file (call :meth:`remove` first if its path was indexed)."""
        self._dirty = True
        self._pending.append(document)
        self._pending_rows += int(document.hashes.size)
        if self._pending_rows >= FLUSH_ROWS or len(self._pending) >= 20_000:
            self._flush()

    def _flush(self) -> None:
        docs, self._pending, self._pending_rows = self._pending, [], 0
        if not docs:
            return
        ids = list(range(self._next_id, self._next_id + len(docs)))
        self._next_id += len(docs)
        columns = [
            ids, [d.path for d in docs], [d.size for d in docs], [d.mtime_ns for d in docs],
            [d.checksum for d in docs], [d.kind for d in docs], [d.frontend for d in docs],
            [int(d.hashes.size) for d in docs], [d.n_distinct for d in docs],
        ]
        self._con.execute(
            "INSERT INTO documents SELECT unnest(?::INTEGER[]), unnest(?::VARCHAR[]),"
            " unnest(?::BIGINT[]), unnest(?::BIGINT[]), unnest(?::VARCHAR[]),"
            " unnest(?::VARCHAR[]), unnest(?::VARCHAR[]), unnest(?::INTEGER[]),"
            " unnest(?::INTEGER[])", columns)
        sizes = np.array([d.hashes.size for d in docs], dtype=np.int64)
        batch: dict[str, npt.NDArray[np.int64] | npt.NDArray[np.int32]] = {  # scanned by name
            "hash": np.concatenate([d.hashes for d in docs]).astype(np.int64, copy=False),
            "doc": np.repeat(np.array(ids, dtype=np.int32), sizes),
            "pos": np.concatenate([d.positions for d in docs]).astype(np.int64, copy=False),
        }
        if batch["hash"].size:
            self._con.execute("INSERT INTO fingerprints SELECT hash, doc, pos FROM batch")

    def remove(self, doc_ids: Sequence[int]) -> None:
        """Delete documents and their fingerprints."""
        if not doc_ids:
            return
        self._dirty = True
        ids = [int(i) for i in doc_ids]
        self._con.execute("DELETE FROM fingerprints WHERE doc IN (SELECT unnest(?::INTEGER[]))",
                          [ids])
        self._con.execute("DELETE FROM documents WHERE id IN (SELECT unnest(?::INTEGER[]))",
                          [ids])

    def compact(self) -> None:
        """Rewrite the index into a fresh file, dropping the space of deleted rows.

        DuckDB reuses freed blocks but does not shrink the file; this copies
        every table into ``<db>.compact`` and renames it over the index (an
        atomic rename: a crash leaves the old file or the new one).
        """
        if self.read_only:
            # a caller's mistake, not a lock held by another process (IndexBusy)
            raise ValueError(f"{self.path}: opened read-only, cannot compact")
        fresh = self.path.with_name(self.path.name + ".compact")
        leftovers = (fresh, fresh.with_name(fresh.name + ".wal"))
        for stale in leftovers:
            stale.unlink(missing_ok=True)
        row = self._con.execute("SELECT current_database()").fetchone()
        name = quote_identifier(str(row[0]) if row else "")
        try:
            self._con.execute("ATTACH ? AS winnow_compacted", [str(fresh)])
            try:
                self._con.execute(f"COPY FROM DATABASE {name} TO winnow_compacted")
            finally:
                self._con.execute("DETACH winnow_compacted")
        except BaseException:
            for stale in leftovers:
                stale.unlink(missing_ok=True)
            raise
        self._con.close()
        os.replace(fresh, self.path)
        self._con = connect(self.path, read_only=False)

    def set_mtime(self, doc_id: int, mtime_ns: int) -> None:
        """Record a new mtime for a file whose content (checksum) did not change."""
        self._con.execute("UPDATE documents SET mtime_ns = ? WHERE id = ?", [mtime_ns, doc_id])

    # -- reading -----------------------------------------------------------------

    def documents(self, prefixes: Sequence[str] | None = None) -> list[DocRow]:
        """Stored documents, all or those whose path is or lies under a prefix."""
        sql = "SELECT * FROM documents"
        args: list[Any] = []
        if prefixes is not None and len(prefixes) <= 32:
            if not prefixes:
                return []
            sql += " WHERE " + " OR ".join(["path = ? OR starts_with(path, ?)"] * len(prefixes))
            for prefix in prefixes:
                args += [prefix, prefix.rstrip(os.sep) + os.sep]
        columns = self._con.execute(sql, args).fetchnumpy()  # faster than fetchall
        lists = [column.tolist() for column in columns.values()]
        rows = sorted((DocRow(*row) for row in zip(*lists, strict=True)), key=lambda r: r.path)
        if prefixes is not None and len(prefixes) > 32:  # many roots: filter here
            exact = set(prefixes)
            folders = tuple(p.rstrip(os.sep) + os.sep for p in prefixes)
            rows = [r for r in rows if r.path in exact or r.path.startswith(folders)]
        return rows

    def info(self) -> IndexInfo:
        docs, size = self._con.execute(
            "SELECT count(*), coalesce(sum(size), 0) FROM documents").fetchone() or (0, 0)
        fps = self._con.execute("SELECT count(*) FROM fingerprints").fetchone() or (0,)
        stored = self.params
        files = [self.path, self.path.with_name(self.path.name + ".wal")]
        return IndexInfo(
            path=str(self.path), documents=int(docs), fingerprints=int(fps[0]),
            bytes_indexed=int(size), index_bytes=sum(f.stat().st_size for f in files
                                                     if f.exists()),
            params=stored.as_dict() if stored is not None else None,
        )

    def lookup(self, hashes: npt.NDArray[np.int64]) -> list[tuple[int, int, int]]:
        """``(doc, distinct shared hashes, fingerprint occurrences)`` per document
        holding any of ``hashes`` (sif's one-against-all search, section 3)."""
        if hashes.size == 0:
            return []
        rows = self._con.execute(
            "SELECT doc, count(DISTINCT hash), count(*) FROM fingerprints"
            " WHERE hash IN (SELECT unnest(?::BIGINT[])) GROUP BY doc",
            [np.unique(hashes).tolist()]).fetchall()
        return [(int(a), int(b), int(c)) for a, b, c in rows]

    def matches(self, hashes: npt.NDArray[np.int64], checksum: str
                ) -> list[tuple[DocRow, int, int]]:
        """One query's candidates: ``(document, distinct shared
        hashes, occurrences)`` for every document holding any of ``hashes`` or
        having ``checksum`` (exact copies, even without fingerprints)."""
        hits = {doc: (shared, occ) for doc, shared, occ in self.lookup(hashes)}
        rows = self._con.execute(
            "SELECT * FROM documents WHERE id IN (SELECT unnest(?::INTEGER[])) OR checksum = ?",
            [list(hits), checksum]).fetchall()
        return [(DocRow(*row), *hits.get(int(row[0]), (0, 0))) for row in rows]

    def pair_counts(self, owners: npt.NDArray[np.integer], max_df: int) -> PairCounts:
        """All-against-all (sif, section 4), what ``groups`` counts in memory
        (:mod:`winnow.sif.postings`): for every pair ``a < b`` of the
        documents ``owners`` (ids) sharing a fingerprint, the number of distinct
        hashes they share.

        Hashes found in more than ``max_df`` of these documents count as
        boilerplate and are ignored (sif's Postscript-header problem); the pair
        list never holds pairs that share nothing, so it is far below O(n²).
        """
        result = self._count_pairs(owners, max_df, weighted=False)
        return PairCounts(np.asarray(result["a"], dtype=np.int64),
                          np.asarray(result["b"], dtype=np.int64),
                          np.asarray(result["shared"], dtype=np.int64))

    def shared_counts(self, owners: npt.NDArray[np.integer], max_df: int) -> SharedCounts:
        """:meth:`pair_counts` with weights and document-frequency sums; the
        weight of a hash, ``1 + ln((1 + N) / (1 + df))``, is summed as
        ``shared · (1 + ln(1 + N)) - Σ ln(1 + df)``."""
        result = self._count_pairs(owners, max_df, weighted=True)
        shared = np.asarray(result["shared"], dtype=np.int64)
        weight = shared * (1.0 + np.log1p(float(len(owners)))) - np.asarray(
            result["log_df"], dtype=np.float64)
        return SharedCounts(np.asarray(result["a"], dtype=np.int64),
                            np.asarray(result["b"], dtype=np.int64), shared,
                            weight, np.asarray(result["df_sum"], dtype=np.float64))

    def _count_pairs(self, owners: npt.NDArray[np.integer], max_df: int, *, weighted: bool
                     ) -> dict[str, npt.NDArray[Any]]:
        """The self-join of the shared postings of ``owners`` (with each
        hash's ``df`` carried along only when ``weighted``: it costs about a
        third more)."""
        chosen = {"doc": np.asarray(owners, dtype=np.int32)}  # noqa: F841 (scanned)
        per_hash, kept, per_pair = (
            ", count(*) AS df, ln(1.0 + count(*)) AS log_df", "* FROM post JOIN",
            ", sum(a.df) AS df_sum, sum(a.log_df) AS log_df",
        ) if weighted else ("", "post.* FROM post SEMI JOIN", "")
        result: dict[str, npt.NDArray[Any]] = self._con.execute(
            f"""
            WITH post AS (
                SELECT s.hash, s.doc FROM shared s SEMI JOIN chosen USING (doc)
            ), common AS (
                SELECT hash{per_hash} FROM post GROUP BY hash HAVING count(*) BETWEEN 2 AND ?
            ), kept AS (SELECT {kept} common USING (hash))
            SELECT a.doc AS a, b.doc AS b, count(*) AS shared{per_pair} FROM kept a JOIN kept b
                ON a.hash = b.hash AND a.doc < b.doc GROUP BY a.doc, b.doc
            """, [max_df]).fetchnumpy()
        return result

    def shared_postings(self, doc_ids: npt.NDArray[np.int32], batch_rows: int = 1 << 20
                        ) -> Iterator[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
        """The ``shared`` rows of the given documents as ``(position, hash)``
        batches, ``position`` the document's index in ``doc_ids``, ordered by
        position then hash: what a sharded count (:mod:`winnow.sif.postings`)
        reads instead of :meth:`shared_counts`, streamed (DuckDB sorts out of core)."""
        import pyarrow as pa

        chosen = pa.table({"doc": np.asarray(doc_ids, dtype=np.int32),
                           "pos": np.arange(len(doc_ids), dtype=np.int64)})
        cursor = self._con.cursor()  # its own result stream, closed with it
        try:
            cursor.register("chosen_positions", chosen)
            relation: Any = cursor.sql(
                "SELECT c.pos, s.hash FROM shared s JOIN chosen_positions c USING (doc)"
                " ORDER BY c.pos, s.hash")
            reader = (relation.to_arrow_reader(batch_rows)
                      if hasattr(relation, "to_arrow_reader")
                      else relation.record_batch(batch_rows))  # DuckDB before 1.4
            for batch in reader:
                yield (batch.column(0).to_numpy().astype(np.int64),
                       batch.column(1).to_numpy().astype(np.int64))
        finally:
            cursor.close()

    def fingerprint_sets_overlap(self, left: Sequence[int], right: Sequence[int]
                                 ) -> tuple[int, int, int]:
        """Distinct hashes of the ``left`` documents, of the ``right`` ones, and shared."""
        row = self._con.execute(
            """
            WITH l AS (SELECT DISTINCT hash FROM fingerprints
                       WHERE doc IN (SELECT unnest(?::INTEGER[]))),
                 r AS (SELECT DISTINCT hash FROM fingerprints
                       WHERE doc IN (SELECT unnest(?::INTEGER[])))
            SELECT (SELECT count(*) FROM l), (SELECT count(*) FROM r),
                   (SELECT count(*) FROM l SEMI JOIN r USING (hash))
            """, [list(left), list(right)]).fetchone() or (0, 0, 0)
        return int(row[0]), int(row[1]), int(row[2])
