"""How much of a parse with syntax errors tree-sitter could not place.

tree-sitter recovers from errors: a stray token, a missing name or a broken
header becomes an ``ERROR`` node (or a zero-width *missing* node) and the
rest of the file, even the statements inside the ``ERROR`` node, is parsed
as usual.  The structural front-end converts such a tree (``ERROR`` nodes as
the statements or the expression they hold) unless too much of the file is
*unplaced*: the tokens that sit directly in an ``ERROR`` node, outside every
well-formed construct it holds, and one byte per missing node.  Above
:data:`MAX_UNPLACED` of the file's bytes the file is lexed instead.
"""

from __future__ import annotations

from typing import Any

Node = Any  # a tree_sitter.Node

#: The largest share of a file's bytes that may be unplaced for the structural
#: front-end to read the tree; a file with more is lexed (code front-end).
MAX_UNPLACED = 0.05


def unplaced_bytes(root: Node) -> int:
    """Bytes of the tokens directly inside ``ERROR`` nodes, plus one per
    missing node, in the tree below ``root``."""
    total = 0
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, in_error = stack.pop()
        if node.is_missing:
            total += 1
            continue
        if node.type == "ERROR" and node.child_count == 0:  # skipped text
            total += node.end_byte - node.start_byte
            continue
        if node.type == "ERROR":
            stack.extend((child, True) for child in node.children)
            continue
        if in_error and node.child_count == 0:  # a token the parser could not place
            total += node.end_byte - node.start_byte
            continue
        if node.has_error:
            stack.extend((child, False) for child in node.children)
    return total


def usable(root: Node, size: int) -> bool:
    """Whether a parse of ``size`` bytes is good enough to convert."""
    if not root.has_error:
        return True
    return unplaced_bytes(root) <= MAX_UNPLACED * max(size, 1)
