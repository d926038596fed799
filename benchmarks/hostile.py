"""Memory of ``winnow compare`` when one student hands in a hostile file, beside a plain class.

    .venv/bin/python benchmarks/hostile.py [--workdir DIR] [--students N] [--budget-mib M]
        [--cases docx-bomb,sparse-tar,four-zips,big-text,long-line,largest-file]
    .venv/bin/python benchmarks/hostile.py --catalogue [--only CASE,...]

``--catalogue`` runs instead the hostile cases of issue 24
(``benchmarks/hostile_cases.py``: the walk-and-read race, outputs onto inputs,
damaged and huge records, damaged or shared working folders, formulas in
CSV, the small points), each judged OK, clear error, crash, wrong result,
data loss, security or hang, and prints the totals; it exits 1 unless there
are no crashes, wrong results, data losses, security findings or hangs.

A plain class (``N`` students, three generated Python files each, plus
``mallory`` holding a copy of one of them) is compared first; then, for each
case, the same class with one hostile input added to mallory's folder:

* ``docx-bomb``: a DOCX of about 1 MB whose XML decompresses to 1.26 GB;
* ``sparse-tar``: a 10 KB tar of 12 sparse members of 63 MiB holes (GNU tar);
* ``four-zips``: four zips of 480 MiB each (members of 24 MiB) in one folder;
* ``big-text``: a 200 MB text file;
* ``long-line``: a 50 MB text file on one line (also through ``tokens`` and
  ``fingerprint``);
* ``largest-file``: a text file just under the default file budget (16 MiB),
  i.e. the most one file is allowed to cost.

Every command runs with the default budgets and ``-j 2``; the figures are
the peak proportional set size of the whole process tree (PSS, sampled every
50 ms, see ``harness.py``), the largest single process, and wall time.  Each
case must stay within ``--budget-mib`` (default 1024) of PSS; the script
exits 1 otherwise.  Each run is recorded at the top of ``benchmarks/hostile.results.md``.
"""

from __future__ import annotations

import argparse
import io
import random
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from harness import WINNOW, Run, check, measure, uptime
from history import commit, record, stamp

HERE = Path(__file__).resolve().parent
MIB = 1 << 20
WORDS = ("total", "count", "value", "items", "result", "index", "name", "data", "line",
         "word", "text", "size", "left", "right", "node", "key")


def program(rng: random.Random, functions: int) -> str:
    """A plausible Python file of ``functions`` small functions."""
    out = []
    for _ in range(functions):
        a, b, c = rng.sample(WORDS, 3)
        out.append(f"def {a}_{b}({c}, {a}):\n"
                   f"    {b} = 0\n"
                   f"    for {c}_item in {c}:\n"
                   f"        if {c}_item > {a}:\n"
                   f"            {b} += {c}_item * {rng.randint(2, 9)}\n"
                   f"    return {b}\n\n")
    return "".join(out)


def make_class(root: Path, students: int) -> Path:
    """``students`` folders of three files each, some copied, plus mallory."""
    rng = random.Random(15)
    klass = root / "class"
    if klass.exists():
        shutil.rmtree(klass)
    originals = [program(rng, 40) for _ in range(students)]
    for i in range(students):
        folder = klass / f"student{i:03d}"
        folder.mkdir(parents=True)
        source = originals[i - 1] if i % 5 == 1 else originals[i]  # every fifth one copies
        (folder / "main.py").write_text(source)
        (folder / "util.py").write_text(program(rng, 20))
        (folder / "extra.py").write_text(program(rng, 10))
    (klass / "mallory").mkdir()
    (klass / "mallory" / "main.py").write_text(originals[0])
    return klass


