"""``winnow dedup``'s engines against datasketch's MinHashLSH on a corpus with planted pairs.

    .venv/bin/python benchmarks/scale.py --records 100000 [--workdir DIR]
        [--engines in-memory,local-sharded,ray,minhash,rensa,rensa-5gram] [--jobs 2]

1. The corpus (``scale_corpus.build``, cached in ``WORKDIR/corpus-N``): N JSON
   Lines records of real-vocabulary text with planted near-duplicates (edit
   rates 0-10 %) and containments (a short record verbatim inside a host).
2. Each engine runs in its own process (``scale.py one ...``), twice
   (``harness.timed_then_measured``): once alone for its wall and CPU time,
   then with its memory sampled (peak PSS of the whole process tree, Ray's
   processes included, and ``peaks``: the sum of the processes' own peak
   RSS, a bound that no spike between two samples escapes):
   ``winnow.corpus.find_duplicates`` (``winnow dedup``'s defaults) with the
   in-memory, the local sharded and the Ray engine (2 workers each), and
   MinHashLSH at
   its documented settings (``num_perm=128``, ``threshold=0.5``, the
   README's example; shingles: word 5-grams, lower-cased; MinHash
   signatures computed on 2 worker processes, every record inserted, then
   queried; candidate pairs clustered by union-find as winnow's pairs are),
   and rensa (a Rust MinHash, ``RMinHashLSH``; see :func:`run_rensa`).
3. Each run's clusters are scored against the truth, pair by pair:
   near-duplicate recall per edit rate (base-copy pairs in one cluster),
   containment recall (short record and host in one cluster) and precision
   (pairs inside clusters that are planted pairs, over all pairs inside
   clusters).  Throughput: records and MB of text per second of wall time;
   ``CPU s``: user and system time of the engine's whole process tree in the
   timed run (its reaped workers included; Ray's own processes are not), which a machine
   shared with other work changes less than the wall time.

Append the printed block to ``benchmarks/scale.results.md`` (newest first).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import scale_corpus
from harness import check, compile_winnow, timed_then_measured, uptime, warm

I64 = npt.NDArray[np.int64]
HERE = Path(__file__).resolve().parent
ENGINES = ("in-memory", "local-sharded", "ray", "minhash", "rensa", "rensa-5gram")
THRESHOLD = 0.5
NUM_PERM = 128
SHINGLE = 5
WORD = re.compile(r"\w+")
#: rensa's settings, by engine: shingle length in words, LSH bands, whether
#: each candidate pair is verified (its estimated Jaccard at least THRESHOLD).
RENSA = {"rensa": (1, 16, True), "rensa-5gram": (SHINGLE, 32, False)}


def corpus_files(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.glob("part-*.jsonl"))


# --- the measured processes --------------------------------------------------

def run_winnow(folder: Path, engine: str, jobs: int, workdir: Path) -> I64:
    """``winnow dedup``'s clusters, in a process set up as the ``winnow``
    command sets up its own (:func:`winnow.cli.main.run`): numba loaded
    without looking for scipy's BLAS (:func:`winnow.compiled.without_blas`),
    the collector off while its modules load, and then, as at the end
    (:func:`one`), the objects alive frozen."""
    from winnow.compiled import without_blas

    without_blas()  # before the first kernel is defined
    gc.disable()
    from winnow.corpus import DedupSettings, Fields, find_duplicates

    gc.freeze()
    gc.enable()

    settings = DedupSettings(Fields("text", "id"), engine=engine,  # type: ignore[arg-type]
                             jobs=jobs,
                             workdir=None if engine == "in-memory" else str(workdir))
    run = find_duplicates(corpus_files(folder), settings)
    return run.clusters.cluster


def shingles(text: str, size: int = SHINGLE) -> set[str]:
    """The record's word ``size``-grams, lower-cased (one shingle if it is shorter)."""
    words = WORD.findall(text.lower())
    return {" ".join(words[i:i + size]) for i in range(max(1, len(words) - size + 1))}


def _signatures(path: str) -> npt.NDArray[np.uint64]:
    from datasketch import MinHash

    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            m = MinHash(num_perm=NUM_PERM)
            m.update_batch([s.encode("utf-8") for s in shingles(json.loads(line)["text"])])
            rows.append(m.hashvalues)
    return np.array(rows, dtype=np.uint64)


def run_minhash(folder: Path, jobs: int) -> I64:
    from concurrent.futures import ProcessPoolExecutor

    from datasketch import LeanMinHash, MinHash, MinHashLSH

    with ProcessPoolExecutor(jobs) as pool:
        signatures = np.concatenate(list(pool.map(_signatures, corpus_files(folder))))
    n = signatures.shape[0]
    lsh = MinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM)
    scheme = MinHash(num_perm=NUM_PERM).scheme  # the one the workers used
    lean = [LeanMinHash(seed=1, hashvalues=signatures[i], scheme=scheme) for i in range(n)]
    for i in range(n):
        lsh.insert(i, lean[i], check_duplication=False)
    left: list[int] = []
    right: list[int] = []
    for i in range(n):
        for j in lsh.query(lean[i]):
            if j != i:
                left.append(i)
                right.append(int(j))
    return components(n, np.array(left, dtype=np.int64), np.array(right, dtype=np.int64))


