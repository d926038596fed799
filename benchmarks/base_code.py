"""Starter code (``--base``): scores that agree with passages, rankings that hold.

    .venv/bin/python benchmarks/base_code.py [--data ../shared/data] [--workdir DIR]

1. **IR-Plag, every case**: ``winnow compare --each plagiarized/L* non-plagiarized
   --base original -n 50``.  Prints, per case, the reported pairs with
   similarity >= 0.10 that show no passage or no matched line (target: none),
   and how the pairs of two copies of the original score with ``--base``
   against without it (every pair, ``-n 0``): lower, equal (they share nothing
   of the original) or higher (target: none higher).
2. **SOCO 2014 Java with starter code**: a 40-line helper class (below) is
   put in front of every file and given as ``--base``; ``winnow evaluate``
   on the labelled pairs with and without it, at the default ``-m`` (where the
   259 copies of the helper are common anyway) and with ``-m 0`` (where only
   ``--base`` removes them).  Target: ROC AUC within 0.005, best F1 within 0.03.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

from harness import ROOT, WINNOW, uptime

STARTER = """/* Course starter code: helpers given to every student. */
class CourseIO {
    private final java.util.Scanner in = new java.util.Scanner(System.in);

    public int readInt(String prompt) {
        System.out.print(prompt);
        while (!in.hasNextInt()) {
            System.out.println("Please enter a whole number.");
            in.next();
        }
        return in.nextInt();
    }

    public String readLine(String prompt) {
        System.out.print(prompt);
        return in.nextLine();
    }

    public static void printTable(int[][] rows, String separator) {
        for (int i = 0; i < rows.length; i++) {
            StringBuilder line = new StringBuilder();
            for (int j = 0; j < rows[i].length; j++) {
                if (j > 0) {
                    line.append(separator);
                }
                line.append(rows[i][j]);
            }
            System.out.println(line.toString());
        }
    }

    public static double average(int[] values) {
        if (values.length == 0) {
            return 0.0;
        }
        long total = 0;
        for (int v : values) {
            total += v;
        }
        return (double) total / values.length;
    }
}
"""


def pairs(case: Path, extra: list[str]) -> list[dict[str, object]]:
    subs = sorted(str(p) for p in (case / "plagiarized").glob("L*"))
    out = subprocess.run([*WINNOW, "compare", "-q", "--each", *subs,
                          str(case / "non-plagiarized"), "--format", "jsonl", *extra],
                         capture_output=True, text=True, check=False).stdout
    return [r for r in map(json.loads, out.splitlines()) if r["type"] == "pair"]


def irplag(data: Path) -> None:
    print(f"\n== IR-Plag, original as --base ({uptime()})")
    print("case     reported  >=0.10 without passage/lines  copy pairs  lower  equal  higher")
    for case in sorted((data / "irplag" / "IR-Plag-Dataset").iterdir()):
        base = ["--base", str(case / "original")]
        top = pairs(case, [*base, "-n", "50"])
        bad = [r for r in top if float(r["similarity"]) >= 0.10  # type: ignore[arg-type]
               and (not r["passages"] or not r["lines_a"] or not r["lines_b"])]
        every = ["-n", "0", "--no-passages"]
        based = {(r["file_a"], r["file_b"]): r["similarity"] for r in pairs(case, base + every)}
        plain = {(r["file_a"], r["file_b"]): r["similarity"] for r in pairs(case, every)}
        copies = [k for k in plain if all("/plagiarized/" in str(x) for x in k)]
        diff = [float(based.get(k, 0.0)) - float(plain[k]) for k in copies]  # type: ignore[arg-type]
        print(f"{case.name:<8} {len(top):>8}  {len(bad):>28}  {len(copies):>10}  "
              f"{sum(d < -1e-12 for d in diff):>5}  {sum(abs(d) <= 1e-12 for d in diff):>5}  "
              f"{sum(d > 1e-12 for d in diff):>6}")


def evaluate(labels: Path, root: Path, extra: list[str]) -> str:
    out = subprocess.run([*WINNOW, "evaluate", str(labels), "--root", str(root), *extra],
                         capture_output=True, text=True, check=True).stdout
    row = next(line for line in out.splitlines() if line.startswith("all"))
    auc, _, f1 = row.split()[5:8]
    return f"ROC AUC {auc}  best F1 {f1}"


def soco(data: Path, workdir: Path) -> None:
    print(f"\n== SOCO 2014 Java, starter code in every file ({uptime()})")
    soco = data / "soco14-train"
    (workdir / "java").mkdir(parents=True, exist_ok=True)
    starter = workdir / "starter.java"
    starter.write_text(STARTER)
    for path in (soco / "java").glob("*.java"):
        (workdir / "java" / path.name).write_bytes(STARTER.encode() + path.read_bytes())
    labels = soco / "labels-java.csv"
    for m in ("50", "0"):
        print(f"  -m {m:<3} without starter code:     {evaluate(labels, soco, ['-m', m])}")
        print(f"  -m {m:<3} starter code + --base:    "
              f"{evaluate(labels, workdir, ['-m', m, '--base', str(starter)])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    irplag(args.data)
    with tempfile.TemporaryDirectory() as tmp:
        soco(args.data, args.workdir or Path(tmp))


if __name__ == "__main__":
    main()
