"""Fingerprints of corpus records, one input shard at a time.

A record's text goes through the text front-end (Unicode-aware; case,
whitespace and punctuation dropped: winnowing paper, section 5.2) and robust
winnowing (section 3, and 5.1 for the robust tie rule); its fingerprints are
the *distinct* selected hashes.  Winnowing's guarantee carries over to
records: two records that share a passage of at least ``t`` normalised
characters share at least one fingerprint, whatever surrounds the passage.

Records are fingerprinted in batches of about :data:`BATCH_BYTES` of text:
one front-end pass over the batch's texts joined by newlines (which the
front-end drops, and which no character composes with; an all-ASCII batch,
most of an English corpus's, takes the front-end's ASCII pass, one byte a
unit and no byte spans) and one compiled call that winnows each record's
stretch of units
(:meth:`~winnow.engine.Selector.distinct`).  A corpus record is short (a
few hundred bytes to a few KB): called once per record, the two passes and
the Python around them took 0.295 s for 12,500 records of 600 bytes, in
batches 0.139 s.  The result
is the same as fingerprinting each record alone (:func:`record_hashes`; a
test checks it), with one exception handled apart: a text that starts with
a combining mark, which the newline before it would take as its base.

:func:`fingerprint_shard` is the function the pair engines map over the
input shards: module-level and picklable, so it runs in worker processes and
Ray tasks alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.corpus import _kernels
from winnow.corpus.readers import Fields, Shard, record_texts
from winnow.engine import fingerprint
from winnow.engine.selectors import selector_for
from winnow.frontends.text import ascii_units, char_units, leads_with_mark
from winnow.pairs import DocBatch
from winnow.parallel import reuse_freed_memory, reusing_freed_memory, small_pages, usable_cores

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

#: Text bytes (UTF-8) fingerprinted together: large enough that the Python
#: per batch is nothing, small enough that a batch's arrays (the front-end's
#: 20 bytes a byte, the winnowing's 8 bytes a unit: about 7 MB), which a worker
#: holds for its next batch, stay a small part of the run's peak: 1 MiB
#: batches kept 28 MiB of heap a worker at 100,000 records of
#: ``benchmarks/scale.py`` (tree peak PSS 241-244 MiB), 256 KiB batches 15-17
#: MiB (222-224 MiB), in the same CPU time.
BATCH_BYTES = 1 << 18


@dataclass(frozen=True)
class ShardJob:
    """One unit of work of the pair engines: a shard, where its records'
    text is, and the fingerprinting parameters."""

    shard: Shard
    fields: Fields
    config: WinnowConfig

    @property
    def records(self) -> int:
        return self.shard.count


def record_hashes(text: str, config: WinnowConfig) -> U64:
    """The distinct fingerprint hashes of one record's text, sorted."""
    units = char_units(text.encode("utf-8")).cps
    if units.shape[0] < config.k:
        return np.zeros(0, dtype=np.uint64)
    return np.unique(fingerprint(units, config)["hash"])


def batch_hashes(texts: Sequence[bytes], config: WinnowConfig) -> tuple[U64, I64]:
    """The distinct fingerprint hashes of each UTF-8 text of ``texts``, sorted:
    ``(every text's hashes in turn, count per text)``, as :func:`record_hashes`
    gives them one at a time.  An all-ASCII batch takes the front-end's
    ASCII pass (:func:`~winnow.frontends.text.ascii_units`)."""
    if not texts:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64)
    joined = b"\n".join(texts)
    offsets = joined_offsets(texts)
    ascii = ascii_units(joined, offsets)
    units: npt.NDArray[np.unsignedinteger]
    if ascii is not None:
        units, bounds = ascii
    elif not any(map(leads_with_mark, texts)):
        chars = char_units(joined)
        units = chars.cps
        bounds = np.append(np.searchsorted(chars.starts, offsets), units.shape[0])
    else:
        units, bounds = _units_apart(texts)
    return selector_for(config).distinct(units, bounds, config.k, config.seed)


def joined_offsets(texts: Sequence[bytes]) -> I64:
    """Where each text of ``texts`` starts in them joined by newlines."""
    offsets = np.zeros(len(texts), dtype=np.int64)
    np.cumsum([len(t) + 1 for t in texts[:-1]], out=offsets[1:])
    return offsets


def _units_apart(texts: Sequence[bytes]) -> tuple[npt.NDArray[np.uint32], I64]:
    """The units of ``texts`` and where each text's start (one more entry:
    their end), a text that starts with a mark read on its own: joined, it
    would take the newline before it as its base."""
    units: list[npt.NDArray[np.uint32]] = []
    starts: list[I64] = []
    done = 0
    run: list[bytes] = []

    def flush() -> None:
        nonlocal done, run
        if run:
            chars = char_units(b"\n".join(run))
            units.append(chars.cps)
            starts.append(done + np.searchsorted(chars.starts, joined_offsets(run)))
            done += chars.cps.shape[0]
            run = []

    for text in texts:
        if leads_with_mark(text):
            flush()
            run = [text]
            flush()
        else:
            run.append(text)
    flush()
    return np.concatenate(units), np.append(np.concatenate(starts), done).astype(np.int64)


