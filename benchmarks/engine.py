"""Engine throughput: k-gram hashing + (robust) winnowing against a C reference.

Hashes and winnows SIZE MB of random text (k = 50, w = 100) with winnow's
engine and, in the same run, with ``engine_reference.c`` compiled by
``gcc -O2`` (the same hash and the same selection, written the plain C way).
Both results are checked to be identical (count and checksums of the selected
fingerprints).  Prints MB/s for both and the ratio; best of --repeat runs.

    .venv/bin/python benchmarks/engine.py [--size-mb 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import winnow
from winnow.engine.hashing import hash_base, hash_key

HERE = Path(__file__).resolve().parent
K, W = 50, 100


def random_text(size: int, seed: int = 2003) -> np.ndarray:
    """Random lower-case letters and spaces (the paper's "random text")."""
    alphabet = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz ", dtype=np.uint8)
    return alphabet[np.random.default_rng(seed).integers(0, len(alphabet), size)]


def time_winnow(units: np.ndarray, method: str, repeat: int,
                two_pass: bool = False) -> tuple[float, np.ndarray]:
    """Best time of ``winnow.fingerprint`` (what compare, sif and the CLI call:
    fused hashing + winnowing), or of the two-pass library path
    ``select_fingerprints(kgram_hashes(...))`` that materialises every hash."""
    config = winnow.WinnowConfig(k=K, t=K + W - 1, method=method)

    def run(data: np.ndarray) -> np.ndarray:
        if two_pass:
            return winnow.select_fingerprints(winnow.kgram_hashes(data, K), W, method)
        return winnow.fingerprint(data, config)

    run(units[:10_000])  # compile or load the kernels
    best = float("inf")
    selected = np.empty(0)
    for _ in range(repeat):
        start = time.perf_counter()
        selected = run(units)
        best = min(best, time.perf_counter() - start)
    return best, selected


def build_reference(build_dir: Path) -> Path | None:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        return None
    binary = build_dir / "engine_reference"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(HERE / "engine_reference.c")],
                   check=True)
    return binary


def time_reference(binary: Path, data: Path, robust: bool,
                   repeat: int) -> tuple[float, tuple[int, int, int]]:
    best = float("inf")
    sums = (0, 0, 0)
    for _ in range(repeat):
        out = subprocess.run(
            [str(binary), str(data), str(K), str(W), str(int(robust)),
             str(hash_key(0)), str(hash_base(0))],
            check=True, capture_output=True, text=True,
        ).stdout.split()
        best = min(best, float(out[0]))
        sums = (int(out[1]), int(out[2]), int(out[3]))
    return best, sums


def checksums(selected: np.ndarray) -> tuple[int, int, int]:
    return (len(selected), int(selected["pos"].sum()),
            int(selected["hash"].sum(dtype=np.uint64)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=float, default=100.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    size = int(args.size_mb * 1_000_000)
    units = random_text(size)
    megabytes = size / 1e6
    print(f"input: {megabytes:.0f} MB random text, k={K}, w={W}, best of {args.repeat}; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "text.bin"
        units.tofile(data)
        binary = build_reference(Path(tmp))
        if binary is None:
            print("no C compiler found (gcc/cc): skipping the C reference")
        for method, target in (("winnow", 0.67), ("robust", 0.5)):
            seconds, selected = time_winnow(units, method, args.repeat)
            line = f"{method:>7}: winnow {megabytes / seconds:8.1f} MB/s"
            if binary is not None:
                ref_seconds, ref_sums = time_reference(binary, data, method == "robust",
                                                       args.repeat)
                if ref_sums != checksums(selected):
                    print(f"MISMATCH with the C reference: {ref_sums} != {checksums(selected)}")
                    return 1
                ratio = ref_seconds / seconds
                line += (f"   C -O2 {megabytes / ref_seconds:8.1f} MB/s   ratio {ratio:.2f} "
                         f"(target >= {target})   identical selection: "
                         f"{len(selected)} fingerprints")
            print(line)
            two_pass_seconds, _ = time_winnow(units, method, args.repeat, two_pass=True)
            print(f"{'':>9}two-pass library path (every hash kept): "
                  f"{megabytes / two_pass_seconds:8.1f} MB/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
