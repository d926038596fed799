"""What ``ShardPlan(map_large_arrays=...)`` does to the calling process's allocator
(glibc only): moved here from the test suite, which should not pin glibc's
internals (its dynamic mmap threshold and ``mallinfo2``).

    .venv/bin/python benchmarks/allocator.py [--no-record]

For each setting, a fresh process runs a small sharded count
(:mod:`winnow.sharded.synthetic`, 40 shards of 10 documents, 2 partitions,
one job), then frees a 4 MiB block (which, by glibc's rule, raises its mmap
threshold above 4 MiB) and allocates 200 blocks of 300 KiB, counting the new
mapped blocks (``mallinfo2().hblks``).  With ``map_large_arrays`` the engine
pinned the threshold (``mallopt(M_MMAP_THRESHOLD)``), so every block is
mapped on its own (200); without it the caller's allocator is left alone and
the blocks come from the heap (0).  The figures are counts, not times, so a
loaded machine does not change them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile

import history
from harness import uptime

CODE = """
import ctypes, sys
from winnow.sharded import ShardPlan, count_pairs
from winnow.sharded.synthetic import synthetic_prints, synthetic_shards
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]

class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
        "uordblks", "fordblks", "keepcost")]

libc.mallinfo2.restype = Info

def new_mappings():
    libc.free(libc.malloc(4 << 20))
    before = libc.mallinfo2().hblks
    blocks = [libc.malloc(300 << 10) for _ in range(200)]
    after = libc.mallinfo2().hblks
    for block in blocks:
        libc.free(block)
    return after - before

plan = ShardPlan(sys.argv[1], partitions=2, jobs=1, map_large_arrays=sys.argv[2] == "1")
count_pairs(synthetic_shards(40, 10), synthetic_prints, plan, cap=50)
print(new_mappings())
"""

#: What each setting should give (see the docstring).
EXPECTED = {True: 200, False: 0}


def new_mappings(tune: bool) -> int:
    """The new mapped blocks of 200 allocations of 300 KiB after a sharded count."""
    with tempfile.TemporaryDirectory(prefix="winnow-allocator-") as tmp:
        out = subprocess.run([sys.executable, "-c", CODE, f"{tmp}/run", "1" if tune else "0"],
                             capture_output=True, text=True, check=True).stdout
    return int(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-record", action="store_true",
                        help="Print only; do not add an entry to allocator.results.md.")
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        sys.exit("benchmarks/allocator.py: glibc only (Linux)")
    rows = [(tune, new_mappings(tune)) for tune in (True, False)]
    lines = ["| map_large_arrays | new mapped blocks of 200 | expected |", "|---|---|---|"]
    lines += [f"| {tune} | {got} | {EXPECTED[tune]} |" for tune, got in rows]
    table = "\n".join(lines)
    print(table)
    ok = all(got == EXPECTED[tune] for tune, got in rows)
    print("as expected" if ok else "NOT as expected: glibc's behaviour differs here")
    if not args.no_record:
        command = "`.venv/bin/python benchmarks/allocator.py`"
        path = history.record("allocator", f"{history.stamp()}, {history.commit()}",
                              f"{command}; {uptime()}\n\n{table}\n")
        print(f"recorded in {path}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
