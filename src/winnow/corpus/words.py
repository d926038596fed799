"""The verified resemblance of candidate pairs: Jaccard of their word pairs.

Winnowing's fingerprint resemblance estimates the resemblance of two
records' character k-grams from a sample (about 2 / (w + 1) of them), and
an edited word changes every k-gram across it: a copy with one word in ten
edited shares about 0.43 of its 20-character k-grams (Jaccard, median,
benchmark corpus), and the sample scatters that widely (fingerprint
resemblance 0.04 at the lowest, 0.15 at the 1st percentile, median 0.39).
Near-duplicates are
therefore found in two steps: the fingerprints give the *candidate* pairs
(fingerprint resemblance at least ``candidate_similarity``, or linked by
containment), and each candidate's resemblance is computed exactly, once,
from the two texts:

    word-pair resemblance = |Pa ∩ Pb| / |Pa ∪ Pb|

where ``P`` is the set of a record's *word pairs* (each two consecutive
words; a record of one word: that word).  Words are the text front-end's:
NFKC, case-folded, runs of letters and digits with nothing dropped between
them (spaces and punctuation end a word); in scripts written without spaces
(Han, kana, Thai, Lao, Khmer, Myanmar) each character is a word.  An edited
word changes two word pairs, so the same copies' word-pair resemblance is
about 0.73 (median; at least 0.47 on the benchmark corpus), while texts written
independently on one topic share at most about 0.19 of them (Clough &
Stevenson's answers; ``benchmarks/dedup_threshold.py``).

The candidates' records are read once more (:func:`word_pair_sets`, one
task per input shard holding any), their word pairs hashed to 64 bits and
kept as sorted arrays (8 bytes a word pair of a candidate record, gathered
into one array grown in place, the rest of the corpus never held), and
each pair's resemblance counted by merging the two arrays
(:func:`resemblances`).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.corpus import _word_kernels
from winnow.corpus.fingerprints import ShardJob, joined_offsets
from winnow.corpus.readers import record_texts
from winnow.frontends.text import byte_units, char_units, leads_with_mark
from winnow.parallel import reusing_freed_memory, worker_count

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

#: Code points of scripts written without spaces: each character is a word.
UNSPACED = ((0x0E00, 0x0EFF),    # Thai, Lao
            (0x1000, 0x109F),    # Myanmar
            (0x1780, 0x17FF),    # Khmer
            (0x2E80, 0x9FFF),    # CJK radicals, kana, CJK ideographs
            (0xF900, 0xFAFF),    # CJK compatibility ideographs
            (0x20000, 0x3FFFF))  # CJK extensions
_ASCII_WORD = np.array([chr(c).isalnum() for c in range(128)], dtype=np.bool_)
_NO_CPS = np.zeros(0, dtype=np.uint32)
_NO_FLAGS = np.zeros(0, dtype=np.bool_)
#: Texts' UTF-8 bytes read into words together (one front-end pass, 20 bytes
#: of units a byte).
BATCH_BYTES = 1 << 18


def _high_words(cps: npt.NDArray[np.uint32]) -> tuple[npt.NDArray[np.uint32],
                                                      npt.NDArray[np.bool_]]:
    """The distinct code points of ``cps`` from 128 on, sorted, and whether
    each continues a word (a letter or digit of a spaced script); none when
    the units are all ASCII."""
    if cps.shape[0] == 0 or int(cps.max()) < 128:
        return _NO_CPS, _NO_FLAGS
    distinct = np.unique(cps[cps >= 128])
    flags = np.array([chr(c).isalnum() for c in distinct.tolist()], dtype=np.bool_)
    for low, top in UNSPACED:
        flags &= ~((distinct >= low) & (distinct <= top))
    return distinct, flags


def batch_word_pairs(texts: Sequence[bytes]) -> tuple[U64, I64]:
    """The distinct word-pair hashes of each UTF-8 text, sorted: ``(every
    text's hashes in turn, count per text)``.  A text of one word has that
    word's hash; a text of none, nothing."""
    runs: list[list[bytes]] = []
    run: list[bytes] = []
    size = 0
    for text in texts:  # a text led by a combining mark starts a run: joined after
        if run and (size >= BATCH_BYTES or leads_with_mark(text)):  # a newline, it
            runs.append(run)  # would take the newline as its base
            run, size = [], 0
        run.append(text)
        size += len(text) + 1
    if run:
        runs.append(run)
    if not runs:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64)
    done = [_run_pairs(r) for r in runs]
    return np.concatenate([h for h, _ in done]), np.concatenate([c for _, c in done])


def _run_pairs(texts: Sequence[bytes]) -> tuple[U64, I64]:
    """:func:`batch_word_pairs` of texts joined into one pass (a newline,
    which the front-end drops, parts two texts' words): all-ASCII texts
    straight from their bytes (:func:`_ascii_pairs`), others through the
    front-end (:func:`_unit_pairs`)."""
    joined = b"\n".join(texts)
    offsets = joined_offsets(texts)
    counts = np.zeros(len(texts), dtype=np.int64)
    pairs = _ascii_pairs if joined.isascii() else _unit_pairs
    return pairs(joined, offsets, counts), counts


