"""How much of a parse with syntax errors tree-sitter could not place.

tree-sitter recovers from errors: a stray token, a missing name or a broken
header becomes an ``ERROR`` node (or a zero-width *missing* node) and the
rest of the file, even the statements inside the ``ERROR`` node, is parsed
as usual.  The structural front-end converts such a tree (``ERROR`` nodes as
the statements or the expression they hold) unless too much of the file is
*unplaced*: the tokens that sit directly in an ``ERROR`` node, outside every
well-formed construct it holds, and one byte per missing node.  Above
:data:`MAX_UNPLACED` of the file's bytes the file is lexed instead.

Error recovery can also run away: a few hundred bytes of broken Kotlin took
tree-sitter a minute and gave a tree of millions of missing nodes.
:func:`parse` stops a parse after :func:`parse_budget` seconds of CPU time
(:class:`ParseTooSlow`; the file is lexed instead).
"""

from __future__ import annotations

import time
from typing import Any

Node = Any  # a tree_sitter.Node

#: The largest share of a file's bytes that may be unplaced for the structural
#: front-end to read the tree; a file with more is lexed (code front-end).
MAX_UNPLACED = 0.05


#: CPU seconds a parse may take, plus :data:`PARSE_SECONDS_PER_MB` per MB
#: of text (tree-sitter parses about 12 MB/s of Java on this project's
#: machine: the budget is ten times that at least).
PARSE_SECONDS = 2.0
PARSE_SECONDS_PER_MB = 1.0


class ParseTooSlow(SyntaxError):
    """The parse ran past its budget (:func:`parse`)."""


def parse_budget(size: int) -> float:
    """CPU seconds a parse of ``size`` bytes may take."""
    return PARSE_SECONDS + PARSE_SECONDS_PER_MB * size / 1e6


def parse(parser: Any, text: bytes, budget: float | None = None) -> Any:
    """``parser.parse(text)``, stopped with :class:`ParseTooSlow` after
    ``budget`` seconds of this thread's CPU time (default
    :func:`parse_budget`).  tree-sitter only reports progress when it reads
    its input through a callback; the parser is reset after a cancelled
    parse (else its next parse would go on with the old text)."""
    limit = parse_budget(len(text)) if budget is None else budget
    start = time.thread_time()  # this thread's: other threads' work must not count

    def read(offset: int, _point: object) -> bytes:
        return text[offset:offset + 65536]

    def progress(_offset: int, _has_error: bool) -> bool:  # True cancels the parse
        return time.thread_time() - start > limit

    try:
        return parser.parse(read, progress_callback=progress)
    except ValueError as error:  # "Parsing failed": cancelled by progress()
        # a cancelled parser resumes the old parse on its next call unless reset
        parser.reset()
        if time.thread_time() - start > limit:
            raise ParseTooSlow(f"parsing took over {limit:.0f} s of CPU time") from error
        raise


def unplaced_bytes(root: Node, stop: int | None = None) -> int:
    """Bytes of the tokens directly inside ``ERROR`` nodes, plus one per
    missing node, in the tree below ``root`` (counting stops once past
    ``stop``: a runaway tree is not walked to its end)."""
    total = 0
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        if stop is not None and total > stop:
            break
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
    limit = int(MAX_UNPLACED * max(size, 1))
    return unplaced_bytes(root, stop=limit) <= limit
