"""Clusters: groups of submissions linked by similar pairs (connected components)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from winnow.matching.model import Cluster


def connected_clusters(
    names: Sequence[str], a: npt.NDArray[np.int64], b: npt.NDArray[np.int64],
    similarity: npt.NDArray[np.float64], threshold: float,
) -> tuple[Cluster, ...]:
    """Connected components of the graph whose edges are the pairs ``(a[i], b[i])``
    with ``similarity[i] >= threshold``; only components of two or more.

    Union-find with path halving over the edges above the threshold only, so
    the cost is linear in those edges.  Clusters are ordered by size, then
    their strongest pair, descending; members by name.
    """
    edges = np.flatnonzero(similarity >= threshold)
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i in edges.tolist():
        ra, rb = find(int(a[i])), find(int(b[i]))
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = {}
    for node in parent:
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
