"""``winnow dedup`` on good records with every bad record kind of issue 24 mixed in.

    .venv/bin/python benchmarks/hostile_dedup.py [--records 100000] [--workdir DIR]
        [--bomb-mib 1024] [--engine auto]

A clean corpus of ``--records`` JSON Lines records (60 random words each,
every third a near copy of the one before) is de-duplicated once.  Then the
same records, in the same order, are split over a plain file, a ``.gz`` and
an ``.xz``, with bad records inserted at known lines:

* not JSON, invalid UTF-8, no text field, a text that is not a string, JSON
  nested 3,000 deep, a record over the 16 MiB record budget (20 MB), a line
  of blanks, blank lines;
* a separate ``.gz`` holding one ``--bomb-mib`` record (a few MB compressed);
* a separate truncated ``.gz`` (its readable half kept, the damage named);
* a text folder with a file whose name is not UTF-8.

The extra files use words the good records never use, so they share no
fingerprint with them.  Checked: every good record's cluster and
representative are the clean run's; every injected bad record is named on
standard error with its file and line; the truncated file and the text
folder's odd name are named; nothing crashed.  Exit 1 otherwise.  The run
is recorded at the top of ``benchmarks/hostile.results.md``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import lzma
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from harness import WINNOW, uptime
from history import commit, record, stamp
from hostile_cases import records

WORDS = ("river", "stone", "light", "paper", "cloud", "green", "house", "quiet", "north",
         "table", "music", "chair", "grape", "lemon", "storm", "dream", "amber", "brick")
OTHER = ("xylem", "quartz", "zephyr", "fjord", "kiwi", "jigsaw", "vortex", "wombat", "yacht",
         "oxygen", "sphinx", "glyph")

BAD_LINES: dict[str, bytes] = {
    "not JSON": b'{"id": "bad1", "text": ',
    "invalid UTF-8": b'{"id": "bad2", "text": "caf\xe9 au lait"}',
    "no text field": b'{"id": "bad3", "body": "nothing here"}',
    "text not a string": b'{"id": "bad4", "text": 42}',
    "nested 3,000 deep": b'{"id": "bad5", "text": ' + b"[" * 3000 + b"]" * 3000 + b"}",
    "over the record budget": b'{"id": "bad6", "text": "' + b"word " * (4 << 20) + b'"}',
}


def good_records(n: int, seed: int = 11) -> list[str]:
    """``n`` good records (ids ``g0`` ...), every third a near copy of the one before."""
    return records(n, seed, prefix="g", words=WORDS)


def other_records(n: int, prefix: str) -> list[str]:
    rng = random.Random(prefix)
    return [json.dumps({"id": f"{prefix}{i}", "text": " ".join(rng.choice(OTHER)
                                                               for _ in range(60))})
            for i in range(n)]


def dedup(paths: list[Path], out: Path, engine: str) -> tuple[int, str, float]:
    started = time.perf_counter()
    done = subprocess.run([*WINNOW, "dedup", "-j", "2", "--id-field", "id", "--engine", engine,
                           *map(str, paths), "-o", str(out)], capture_output=True)
    return done.returncode, done.stderr.decode(errors="replace"), time.perf_counter() - started


def clusters(path: Path, keep: str = "g") -> set[tuple[frozenset[str], str]]:
    groups: dict[int, set[str]] = {}
    reps: dict[int, str] = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row["id"].startswith(keep):
            groups.setdefault(row["cluster"], set()).add(row["id"])
            reps[row["cluster"]] = row["representative"]
    return {(frozenset(g), reps[c]) for c, g in groups.items()}


def write_mixed(root: Path, good: list[str], bomb_mib: int) -> tuple[list[Path],
                                                                    dict[str, tuple[Path, int]]]:
    """The mixed corpus's files and where each bad record is (file, 1-based line)."""
    thirds = [good[: len(good) // 3], good[len(good) // 3: 2 * len(good) // 3],
              good[2 * len(good) // 3:]]
    where: dict[str, tuple[Path, int]] = {}
    files = [root / "part1.jsonl", root / "part2.jsonl.gz", root / "part3.jsonl.xz"]
    kinds = list(BAD_LINES)
    for index, (path, part) in enumerate(zip(files, thirds, strict=True)):
        lines = [line.encode() for line in part]
        for j, kind in enumerate(kinds[index::3]):  # two bad kinds per file
            at = len(lines) * (j + 1) // 3
            lines.insert(at, BAD_LINES[kind])
            where = {k: (p, ln + (ln > at)) if p == path else (p, ln)
                     for k, (p, ln) in where.items()}
            where[kind] = (path, at + 1)
        if index == 0:
            lines.insert(500, b"   ")  # a line of blanks, and blank lines: no records
            lines.insert(500, b"")
            where = {k: (p, ln + 2 * (ln > 500)) if p == path else (p, ln)
                     for k, (p, ln) in where.items()}
        data = b"\n".join(lines) + b"\n"
        if path.suffix == ".gz":
            data = gzip.compress(data, 1)
        elif path.suffix == ".xz":
            data = lzma.compress(data, preset=0)
        path.write_bytes(data)
    bomb = root / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as out:
        out.write(("\n".join(other_records(50, "b")) + "\n").encode())
        out.write(b'{"id": "bomb", "text": "')
        block = b"a" * (1 << 20)
        for _ in range(bomb_mib):
            out.write(block)
        out.write(b'"}\n')
    where["record in a small .gz"] = (bomb, 51)
    cut = root / "cut.jsonl.gz"
    whole = gzip.compress(("\n".join(other_records(4000, "c")) + "\n").encode())
    cut.write_bytes(whole[: len(whole) // 2])
    folder = root / "docs"
    folder.mkdir(exist_ok=True)
    text = " ".join(random.Random(3).choice(OTHER) for _ in range(80))
    for name in (b"/caf\xe9.txt", b"/plain.txt"):  # a pair: both in the cluster rows
        with open(os.fsencode(folder) + name, "w") as handle:
            handle.write(text)
    return [*files, bomb, cut, folder], where


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/winnow-hostile-dedup"))
    parser.add_argument("--bomb-mib", type=int, default=1024)
    parser.add_argument("--engine", default="auto")
    args = parser.parse_args()
    root = args.workdir
    root.mkdir(parents=True, exist_ok=True)
    good = good_records(args.records)
    clean_input = root / "clean.jsonl"
    clean_input.write_text("\n".join(good) + "\n")
    code, err, clean_s = dedup([clean_input], root / "clean-rows.jsonl", args.engine)
    if code != 0:
        print(err, file=sys.stderr)
        return 1
    paths, where = write_mixed(root, good, args.bomb_mib)
    code, err, mixed_s = dedup(paths, root / "mixed-rows.jsonl", args.engine)
    crashed = code == 3 or "Traceback" in err or code < 0
    same = not crashed and clusters(root / "clean-rows.jsonl") == \
        clusters(root / "mixed-rows.jsonl")
    named = {kind: f"{path}:{line}: bad record" in err for kind, (path, line) in where.items()}
    named["truncated .gz"] = bool(re.search(r"cut\.jsonl\.gz: compressed data ends early", err))
    named["non-UTF-8 name"] = (root / "mixed-rows.jsonl").exists() and any(
        json.loads(row)["id"] == "caf\\xe9.txt"
        for row in (root / "mixed-rows.jsonl").read_text().splitlines())
    summary = re.findall(r"[\d,]+ records, [^\n]*", err)
    lines = [f"`{' '.join(sys.argv)}`; {uptime()} (a shared machine); {args.records:,} good "
             f"records, engine {args.engine}, -j 2", "",
             f"- clean run: {clean_s:.1f} s; mixed run: {mixed_s:.1f} s, exit {code}"
             f"{' (crashed)' if crashed else ''}",
             f"- good records' clusters and representatives identical to the clean run: "
             f"{'yes' if same else 'NO'}",
             f"- mixed run's summary: {summary[-1] if summary else '(none)'}", "",
             "| bad input | named with file and line |", "|---|---|"]
    lines += [f"| {kind} | {'yes' if ok else 'NO'} |" for kind, ok in named.items()]
    text = "\n".join(lines) + "\n"
    print(text)
    record("hostile", f"{stamp()}, {commit()} (dedup, hostile records mixed in)", text)
    return 0 if same and all(named.values()) and not crashed else 1


if __name__ == "__main__":
    sys.exit(main())
