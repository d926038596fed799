"""A counted loop that only reads the elements of one array is a loop over
the array's elements.

``for (int i = 0; i < a.length; i++) s += a[i];`` and ``for (int x : a) s +=
x;`` (Python's ``for x in a``, Kotlin's ``for (x in a)``) do the same: when
the counter starts at 0, stops at the array's length (``i < a.length`` or
``i <= a.length - 1``), steps by one, is
written nowhere else, is read only as the index of ``a[i]`` (never to write
an element) and is not read after the loop, the loop reads as the element
loop, ``a[i]`` as its element variable.
"""

from __future__ import annotations

from winnow.frontends.structural.ir import N, exposed_reads, leaf, names_written

#: The length fields and calls a bound reads as (``a.length``, ``len(a)``,
#: ``a.size``, ``a.size()``, ``a.count``).
_LENGTHS = frozenset({"length", "len", "size", "count"})


def element_loops(stmts: list[N]) -> list[N]:
    """``stmts`` with each ``i = 0`` and counted loop over an array's elements
    replaced by the element loop."""
    out = list(stmts)
    at = 0
    while at < len(out) - 1:
        made = _element_loop(out[at], out[at + 1], out[at + 2:])
        if made is not None:
            out[at:at + 2] = [made]
        at += 1
    return out


def _element_loop(init: N, loop: N, after: list[N]) -> N | None:
    if not (init.kind == "assign" and len(init.kids) == 2 and init.kids[0].kind == "id"
            and not init.kids[0].reads and init.kids[1].kind == "num"
            and init.kids[1].text == "0"):
        return None
    counter = init.kids[0].text
    if loop.kind != "loop" or len(loop.kids) != 2 or loop.text == "do":
        return None
    cond, body = loop.kids
    if (cond.kind not in ("<", "<=") or len(cond.kids) != 2 or cond.kids[0].kind != "id"
            or cond.kids[0].text != counter or body.kind != "block"):
        return None
    bound = cond.kids[1]
    if cond.kind == "<=":  # i <= a.length - 1, Kotlin's 0..a.size - 1
        if not (bound.kind == "-" and len(bound.kids) == 2 and bound.kids[1].kind == "num"
                and bound.kids[1].text == "1"):
            return None
        bound = bound.kids[0]
    arrays = [n for n in bound.reads.split() if n != bound.text]
    if bound.kind != "id" or bound.text not in _LENGTHS or len(arrays) != 1:
        return None
    array = arrays[0]
    steps = [s for s in body.kids if _steps(s, counter)]
    rest = [s for s in body.kids if not any(s is t for t in steps)]
    if (len(steps) != 1 or counter in exposed_reads(after)
            or not _reads_only_elements(rest, counter, array)):
        return None
    element = f"{array}[{counter}]"  # no identifier is spelled so
    for stmt in rest:
        _to_element(stmt, counter, array, element)
    head = N("in", cond.start, cond.end, [leaf("id", cond.start, cond.start, element),
                                          leaf("id", bound.start, bound.end, array)])
    return N("loop", init.start, loop.end, [head, N("block", body.start, body.end, rest)])


def _steps(stmt: N, counter: str) -> bool:
    """``counter = counter + 1``."""
    if stmt.kind != "assign" or len(stmt.kids) != 2 or stmt.kids[0].kind != "id":
        return False
    value = stmt.kids[1]
    return (stmt.kids[0].text == counter and value.kind == "+" and len(value.kids) == 2
            and value.kids[0].kind == "id" and value.kids[0].text == counter
            and value.kids[1].kind == "num" and value.kids[1].text == "1")


def _is_element(node: N, counter: str, array: str) -> bool:
    return (node.kind == "index" and len(node.kids) == 2 and node.kids[0].kind == "id"
            and node.kids[0].text == array and not node.kids[0].reads
            and node.kids[1].kind == "id" and node.kids[1].text == counter
            and not node.kids[1].reads)


def _reads_only_elements(stmts: list[N], counter: str, array: str) -> bool:
    """Whether ``counter`` appears in ``stmts`` only as ``array[counter]`` read
    (no element written, neither name written)."""
    block = N("block", 0, 0, stmts)
    if names_written(block) & {counter, array}:
        return False
    uses = elements = 0
    for node in block.walk():
        if (node.kind == "id" and node.text == counter) or counter in node.reads.split():
            uses += 1
        elif node.kind == "call" and counter in node.text.split():
            return False
        if _is_element(node, counter, array):
            elements += 1
    return uses == elements


def _to_element(node: N, counter: str, array: str, element: str) -> None:
    for parent in node.walk():
        parent.kids = [leaf("id", k.start, k.end, element) if _is_element(k, counter, array)
                       else k for k in parent.kids]