def _ascii_pairs(ascii: bytes, offsets: I64, counts: I64) -> U64:
    """The word-pair hashes of ASCII texts joined (each text's count into
    ``counts``), read from the bytes with the front-end's ASCII table."""
    values = np.empty(max(len(ascii), 1), dtype=np.uint64)  # a value a byte at most
    total = _word_kernels.ascii_word_pairs(np.frombuffer(ascii, dtype=np.uint8), byte_units(),
                                           offsets, values, counts)
    return values[:total].copy()


def _unit_pairs(text: bytes, offsets: I64, counts: I64) -> U64:
    """The word-pair hashes of UTF-8 texts joined (each text's count into
    ``counts``), from the front-end's units."""
    units = char_units(text)
    values = np.empty(max(units.cps.shape[0], 1), dtype=np.uint64)  # a value a unit at most
    high, high_word = _high_words(units.cps)
    total = _word_kernels.word_pair_runs(units.cps, units.starts, units.ends, _ASCII_WORD, high,
                                         high_word, offsets, values, counts)
    return values[:total].copy()


@dataclass(frozen=True)
class WordJob:
    """The records ``docs`` (sorted) of one shard whose word pairs are wanted."""

    job: ShardJob
    docs: I64


def shard_word_pairs(task: WordJob) -> tuple[I64, U64, I64]:
    """``(docs, their word-pair hashes in turn, count per doc)`` of the wanted
    records of one shard (a bad record has none)."""
    wanted = set(task.docs.tolist())
    docs: list[int] = []
    texts: list[bytes] = []
    for doc, data in record_texts(task.job.shard, task.job.fields, wanted):
        docs.append(doc)
        texts.append(data)
    hashes, counts = batch_word_pairs(texts)
    return np.array(docs, dtype=np.int64), hashes, counts


@dataclass(frozen=True)
class WordSets:
    """Sorted word-pair hashes of some records: record ``docs[i]``'s are
    ``hashes[starts[i]:starts[i + 1]]``."""

    docs: I64
    starts: I64
    hashes: U64

    def slots(self, records: I64) -> I64:
        """Index of each record in :attr:`docs` (-1: none read, a bad record)."""
        at = np.minimum(np.searchsorted(self.docs, records), max(self.docs.shape[0] - 1, 0))
        found = (self.docs.shape[0] > 0) & (self.docs[at] == records)
        return np.where(found, at, -1)


def word_pair_sets(jobs: Sequence[ShardJob], docs: I64, workers: int = 0) -> WordSets:
    """The word-pair sets of records ``docs``, each shard holding any read once,
    on ``workers`` threads (``0``: one a usable core) of this process (the
    worker processes' memory cap, ``WINNOW_WORKER_MEMORY_MB``, does not apply:
    a thread holds one shard's wanted texts at a time).  A thread holds the
    GIL while it reads and parses its shard's wanted lines; the word pairs of
    all-ASCII texts are computed without it, in parallel (others go through
    the text front-end, one thread at a time).  100,000 records of
    ``benchmarks/scale.py``, 15,008 candidates, runs alternated: 0.17-0.23 s
    on two worker processes forked for the pass, 0.16-0.19 s on two threads.
    Freed arrays are reused meanwhile (:func:`reusing_freed_memory`); an
    interruption (Ctrl-C, SIGTERM) cancels the shards not started."""
    docs = np.sort(docs)  # np.unique hashes integers first: 5-19 ms here, sorting 0.6
    docs = docs[np.append(True, docs[1:] != docs[:-1])] if docs.shape[0] else docs
    tasks = []
    for job in jobs:
        first = job.shard.first
        lo, hi = np.searchsorted(docs, [first, first + job.shard.count])
        if hi > lo:
            tasks.append(WordJob(job, docs[lo:hi]))
    threads = worker_count(workers, len(tasks))
    found, counts = [], []
    hashes = np.empty(1 << 16, dtype=np.uint64)
    filled = 0
    with reusing_freed_memory():  # the threads are joined before it ends
        pool = ThreadPoolExecutor(threads, thread_name_prefix="winnow-words") \
            if threads > 1 else None
        try:
            results = map(shard_word_pairs, tasks) if pool is None else \
                pool.map(shard_word_pairs, tasks)
            for d, h, c in results:
                found.append(d)
                counts.append(c)
                end = filled + h.shape[0]
                if end > hashes.shape[0]:  # grown in place (realloc), a quarter at a time
                    hashes.resize(max(end, hashes.shape[0] * 5 // 4), refcheck=False)
                hashes[filled:end] = h
                filled = end
        finally:
            if pool is not None:  # after an error, the shards not started are dropped
                pool.shutdown(wait=True, cancel_futures=True)
    if not found:
        return WordSets(np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.uint64))
    hashes.resize(filled, refcheck=False)
    order_docs = np.concatenate(found)
    sizes = np.concatenate(counts)
    starts = np.zeros(sizes.shape[0] + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    return WordSets(order_docs, starts, hashes)  # shards in doc order


def resemblances(sets: WordSets, a: I64, b: I64) -> F64:
    """Word-pair resemblance of each pair ``(a[i], b[i])``; 0 where either
    record has no word pairs."""
    out = np.zeros(a.shape[0], dtype=np.float64)
    _word_kernels.sorted_jaccard(sets.starts, sets.hashes, sets.slots(a), sets.slots(b), out)
    return out


__all__ = ["UNSPACED", "WordSets", "batch_word_pairs", "resemblances", "word_pair_sets"]
