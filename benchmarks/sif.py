"""sif on a large real tree: the Linux kernel source (Debian's ``linux-source-6.1``).

Set-up (first run, needs root and the network): ``apt-get install
linux-source-6.1`` puts ``/usr/src/linux-source-6.1.tar.xz`` on the machine;
it is unpacked once into ``--cache`` (default ``benchmarks/_build``).

Then, each through the real ``winnow`` command line (process start included):

1. ``winnow index TREE -j JOBS``: end-to-end build throughput in MB/s
   (target >= 20 MB/s on 2 cores) and the index size as a share of the corpus
   (target <= 5 %);
   and the time of a second run with nothing changed (size and mtime match);
2. ``winnow groups --threshold 0.25`` (and 0.5): wall time (target < 10 s) and
   the group counts (sif's X11R5 run: 657 identical groups, 3,445 similar at 25 %);
3. one-file queries: median over ``--queries`` random indexed files, timed
   in-process on an open index (target < 100 ms), plus one CLI call;
4. sif's experiment (section 5) at kernel scale: a ~30 KB C file of the tree
   with 300 random 50-character substitutions, ``--seeds`` times: is the
   original found, does anything else pass 5 %, and the similarity reported.

``--subset DIR`` runs on one folder of the tree (label results as a subset).
The load average is printed before and after: the machine may be shared.
Results also go to ``benchmarks/results/sif.json``.

Usage: ``python benchmarks/sif.py [--subset drivers/net] [--jobs 2]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARBALL = Path("/usr/src/linux-source-6.1.tar.xz")
CLI = [sys.executable, "-c", "from winnow.cli import main; main()"]


def setup(cache: Path) -> Path:
    """Install Debian's kernel source package if needed and unpack it once."""
    tree = cache / "linux-source-6.1"
    if (tree / "Makefile").exists():
        return tree
    if not TARBALL.exists():
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends",
                        "linux-source-6.1"], check=True, env=env)
    cache.mkdir(parents=True, exist_ok=True)
    print(f"unpacking {TARBALL} into {cache} ...", flush=True)
    with tarfile.open(TARBALL) as archive:
        archive.extractall(cache, filter="data")
    return tree


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(args: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    result = subprocess.run(args, check=True, capture_output=True, text=True)
    return time.perf_counter() - t0, result.stdout + result.stderr


def tree_size(root: Path) -> tuple[int, int]:
    from winnow.sources.walk import walk

    found = walk([root])
    return len(found.files), sum(f.size for f in found.files)


def bench_index(tree: Path, db: Path, jobs: int, out: dict[str, Any],
                extra: list[str]) -> None:
    files, size = tree_size(tree)
    for path in db.parent.glob(db.name + "*"):
        path.unlink()
    seconds, log = timed([*CLI, "index", str(tree), "--db", str(db), "-j", str(jobs), *extra])
    print(log.strip())
    out.update(files=files, bytes=size, index_seconds=seconds,
               index_mb_per_s=size / 1e6 / seconds)
    rerun, _ = timed([*CLI, "index", str(tree), "--db", str(db), "-j", str(jobs), "-q"])
    out["reindex_unchanged_seconds"] = rerun
    print(f"re-index with nothing changed: {rerun:.1f} s end to end", flush=True)
    from winnow.index import FingerprintIndex

    with FingerprintIndex(db, read_only=True) as index:
        info = index.info()
    out.update(fingerprints=info.fingerprints, index_bytes=info.index_bytes,
               index_percent=info.percent_of_corpus)
    print(f"index build: {files} files, {size / 1e6:.1f} MB in {seconds:.1f} s end to end "
          f"= {out['index_mb_per_s']:.1f} MB/s (-j {jobs}); {info.fingerprints} fingerprints, "
          f"index {info.index_bytes / 1e6:.1f} MB = {info.percent_of_corpus:.2f}% of the corpus",
          flush=True)


def bench_groups(db: Path, out: dict[str, Any]) -> None:
    for threshold in (25, 50):
        target = db.with_suffix(f".groups{threshold}.json")
        seconds, _ = timed([*CLI, "groups", "--db", str(db),
                            "--threshold", str(threshold / 100),
                            "--format", "json", "-o", str(target)])
        counts = json.loads(target.read_text())["counts"]
        out[f"groups_{threshold}"] = {"seconds": seconds, **counts}
        print(f"groups at {threshold}%: {seconds:.2f} s end to end; {counts['identical']} "
              f"groups of identical files, {counts['similar']} groups of similar files",
              flush=True)


def bench_query(db: Path, n: int, out: dict[str, Any]) -> None:
    from winnow.index import FingerprintIndex
    from winnow.sif.query import query_file

    with FingerprintIndex(db, read_only=True) as index:
        params = index.params
        assert params is not None
        docs = [d for d in index.documents() if d.size > 0]
        sample = random.Random(0).sample(docs, min(n, len(docs)))
        query_file(index, params, sample[0].path)  # warm up
        times = []
        for doc in sample:
            t0 = time.perf_counter()
            query_file(index, params, doc.path)
            times.append(time.perf_counter() - t0)
    cli, _ = timed([*CLI, "query", sample[0].path, "--db", str(db)])
    out.update(query_median_ms=1000 * statistics.median(times),
               query_p90_ms=1000 * sorted(times)[int(0.9 * len(times))], query_cli_s=cli)
    print(f"query: median {out['query_median_ms']:.1f} ms, p90 {out['query_p90_ms']:.1f} ms "
          f"over {len(times)} files (open index, in-process); one CLI call {cli:.2f} s "
          f"including interpreter start", flush=True)


def mutate(data: bytes, seed: int) -> bytes:
    rng = random.Random(seed)
    out = bytearray(data)
    alphabet = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ;(){}*=\n"
    for _ in range(300):
        at = rng.randrange(0, len(out) - 50)
        out[at: at + 50] = bytes(rng.choice(alphabet) for _ in range(50))
    return bytes(out)


def bench_experiment(db: Path, seeds: int, out: dict[str, Any]) -> None:
    from winnow.index import FingerprintIndex
    from winnow.sif.query import query_file

    with FingerprintIndex(db, read_only=True) as index:
        params = index.params
        assert params is not None
        candidates = [d for d in index.documents()
                      if d.path.endswith(".c") and 29_000 <= d.size <= 31_000]
        original = random.Random(1).choice(candidates)
        data = Path(original.path).read_bytes()
        sims, found, others = [], 0, 0
        other_files: dict[str, float] = {}
        query = db.with_suffix(".query.c")
        for seed in range(seeds):
            query.write_bytes(mutate(data, seed))
            result = query_file(index, params, str(query), threshold=0.05)
            hit = [m for m in result.matches if m.match == original.path]
            found += bool(hit)
            sims.append(100.0 * hit[0].contained if hit else 0.0)
            for m in result.matches:
                if index.documents([m.match])[0].checksum != original.checksum:
                    others += 1
                    other_files[m.match] = max(other_files.get(m.match, 0.0), 100.0 * m.contained)
    out["experiment"] = {"file": original.path, "size": original.size, "runs": seeds,
                         "found": found, "other_files_over_5pct": others,
                         "other_files": other_files,
                         "min": min(sims), "max": max(sims), "mean": statistics.mean(sims)}
    print(f"sif experiment on {original.path} ({original.size} bytes), {seeds} runs: found "
          f"{found}/{seeds}, other files over 5%: {others}; similarity {min(sims):.1f}-"
          f"{max(sims):.1f}%, mean {statistics.mean(sims):.1f}% (sif: 37-62%, mean 52%)",
          flush=True)
    for path, share in sorted(other_files.items(), key=lambda kv: -kv[1]):
        print(f"  also over 5% in some run: {path} (up to {share:.1f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=HERE / "_build")
    parser.add_argument("--subset", default=None, help="a folder of the tree, e.g. drivers/net")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--index-args", default="",
                        help="extra `winnow index` options, e.g. '--method robust -t 560'")
    args = parser.parse_args()
    tree = setup(args.cache)
    target = tree / args.subset if args.subset else tree
    label = f"SUBSET {args.subset}" if args.subset else "full tree"
    print(f"sif benchmark on {target} ({label}); {os.cpu_count()} cores; {load()}", flush=True)
    out: dict[str, Any] = {"tree": str(target), "subset": args.subset, "jobs": args.jobs,
                           "load_before": os.getloadavg()}
    extra = args.index_args.split()
    out["index_args"] = extra
    db = args.cache / (("kernel-subset" if args.subset else "kernel")
                       + "-".join(["", *[a.strip("-") for a in extra]]) + ".db")
    bench_index(target, db, args.jobs, out, extra)
    bench_groups(db, out)
    bench_query(db, args.queries, out)
    bench_experiment(db, args.seeds, out)
    out["load_after"] = os.getloadavg()
    print(f"done; {load()}")
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    (results / (db.stem + ".json")).write_text(
        json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
