"""The report's graph of strong links, as plain geometry for an inline SVG.

Nodes are the members of the clusters, edges the listed pairs at or above the cluster
threshold.  Built to stay readable on a whole class (60 to 500 submissions):

* submissions with identical fingerprints (Jaccard 1) are merged into one node, marked
  ``×N``, whose tooltip names them all;
* each cluster draws its maximum spanning tree and each node's three strongest links
  (a cluster of 80 near-copies would otherwise be 3,160 crossing lines);
* each cluster is laid out on its own by a Fruchterman–Reingold force layout (NumPy,
  fixed start: the same result gives the same picture), then every node is moved to
  the nearest free cell of a grid whose cells are as wide as the cluster's longest
  label, so no two labels overlap and no two nodes share a spot;
* clusters are packed in rows, largest first, each in its own frame.

Computed when the report is written; the page's script only adds zoom, pan and drag.
"""

from __future__ import annotations

import json
import math
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Width of the drawing (the SVG scales to the page).
WIDTH = 960
#: Characters of a name shown beside its node (the tooltip has the whole name).
LABEL_CHARS = 18
#: Width of one label character (the labels' font is monospaced, 10.5 px: 0.6 em).
CHAR_WIDTH = 6.3
#: Height of a grid row; a label is 10.5 px high.
ROW = 26
#: Strongest links drawn per node (besides the maximum spanning tree).
LINKS_PER_NODE = 3
_STEPS = 200
_PAD = 12
_CAPTION = 18  # above each cluster's grid: "cluster N"
_GAP = 16  # between the frames of two clusters
_SAME = 1 - 1e-9


