"""Arrays and lists made the languages' ways, read as one neutral form.

A new array of a size (Java's ``new int[n]``, Kotlin's ``IntArray(n)`` and
``Array(n) { 0.0 }``, Python's ``[0] * n`` and ``[0 for _ in range(n)]``)
reads as the call ``[](n)``; an array of arrays as ``[](n, m)`` (Java's
``new double[n][m]``, Kotlin's ``Array(n) { DoubleArray(m) }``, Python's
``[[0.0] * m for _ in range(n)]``).  The element a Python list is filled
with is left out when it is a literal (Java and Kotlin fill with zeros
without saying so).  A list written out (Kotlin's ``intArrayOf(1, 2)``,
``listOf(1, 2)``, Java's ``new int[] {1, 2}``) reads as the list ``[1, 2]``.
"""

from __future__ import annotations

import re

from winnow.frontends.structural.ir import ARRAY, N, leaf

_LITERALS = frozenset({"num", "str", "chr", "bool", "null"})
#: Kotlin's constructors of an array (or list) of a size: ``IntArray(n)``,
#: ``Array(n) { init }``, ``arrayOfNulls<T>(n)``, ``MutableList(n) { init }``.
SIZED = re.compile(r"^(?:(?:Int|Long|Short|Byte|Double|Float|Char|Boolean)?Array|"
                   r"arrayOfNulls|MutableList|List)$")
#: Kotlin's lists written out: ``intArrayOf(1, 2)``, ``listOf(1, 2)`` ...
LISTED = re.compile(r"^(?:(?:int|long|short|byte|double|float|char|boolean)?ArrayOf|"
                    r"arrayOf|(?:mutable)?ListOf|listOf|mutableListOf)$", re.IGNORECASE)


def new_array(sizes: list[N], start: int, end: int) -> N:
    """The neutral array of ``sizes`` (one per dimension)."""
    return N("call", start, end, [leaf("id", start, start, ARRAY), *sizes])


def is_array(node: N) -> bool:
    return (node.kind == "call" and bool(node.kids) and node.kids[0].kind == "id"
            and node.kids[0].text == ARRAY)


def filled(element: N, size: N, start: int, end: int) -> N | None:
    """An array of ``size`` elements each ``element`` (a literal or an array,
    whose sizes become the next dimensions); ``None`` for other elements."""
    if element.kind in _LITERALS:
        return new_array([size], start, end)
    if is_array(element):
        return new_array([size, *element.kids[1:]], start, end)
    return None


def lambda_value(node: N) -> N | None:
    """The one expression a lambda (``{ DoubleArray(4) }``) computes."""
    if node.kind != "lambda" or len(node.kids) != 1:
        return None
    body = node.kids[0]
    while body.kind == "block" and len(body.kids) == 1:
        body = body.kids[0]
    if body.kind == "expr" and len(body.kids) == 1:
        body = body.kids[0]
    return None if body.kind in ("block", "expr") else body


def kotlin_collection(call: N) -> N:
    """Kotlin's sized and listed constructors (:data:`SIZED`, :data:`LISTED`)
    in the neutral forms; other calls as they are."""
    name = call.kids[0].text if call.kids and call.kids[0].kind == "id" else ""
    args = call.kids[1:]
    if LISTED.match(name):
        return N("list", call.start, call.end, args)
    if (SIZED.match(name) or name == ARRAY) and args:  # [](n) { init }: IntArray(n) { .. }
        if len(args) == 1:
            return new_array([args[0]], call.start, call.end)
        value = lambda_value(args[1]) if len(args) == 2 else None
        if value is not None:
            made = filled(value, args[0], call.start, call.end)
            if made is not None:
                return made
    return call
