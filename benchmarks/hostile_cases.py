"""The hostile-input catalogue of issue 24: every case run as a real process, judged.

Each case builds its inputs under a fresh folder, runs ``winnow`` (a real
process, with a timeout: a hang is a verdict too) and judges the outcome:

* ``OK``: the command succeeded and every result is what a clean run gives;
* ``clear error``: it refused or skipped the bad input with a message naming
  it (exit 1 or 2), and the other results are a clean run's;
* ``crash``: exit 3 with "internal error", a traceback, or death by signal;
* ``wrong result``: another input's result differs from a clean run's;
* ``data loss``: a file the user had, or a readable record, is gone;
* ``security``: a host file's content, or a live spreadsheet formula, in an output;
* ``hang``: past the timeout.

``benchmarks/hostile.py --catalogue`` runs them all and prints the totals.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import lzma
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness import WINNOW

SECRET = "TOP-SECRET-HOST-FILE"
WORDS = ("river", "stone", "light", "paper", "cloud", "green", "house", "quiet", "north",
         "table", "music", "chair", "grape", "lemon", "storm", "dream")
TIMEOUT = 300.0


@dataclass
class Ran:
    code: int
    out: str
    err: str


@dataclass
class Verdict:
    case: str
    outcome: str
    detail: str


def run(*args: str | Path, timeout: float = TIMEOUT, env: dict[str, str] | None = None,
        cwd: Path | None = None) -> Ran:
    try:
        done = subprocess.run([*WINNOW, *map(str, args)], capture_output=True, timeout=timeout,
                              env=env, cwd=cwd)
    except subprocess.TimeoutExpired:
        return Ran(-999, "", "timed out")
    return Ran(done.returncode, done.stdout.decode(errors="replace"),
               done.stderr.decode(errors="replace"))


def last(err: str) -> str:
    """The last line of a command's standard error (its message), shortened."""
    lines = [line for line in err.splitlines() if line.strip()]
    return lines[-1][:160] if lines else ""


def crashed(ran: Ran) -> bool:
    return ran.code < 0 or (ran.code == 3 and "internal error" in ran.err) \
        or "Traceback" in ran.err


def judge(ran: Ran, named: str, same: bool, *, ok_codes: tuple[int, ...] = (0,)) -> str:
    """The usual verdict: hang, crash, wrong result, then OK or clear error."""
    if ran.code == -999:
        return "hang"
    if crashed(ran):
        return "crash"
    if not same:
        return "wrong result"
    if ran.code in ok_codes:
        return "OK"
    return "clear error" if ran.code in (1, 2) and named in ran.err else "unclear error"


# -- inputs ----------------------------------------------------------------------------

def program(seed: int) -> str:
    rng = random.Random(seed)
    lines = ["def solve(data):", "    total = 0"]
    for _ in range(40):
        a, b = rng.sample("abcdefgh", 2)
        lines.append(f"    {a} = {b} + {rng.randrange(1, 99)} if data else {a}")
        lines.append(f"    total += {a} * {rng.randrange(2, 9)}")
    return "\n".join([*lines, "    return total", ""])


def make_class(root: Path) -> Path:
    klass = root / "class"
    texts = {"alice": program(1), "bob": program(1).replace("total", "acc"),
             "carol": program(3), "dave": program(4)}
    for name, text in texts.items():
        (klass / name).mkdir(parents=True)
        (klass / name / "main.py").write_text(text)
    return klass


def pairs(csv_text: str, without: str = "mallory") -> list[tuple[str, ...]]:
    rows = csv.DictReader(io.StringIO(csv_text))
    return sorted((r["file_a"], r["file_b"], r["similarity"]) for r in rows
                  if without not in r["file_a"] + r["file_b"])


