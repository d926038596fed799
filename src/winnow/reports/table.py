"""The terminal table: MOSS's familiar layout, best pair first.

``#``, similarity (what the passages show), each submission with its
coverage (MOSS's "File 1 (NN%)"), lines matched on each side, shared
fingerprints, the score that orders the pairs; then the clusters.  Names
come from untrusted input, so control characters (terminal escapes) are
shown escaped.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # ``safe`` serves every command; the model loads numpy
    from winnow.matching.model import ComparisonResult, PairResult


def _escape(ch: str) -> str:
    code = ord(ch)
    if unicodedata.category(ch)[0] != "C":
        return ch
    return f"\\x{code:02x}" if code < 0x100 else \
        f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def safe(text: str) -> str:
    """``text`` for a terminal: every control, format, surrogate, private-use or
    unassigned character (Unicode category C: terminal escapes, newlines, bidi
    overrides ...) written as ``\\xNN``/``\\uNNNN``/``\\UNNNNNNNN``.

    Every terminal table of winnow (compare, evaluate, the sif commands) uses it.
    """
    if text.isprintable():  # the common case, checked in C
        return text
    return "".join(_escape(ch) for ch in text)


def _row(rank: int, pair: PairResult) -> list[str]:
    from winnow.reports.numbers import percent

    lines = "-" if pair.lines_a is None else f"{pair.lines_a}/{pair.lines_b}"
    return [
        str(rank), percent(pair.similarity, 1),
        f"{safe(pair.a)} ({percent(pair.coverage_a, missing='-')})",
        f"{safe(pair.b)} ({percent(pair.coverage_b, missing='-')})",
        lines, str(pair.shared), f"{pair.score:.3f}",
    ]


def write_table(result: ComparisonResult, out: TextIO) -> None:
    """Write the ranked pairs and the clusters as an aligned text table."""
    header = ["#", "similarity", "submission a (coverage)", "submission b (coverage)",
              "lines", "shared", "score"]
    rows = [_row(rank, pair) for rank, pair in enumerate(result.pairs, 1)]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    right = {0, 1, 4, 5, 6}

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(cells)
        ).rstrip()

    out.write(line(header) + "\n")
    for row in rows:
        out.write(line(row) + "\n")
    if not rows:
        out.write("(no pair of submissions shares a fingerprint)\n")
    subs = len(result.submissions)
    shared = result.stats.get("pairs_sharing", len(rows))
    out.write(f"\n{len(rows)} of {shared} pairs sharing fingerprints shown; "
              f"{subs} submission{'' if subs == 1 else 's'}.\n")
    without = sum(1 for pair in result.pairs if not pair.passages_computed)
    if rows and without < len(rows):
        out.write("Pairs in order of score; similarity is what the passages cover "
                  "(docs/compare.md).\n")
    if rows and without == len(rows):
        out.write("Coverage and lines (-) not computed: scores only (--no-passages).\n")
    elif without:
        out.write(f"Coverage and lines (-) not computed for {without} pair"
                  f"{'' if without == 1 else 's'}: passages are computed for the best "
                  f"{len(rows) - without} only (--passages-top).\n")
    if result.clusters:
        from winnow.reports.numbers import cluster_number, percent

        threshold = result.parameters.get("cluster_threshold")
        out.write(f"\nClusters (pairs whose similarity estimated from fingerprints is "
                  f">= {threshold}):\n")
        for cluster in result.clusters:
            members = ", ".join(safe(m) for m in cluster.members)
            out.write(f"  {cluster_number(cluster.index)}. {members}  "
                      f"(estimated max {percent(cluster.max_similarity, 1)})\n")
