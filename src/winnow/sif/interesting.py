"""sif's *interesting* sets (Manber 1994, sections 4 and 6).

"A set is considered interesting if all members of the set have sufficient
number of common fingerprints *and* the set is not a subset of a larger
interesting set."  Similarity is not transitive (A ~ B and B ~ C without
A ~ C), so these are the maximal cliques of the graph whose edges join files
``i`` and ``j`` when their shared fingerprints cover at least ``threshold``
percent of either file (``100 · shared / min(|F(i)|, |F(j)|)``).

Listing maximal cliques is NP-hard in general (sif calls it NP-complete).
Our heuristic, per connected component:

1. Bron–Kerbosch with Tomita pivoting lists every maximal clique exactly,
   within a budget of :data:`BUDGET` recursive calls per component.
2. If the budget runs out, a greedy clique cover replaces it: take the
   uncovered edge whose endpoints have the highest degrees, grow a clique from
   it by repeatedly adding the common neighbour with most neighbours among the
   remaining candidates, until none is left (so the set is maximal), and mark
   its edges covered; repeat until every edge is in some reported set.

Sets are returned largest first, each as a list of node indices (the member
with most neighbours first, used as the reference when printing).
"""

from __future__ import annotations

from collections import defaultdict

from winnow.sif.groups import Pairs, directed_shares

#: Recursive Bron–Kerbosch calls allowed per connected component.
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


def _components(graph: dict[int, set[int]]) -> list[list[int]]:
    seen: set[int] = set()
    out = []
    for start in sorted(graph):
        if start in seen:
            continue
        stack, part = [start], []
        seen.add(start)
        while stack:
            node = stack.pop()
            part.append(node)
            for nxt in graph[node] - seen:
                seen.add(nxt)
                stack.append(nxt)
        out.append(sorted(part))
    return out


def _bron_kerbosch(graph: dict[int, set[int]], nodes: list[int]) -> list[set[int]]:
    cliques: list[set[int]] = []
    calls = 0

    def expand(r: set[int], p: set[int], x: set[int]) -> None:
        nonlocal calls
        calls += 1
        if calls > BUDGET:
            raise _OutOfBudget
        if not p and not x:
            cliques.append(r)
            return
        pivot = max(p | x, key=lambda u: len(graph[u] & p))
        for v in sorted(p - graph[pivot]):
            expand(r | {v}, p & graph[v], x & graph[v])
            p = p - {v}
            x = x | {v}

    expand(set(), set(nodes), set())
    return cliques


def _greedy_cover(graph: dict[int, set[int]], nodes: list[int]) -> list[set[int]]:
    covered: set[tuple[int, int]] = set()
    edges = sorted(((u, v) for u in nodes for v in graph[u] if u < v),
                   key=lambda e: (-len(graph[e[0]]) - len(graph[e[1]]), e))
    cliques = []
    for u, v in edges:
        if (u, v) in covered:
            continue
        clique = {u, v}
        candidates = graph[u] & graph[v]
        while candidates:
            best = max(sorted(candidates), key=lambda c: len(graph[c] & candidates))
            clique.add(best)
            candidates &= graph[best]
        members = sorted(clique)
        covered.update((a, b) for a in members for b in members if a < b)
        cliques.append(clique)
    return cliques


def interesting_sets(pairs: Pairs, threshold: float) -> list[list[int]]:
    """Maximal sets of files that are pairwise similar (see the module docstring)."""
    graph = similarity_graph(pairs, threshold)
    found: list[set[int]] = []
    for nodes in _components(graph):
        try:
            found += _bron_kerbosch(graph, nodes)
        except _OutOfBudget:
            found += _greedy_cover(graph, nodes)
    ordered = []
    for clique in found:
        members = sorted(clique, key=lambda n: (-len(graph[n] & clique), n))
        ordered.append(members)
    ordered.sort(key=lambda c: (-len(c), c))
    return [c for c in ordered if len(c) > 1]


__all__ = ["BUDGET", "interesting_sets", "similarity_graph"]
