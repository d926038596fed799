"""Matching: all-against-all comparison of submissions (MOSS, winnowing paper section 5.2).

The result model (:mod:`winnow.matching.model`) is what every report consumes.
"""

from __future__ import annotations

from winnow.matching.compare import compare
from winnow.matching.model import (
    Cluster,
    ComparisonResult,
    FileKey,
    Issue,
    PairResult,
    Passage,
    Region,
    Submission,
    SubmittedFile,
)
from winnow.matching.options import SIMILARITIES, CompareOptions, default_configs
from winnow.model import Role

__all__ = [
    "SIMILARITIES",
    "Cluster",
    "CompareOptions",
    "ComparisonResult",
    "FileKey",
    "Issue",
    "PairResult",
    "Passage",
    "Region",
    "Role",
    "Submission",
    "SubmittedFile",
    "compare",
    "default_configs",
]
