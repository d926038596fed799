"""The report's graph of strong links, as plain geometry for an inline SVG.

Nodes are the members of the clusters, edges the listed pairs at or above the cluster
threshold.  Each cluster is laid out on its own by a few hundred steps of a
Fruchterman–Reingold force layout (spring edges, repelling nodes; NumPy, fixed start,
so the same result gives the same picture), and the clusters are packed in rows,
largest first.  Computed when the report is written: the page draws it without any
script or charting library.
"""

from __future__ import annotations

import math
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Width of the drawing (the SVG scales to the page).
WIDTH = 960
#: Characters of a name shown beside its node (the tooltip has the whole name).
LABEL_CHARS = 18
_STEPS = 200
_PAD = 14
_LABEL_ROOM = 80  # right of a cluster's square, for the labels of its right-most nodes


@dataclass(frozen=True, slots=True)
class Node:
    """A submission at ``(x, y)``; ``anchor`` is its row in the submissions table."""

    x: float
    y: float
    name: str
    label: str
    anchor: str
    cluster: int


@dataclass(frozen=True, slots=True)
class Edge:
    """A strong link; ``href`` opens the pair (``None`` when it has no page)."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    title: str
    href: str | None


@dataclass(frozen=True, slots=True)
class Graph:
    """Everything the SVG template draws."""

    width: int
    height: int
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]


@dataclass(frozen=True, slots=True)
class Link:
    """A listed pair as the graph needs it: names, similarity, title and page."""

    a: str
    b: str
    similarity: float
    title: str
    href: str | None


def layout(n: int, edges: Sequence[tuple[int, int, float]], steps: int = _STEPS) -> np.ndarray:
    """Positions in ``[0, 1]²`` of ``n`` nodes joined by weighted ``edges``."""
    if n <= 2:  # one node, or two one above the other (labels go to the right)
        return np.array([[0.5, 0.5]]) if n == 1 else np.array([[0.5, 0.0], [0.5, 1.0]])
    angle = np.arange(n) * 2 * math.pi / n
    pos = np.stack([np.cos(angle), np.sin(angle)], axis=1) * 0.5
    k = 1.0 / math.sqrt(n)
    ia = np.array([e[0] for e in edges], dtype=np.int64)
    ib = np.array([e[1] for e in edges], dtype=np.int64)
    weight = np.array([e[2] for e in edges], dtype=np.float64)
    for step in range(steps):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=2), 1e-3)
        disp = (delta * (k * k / dist ** 2)[:, :, None]).sum(axis=1)
        if ia.shape[0]:
            d = pos[ia] - pos[ib]
            length = np.maximum(np.linalg.norm(d, axis=1), 1e-3)
            pull = d * (length * weight / k)[:, None]
            np.add.at(disp, ia, -pull)
            np.add.at(disp, ib, pull)
        temperature = 0.1 * (1 - step / steps) + 1e-3
        size = np.maximum(np.linalg.norm(disp, axis=1), 1e-9)
        pos += disp / size[:, None] * np.minimum(size, temperature)[:, None]
    low, high = pos.min(axis=0), pos.max(axis=0)
    flat = high - low < 1e-6
    return np.where(flat, 0.5, (pos - low) / np.where(flat, 1.0, high - low))


def _labels(names: Sequence[str]) -> dict[str, str]:
    """Short labels: without the folder all names share, then the last characters."""
    common = posixpath.commonprefix(list(names)) if len(names) > 1 else ""
    cut = common.rfind("/") + 1
    out = {}
    for name in names:
        rest = name[cut:] or name
        out[name] = rest if len(rest) <= LABEL_CHARS else "…" + rest[-(LABEL_CHARS - 1):]
    return out


def graph(clusters: Sequence[Sequence[str]], links: Sequence[Link], threshold: float,
          anchors: dict[str, str]) -> Graph:
    """Lay out ``clusters`` (lists of names, largest first) with the ``links`` at or
    above ``threshold`` between members of one cluster."""
    nodes: list[Node] = []
    edges: list[Edge] = []
    labels = _labels([m for members in clusters for m in members])
    x = y = row_height = 0.0
    for number, members in enumerate(clusters, 1):
        index = {name: i for i, name in enumerate(members)}
        inside = [link for link in links if link.similarity >= threshold
                  and link.a in index and link.b in index]
        pos = layout(len(members), [(index[lk.a], index[lk.b], lk.similarity) for lk in inside])
        side = min(WIDTH - _LABEL_ROOM, 30 + 70 * math.sqrt(len(members)))
        if x > 0 and x + side + _LABEL_ROOM > WIDTH:
            x, y, row_height = 0.0, y + row_height, 0.0
        inner = side - 2 * _PAD
        at = [(x + _PAD + px * inner, y + _PAD + py * inner) for px, py in pos]
        nodes += [Node(at[i][0], at[i][1], m, labels[m], anchors.get(m, ""), number)
                  for i, m in enumerate(members)]
        for lk in inside:
            (x1, y1), (x2, y2) = at[index[lk.a]], at[index[lk.b]]
            span = max(1e-9, 1 - threshold)
            edges.append(Edge(x1, y1, x2, y2, 1 + 3 * (lk.similarity - threshold) / span,
                              lk.title, lk.href))
        x += side + _LABEL_ROOM
        row_height = max(row_height, side)
    return Graph(WIDTH, math.ceil(y + row_height), tuple(nodes), tuple(edges))