def _rensa_sketches(path: str, size: int, batch: int = 10_000) -> list[Any]:
    from rensa import RMinHash  # type: ignore[import-untyped]

    sketches: list[Any] = []
    tokens: list[list[str]] = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            text = json.loads(line)["text"]
            tokens.append(text.lower().split() if size == 1 else list(shingles(text, size)))
            if len(tokens) == batch:  # the shingles of one batch at a time
                sketches += RMinHash.from_token_sets(tokens, num_perm=NUM_PERM, seed=42)
                tokens = []
    sketches += RMinHash.from_token_sets(tokens, num_perm=NUM_PERM, seed=42)
    return sketches


def run_rensa(folder: Path, jobs: int, engine: str) -> I64:
    """rensa 0.5's ``RMinHash`` and ``RMinHashLSH`` as its README recommends for bulk work.

    Sketches: ``RMinHash.from_token_sets`` (one Rust call per 10,000 records, so
    that only one batch's shingles are held, on ``jobs`` worker processes, one
    file each, like :func:`_signatures`; an ``RMinHash``
    pickles as its 128 32-bit slots, ~0.7 kB, so the sketches come back to the
    parent for about 1 s per 100,000; the parent sketches nothing before the
    pool forks: a forked child of a process that ran rensa's Rayon threads hung
    in a trial).  Index: ``insert_many`` then ``query_all``
    (every record a query); candidate pairs joined into clusters by connected
    components (:func:`components`, as for :func:`run_minhash`).
    ``num_bands`` must divide ``num_perm``=128, so datasketch's 25 bands of 5 rows
    for threshold 0.5 are not available: 32 bands of 4 rows (S-curve midpoint
    (1/32)^(1/4) = 0.42) or 16 of 8 (0.71).

    ``rensa`` (the default): plain words, ``text.lower().split()`` (a set of
    1-grams: rensa ignores repeats), 16 bands, each candidate pair verified
    (``RMinHash.jaccard`` >= 0.5).  On the 100,000-record corpus (2026-11-25,
    in-process, the same pipeline) it had the best near-duplicate recall at
    precision 1.000 and the cheapest shingles: near 0.997 (0.988 at 10 %
    edits); :data:`WORD` words instead of ``split``: near 0.998, the same precision,
    2.5x the tokenizing time (0.36 against 0.14 CPU s per 12,500 records; word
    5-grams 0.62).  The others: word 5-grams, 32 bands, unverified (the
    ``rensa-5gram`` engine, datasketch's shingles): near 0.923, containment
    0.278, precision 1.000; 5-grams verified: near 0.830; 5-grams with 16
    bands: near 0.651; words unverified: precision 0.878; words with 32 bands,
    verified: near 1.000, containment 0.126, but 23.8 million candidate pairs at
    100,000 records (common words: they grow with the square of the corpus;
    out of memory at 1,000,000).  Containment, a short record inside a longer
    one, has a low Jaccard: whole-record MinHash finds few of them whatever the
    setting.
    """
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    from rensa import RMinHashLSH

    size, bands, verify = RENSA[engine]
    with ProcessPoolExecutor(jobs) as pool:
        sketches = [m for part in pool.map(partial(_rensa_sketches, size=size),
                                           corpus_files(folder)) for m in part]
    lsh = RMinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM, num_bands=bands)
    lsh.insert_many(sketches)
    left: list[int] = []
    right: list[int] = []
    for i, found in enumerate(lsh.query_all(sketches)):
        for j in found:
            if j > i and (not verify or sketches[i].jaccard(sketches[j]) >= THRESHOLD):
                left.append(i)
                right.append(j)
    return components(len(sketches), np.array(left, dtype=np.int64),
                      np.array(right, dtype=np.int64))


def components(n: int, left: I64, right: I64) -> I64:
    """Cluster labels of records joined by pairs: 1 + the smallest record of the
    cluster, 0 for a record in no pair (the labels :func:`run_minhash` gives).
    Minimum-label propagation with pointer jumping, in numpy alone."""
    label = np.arange(n, dtype=np.int64)
    while True:
        low = np.minimum(label[left], label[right])
        new = label.copy()
        np.minimum.at(new, left, low)
        np.minimum.at(new, right, low)
        new = new[new]
        if np.array_equal(new, label):
            break
        label = new
    linked = np.zeros(n, dtype=bool)
    linked[left] = linked[right] = True
    return np.where(linked, label + 1, 0).astype(np.int64)


def one(args: argparse.Namespace) -> None:
    folder = Path(args.corpus)
    if args.engine == "minhash":
        labels = run_minhash(folder, args.jobs)
    elif args.engine in RENSA:
        labels = run_rensa(folder, args.jobs, args.engine)
    else:
        labels = run_winnow(folder, args.engine, args.jobs, Path(args.work))
    np.save(args.labels, labels)
    if args.engine not in RENSA and args.engine != "minhash":
        gc.freeze()  # as the winnow command: the exit does not search them for cycles