def records(n: int, seed: int = 3, *, prefix: str = "r",
            words: tuple[str, ...] = WORDS) -> list[str]:
    """``n`` JSON lines of 60 ``words`` each (ids ``PREFIX0`` ...), every third a
    near copy of the one before."""
    rng = random.Random(seed)
    out: list[str] = []
    for i in range(n):
        if i % 3 == 2:
            copied = json.loads(out[-1])["text"].split()
            copied[rng.randrange(len(copied))] = "changed"
            text = " ".join(copied)
        else:
            text = " ".join(rng.choice(words) for _ in range(60))
        out.append(json.dumps({"id": f"{prefix}{i}", "text": text}))
    return out


def clusters(jsonl: str) -> set[frozenset[str]]:
    groups: dict[int, set[str]] = {}
    for line in jsonl.splitlines():
        row = json.loads(line)
        groups.setdefault(row["cluster"], set()).add(row["id"])
    return {frozenset(g) for g in groups.values()}


def dedup(*args: str | Path) -> Ran:
    return run("dedup", "-q", "-j", "1", "--id-field", "id", *args)


# -- cases -----------------------------------------------------------------------------

def toctou_report(tmp: Path, rounds: int = 10) -> Verdict:
    """compare --report while mallory's file and folder are swapped for links out."""
    klass = make_class(tmp)
    host = tmp / "host"
    host.mkdir()
    (host / "secret.txt").write_text(SECRET * 20)
    mallory = klass / "mallory"
    mallory.mkdir()
    for i in range(10):
        (mallory / f"n{i}.py").write_text(program(1))
    (mallory / "deep").mkdir()
    (mallory / "deep" / "x.py").write_text(program(4))
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(mallory),
                                str(host / "secret.txt"), str(host)])
    leaks = 0
    try:
        for _ in range(rounds):
            ran = run("compare", "-q", "-j", "1", "--each", klass, "--report", tmp / "rep")
            if crashed(ran):
                return Verdict("toctou-report", "crash", last(ran.err))
            pages = "".join(p.read_text(errors="replace") for p in (tmp / "rep").rglob("*.html"))
            leaks += SECRET in pages
    finally:
        swapper.kill()
        swapper.wait()
    return Verdict("toctou-report", "security" if leaks else "OK",
                   f"{leaks} of {rounds} reports held the host file")


SWAPPER = """
import os, sys
folder, secret, secret_dir = sys.argv[1:4]
template = os.path.join(folder, ".template")
open(template, "w").write("print('mine')\\n")
while True:
    for i in range(10):
        victim = os.path.join(folder, f"n{i}.py")
        reg, lnk = victim + ".r", victim + ".l"
        os.link(template, reg)
        os.symlink(secret, lnk)
        os.replace(lnk, victim)
        os.replace(reg, victim)
    deep, saved, link = (os.path.join(folder, n) for n in ("deep", ".saved", ".dl"))
    os.rename(deep, saved)
    os.symlink(secret_dir, link)
    os.rename(link, deep)
    os.unlink(deep)
    os.rename(saved, deep)
"""


def dedup_files_output(tmp: Path, where: str) -> Verdict:
    klass = make_class(tmp)
    (klass / "eve").mkdir()
    shutil.copy(klass / "alice" / "main.py", klass / "eve" / "main.py")
    db = tmp / "i.db"
    run("index", "-q", "-j", "1", "--db", db, klass)
    target = {"kept copy": klass / "alice" / "main.py", "index": db,
              "indexed file": klass / "dave" / "main.py",
              "new file in a folder": klass / "dave" / "report.txt"}[where]
    before = {p: p.read_bytes() for p in [*klass.rglob("*.py"), db]}
    ran = run("dedup-files", "--db", db, "--delete", "--apply", klass, "-o", target)
    after = {p: p.read_bytes() for p in before if p.exists()}
    lost = before != after or (where.startswith("new") and target.exists())
    if lost and ran.code == 0:
        return Verdict(f"dedup-files -o {where}", "data loss", "a file was changed")
    return Verdict(f"dedup-files -o {where}", judge(ran, target.name, not lost), last(ran.err))


