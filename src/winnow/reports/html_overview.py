"""What the report's overview shows besides the pairs table: clusters, submissions, graph.

Pure data for the templates, computed from the listed pairs' rows
(:class:`~winnow.reports.html_view.PairRow`, names already as shown) and the result's
clusters.  Clusters are numbered from 1 in the result's order (largest first), as in
every output (:mod:`winnow.reports.numbers`); a pair
belongs to a cluster when both its submissions do.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from winnow.matching.model import ComparisonResult
from winnow.reports.graph import Graph, Link, graph
from winnow.reports.html_view import Namer, PairRow, percent
from winnow.reports.numbers import cluster_number

#: Partners listed per submission in the submissions table.
PARTNERS = 5


@dataclass(frozen=True, slots=True)
class Member:
    """A submission named in a cluster, linking to its row in the submissions table."""

    name: str
    anchor: str


@dataclass(frozen=True, slots=True)
class ClusterView:
    """One cluster as listed: its number, members, pairs and strongest pair."""

    number: int
    members: tuple[Member, ...]
    pairs: int
    max_similarity: str


@dataclass(frozen=True, slots=True)
class Partner:
    """One of a submission's strongest partners (``href``: the pair, if it has a page)."""

    name: str
    similarity: str
    href: str | None


@dataclass(frozen=True, slots=True)
class SubmissionView:
    """A row of the submissions table: a submission and its strongest partners."""

    anchor: str
    name: str
    archive: bool
    cluster: int | None
    pairs: int
    best: str
    partners: tuple[Partner, ...]


@dataclass(frozen=True, slots=True)
class Overview:
    """Clusters, submissions and the graph, with each shown name's cluster number."""

    clusters: tuple[ClusterView, ...]
    submissions: tuple[SubmissionView, ...]
    graph: Graph
    cluster_of: dict[str, int]


def _anchors(namer: Namer, result: ComparisonResult) -> dict[str, str]:
    """Shown name -> ``sub-N`` (N in input order, from 1)."""
    return {namer.submission(s.name): f"sub-{i}" for i, s in enumerate(result.submissions, 1)}


def overview(result: ComparisonResult, namer: Namer, rows: Sequence[PairRow]) -> Overview:
    """The overview's clusters, submissions table and graph for the listed ``rows``."""
    anchors = _anchors(namer, result)
    clusters = tuple(  # the result lists them largest first: numbered as everywhere
        ClusterView(cluster_number(c.index),
                    tuple(Member(namer.submission(m), anchors.get(namer.submission(m), ""))
                          for m in c.members), c.pairs, percent(c.max_similarity))
        for c in result.clusters)
    cluster_of = {m.name: c.number for c in clusters for m in c.members}
    threshold = result.parameters.get("cluster_threshold")
    links = [Link(r.a, r.b, r.similarity_value, f"{r.a} – {r.b}: {r.similarity}",
                  r.href if r.computed else None, _identical(result, r))
             for r in rows]
    drawn = graph([[m.name for m in c.members] for c in clusters], links,
                  float(threshold) if isinstance(threshold, float | int) else 0.5, anchors)
    return Overview(clusters, _submissions(result, namer, rows, anchors, cluster_of), drawn,
                    cluster_of)


def _identical(result: ComparisonResult, row: PairRow) -> bool:
    """Whether the pair of ``row`` has identical fingerprints (one node in the graph)."""
    pair = result.pairs[row.rank - 1]
    return pair.jaccard >= 1 - 1e-9 and pair.similarity >= 1 - 1e-9


def _submissions(result: ComparisonResult, namer: Namer, rows: Sequence[PairRow],
                 anchors: dict[str, str], cluster_of: dict[str, int]) -> tuple[
                     SubmissionView, ...]:
    """Every submission in a listed pair, strongest first, with its best partners."""
    partners: dict[str, list[tuple[float, Partner]]] = {}
    for r in rows:  # rows are ranked: partners come strongest first
        href = r.href if r.computed else None
        partners.setdefault(r.a, []).append((r.similarity_value, Partner(r.b, r.similarity, href)))
        partners.setdefault(r.b, []).append((r.similarity_value, Partner(r.a, r.similarity, href)))
    archive = {namer.submission(s.name) for s in result.submissions if s.role == "archive"}
    views = [SubmissionView(anchors.get(name, ""), name, name in archive, cluster_of.get(name),
                            len(found), found[0][1].similarity,
                            tuple(p for _, p in found[:PARTNERS]))
             for name, found in partners.items()]
    best = {name: found[0][0] for name, found in partners.items()}
    views.sort(key=lambda v: (-best[v.name], v.name))
    return tuple(views)


def report_id(result: ComparisonResult, rows: Sequence[PairRow]) -> str:
    """A short digest of what the report lists, naming its marks in the browser's storage.

    The same comparison (names as shown, parameters) gives the same id, so a report
    written again keeps its marks; two different reports never share them.
    """
    content = json.dumps([dict(result.config), {k: str(v) for k, v in result.parameters.items()},
                          [(r.a, r.b) for r in rows]], sort_keys=True)
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:16]