def load_kernels(config: WinnowConfig) -> None:
    """Fingerprint a short text here, so that this process holds the
    compiled kernels that fingerprinting needs: worker processes forked
    after it share their pages instead of each loading its own (about 58 MiB
    a process, 100,000 records of ``benchmarks/scale.py``)."""
    batch_hashes([b"kernels loaded before the workers fork " * 4], config)


def fingerprint_shard(job: ShardJob) -> Iterator[DocBatch]:
    """The distinct hashes of every usable record of the shard, a batch of
    records at a time (bad records give nothing here; the writer's pass
    names them), the arrays each batch frees reused by the next
    (:func:`reusing_freed_memory`)."""
    with reusing_freed_memory():
        yield from _shard_batches(job)


def _shard_batches(job: ShardJob) -> Iterator[DocBatch]:
    docs: list[int] = []
    texts: list[bytes] = []
    size = 0
    for doc, data in record_texts(job.shard, job.fields):
        docs.append(doc)
        texts.append(data)
        size += len(data) + 1
        if size >= BATCH_BYTES:
            yield _batch(docs, texts, job.config)
            docs, texts, size = [], [], 0
    if docs:
        yield _batch(docs, texts, job.config)


def _batch(docs: list[int], texts: list[bytes], config: WinnowConfig) -> DocBatch:
    hashes, counts = batch_hashes(texts, config)
    return DocBatch(np.array(docs, dtype=np.int64), counts, hashes, set_digests(hashes, counts))


def set_digests(hashes: U64, counts: I64) -> U64:
    """A 64-bit digest of each record's distinct hashes (``hashes`` holds
    ``counts[i]`` sorted ones per record in turn), never 0; 0 for a record
    with none.  Two sums of the hashes under different mixings, so the
    digest depends on the set alone, not on how it is stored."""
    out = np.zeros(counts.shape[0], dtype=np.uint64)
    has = counts > 0
    if not has.any():
        return out
    starts = (np.cumsum(counts) - counts)[has]
    first = hashes * np.uint64(0x9E3779B97F4A7C15)
    first ^= first >> np.uint64(29)
    second = (hashes ^ np.uint64(0xD6E8FEB86659FD93)) * np.uint64(0xBF58476D1CE4E5B9)
    second ^= second >> np.uint64(32)
    added = np.add.reduceat(first, starts)
    mixed = np.bitwise_xor.reduceat(second, starts)
    out[has] = (added ^ ((mixed << np.uint64(17)) | (mixed >> np.uint64(47)))) | np.uint64(1)
    return out


def by_part(hashes: U64, owners: npt.NDArray[np.integer], bits: int
            ) -> tuple[U64, npt.NDArray[np.integer], I64]:
    """The rows ``(hashes, owners)`` in parts, by the low ``bits`` bits of their
    hashes (in their order within a part), and the rows of each part: what
    :func:`winnow.corpus.pairs.count_records` counts a part at a time."""
    out_hashes = np.empty_like(hashes, dtype=np.uint64)
    out_owners = np.empty_like(owners)
    counts = np.zeros(1 << bits, dtype=np.int64)
    _kernels.scatter_parts(np.ascontiguousarray(hashes, dtype=np.uint64), owners, bits,
                           out_hashes, out_owners, counts)
    return out_hashes, out_owners, counts


#: Rows :func:`records_by_part` scatters between two calls of its ``done``.
SCATTER_ROWS = 1 << 22
#: Rows from which :func:`records_by_part` scatters two halves of the
#: records on two threads.  One thread against two on ``benchmarks/scale.py``'s
#: corpus (medians of five or six runs): 0.98 M rows (25,000 records) 0.026 ->
#: 0.020 s, 1.96 M 0.030 -> 0.027 s, 3.9 M (100,000 records) 0.065 -> 0.050 s.
#: The threshold sits just above the smallest size measured: nothing smaller
#: was timed.
SPLIT_ROWS = 1 << 20


