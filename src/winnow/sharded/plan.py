"""Where a sharded run keeps its files, and how it is run.

A run's working folder (:attr:`ShardPlan.workdir`, a local folder or a URI:
one of pyarrow's file systems, ``s3://bucket/run``, ``gs://``, ``hdfs://``, or
any fsspec protocol whose package is installed, see :func:`open_uri`)
holds everything the stages hand each other, so any machine that sees it can
run any task, and a task that is run again rewrites the same files::

    plan.json                  the run's parameters (a later run must agree)
    prints/pNNNN/sSSSSSS-CCCC.parquet
                               stage 1: (hash, doc) rows of input shard S,
                               hash partition N, sorted by (hash, doc)
    docs/sSSSSSS.parquet       stage 1: (doc, distinct) of input shard S
    pairs/qNNNN/pMMMM.parquet  stage 2: partial (a, b, shared, weight, df_sum)
                               of hash partition M whose ``a`` is in bucket N
    kept/pMMMM.parquet         stage 2: per document sharing a hash of
                               partition M, its capped rows, its kept shared
                               rows and their weight; pMMMM-capped: the
                               capped hashes
    merged/qNNNN.parquet       stage 3: the exact pair sums of bucket N, by (a, b)
    done/<stage>/<task>.json   written last by each task: what it wrote, with the
                               SHA-256 of every file it wrote and of itself
    .lock                      held by the run using the folder (local folders)

A task whose marker is found is not run again, but its marker and files are
checked first (:meth:`Store.read_marker`): a file that was truncated, had
bytes flipped or was replaced by another run's (a valid shard of another
partition) no longer has the checksum its task recorded, and the run stops
with an error naming it, as it does for a ``plan.json`` or marker that is
not the JSON a run wrote.  Two runs never share a local folder
(:meth:`Store.lock`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:  # imported where used: `--help` and the in-memory engine skip pyarrow
    import pyarrow.fs as pafs

from winnow.errors import InvalidConfig, ShardedRunError
from winnow.parallel import release_memory

T = TypeVar("T")
R = TypeVar("R")

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

Engine = Literal["local-sharded", "ray"]
ENGINES: tuple[str, ...] = ("local-sharded", "ray")

#: Format of the working folder; a run refuses a folder of another version
#: (3: inputs digested with SHA-256, not blake2b).
FORMAT_VERSION = 3

#: Rows of (hash, doc) a stage-1 task buffers before it writes them out
#: (64 bytes each at the sort: 64 MiB).  About the rows of one input shard of
#: ``dedup`` (16 MB of text, about a million rows), so that a shard writes
#: one file per partition, and a stage-1 task's memory does not depend on
#: how the inputs happen to be cut.
ROW_BUDGET = 1 << 20

#: Rows a stage-2 task reads at once from its partition (a window of the
#: hash range): its arrays are about 60 bytes a row (about 250 MB).
WINDOW_ROWS = 1 << 22

#: Pairs generated (``Σ C(df, 2)`` over the hashes counted together) per call
#: of :func:`winnow.pairs.counting.count_shared`; a window beyond is counted
#: in several slices of whole hash groups, and its partial pairs are written
#: out every this many rows.  Far below the counting module's own budget, so
#: every pair is counted exactly (see :mod:`winnow.sharded.pairs`), and small
#: enough that a window's pairs (which grow with the documents per hash, so
#: with the corpus, up to ``C(cap, 2)`` per hash) cost little: 40 bytes a pair,
#: 2.5 MiB a slice.
PAIR_SLICE = 1 << 16

#: Partial pairs a stage-2 task keeps before writing them to their buckets
#: (40 bytes each, 20 MiB; about three times that while sorted and split).
PAIR_BUFFER = 1 << 19

#: Partial pair rows a stage-3 task sums at once (an ``a`` range of its
#: bucket): 40 bytes each, read, sorted and summed (about 60 MB).
MERGE_ROWS = 1 << 19

#: Fingerprint rows per hash partition when the number of partitions is
#: chosen from the input's size (:func:`partitions_for`): a stage-2 task then
#: holds about as many rows, and about as many pairs per row, whatever the
#: corpus.  The files a run writes grow with the square of the partitions
#: (stage 2 writes one per partition and bucket): at 2^20 rows a partition,
#: a million corpus records made 6,448 files, whose creation, opening and
#: removal cost more than the counting.
PARTITION_ROWS = 1 << 21

#: The most hash partitions a run has.
MAX_PARTITIONS = 4096

#: How a run writes its Parquet files: neither compressed nor dictionary
#: encoded.  They are read once or twice and removed, and their columns are
#: mostly random 64-bit hashes: a million ``(hash, doc)`` rows took 0.071 s
#: to write and 0.028 s to read with Snappy and a dictionary of documents,
#: 0.025 s and 0.006 s plain, for 8 % more bytes.
PARQUET: dict[str, Any] = {"compression": "none", "use_dictionary": False}

#: Rows per Parquet row group: the unit a window skips or reads (a window
#: reads at most two row groups per file beyond its own rows).
ROW_GROUP = 1 << 15


@dataclass(frozen=True)
class ShardPlan:
    """How a sharded count runs.

    ``workdir`` the run's working folder (shared storage for Ray: every
    machine must see it); ``partitions`` the hash partitions (and pair
    buckets): more partitions, smaller tasks; ``engine`` where the tasks run:
    ``"local-sharded"`` in a process pool of ``jobs`` workers (``None`` =
    every usable core), ``"ray"`` as Ray tasks on the cluster at
    ``ray_address`` (``None``: a running one this process joined, or a new
    local one).  The budgets bound each task's memory (docs/scale.md).
    ``map_large_arrays``: the calling process too (the workers always do)
    has glibc map large arrays apart, so that they go back to the system
    when freed (:func:`winnow.parallel.map_large_allocations`): a setting the
    process keeps after the run; ``False`` leaves its allocator alone (its
    peak was 16 MiB higher with 1,000,000 documents: benchmarks/sharded.py).
    """

    workdir: Path | str
    partitions: int = 64
    engine: Engine = "local-sharded"
    ray_address: str | None = None
    jobs: int | None = None
    row_budget: int = ROW_BUDGET
    window_rows: int = WINDOW_ROWS
    merge_rows: int = MERGE_ROWS
    map_large_arrays: bool = True

    def __post_init__(self) -> None:
        problems = []
        if not 1 <= self.partitions <= MAX_PARTITIONS:
            problems.append(f"partitions must be in 1..{MAX_PARTITIONS}; got {self.partitions}")
        if self.engine not in ENGINES:
            problems.append(f"engine must be one of {', '.join(ENGINES)}; got {self.engine!r}")
        if self.jobs is not None and self.jobs < 0:
            problems.append(f"jobs must be >= 0; got {self.jobs}")
        if str(self.workdir).startswith("memory://") and (self.engine == "ray" or self.jobs != 1):
            problems.append("a memory:// working folder is seen by this process alone: "
                            "run it with jobs=1 and the local-sharded engine")
        for name in ("row_budget", "window_rows", "merge_rows"):
            if getattr(self, name) < 1024:
                problems.append(f"{name} must be at least 1024; got {getattr(self, name)}")
        if problems:
            raise InvalidConfig(problems)


@dataclass(frozen=True)
class Store:
    """The working folder on its file system; picklable, so tasks get it."""

    uri: str

    @staticmethod
    def of(workdir: Path | str) -> Store:
        text = str(workdir)
        if "://" not in text:
            text = os.path.abspath(text)
        return Store(text)

    def fs(self) -> tuple[pafs.FileSystem, str]:
        """The file system and the folder's path on it."""
        return open_uri(self.uri, os.getpid())

    def path(self, *parts: str) -> str:
        return "/".join([self.fs()[1].rstrip("/"), *parts])

    def makedirs(self, *parts: str) -> None:
        filesystem, _ = self.fs()
        filesystem.create_dir(self.path(*parts), recursive=True)

    def exists(self, *parts: str) -> bool:
        import pyarrow.fs as pafs

        filesystem, _ = self.fs()
        info = filesystem.get_file_info(self.path(*parts))
        return bool(info.type != pafs.FileType.NotFound)

    def write_bytes(self, data: bytes, *parts: str) -> None:
        """Write ``data`` atomically: to a temporary name, then moved."""
        filesystem, _ = self.fs()
        target = self.path(*parts)
        filesystem.create_dir(target.rsplit("/", 1)[0], recursive=True)
        temporary = f"{target}.tmp-{os.getpid()}"
        with filesystem.open_output_stream(temporary) as out:
            out.write(data)
        filesystem.move(temporary, target)

    def write_json(self, value: object, *parts: str) -> None:
        """Write ``value`` as JSON, atomically."""
        self.write_bytes(json.dumps(value, sort_keys=True).encode(), *parts)

    def write_array(self, value: npt.NDArray[Any], *parts: str) -> None:
        """Write a numpy array (``.npy``), atomically."""
        buffer = io.BytesIO()
        np.save(buffer, value, allow_pickle=False)
        self.write_bytes(buffer.getvalue(), *parts)

    def read_array(self, *parts: str) -> npt.NDArray[Any]:
        """A numpy array :meth:`write_array` wrote."""
        filesystem, _ = self.fs()
        with filesystem.open_input_stream(self.path(*parts)) as stream:
            return np.load(io.BytesIO(stream.read()), allow_pickle=False)  # type: ignore[no-any-return]

    def read_json(self, *parts: str) -> Any:
        """The JSON value of a file of the run; one that is not JSON is an error naming it."""
        filesystem, _ = self.fs()
        try:
            with filesystem.open_input_stream(self.path(*parts)) as stream:
                return json.loads(stream.read().decode())
        except (ValueError, UnicodeDecodeError, RecursionError) as error:
            raise ShardedRunError(
                f"{self.path(*parts)}: damaged (not the JSON a run writes: {error}); "
                "remove the working folder and run again") from error

    def checksum(self, name: str) -> str:
        """SHA-256 of the run's file ``name`` (a path inside the folder)."""
        filesystem, _ = self.fs()
        digest = hashlib.sha256()
        with filesystem.open_input_stream(self.path(name)) as stream:
            while block := stream.read(1 << 20):
                digest.update(block)
        return digest.hexdigest()

    def write_marker(self, value: Any, files: Sequence[str], *parts: str) -> None:
        """Write a task's marker: ``value``, the checksums of the ``files`` it
        wrote and a checksum of both (written last, atomically)."""
        sums = {name: self.checksum(name) for name in sorted(set(files))}
        self.write_json({"value": value, "sums": sums, "seal": _seal(value, sums)}, *parts)

    def read_marker(self, *parts: str) -> Any:
        """The value of a task's marker, after checking it and every file it names;
        raises :class:`ShardedRunError` naming the marker or file that does not check."""
        where = self.path(*parts)
        marker = self.read_json(*parts)
        if not (isinstance(marker, dict) and isinstance(marker.get("sums"), dict)
                and marker.get("seal") == _seal(marker.get("value"), marker["sums"])):
            raise ShardedRunError(f"{where}: damaged (its checksum does not match); remove "
                                  "the working folder and run again")
        for name, expected in marker["sums"].items():
            try:
                found = self.checksum(name)
            except (OSError, FileNotFoundError) as error:
                raise ShardedRunError(f"{self.path(name)}: missing or unreadable ({error}), "
                                      f"though {where} lists it; remove the working folder "
                                      "and run again") from error
            if found != expected:
                raise ShardedRunError(
                    f"{self.path(name)}: damaged or not this run's file (its SHA-256 differs "
                    f"from the one {where} recorded); remove the working folder and run again")
        return marker["value"]

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the folder for this run: a second run on the same local folder
        fails at once with :class:`ShardedRunError` (a folder given as a URI is
        not locked: give each run its own)."""
        if "://" in self.uri:
            yield
            return
        import fcntl

        os.makedirs(self.uri, exist_ok=True)
        fd = os.open(os.path.join(self.uri, ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as error:
                holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
                raise ShardedRunError(
                    f"{self.uri}: another run (process {holder}) is using this working "
                    "folder; wait for it or give another --workdir") from error
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            yield
        finally:
            os.close(fd)  # releases the lock

    def delete(self, *parts: str) -> None:
        """Remove a folder of the run (nothing if absent)."""
        filesystem, _ = self.fs()
        if self.exists(*parts):
            filesystem.delete_dir(self.path(*parts))


def _seal(value: Any, sums: Any) -> str:
    text = json.dumps({"value": value, "sums": sums}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def partitions_for(rows: int) -> int:
    """The hash partitions for about ``rows`` fingerprint rows: one per
    :data:`PARTITION_ROWS`, from 1 to :data:`MAX_PARTITIONS` (beyond, a
    partition is counted in more windows)."""
    return max(1, min(MAX_PARTITIONS, -(-rows // PARTITION_ROWS)))


@functools.lru_cache(maxsize=16)
def open_uri(uri: str, pid: int) -> tuple[pafs.FileSystem, str]:
    """The file system of ``uri`` and the path on it: pyarrow's own when it
    knows the scheme (local, ``s3://``, ``gs://``, ``hdfs://``, ``abfs://``),
    else fsspec's (any protocol whose package is installed: ``memory://``,
    ``az://`` with adlfs, ``ssh://`` with paramiko ...) wrapped for pyarrow.
    Kept per process (``pid``): a forked worker opens its own, as clients of
    object stores are not safe to share across a fork."""
    import pyarrow.fs as pafs

    if "://" not in uri:
        return pafs.LocalFileSystem(), uri
    try:
        filesystem, path = pafs.FileSystem.from_uri(uri)
    except (ValueError, NotImplementedError) as pyarrow_error:  # a scheme pyarrow lacks
        try:
            return _fsspec_fs(uri)
        except (ImportError, ValueError) as exc:
            raise ShardedRunError(
                f"cannot open the working folder {uri}: {exc} "
                f"(pyarrow: {pyarrow_error})") from exc
    return filesystem, str(path)


def _fsspec_fs(uri: str) -> tuple[pafs.FileSystem, str]:
    """``uri`` opened by fsspec, wrapped as a pyarrow file system."""
    import fsspec
    import pyarrow.fs as pafs

    filesystem, path = fsspec.core.url_to_fs(uri)
    return pafs.PyFileSystem(pafs.FSSpecHandler(filesystem)), str(path)


def partition_of(hashes: U64, partitions: int) -> I64:
    """The partition of each hash: its top bits, after a multiplicative mix
    (Fibonacci hashing), scaled to ``[0, partitions)``.  Mixing keeps the
    partitions even when hashes are not uniform in their high bits, and a
    hash's partition depends on nothing else, so every shard agrees."""
    mixed = (hashes ^ (hashes >> np.uint64(31))) * np.uint64(0x9E3779B97F4A7C15)
    top = (mixed >> np.uint64(32)).astype(np.int64)
    return (top * partitions) >> 32


def bucket_of(docs: I64, n_docs: int, buckets: int) -> I64:
    """The pair bucket of first documents ``docs``: contiguous ranges of ids,
    so the buckets in order hold the pairs in ``a`` order."""
    return (docs.astype(np.int64) * buckets) // max(n_docs, 1)


def bucket_range(bucket: int, n_docs: int, buckets: int) -> tuple[int, int]:
    """The ids ``[lo, hi)`` whose bucket is ``bucket`` (inverse of :func:`bucket_of`)."""
    def first(q: int) -> int:
        return -(-q * n_docs // buckets)
    return first(bucket), first(bucket + 1)


def task_name(stage: str, index: int) -> str:
    letter = {"prints": "s", "pairs": "p", "merge": "q"}[stage]
    width = 6 if stage == "prints" else 4
    return f"{letter}{index:0{width}d}"


def read_range(store: Store, files: list[str], key: str, lo: int, hi: int | None,
               columns: dict[str, npt.DTypeLike],
               expected: int) -> dict[str, npt.NDArray[Any]]:
    """The ``columns`` of the rows of ``files`` whose ``key`` is in
    ``[lo, hi)`` (``hi`` ``None``: no upper bound), as arrays of the dtypes
    given, in file order; about ``expected`` of them.

    Only the row groups whose statistics meet the range are read, one file
    at a time, and only their rows in the range are copied out, into arrays
    sized for a quarter more than ``expected`` rows (grown if need be, never
    beyond the rows of the groups read).  So a read holds its own rows and
    one file's row groups, whatever the number of files (a dataset scanner
    over many files held several times that), and asks for little more
    address space than its rows, even when every file is one row group that
    every range selects (a worker's data segment is capped:
    :data:`winnow.parallel.WORKER_MEMORY_BYTES`).
    """
    import pyarrow.parquet as pq

    filesystem, _ = store.fs()
    chosen: list[tuple[str, pq.FileMetaData, list[int]]] = []
    bound = 0
    for name in files:
        meta = pq.read_metadata(store.path(name), filesystem=filesystem)
        column = meta.schema.names.index(key)
        groups = [g for g in range(meta.num_row_groups)
                  if _meets(meta.row_group(g).column(column).statistics, lo, hi)]
        bound += sum(meta.row_group(g).num_rows for g in groups)
        if groups:
            chosen.append((name, meta, groups))
    capacity = min(bound, expected + expected // 4 + ROW_GROUP)
    out = {name: np.empty(capacity, dtype=dtype) for name, dtype in columns.items()}
    n = 0
    for name, meta, groups in chosen:  # the footers read above are not read again
        with pq.ParquetFile(store.path(name), metadata=meta, filesystem=filesystem) as source:
            table = source.read_row_groups(groups, columns=list(columns), use_threads=False)
        keys = table.column(key).to_numpy()
        inside = keys >= keys.dtype.type(lo)
        if hi is not None:
            inside &= keys < keys.dtype.type(hi)
        count = int(np.count_nonzero(inside))
        if n + count > capacity:  # more rows than expected: grow, by half at least
            capacity = min(bound, max(n + count, capacity + capacity // 2))
            out = {name: _grown(array, n, capacity) for name, array in out.items()}
        for column_name, array in out.items():
            array[n:n + count] = table.column(column_name).to_numpy()[inside]
        n += count
        del table, keys, inside
    return {name: array[:n] for name, array in out.items()}


def _grown(array: npt.NDArray[Any], used: int, capacity: int) -> npt.NDArray[Any]:
    """``array``'s first ``used`` entries in a new array of ``capacity``."""
    bigger = np.empty(capacity, dtype=array.dtype)
    bigger[:used] = array[:used]
    return bigger


def _meets(statistics: Any, lo: int, hi: int | None) -> bool:
    """Whether a row group whose key ``statistics`` are these may hold a key
    in ``[lo, hi)`` (a group without statistics may)."""
    if statistics is None or not statistics.has_min_max:
        return True
    return bool(statistics.max >= lo and (hi is None or statistics.min < hi))

def stage_task(func: Callable[[T], R]) -> Callable[[T], R]:
    """A stage's task function that gives the memory it freed back to the
    system when it ends (:func:`winnow.parallel.release_memory`), so the
    worker starts its next task from its own size, not from the largest
    task it ran before."""
    @functools.wraps(func)
    def run(task: T) -> R:
        try:
            return func(task)
        finally:
            release_memory()
    return run