def docx_bomb(path: Path) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", b"<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            member.write(b"<w:document><w:body>")
            block = b"<w:p><w:r><w:t>a</w:t></w:r></w:p>" * (MIB // 34)
            for _ in range(1260 * MIB // len(block)):
                member.write(block)
            member.write(b"</w:body></w:document>")


def sparse_tar(path: Path) -> None:
    work = path.parent / "holes"
    work.mkdir()
    for i in range(12):
        with open(work / f"hole{i:02d}.txt", "wb") as handle:
            handle.truncate(63 * MIB)
    subprocess.run(["tar", "--sparse", "-cf", str(path), "-C", str(work), "."], check=True)
    shutil.rmtree(work)


def four_zips(folder: Path) -> None:
    block = b"print('a hostile line of text')\n" * (MIB // 32)
    for z in range(4):
        with zipfile.ZipFile(folder / f"part{z}.zip", "w", zipfile.ZIP_DEFLATED) as archive:
            for m in range(20):
                with archive.open(f"m{m:02d}.py", "w", force_zip64=True) as member:
                    for _ in range(24):
                        member.write(block)


def text_file(path: Path, size: int, line: bool) -> None:
    rng = random.Random(7)
    chunk = io.StringIO()
    while chunk.tell() < MIB:
        chunk.write(" ".join(rng.choice(WORDS) for _ in range(12)))
        chunk.write(" " if line else "\n")
    data = chunk.getvalue().encode()[:MIB]
    with open(path, "wb") as handle:
        for _ in range(size // MIB):
            handle.write(data)
        handle.write(data[: size % MIB])


CASES: dict[str, Callable[[Path], None]] = {
    "docx-bomb": lambda m: docx_bomb(m / "report.docx"),
    "sparse-tar": lambda m: sparse_tar(m / "holes.tar"),
    "four-zips": four_zips,
    "big-text": lambda m: text_file(m / "big.txt", 200 * 1000 * 1000, line=False),
    "long-line": lambda m: text_file(m / "line.txt", 50 * 1000 * 1000, line=True),
    "largest-file": lambda m: text_file(m / "largest.txt", 16 * MIB - 4096, line=False),
}


def compare(klass: Path, out: Path) -> Run:
    return measure([*WINNOW, "compare", "--each", str(klass), "-q", "-j", "2",
                    "--format", "json"], stdout_path=out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/winnow-hostile-bench"))
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--budget-mib", type=float, default=1024.0)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--catalogue", action="store_true",
                        help="run the issue-24 catalogue instead (hostile_cases.py)")
    parser.add_argument("--only", default="", help="with --catalogue: these cases only")
    args = parser.parse_args()
    if args.catalogue:
        return catalogue(args.workdir, [c for c in args.only.split(",") if c])
    chosen = [c for c in args.cases.split(",") if c]
    args.workdir.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, Run]] = []
    klass = make_class(args.workdir, args.students)
    plain = compare(klass, args.workdir / "plain.json")
    check(plain, "plain class")
    rows.append(("plain class", plain))
    for name in chosen:
        klass = make_class(args.workdir, args.students)
        started = time.perf_counter()
        CASES[name](klass / "mallory")
        made = time.perf_counter() - started
        on_disk = sum(p.stat().st_blocks * 512 for p in (klass / "mallory").iterdir())
        print(f"{name}: input made in {made:.1f} s, {on_disk / MIB:.1f} MiB on disk",
              file=sys.stderr)
        run = compare(klass, args.workdir / f"{name}.json")
        check(run, name)
        rows.append((f"compare + {name}", run))
        if name == "long-line":
            line = klass / "mallory" / "line.txt"
            for command in ("tokens", "fingerprint"):
                single = measure([*WINNOW, command, str(line)])
                rows.append((f"{command} 50 MB line", single))
    failed = [label for label, run in rows if run.tree_pss_mib > args.budget_mib]
    title = f"{stamp()}, {commit()}"
    report = [f"`{' '.join(sys.argv)}`; {uptime()}; {args.students} students, -j 2, "
              f"budget {args.budget_mib:.0f} MiB PSS",
              "",
              "| run | wall s | tree PSS MiB | largest process MiB | rc | within budget |",
              "|---|---:|---:|---:|---:|---|"]
    for label, run in rows:
        ok = "yes" if run.tree_pss_mib <= args.budget_mib else "NO"
        report.append(f"| {label} | {run.wall_s:.1f} | {run.tree_pss_mib:.0f} | "
                      f"{run.max_rss_mib:.0f} | {run.returncode} | {ok} |")
    text = "\n".join(report) + "\n"
    print(text)
    for label, run in rows:
        warning = [ln for ln in run.stderr_tail.splitlines() if "mallory" in ln][:2]
        if warning:
            print(f"{label}: {' / '.join(warning)}")
    record("hostile", title, text)
    return 1 if failed else 0


def catalogue(workdir: Path, only: list[str]) -> int:
    """Run the catalogue, print and record the verdicts and their totals."""
    from hostile_cases import BAD, CASES, run_catalogue

    verdicts = run_catalogue(workdir / "catalogue", only or list(CASES))
    totals: dict[str, int] = {}
    for verdict in verdicts:
        totals[verdict.outcome] = totals.get(verdict.outcome, 0) + 1
    lines = [f"`{' '.join(sys.argv)}`; {uptime()} (a shared machine); "
             f"{len(verdicts)} cases", "", "| case | outcome | detail |", "|---|---|---|"]
    for verdict in verdicts:
        detail = verdict.detail.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {verdict.case} | {verdict.outcome} | {detail} |")
    summary = ", ".join(f"{name} {totals.get(name, 0)}"
                        for name in ("OK", "clear error", *BAD))
    lines += ["", f"Totals: {summary}."]
    text = "\n".join(lines) + "\n"
    print(text)
    record("hostile", f"{stamp()}, {commit()} (catalogue)", text)
    return 1 if any(totals.get(name) for name in BAD) else 0


if __name__ == "__main__":
    sys.exit(main())
