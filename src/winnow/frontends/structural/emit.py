"""The normalised tree as a token stream: labels, byte spans, literal ids.

Pre-order: a node gives its label, then its children's tokens; loops,
branches and functions close with ``}`` so nesting shows in the stream.
Names read ``ID``, literals ``STR``/``NUM``/``CHR``/``BOOL``/``NULL``; the
literal channel gives each literal an id of its kind and value instead.
Every token's span is the *head* of the syntax node it came from (the bytes
before its first child; a leaf's whole text), in the parsed text's bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from winnow.frontends.ids import stable_id
from winnow.frontends.structural.ir import N

_LEAF_LABEL = {"id": "ID", "str": "STR", "num": "NUM", "chr": "CHR", "bool": "BOOL",
               "null": "NULL", "param": "param"}
_SILENT = frozenset({"block", "expr", "import"})
_CLOSED = frozenset({"if", "loop", "func", "class", "call", "concat", "list"})


@dataclass
class Tokens:
    """Parallel lists: unit id, literal-channel id, start and end byte, and labels."""

    ids: list[int] = field(default_factory=list)
    literal_ids: list[int] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    labels: dict[int, str] = field(default_factory=dict)

    def add(self, label: str, start: int, end: int, literal: str | None = None) -> None:
        unit = stable_id(label)
        self.labels[unit] = label
        self.ids.append(unit)
        self.literal_ids.append(unit if literal is None else stable_id(literal))
        self.starts.append(start)
        self.ends.append(end)


def emit(root: N, limit: int) -> Tokens:
    """Tokens of ``root``; spans are clipped to ``[0, limit]``."""
    out = Tokens()
    stack: list[tuple[N, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        start = min(max(node.start, 0), limit)
        if closing:
            end = min(max(node.end, start), limit)
            out.add("}", max(end - 1, start), end)
            continue
        kind = node.kind
        if kind in _LEAF_LABEL:
            end = min(max(node.end, start), limit)
            literal = None if kind in ("id", "param") else f"lit:{kind}:{node.text}"
            out.add(_LEAF_LABEL[kind], start, end, literal)
            continue
        if kind not in _SILENT and node is not root:
            head_end = node.kids[0].start if node.kids else node.end
            if not start < head_end <= node.end:
                head_end = node.end if node.end > start else start
            out.add(kind, start, min(head_end, limit))
        if kind in _CLOSED:
            stack.append((node, True))
        if kind == "if" and len(node.kids) == 3:
            stack.append((node.kids[2], False))
            stack.append((N("else", node.kids[2].start, node.kids[2].start), False))
            stack.append((node.kids[1], False))
            stack.append((node.kids[0], False))
            continue
        stack.extend((kid, False) for kid in reversed(node.kids))
    return out