def records_by_part(hashes: U64, docs: I64, counts: I64, bits: int,
                    firsts: I64 | None = None, done: Callable[[int, int], None] | None = None
                    ) -> tuple[U64, npt.NDArray[np.integer], I64]:
    """:func:`by_part` of rows given record by record (record ``docs[r]`` owns
    ``counts[r]`` hashes: the next ones, or those from ``hashes[firsts[r]]``
    on), without an array of owners: the owners come out as ``int32``
    (``int64`` for record numbers past 2^31).  The rows are scattered
    about :data:`SCATTER_ROWS` at a time, the records in turn, and
    ``done(start, stop)`` told after each stretch that ``hashes[start:stop]``
    will not be read again (``firsts`` ascending, as :meth:`CorpusPostings.gather
    <winnow.corpus.pairs.CorpusPostings.gather>` gives them: the caller may
    give their memory back while the output grows).

    With :data:`SPLIT_ROWS` rows or more and two usable cores, two threads
    scatter the first and the second half of the records, the second half's
    rows of each part placed after the first half's: the same output.  Most
    of this step is the output's memory written for the first time (12 bytes
    a row: 1,000,000 records of ``benchmarks/scale.py``, 600 MB): 0.75 s on
    one thread."""
    if firsts is None:
        firsts = np.cumsum(counts) - counts
    firsts = np.ascontiguousarray(firsts, dtype=np.int64)
    hashes = np.ascontiguousarray(hashes, dtype=np.uint64)
    rows = int(counts.sum())
    out_hashes = np.empty(rows, dtype=np.uint64)
    wide = docs.shape[0] and int(docs.max()) >= 1 << 31
    out_owners: npt.NDArray[np.integer] = np.empty(rows, dtype=np.int64 if wide else np.int32)
    small_pages(out_hashes)  # filled in every part at once: mapped as they fill
    small_pages(out_owners)
    ends = np.cumsum(counts)  # rows up to each record's end
    halves = [(0, docs.shape[0])]
    if rows >= SPLIT_ROWS and usable_cores() >= 2:
        middle = int(np.searchsorted(ends, rows // 2, "right"))
        halves = [(0, middle), (middle, docs.shape[0])]
    per_half = []
    for lo, hi in halves:
        counted = np.zeros(1 << bits, dtype=np.int64)
        _kernels.record_parts(hashes, counts[lo:hi], firsts[lo:hi], bits, counted)
        per_half.append(counted)
    parts = np.sum(per_half, axis=0).astype(np.int64)
    fill = np.cumsum(parts) - parts
    fills = [fill]
    for counted in per_half[:-1]:
        fills.append(fills[-1] + counted)

    def scatter(half: int) -> None:
        lo, hi = halves[half]
        start = lo
        read = 0 if lo == 0 else int(firsts[lo - 1] + counts[lo - 1])  # where the other half stops
        while start < hi:
            stop = max(start + 1, int(np.searchsorted(ends, ends[start] + SCATTER_ROWS, "right")))
            stop = min(stop, hi)
            _kernels.scatter_records(hashes, docs[start:stop], counts[start:stop],
                                     firsts[start:stop], bits, out_hashes, out_owners,
                                     fills[half])
            if done is not None:
                last = stop - 1
                end = int(firsts[last] + counts[last])
                done(read, end)
                read = end
            start = stop

    if len(halves) == 1:
        scatter(0)
    else:
        with ThreadPoolExecutor(2, thread_name_prefix="winnow-parts") as pool:
            list(pool.map(scatter, range(2)))
    return out_hashes, out_owners, parts


def shard_postings(job: ShardJob, rows: U64 | None = None) -> tuple[U64 | int, I64, I64, U64]:
    """Every distinct hash of one shard's records, record after record, with
    those records, the hashes of each and their set digests: ``(hashes, docs,
    counts, digests)``, for a process pool (which cannot return a generator).
    The owner of each hash is ``np.repeat(docs, counts)``: sending the counts
    instead of an owner per hash halves what goes back to the parent.
    ``rows``: where to write the hashes when they fit
    (:mod:`winnow.corpus.shared_rows`); ``hashes`` is then their number."""
    reuse_freed_memory()
    batches = list(fingerprint_shard(job))
    if not batches:
        none = np.zeros(0, dtype=np.int64)
        return (0 if rows is not None else np.zeros(0, dtype=np.uint64), none, none,
                np.zeros(0, dtype=np.uint64))
    n = sum(b.hashes.shape[0] for b in batches)
    hashes: U64 | int
    if rows is not None and n <= rows.shape[0]:
        np.concatenate([b.hashes for b in batches], out=rows[:n])
        hashes = n
    else:
        hashes = np.concatenate([b.hashes for b in batches])
    return (hashes,
            np.concatenate([b.docs for b in batches]),
            np.concatenate([b.counts for b in batches]),
            np.concatenate(cast(list[U64], [b.digests for b in batches])))  # all have them


__all__ = ["BATCH_BYTES", "SCATTER_ROWS", "ShardJob", "batch_hashes", "by_part",
           "fingerprint_shard", "joined_offsets", "load_kernels", "record_hashes",
           "records_by_part", "set_digests", "shard_postings"]
