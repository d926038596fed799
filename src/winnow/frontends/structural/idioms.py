"""Statements one language writes in one line and another in several.

Python reads several numbers from one line with ``a, b = map(float,
input().split())`` (or ``input().split()`` alone; Kotlin with ``val (a, b) =
readln().split(" ").map { it.toDouble() }``), where Java reads them one
by one (``a = in.nextDouble(); b = in.nextDouble();``) and so does a
Kotlin or C translation: the unpacking reads as one read per name.
"""

from __future__ import annotations

from winnow.frontends.structural.ir import N

#: Calls that read a line of input (after the prompt was split off).
LINE_READS = frozenset({"input", "readline", "readln", "readLine"})


def unpacked_reads(stmt: N) -> list[N] | None:
    """``a, b = map(f, input().split())`` as ``a = input(); b = input()``;
    ``None`` for any other statement."""
    if stmt.kind != "assign" or len(stmt.kids) != 2 or stmt.kids[0].kind != "list":
        return None
    targets = stmt.kids[0].kids
    if len(targets) < 2 or any(t.kind != "id" for t in targets):
        return None
    value = stmt.kids[1]
    if (value.kind == "call" and len(value.kids) == 3 and value.kids[0].kind == "id"
            and value.kids[0].text == "map"):
        # map(float, ...), Kotlin's ....map { it.toDouble() }: each read converted,
        # as Java's nextDouble()
        value = next((k for k in value.kids[1:] if _splits(k)), value)
    if not _splits(value):
        return None
    read = value.kids[1]
    if not (read.kind == "call" and len(read.kids) == 1 and read.kids[0].kind == "id"
            and read.kids[0].text in LINE_READS):
        return None
    return [N("assign", t.start, stmt.end, [t, read.copy()]) for t in targets]


def _splits(value: N) -> bool:
    """``x.split()`` / ``x.split(" ")``."""
    return (value.kind == "call" and 2 <= len(value.kids) <= 3 and value.kids[0].kind == "id"
            and value.kids[0].text == "split")