def truncated(tmp: Path, suffix: str) -> Verdict:
    rngs = [random.Random(i) for i in range(3000)]
    lines = [json.dumps({"id": f"r{i}", "text": " ".join(rng.choice(WORDS) for _ in range(80))})
             for i, rng in enumerate(rngs)]
    pack: Callable[[bytes], bytes] = {".gz": gzip.compress, ".bz2": lambda d: bz2.compress(d, 1),
                                      ".xz": lzma.compress}[suffix]
    data = pack(("\n".join(lines) + "\n").encode())
    path = tmp / f"cut.jsonl{suffix}"
    path.write_bytes(data[: len(data) // 2])
    ran = dedup(path, "--keep", "representative", "-o", tmp / "kept.jsonl")
    kept = (tmp / "kept.jsonl").read_text().splitlines() if (tmp / "kept.jsonl").exists() else []
    whole = sum(1 for line in kept if line in lines)
    if whole < 1000 and not crashed(ran):
        return Verdict(f"truncated {suffix}", "data loss", f"{whole} of ~1500 readable kept")
    return Verdict(f"truncated {suffix}", judge(ran, path.name, True, ok_codes=()),
                   f"{whole} records kept; {last(ran.err)}")


def bad_record(tmp: Path, kind: str) -> Verdict:
    good = records(300)
    clean_path = tmp / "clean.jsonl"
    clean_path.write_text("\n".join(good) + "\n")
    clean = clusters(dedup(clean_path).out)
    path = tmp / "mixed.jsonl"
    lines = list(good)
    if kind == "nested 3,000 deep":
        lines.insert(100, '{"id": "d", "text": ' + "[" * 3000 + "]" * 3000 + "}")
    elif kind == "20 MB record":
        lines.insert(100, json.dumps({"id": "big", "text": "word " * (4 << 20)}))
    elif kind == "blank lines":
        lines = [x for line in good for x in (line, "")]
    path.write_text("\n".join(lines) + "\n")
    if kind == "2 GB record in a small .gz":
        path = tmp / "bomb.jsonl.gz"
        with gzip.open(path, "wb", compresslevel=1) as out:
            out.write(("\n".join(good[:100]) + "\n").encode())
            out.write(b'{"id": "bomb", "text": "')
            block = b"a" * (1 << 20)
            for _ in range(2048):
                out.write(block)
            out.write(b'"}\n' + ("\n".join(good[100:]) + "\n").encode())
    ran = dedup(path)
    same = not crashed(ran) and clusters(ran.out) == clean
    if kind == "blank lines":
        ran2 = run("dedup", "-j", "1", "--id-field", "id", path)
        same = same and "300 records" in ran2.err
        return Verdict(f"dedup {kind}", judge(ran, path.name, same), "")
    return Verdict(f"dedup {kind}", judge(ran, f"{path}:101", same, ok_codes=()),
                   last(ran.err))


def non_utf8_name(tmp: Path) -> Verdict:
    folder = tmp / "docs"
    folder.mkdir()
    text = " ".join(random.Random(1).choice(WORDS) for _ in range(80))
    (folder / "plain.txt").write_text(text)
    with open(os.fsencode(folder) + b"/caf\xe9.txt", "w") as out:
        out.write(text)
    ran = run("dedup", "-q", "-j", "1", folder, "-o", tmp / "rows.jsonl")
    rows = (tmp / "rows.jsonl").read_text().splitlines() if (tmp / "rows.jsonl").exists() \
        else []
    same = sorted(json.loads(row)["id"] for row in rows) == ["caf\\xe9.txt", "plain.txt"]
    return Verdict("dedup non-UTF-8 name -o", judge(ran, "caf", same), "")


def parquet_schemas(tmp: Path) -> Verdict:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": ["a"], "text": ["one two three"]}), tmp / "a.parquet")
    pq.write_table(pa.table({"id": [1], "text": ["one two three"], "x": [1.5]}),
                   tmp / "b.parquet")
    ran = dedup(tmp / "a.parquet", tmp / "b.parquet", "--keep", "representative", "-o",
                tmp / "k.parquet")
    return Verdict("dedup --keep mismatched Parquet", judge(ran, "b.parquet", True, ok_codes=()),
                   last(ran.err))


def workdir_case(tmp: Path, damage: str) -> Verdict:
    data = tmp / "data.jsonl"
    data.write_text("\n".join(records(600)) + "\n")
    work = tmp / "work"
    args = ("--engine", "local-sharded", "--partitions", "2", "--workdir", work, data)
    first = dedup(*args)
    fresh = clusters(first.out)
    name = ""
    if damage == "stale input":
        lines = data.read_text().splitlines()
        info = data.stat()
        texts = [json.loads(x)["text"] for x in lines]
        rng = random.Random(5)
        texts[7] = " ".join(rng.choice(WORDS) for _ in range(60))
        while len(texts[7]) != len(json.loads(lines[7])["text"]):
            texts[7] = " ".join(rng.choice(WORDS) for _ in range(60))
        lines[7] = json.dumps({"id": "r7", "text": texts[7]})
        data.write_text("\n".join(lines) + "\n")
        os.utime(data, ns=(info.st_atime_ns, info.st_mtime_ns))
        fresh = clusters(dedup(data).out)
        name = str(work)
    elif damage in ("truncated shard", "flipped bytes", "foreign shard"):
        files = sorted((work / "prints").rglob("*.parquet"))
        victim, raw = files[0], bytearray(files[0].read_bytes())
        name = victim.name
        if damage == "truncated shard":
            victim.write_bytes(raw[: len(raw) // 2])
        elif damage == "flipped bytes":
            raw[len(raw) // 3] ^= 0xFF
            victim.write_bytes(bytes(raw))
        else:
            victim.write_bytes(next(f for f in files if f.parent != victim.parent).read_bytes())
    elif damage in ("garbage plan.json", "garbage marker"):
        target = work / ("plan.json" if damage == "garbage plan.json"
                         else "done/prints/s000000.json")
        target.write_text("{garbage")
        name = target.name
    ran = dedup(*args)
    same = ran.code != 0 or clusters(ran.out) == fresh
    return Verdict(f"workdir: {damage}", judge(ran, name, same), last(ran.err))


def two_runs(tmp: Path) -> Verdict:
    data = tmp / "data.jsonl"
    data.write_text("\n".join(records(30000)) + "\n")
    work = tmp / "work"
    command = [*WINNOW, "dedup", "-q", "-j", "1", "--id-field", "id", "--engine",
               "local-sharded", "--workdir", str(work), str(data)]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    while not (work / ".lock").exists() and first.poll() is None:
        time.sleep(0.02)
    second = run(*command[len(WINNOW):])
    _, err = first.communicate()
    ok_first = first.returncode == 0 and b"Traceback" not in err
    return Verdict("workdir: two runs", judge(second, "another run", ok_first, ok_codes=()),
                   last(second.err))


def sigterm(tmp: Path) -> Verdict:
    temp = tmp / "tmp"
    temp.mkdir()
    data = tmp / "data.jsonl"
    data.write_text("\n".join(records(30000)) + "\n")
    process = subprocess.Popen([*WINNOW, "dedup", "-q", "-j", "1", "--engine", "local-sharded",
                                str(data)], env={**os.environ, "TMPDIR": str(temp)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list(temp.glob("winnow-dedup-*/prints")):
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate()
    left = list(temp.glob("winnow-dedup-*"))
    outcome = "crash" if b"Traceback" in err else "data loss" if left else "OK"
    return Verdict("dedup SIGTERM cleanup", outcome,
                   f"{len(left)} temporary folders left, exit {process.returncode}")


def formulas(tmp: Path, command: str) -> Verdict:
    if command == "compare":
        klass = make_class(tmp)
        (klass / "alice").rename(klass / "=HYPERLINK(1)")
        (klass / "bob").rename(klass / "@SUM(1)")
        ran = run("compare", "-q", "--format", "csv", "--",
                  *sorted(p.name for p in klass.iterdir()), cwd=klass)
        cells = [c for row in csv.reader(io.StringIO(ran.out)) for c in row[:2]]
    else:
        path = tmp / "d.jsonl"
        path.write_text("".join(json.dumps({"id": i, "text": "same text " * 20}) + "\n"
                                for i in ("=cmd|' /C calc'!A0", "@SUM(1)", "+1")))
        ran = dedup(path, "--format", "csv")
        cells = [row[0] for row in csv.reader(io.StringIO(ran.out))]
    live = [c for c in cells if c[:1] in ("=", "+", "-", "@")]
    return Verdict(f"{command} CSV formula names", "security" if live else judge(ran, "", True),
                   f"{len(live)} live formula cells")


def small(tmp: Path, case: str) -> Verdict:
    klass = make_class(tmp)
    if case == "compare /proc/self/environ":
        ran = run("compare", "-q", "--format", "json", "--each", klass, "/proc/self/environ")
        leak = "PATH=" in ran.out
        return Verdict(case, "security" if leak else judge(ran, "/proc/self/environ", True),
                       last(ran.err))
    if case == "compare -o inside an input folder":
        ran = run("compare", "-q", "--each", klass, "-o", klass / "carol" / "pairs.csv")
        made = (klass / "carol" / "pairs.csv").exists()
        return Verdict(case, "wrong result" if made else judge(ran, "pairs.csv", True), "")
    if case == "experiments --data missing":
        ran = run("experiments", "--quick", "--only", "parameters", "--data", tmp / "none",
                  "--out", tmp / "out")
        return Verdict(case, judge(ran, "none", True, ok_codes=()), last(ran.err))
    ran = run("experiments", "--quick", "--only", "random", "--out", tmp / "out", "-o",
              tmp / "out" / "experiments.md")
    return Verdict("experiments -o OUT/experiments.md",
                   judge(ran, "experiments.md", True, ok_codes=()), last(ran.err))


CASES: dict[str, Callable[[Path], Verdict]] = {
    "toctou-report": toctou_report,
    **{f"dedup-files -o {w}": (lambda t, w=w: dedup_files_output(t, w))
       for w in ("kept copy", "index", "indexed file", "new file in a folder")},
    **{f"truncated {s}": (lambda t, s=s: truncated(t, s)) for s in (".gz", ".bz2", ".xz")},
    **{f"dedup {k}": (lambda t, k=k: bad_record(t, k))
       for k in ("nested 3,000 deep", "20 MB record", "2 GB record in a small .gz",
                 "blank lines")},
    "dedup non-UTF-8 name -o": non_utf8_name,
    "dedup --keep mismatched Parquet": parquet_schemas,
    **{f"workdir: {d}": (lambda t, d=d: workdir_case(t, d))
       for d in ("stale input", "truncated shard", "flipped bytes", "foreign shard",
                 "garbage plan.json", "garbage marker")},
    "workdir: two runs": two_runs,
    "dedup SIGTERM cleanup": sigterm,
    **{f"{c} CSV formula names": (lambda t, c=c: formulas(t, c)) for c in ("compare", "dedup")},
    **{c: (lambda t, c=c: small(t, c))
       for c in ("compare /proc/self/environ", "compare -o inside an input folder",
                 "experiments --data missing", "experiments -o OUT/experiments.md")},
}

BAD = ("crash", "wrong result", "data loss", "security", "hang", "unclear error")


def run_catalogue(workdir: Path, chosen: list[str]) -> list[Verdict]:
    verdicts = []
    for name in chosen:
        tmp = workdir / "".join(c if c.isalnum() else "-" for c in name)
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        started = time.perf_counter()
        verdict = CASES[name](tmp)
        verdict.case = name
        print(f"{name}: {verdict.outcome} ({time.perf_counter() - started:.1f} s) "
              f"{verdict.detail}", file=sys.stderr)
        verdicts.append(verdict)
        shutil.rmtree(tmp, ignore_errors=True)
    return verdicts
