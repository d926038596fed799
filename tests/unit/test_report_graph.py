"""The report's graph layout: merged identical submissions, drawn links, no overlaps."""

from __future__ import annotations

import itertools
import random

import numpy as np

from winnow.reports.graph import (
    LINKS_PER_NODE,
    ROW,
    Link,
    graph,
    label_width,
    merge_identical,
    snap,
    strongest,
)


def _class(copies: int, identical: int, others: int = 0, seed: int = 3) -> tuple[
        list[list[str]], list[Link]]:
    """One cluster of ``copies`` near-copies, the first ``identical`` identical, plus
    ``others`` pairs of two."""
    rng = random.Random(seed)
    names = [f"s{i:03d}" for i in range(copies)]
    links = [Link(a, b, 1.0 if i < identical and j < identical else rng.uniform(0.6, 0.99),
                  f"{a} – {b}", None, i < identical and j < identical)
             for (i, a), (j, b) in itertools.combinations(enumerate(names), 2)]
    clusters = [names]
    for k in range(others):
        a, b = f"p{k}a", f"p{k}b"
        clusters.append([a, b])
        links.append(Link(a, b, 0.7, "", None))
    return clusters, links


def test_identical_submissions_share_one_node() -> None:
    clusters, links = _class(30, 8)
    assert merge_identical(clusters[0], links)[0] == clusters[0][:8]
    drawn = graph(clusters, links, 0.5, {})
    assert len(drawn.nodes) == 30 - 8 + 1
    many = [n for n in drawn.nodes if n.count > 1]
    assert len(many) == 1 and many[0].members == tuple(clusters[0][:8])
    assert many[0].label.endswith("×8") and '"s007"' in many[0].members_json


def test_drawn_links_keep_the_cluster_connected_and_few() -> None:
    n = 40
    rng = random.Random(1)
    edges = {(a, b): rng.random() for a, b in itertools.combinations(range(n), 2)}
    kept = strongest(n, edges)
    assert len(kept) <= n * LINKS_PER_NODE  # not the 780 of the whole cluster
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for a, b in kept:
        parent[find(a)] = find(b)
    assert len({find(i) for i in range(n)}) == 1
    best_of_0 = max((e for e in edges if 0 in e), key=edges.__getitem__)
    assert best_of_0 in kept


def test_snap_gives_every_node_its_own_cell_near_its_place() -> None:
    pos = np.array([[0.5, 0.5]] * 10 + [[0.0, 0.0], [1.0, 1.0]])  # ten on one spot
    cells = snap(pos, 5, 4)
    assert len(set(cells)) == len(cells)
    assert cells[10] == (0, 0) and cells[11] == (4, 3)


def _label_boxes(drawn: object) -> list[tuple[float, float, float, float]]:
    return [(n.x - 6, n.y - ROW / 2 + 2, n.x - 6 + label_width(n.label), n.y + ROW / 2 - 2)
            for n in drawn.nodes]  # type: ignore[attr-defined]


def test_no_two_labels_overlap_and_clusters_are_apart() -> None:
    clusters, links = _class(80, 20, others=12)
    drawn = graph(clusters, links, 0.5, {})
    boxes = _label_boxes(drawn)
    for (i, a), (j, b) in itertools.combinations(enumerate(boxes), 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (i, j)
    frames = drawn.frames
    assert [f.cluster for f in frames] == list(range(1, 14))
    for a, b in itertools.combinations(frames, 2):
        assert (a.x + a.width <= b.x or b.x + b.width <= a.x
                or a.y + a.height <= b.y or b.y + b.height <= a.y)
    for node in drawn.nodes:
        frame = frames[node.cluster - 1]
        assert frame.x <= node.x <= frame.x + frame.width
        assert frame.y <= node.y <= frame.y + frame.height
    assert all(e.x1 != e.x2 or e.y1 != e.y2 for e in drawn.edges)  # no zero-length link
    assert max(e.a for e in drawn.edges) < len(drawn.nodes)


def test_five_hundred_near_copies_each_get_a_spot() -> None:
    clusters, links = _class(500, 50)
    drawn = graph(clusters, links, 0.5, {})
    assert len(drawn.nodes) == 451 and drawn.width <= 960
    assert len({(n.x, n.y) for n in drawn.nodes}) == 451
