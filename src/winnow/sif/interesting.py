"""sif's *interesting* sets (Manber 1994, sections 4 and 6).

"A set is considered interesting if all members of the set have sufficient
number of common fingerprints *and* the set is not a subset of a larger
interesting set."  Similarity is not transitive (A ~ B and B ~ C without
A ~ C), so these are the maximal cliques of the graph whose edges join files
``i`` and ``j`` when their shared fingerprints cover at least ``threshold`` (a
fraction from 0 to 1) of either file (``shared / min(|F(i)|, |F(j)|)``).

Listing maximal cliques is NP-hard in general (sif calls it NP-complete).
Our heuristic is exact on sparse graphs and bounded on dense ones:

1. Vertices are ordered by increasing degree (an approximation of a
   degeneracy order) and, for each vertex ``v``, Bron–Kerbosch with Tomita
   pivoting lists the maximal cliques whose first vertex in that order is
   ``v`` (Eppstein, Löffler and Strash's scheme), within :data:`BUDGET`
   recursive calls.
2. If the budget runs out for ``v``, a greedy cover replaces that search: for
   each later neighbour ``u`` not yet covered, grow a clique from ``{v, u}`` by
   repeatedly adding the common neighbour with most neighbours among the
   remaining candidates, until none is left (so the set is maximal).
3. Any similar pair still in no reported set (its cliques were skipped by an
   interrupted search) gets a greedy maximal clique grown from it, so every
   similar pair lies in at least one reported set.

Sets are returned largest first, each as a list of node indices (the member
with most neighbours first, used as the reference when printing).
"""

from __future__ import annotations

from collections import defaultdict

from winnow.sif.shares import Pairs, directed_shares

#: Recursive Bron–Kerbosch calls allowed per vertex's sub-problem.
BUDGET = 20_000


class _OutOfBudget(Exception):
    pass


def similarity_graph(pairs: Pairs, threshold: float) -> dict[int, set[int]]:
    """Adjacency sets: an edge when the pair passes ``threshold`` in either direction."""
    ref, other, share = directed_shares(pairs)
    keep = share >= threshold
    graph: dict[int, set[int]] = defaultdict(set)
    for r, o in zip(ref[keep].tolist(), other[keep].tolist(), strict=True):
        graph[r].add(o)
        graph[o].add(r)
    return graph


def _bron_kerbosch(graph: dict[int, set[int]], r: set[int], p: set[int], x: set[int],
                   budget: int) -> list[set[int]]:
    """Every maximal clique containing ``r``, extending it with ``p`` and never
    with ``x`` (Bron–Kerbosch with Tomita's pivot); raises past ``budget`` calls."""
    cliques: list[set[int]] = []
    calls = 0

    def expand(r: set[int], p: set[int], x: set[int]) -> None:
        nonlocal calls
        calls += 1
        if calls > budget:
            raise _OutOfBudget
        if not p and not x:
            cliques.append(r)
            return
        pivot = max(p | x, key=lambda u: len(graph[u] & p))
        for v in sorted(p - graph[pivot]):
            expand(r | {v}, p & graph[v], x & graph[v])
            p = p - {v}
            x = x | {v}

    expand(r, p, x)
    return cliques


def _greedy_from(graph: dict[int, set[int]], v: int, partners: set[int]) -> list[set[int]]:
    """Greedy maximal cliques covering every edge from ``v`` to ``partners``."""
    covered: set[int] = set()
    cliques = []
    for u in sorted(partners, key=lambda n: (-len(graph[n]), n)):
        if u in covered:
            continue
        clique = {v, u}
        candidates = graph[v] & graph[u]
        while candidates:  # the common neighbour with most neighbours among candidates
            best = max(sorted(candidates), key=lambda c: len(graph[c] & candidates))
            clique.add(best)
            candidates &= graph[best]
        covered |= clique
        cliques.append(clique)
    return cliques


def maximal_cliques(graph: dict[int, set[int]]) -> list[set[int]]:
    """All maximal cliques (Eppstein–Löffler–Strash: one Bron–Kerbosch per vertex,
    over its later neighbours in increasing-degree order), with the greedy cover
    for a vertex whose search passes :data:`BUDGET` calls."""
    order = sorted(graph, key=lambda n: (len(graph[n]), n))
    rank = {node: i for i, node in enumerate(order)}
    found: set[frozenset[int]] = set()
    for node in order:
        later = {u for u in graph[node] if rank[u] > rank[node]}
        earlier = graph[node] - later
        try:
            cliques = _bron_kerbosch(graph, {node}, later, earlier, BUDGET)
        except _OutOfBudget:
            cliques = _greedy_from(graph, node, later)
        found.update(frozenset(c) for c in cliques)
    return _cover_missing(graph, [set(c) for c in found])


def _cover_missing(graph: dict[int, set[int]], cliques: list[set[int]]) -> list[set[int]]:
    """Add greedy maximal cliques for similar pairs no reported set holds (the
    exact searches that ran out of budget skipped cliques found elsewhere)."""
    member_of: dict[int, set[int]] = defaultdict(set)
    for i, clique in enumerate(cliques):
        for node in clique:
            member_of[node].add(i)
    for v in sorted(graph):
        missing = {u for u in graph[v] if u > v and not member_of[v] & member_of[u]}
        for clique in _greedy_from(graph, v, missing):
            for node in clique:
                member_of[node].add(len(cliques))
            cliques.append(clique)
    return cliques


def interesting_sets(pairs: Pairs, threshold: float) -> list[list[int]]:
    """Maximal sets of files that are pairwise similar (see the module docstring)."""
    graph = similarity_graph(pairs, threshold)
    ordered = []
    for clique in {frozenset(c) for c in maximal_cliques(graph)}:
        if len(clique) > 1:
            ordered.append(sorted(clique, key=lambda n: (-len(graph[n] & clique), n)))
    ordered.sort(key=lambda c: (-len(c), c))
    return ordered


__all__ = ["BUDGET", "interesting_sets", "maximal_cliques", "similarity_graph"]