@dataclass(frozen=True, slots=True)
class Node:
    """A submission (or ``members``, identical) at ``(x, y)``; ``anchor`` is its row in
    the submissions table."""

    x: float
    y: float
    name: str
    label: str
    anchor: str
    cluster: int
    members: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        """How many identical submissions this node stands for."""
        return max(1, len(self.members))

    @property
    def members_json(self) -> str:
        """The names it stands for as a JSON list (the page's script reads it)."""
        return json.dumps(list(self.members or (self.name,)), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Edge:
    """A strong link between nodes ``a`` and ``b`` (indices into the graph's nodes);
    ``href`` opens the pair (``None`` when it has no page)."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    title: str
    href: str | None
    a: int = 0
    b: int = 0


@dataclass(frozen=True, slots=True)
class Frame:
    """The box around one cluster, with its number."""

    x: float
    y: float
    width: float
    height: float
    cluster: int


@dataclass(frozen=True, slots=True)
class Graph:
    """Everything the SVG template draws."""

    width: int
    height: int
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    frames: tuple[Frame, ...] = ()


@dataclass(frozen=True, slots=True)
class Link:
    """A listed pair as the graph needs it: names, similarity, title and page;
    ``identical``: the two have the same fingerprints (they share one node)."""

    a: str
    b: str
    similarity: float
    title: str
    href: str | None
    identical: bool = False


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


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def merge_identical(names: Sequence[str], links: Sequence[Link]) -> list[list[str]]:
    """``names`` grouped by the ``identical`` links between them, in first-seen order."""
    at = {name: i for i, name in enumerate(names)}
    parent = list(range(len(names)))
    for link in links:
        if link.identical and link.a in at and link.b in at:
            parent[_find(parent, at[link.a])] = _find(parent, at[link.b])
    groups: dict[int, list[str]] = {}
    for i, name in enumerate(names):
        groups.setdefault(_find(parent, i), []).append(name)
    return list(groups.values())


def strongest(n: int, edges: dict[tuple[int, int], float],
              per_node: int = LINKS_PER_NODE) -> list[tuple[int, int]]:
    """The edges drawn: a maximum spanning tree (the cluster stays one piece) and each
    node's ``per_node`` strongest edges, as sorted ``(a, b)``."""
    ranked = sorted(edges, key=lambda e: (-edges[e], e))
    parent = list(range(n))
    kept: set[tuple[int, int]] = set()
    for a, b in ranked:
        ra, rb = _find(parent, a), _find(parent, b)
        if ra != rb:
            parent[ra] = rb
            kept.add((a, b))
    taken = [0] * n
    for a, b in ranked:
        if taken[a] < per_node or taken[b] < per_node:
            kept.add((a, b))
        taken[a] += 1
        taken[b] += 1
    return sorted(kept)


def _grid(m: int, cell: float) -> tuple[int, int]:
    """Columns and rows for ``m`` nodes: some free cells, a roughly square block."""
    cells = m + max(1, m // 3)
    fit = max(1, int((WIDTH - 2 * _PAD) // cell))
    cols = max(1, min(fit, m, round(math.sqrt(cells * ROW / cell) * 1.6)))
    return cols, math.ceil(cells / cols)


def snap(pos: np.ndarray, cols: int, rows: int) -> list[tuple[int, int]]:
    """Each position (in ``[0, 1]²``) moved to the nearest free ``(col, row)`` cell,
    nodes nearest the centre first; no two share a cell."""
    want = pos * np.array([cols - 1, rows - 1], dtype=np.float64)
    centre = want.mean(axis=0)
    order = np.argsort(((want - centre) ** 2).sum(axis=1), kind="stable")
    cx, cy = np.meshgrid(np.arange(cols), np.arange(rows), indexing="ij")
    cells = np.stack([cx.ravel(), cy.ravel()], axis=1).astype(np.float64)
    free = np.ones(len(cells), dtype=bool)
    out: list[tuple[int, int]] = [(0, 0)] * len(pos)
    for i in order.tolist():
        dist = ((cells - want[i]) ** 2).sum(axis=1)
        dist[~free] = np.inf
        best = int(np.argmin(dist))
        free[best] = False
        out[i] = (int(cells[best][0]), int(cells[best][1]))
    return out


def _labels(names: Sequence[str]) -> dict[str, str]:
    """Short labels: without the folder all names share, then the last characters."""
    common = posixpath.commonprefix(list(names)) if len(names) > 1 else ""
    cut = common.rfind("/") + 1
    out = {}
    for name in names:
        rest = name[cut:] or name
        out[name] = rest if len(rest) <= LABEL_CHARS else "…" + rest[-(LABEL_CHARS - 1):]
    return out


def label_width(label: str) -> float:
    """The drawn width of a label, node and gap included."""
    return 10 + CHAR_WIDTH * len(label) + 24


@dataclass(slots=True)
class _Block:
    """One cluster laid out at the origin: nodes, edges, size."""

    nodes: list[Node]
    edges: list[Edge]
    width: float
    height: float


def _cluster(number: int, members: Sequence[str], links: Sequence[Link], threshold: float,
             labels: dict[str, str], anchors: dict[str, str]) -> _Block:
    groups = merge_identical(members, links)
    group_of = {name: g for g, names in enumerate(groups) for name in names}
    best: dict[tuple[int, int], Link] = {}
    for link in links:
        ga, gb = group_of.get(link.a), group_of.get(link.b)
        if ga is None or gb is None or ga == gb or link.similarity < threshold:
            continue
        key = (min(ga, gb), max(ga, gb))
        if key not in best or link.similarity > best[key].similarity:
            best[key] = link
    drawn = strongest(len(groups), {k: lk.similarity for k, lk in best.items()})
    pos = layout(len(groups), [(a, b, best[(a, b)].similarity) for a, b in drawn])
    shown = [labels[g[0]] + (f" ×{len(g)}" if len(g) > 1 else "") for g in groups]
    cell = max(label_width(s) for s in shown)
    cols, rows = _grid(len(groups), cell)
    spots = snap(pos, cols, rows)
    used_cols = max(c for c, _ in spots) + 1
    used_rows = max(r for _, r in spots) + 1
    at = [(_PAD + 6 + c * cell, _CAPTION + _PAD + r * ROW) for c, r in spots]
    nodes = [Node(at[i][0], at[i][1], g[0], shown[i], anchors.get(g[0], ""), number, tuple(g))
             for i, g in enumerate(groups)]
    span = max(1e-9, 1 - threshold)
    edges = [Edge(at[a][0], at[a][1], at[b][0], at[b][1],
                  1 + 2.5 * (best[(a, b)].similarity - threshold) / span,
                  best[(a, b)].title, best[(a, b)].href, a, b) for a, b in drawn]
    return _Block(nodes, edges, 2 * _PAD + used_cols * cell,
                  _CAPTION + 2 * _PAD + (used_rows - 1) * ROW)


def graph(clusters: Sequence[Sequence[str]], links: Sequence[Link], threshold: float,
          anchors: dict[str, str]) -> Graph:
    """Lay out ``clusters`` (lists of names, largest first, numbered from 1) with the
    ``links`` at or above ``threshold`` between members of one cluster."""
    nodes: list[Node] = []
    edges: list[Edge] = []
    frames: list[Frame] = []
    labels = _labels([m for members in clusters for m in members])
    x = y = row_height = 0.0
    for number, members in enumerate(clusters, 1):
        block = _cluster(number, members, links, threshold, labels, anchors)
        if x > 0 and x + block.width > WIDTH:
            x, y, row_height = 0.0, y + row_height + _GAP, 0.0
        base = len(nodes)
        nodes += [Node(n.x + x, n.y + y, n.name, n.label, n.anchor, n.cluster, n.members)
                  for n in block.nodes]
        edges += [Edge(e.x1 + x, e.y1 + y, e.x2 + x, e.y2 + y, e.width, e.title, e.href,
                       e.a + base, e.b + base) for e in block.edges]
        frames.append(Frame(x + 1, y + 1, block.width - 2, block.height - 2, number))
        x += block.width + _GAP
        row_height = max(row_height, block.height)
    width = max([WIDTH, *(math.ceil(f.x + f.width + 1) for f in frames)])
    return Graph(width, math.ceil(y + row_height), tuple(nodes), tuple(edges), tuple(frames))
