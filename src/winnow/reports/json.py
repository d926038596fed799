"""JSON and JSON Lines reports: everything, every passage with both sides' ranges.

JSON: one object ``{"format": "winnow-compare", "version", "config",
"parameters", "stats", "skipped", "submissions", "pairs", "clusters",
"shared_code", "issues"}``.  JSON Lines: one object per line, each with a ``"type"``:
``header`` (the first line: format, version, config, parameters, stats),
then ``submission``, ``pair`` (best first), ``cluster``, ``shared_code`` and ``issue`` lines,
so a consumer can stream pairs without loading the whole result.

In both, a passage side is ``{"file", "units": [start, end], "bytes":
[start, end], "lines": [first, last]}``: half-open unit and byte ranges,
1-based inclusive lines.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from winnow.matching.model import ComparisonResult
from winnow.reports.records import (
    cluster_of,
    cluster_record,
    header_record,
    issue_record,
    pair_record,
    shared_code_record,
    submission_record,
)


def result_record(result: ComparisonResult) -> dict[str, Any]:
    """The whole result as plain data (the JSON report's object)."""
    clusters = cluster_of(result)
    return {
        **header_record(result),
        "submissions": [submission_record(s) for s in result.submissions],
        "pairs": [pair_record(p, clusters) for p in result.pairs],
        "clusters": [cluster_record(c) for c in result.clusters],
        "shared_code": [shared_code_record(c) for c in result.shared_code],
        "issues": [issue_record(i) for i in result.issues],
    }


def write_json(result: ComparisonResult, out: TextIO) -> None:
    """Write ``result`` as one indented JSON object."""
    json.dump(result_record(result), out, indent=2, ensure_ascii=False)
    out.write("\n")


def write_jsonl(result: ComparisonResult, out: TextIO) -> None:
    """Write ``result`` as JSON Lines: a header, then one record per line."""
    clusters = cluster_of(result)

    def emit(kind: str, record: dict[str, Any]) -> None:
        out.write(json.dumps({"type": kind, **record}, ensure_ascii=False))
        out.write("\n")

    emit("header", header_record(result))
    for sub in result.submissions:
        emit("submission", submission_record(sub))
    for pair in result.pairs:
        emit("pair", pair_record(pair, clusters))
    for cluster in result.clusters:
        emit("cluster", cluster_record(cluster))
    for shared in result.shared_code:
        emit("shared_code", shared_code_record(shared))
    for issue in result.issues:
        emit("issue", issue_record(issue))
