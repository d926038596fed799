"""HTML report speed and size: 250 pairs (MOSS's default --top) of large files.

Builds a synthetic :class:`ComparisonResult` (SUBMISSIONS submissions of LINES-line
files, PAIRS pairs with PASSAGES passages each) straight from the result model, then
times ``write_report`` to a folder (index + one page per pair) and to one file.

    .venv/bin/python benchmarks/report_html.py [--pairs 250] [--lines 3000] [--browser]

``--browser`` also times opening the reports in headless Chromium (Debian's
``/usr/bin/chromium`` through Playwright): the folder's index, its first pair page,
and the single file; then sorting and filtering the index's pairs table.  The
result has clusters (pairs at or above 0.5) and an all-pairs histogram, as
``winnow compare`` gives, so the graph and histogram are part of the timing.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from winnow.matching.clusters import connected_clusters
from winnow.matching.compare import similarity_histogram
from winnow.matching.model import (
    ComparisonResult,
    PairResult,
    Passage,
    Region,
    Submission,
    SubmittedFile,
)
from winnow.model import Document, Span, Stream
from winnow.reports.html import write_report

#: Pairs at or above this similarity link submissions into clusters (the CLI's default).
CLUSTER_THRESHOLD = 0.5


def _document(name: str, lines: int, seed: int) -> Document:
    text = "".join(f"    value_{seed}_{i} = compute(value_{seed}_{i - 1}, {i})  # step\n"
                   for i in range(lines))
    data = text.encode()
    starts = np.arange(len(data), dtype=np.int64)
    units = np.frombuffer(data, dtype=np.uint8).astype(np.int64)
    return Document(name, data, "text", "bytes", Stream(units, starts, starts + 1))


def _region(doc: Document, first: int, last: int) -> Region:
    begin, end = int(doc.line_starts[first - 1]), int(doc.line_starts[last])
    return Region(doc.name, Span(begin, end), Span(begin, end), (first, last))


def build(n_subs: int, n_pairs: int, lines: int, passages: int) -> ComparisonResult:
    """A result whose pairs each carry ``passages`` passages of 20 lines."""
    docs = {(f"student{s:03d}", "main.py"): _document("main.py", lines, s) for s in range(n_subs)}
    subs = tuple(Submission(s, "new", (SubmittedFile(f, len(d.data), len(d.data), 100),),
                            len(d.data), 100) for (s, f), d in docs.items())
    rng = np.random.default_rng(0)
    pairs = []
    for p in range(n_pairs):
        a, b = (f"student{int(x):03d}" for x in rng.choice(n_subs, 2, replace=False))
        da, db = docs[(a, "main.py")], docs[(b, "main.py")]
        found = []
        for i in range(passages):
            fa, fb = (int(x) for x in rng.integers(1, lines - 20, 2))
            found.append(Passage(i, _region(da, fa, fa + 19), _region(db, fb, fb + 19), 900, 9))
        sim = 1.0 - p / n_pairs
        pairs.append(PairResult(a, b, sim, 100, sim, sim, sim, sim, 0.1, True, sim, sim,
                                20 * passages, 20 * passages, 900, tuple(found)))
    names = [s.name for s in subs]
    index = {name: i for i, name in enumerate(names)}
    a = np.array([index[p.a] for p in pairs], dtype=np.int64)
    b = np.array([index[p.b] for p in pairs], dtype=np.int64)
    sims = np.array([p.similarity for p in pairs], dtype=np.float64)
    clusters = connected_clusters(names, a, b, sims, CLUSTER_THRESHOLD)
    unlisted = rng.beta(1.5, 12, n_subs * (n_subs - 1) // 2 - n_pairs)  # the class's other pairs
    return ComparisonResult(subs, tuple(pairs), clusters,
                            {"k": 50, "t": 149, "method": "robust"},
                            {"top": n_pairs, "cluster_threshold": CLUSTER_THRESHOLD},
                            documents=docs,
                            histogram=similarity_histogram(np.concatenate([sims, unlisted])))


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else (
        path.stat().st_size)


def open_times(pages: list[Path]) -> None:
    """Print how long headless Chromium takes to load each page."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        browser = pw.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", headless=True, offline=True,
            args=["--no-sandbox", "--disable-gpu"], viewport={"width": 1400, "height": 900})
        tab = browser.new_page()
        for page in pages:
            start = time.perf_counter()
            tab.goto(page.as_uri(), wait_until="load")
            print(f"open {page.name:14s}: {time.perf_counter() - start:6.2f} s")
        tab.goto(pages[0].as_uri(), wait_until="load")
        for what, action in (
            ("sort by similarity", lambda: tab.locator("th", has_text="Similarity")
             .locator("button").click()),
            ("filter by name", lambda: tab.locator("#f-name").fill("student01")),
            ("filter by similarity", lambda: tab.locator("#f-min").fill("50")),
            ("show all", lambda: tab.locator("#f-reset").click()),
        ):
            start = time.perf_counter()
            action()
            tab.evaluate("new Promise(r => requestAnimationFrame(() => r(0)))")
            print(f"{what:19s}: {1000 * (time.perf_counter() - start):6.0f} ms")
        tab.evaluate("localStorage.clear()")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=100)
    parser.add_argument("--pairs", type=int, default=250)
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--passages", type=int, default=20)
    parser.add_argument("--browser", action="store_true", help="also time opening in Chromium")
    args = parser.parse_args()
    result = build(args.submissions, args.pairs, args.lines, args.passages)
    print(f"{args.pairs} pairs, {args.submissions} submissions of {args.lines} lines, "
          f"{args.passages} passages per pair")
    with tempfile.TemporaryDirectory() as tmp:
        for target in (Path(tmp) / "report", Path(tmp) / "report.html"):
            start = time.perf_counter()
            write_report(result, target)
            took = time.perf_counter() - start
            kind = "folder" if target.is_dir() else "one file"
            print(f"{kind:9s}: {took:6.2f} s, {_size(target) / 1e6:7.1f} MB")
        if args.browser:
            root = Path(tmp)
            open_times([root / "report" / "index.html", root / "report" / "pairs" / "pair-1.html",
                        root / "report.html"])


if __name__ == "__main__":
    main()