# --- scoring -----------------------------------------------------------------

def pairs_within(labels: I64, groups: I64) -> tuple[int, int]:
    """(pairs inside clusters, of those the pairs inside one truth group)."""
    clustered = labels > 0
    lab = labels[clustered]
    grp = groups[clustered]
    _, per_cluster = np.unique(lab, return_counts=True)
    total = int((per_cluster * (per_cluster - 1) // 2).sum())
    planted = grp >= 0
    keys = lab[planted] * (int(groups.max(initial=0)) + 2) + grp[planted]
    _, per_both = np.unique(keys, return_counts=True)
    true = int((per_both * (per_both - 1) // 2).sum())
    return total, true


def score(labels: I64, truth: dict[str, npt.NDArray[np.generic]]) -> dict[str, float]:
    group, kind, rate = truth["group"], truth["kind"], truth["rate"]
    k = scale_corpus.KINDS
    out: dict[str, float] = {}
    base_of = {int(g): i for i, g in enumerate(group.tolist()) if kind[i] == k["base"]}
    copies = np.flatnonzero(kind == k["copy"])
    same = np.array([labels[i] > 0 and labels[i] == labels[base_of[int(group[i])]]
                     for i in copies.tolist()])
    for r in scale_corpus.EDIT_RATES:
        mask = rate[copies] == r
        out[f"near {r:.0%}"] = float(same[mask].mean()) if mask.any() else float("nan")
    out["near all"] = float(same.mean())
    contained = np.flatnonzero(kind == k["contained"])
    host_of = {int(group[i]): i for i in np.flatnonzero(kind == k["host"]).tolist()}
    hit = [labels[i] > 0 and labels[i] == labels[host_of[int(group[i])]]
           for i in contained.tolist()]
    out["containment"] = float(np.mean(hit))
    total, true = pairs_within(labels, group)
    out["precision"] = true / total if total else float("nan")
    out["pairs"] = float(total)
    return out


# --- the driver --------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd")
    o = sub.add_parser("one")
    for name in ("corpus", "engine", "labels", "work"):
        o.add_argument(f"--{name}", required=True)
    o.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--workdir", default="/tmp/winnow-scale")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.cmd == "one":
        one(args)
        return
    compiled = compile_winnow()
    work = Path(args.workdir)
    folder = work / f"corpus-{args.records}"
    if not (folder / "truth.npz").exists():
        counts = scale_corpus.build(args.records, folder)
        print(f"corpus {folder}: {counts}", flush=True)
    truth = dict(np.load(folder / "truth.npz"))
    size_mb = sum(os.path.getsize(f) for f in corpus_files(folder)) / 1e6
    n = truth["group"].shape[0]
    print(f"winnow dedup scale, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"{uptime()}\n{n:,} records, {size_mb:.0f} MB of JSON Lines, jobs {args.jobs}; "
          f"{compiled} winnow modules compiled to bytecode first")
    header = (f"{'engine':<14}{'s':>8}{'CPU s':>7}{'rec/s':>9}{'MB/s':>7}{'PSS MiB':>9}"
              f"{'peaks':>7}"
              + "".join(f"{'near ' + f'{r:.0%}':>9}" for r in scale_corpus.EDIT_RATES)
              + f"{'near':>7}{'contain':>8}{'prec':>7}{'pairs':>9}")
    print(header, flush=True)
    for engine in args.engines.split(","):
        warm(folder)  # each engine reads the corpus from the page cache, the first one too
        labels_path = work / f"labels-{engine}-{n}.npy"
        shards = work / f"shards-{engine}-{n}"
        command = [sys.executable, str(HERE / "scale.py"), "one", "--corpus", str(folder),
                   "--engine", engine, "--labels", str(labels_path), "--work", str(shards),
                   "--jobs", str(args.jobs)]
        # timed alone, then run again with its memory sampled (the sampler's
        # walks of /proc slow a multi-process run: 100,000 records took
        # winnow 1.3 s alone and 1.8 s sampled, rensa 1.8-2.0 and 2.1-2.3 s)
        run = timed_then_measured(  # each run a fresh one, not one resumed from the other's
            command, env={**os.environ, "RAY_DISABLE_USAGE_STATS": "1"},
            reset=partial(shutil.rmtree, shards, ignore_errors=True))
        cpu = run.cpu_s
        check(run, engine)
        s = score(np.load(labels_path), truth)
        print(f"{engine:<14}{run.wall_s:8.1f}{cpu:7.1f}{n / run.wall_s:9.0f}"
              f"{size_mb / run.wall_s:7.2f}{run.tree_pss_mib:9.0f}{run.tree_hwm_mib:7.0f}"
              + "".join(f"{s[f'near {r:.0%}']:9.3f}" for r in scale_corpus.EDIT_RATES)
              + f"{s['near all']:7.3f}{s['containment']:8.3f}{s['precision']:7.3f}"
              f"{int(s['pairs']):9d}  (load {run.load_before:.2f}->{run.load_after:.2f})",
              flush=True)
    print(f"({uptime()})")


if __name__ == "__main__":
    main()
