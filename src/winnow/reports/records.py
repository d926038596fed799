"""Plain-data records of a comparison result, shared by the CSV, JSON and table reports.

``FORMAT_VERSION`` versions the machine-readable outputs (CSV header, JSON
shape); it changes when a field is renamed or removed, not when one is added.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from winnow.matching.model import (
    Cluster,
    ComparisonResult,
    Issue,
    PairResult,
    Passage,
    Region,
    SharedCode,
    Submission,
)
from winnow.reports.numbers import cluster_number

FORMAT_VERSION: Final = 2  # 2: clusters numbered from 1 ("number", was "index" from 0)

#: The CSV columns, in order: ``file_a,file_b,similarity`` first, then every
#: other score (empty when not computed), then the pair's cluster (empty if
#: none), then ``score``, the score that ordered the pairs.
PAIR_COLUMNS: Final = (
    "file_a", "file_b", "similarity",
    "coverage_a", "coverage_b", "lines_a", "lines_b",
    "shared", "containment_a", "containment_b", "jaccard", "weighted", "rarity",
    "longest", "passages", "cluster", "score",
)

#: The columns only the passages fill: empty for a pair without passages.
#: ``similarity`` is what the passages cover where they were computed (an
#: estimate from the shared fingerprints elsewhere), so it needs them too.
PASSAGE_COLUMNS: Final = ("coverage_a", "coverage_b", "lines_a", "lines_b", "longest",
                          "passages")


def chosen_columns(text: str) -> tuple[str, ...]:
    """The CSV columns ``text`` names (comma separated, in the order given):
    :func:`checked_columns` of them."""
    return checked_columns([name.strip() for name in text.split(",")])


def checked_columns(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` when each is one of :data:`PAIR_COLUMNS`, once, and there is
    at least one; :class:`ValueError` saying what is wrong otherwise."""
    names = tuple(names)
    if not any(names):
        raise ValueError("name at least one column")
    unknown = [name for name in names if name not in PAIR_COLUMNS]
    if unknown:
        raise ValueError(f"no column {', '.join(map(repr, unknown))}; the columns are "
                         f"{','.join(PAIR_COLUMNS)}")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} named twice")
    return names


def needs_passages(columns: tuple[str, ...]) -> bool:
    """Whether any of ``columns`` shows what only the passages compute."""
    return any(name == "similarity" or name in PASSAGE_COLUMNS for name in columns)


def cluster_of(result: ComparisonResult) -> dict[str, int]:
    """Submission name -> number of its cluster (from 1, as every output numbers them)."""
    return {name: cluster_number(c.index) for c in result.clusters for name in c.members}


def pair_scores(pair: PairResult, clusters: dict[str, int]) -> dict[str, Any]:
    """One pair's scores under the :data:`PAIR_COLUMNS` names (``None`` = not computed)."""
    ca, cb = clusters.get(pair.a), clusters.get(pair.b)
    return {
        "file_a": pair.a, "file_b": pair.b, "similarity": pair.similarity,
        "coverage_a": pair.coverage_a, "coverage_b": pair.coverage_b,
        "lines_a": pair.lines_a, "lines_b": pair.lines_b,
        "shared": pair.shared, "containment_a": pair.containment_a,
        "containment_b": pair.containment_b, "jaccard": pair.jaccard,
        "weighted": pair.weighted, "rarity": pair.rarity, "longest": pair.longest,
        "passages": len(pair.passages) if pair.passages_computed else None,
        "cluster": ca if ca is not None and ca == cb else None,
        "score": pair.score,
    }


def region_record(region: Region) -> dict[str, Any]:
    """One side of a passage: file, unit, byte and (1-based, inclusive) line ranges."""
    return {
        "file": region.file,
        "units": [region.units.start, region.units.end],
        "bytes": [region.bytes.start, region.bytes.end],
        "lines": [region.lines[0], region.lines[1]],
    }


def passage_record(passage: Passage) -> dict[str, Any]:
    return {
        "index": passage.index, "length": passage.length,
        "fingerprints": passage.fingerprints,
        "a": region_record(passage.a), "b": region_record(passage.b),
        "gaps": [{"a": region_record(a), "b": region_record(b)} for a, b in passage.gaps],
    }


def pair_record(pair: PairResult, clusters: dict[str, int]) -> dict[str, Any]:
    """Scores and every passage of one pair."""
    return {**pair_scores(pair, clusters),
            "passages": [passage_record(p) for p in pair.passages],
            "passages_computed": pair.passages_computed}


def submission_record(sub: Submission) -> dict[str, Any]:
    return {
        "name": sub.name, "role": sub.role, "units": sub.units,
        "fingerprints": sub.fingerprints,
        "files": [{"path": f.path, "size": f.size, "units": f.units,
                   "fingerprints": f.fingerprints} for f in sub.files],
    }


def cluster_record(cluster: Cluster) -> dict[str, Any]:
    return {"number": cluster_number(cluster.index), "members": list(cluster.members),
            "pairs": cluster.pairs, "max_similarity": cluster.max_similarity}


def shared_code_record(shared: SharedCode) -> dict[str, Any]:
    """One piece of code many submissions share: where it is, how many have it, which."""
    return {"index": shared.index, "count": len(shared.submissions),
            "submissions": list(shared.submissions), "fingerprints": shared.fingerprints,
            "ignored": shared.ignored, "as_base": shared.as_base,
            "region": {"submission": shared.submissions[0], **region_record(shared.region)}}


def issue_record(issue: Issue) -> dict[str, Any]:
    return {"path": issue.path, "reason": issue.reason, "skipped": issue.skipped}


def header_record(result: ComparisonResult) -> dict[str, Any]:
    """What the run was: format version, engine config, matching parameters, counts."""
    return {
        "format": "winnow-compare", "version": FORMAT_VERSION,
        "config": dict(result.config), "parameters": dict(result.parameters),
        "stats": dict(result.stats), "skipped": result.skipped,
    }
