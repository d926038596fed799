"""Clusters: groups of submissions linked by similar pairs (connected components)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from winnow.matching.model import Cluster


class Components:
    """The connected components of a graph given by its ``edges``: union-find
    with path halving, each component's root its smallest node."""

    def __init__(self, edges: Iterable[tuple[int, int]]) -> None:
        self._parent: dict[int, int] = {}
        for x, y in edges:
            rx, ry = self.find(x), self.find(y)
            if rx != ry:
                self._parent[max(rx, ry)] = min(rx, ry)

    def find(self, x: int) -> int:
        """The root of ``x``'s component (``x`` itself for a node of no edge)."""
        parent = self._parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def nodes(self) -> list[int]:
        """Every node met, in the order first met."""
        return list(self._parent)


def connected_clusters(
    names: Sequence[str], a: npt.NDArray[np.int64], b: npt.NDArray[np.int64],
    similarity: npt.NDArray[np.float64], threshold: float,
) -> tuple[Cluster, ...]:
    """Connected components of the graph whose edges are the pairs ``(a[i], b[i])``
    with ``similarity[i] >= threshold``; only components of two or more.

    Union-find (:class:`Components`) over the edges above the threshold only,
    so the cost is linear in those edges.  Clusters are ordered by size, then
    their strongest pair, descending; members by name.
    """
    edges = np.flatnonzero(similarity >= threshold)
    linked = Components((int(a[i]), int(b[i])) for i in edges.tolist())
    find = linked.find
    groups: dict[int, list[int]] = {}
    for node in linked.nodes():
        groups.setdefault(find(node), []).append(node)
    pairs: dict[int, int] = {}
    best: dict[int, float] = {}
    for i in edges.tolist():
        root = find(int(a[i]))
        pairs[root] = pairs.get(root, 0) + 1
        best[root] = max(best.get(root, 0.0), float(similarity[i]))
    ordered = sorted(
        groups.items(),
        key=lambda item: (-len(item[1]), -best[item[0]], min(names[m] for m in item[1])),
    )
    return tuple(
        Cluster(index, tuple(sorted(names[m] for m in members)), pairs[root], best[root])
        for index, (root, members) in enumerate(ordered)
    )
