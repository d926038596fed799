"""Expression handlers of the converter (:mod:`winnow.frontends.structural.convert`):
one function per role, each building the neutral node of one expression."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from winnow.frontends.structural.arrays import filled, new_array
from winnow.frontends.structural.ir import N, leaf
from winnow.frontends.structural.tables import LAYOUT_KEYWORDS
from winnow.frontends.structural.walker import Walker

Node = Any  # a tree_sitter.Node

_OPS = {"&&": "and", "and": "and", "||": "or", "or": "or", "is": "==", "is not": "!=",
        "===": "==", "!==": "!=", "not in": "notin", "//": "/", "**": "pow"}
_DOLLAR = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def span(node: Node) -> tuple[int, int]:
    """A syntax node's byte range."""
    return node.start_byte, node.end_byte


def _assign(c: Walker, node: Node) -> N:
    left = c.field(node, "left")
    right = c.field(node, "right")
    named = c.named(node)
    if left is None or right is None:
        if len(named) < 2:
            return N("other", *span(node), [c.expr(n) for n in named])
        left, right = named[0], named[-1]
    op = c.op_of(node)
    target, value = c.expr(left), c.expr(right)
    if op not in ("=", ":=", "?") and op.endswith("="):  # x += e reads as x = x + e
        value = N(op[:-1], *span(node), [target.copy(), value])
    return N("assign", *span(node), [target, value])


#: The text that tags ``i++`` and ``i--`` (kind ``assign``): their value is
#: the variable's value before the step, not after.
POST = "post"


def _update(c: Walker, node: Node) -> N:
    """``i++``, ``++i``, ``i--`` read as ``i = i + 1`` / ``i = i - 1``."""
    named = c.named(node)
    if not named:
        return leaf("other", *span(node))
    target = c.expr(named[0])
    text = c.text(node)
    op = "-" if "--" in text else "+"
    one = leaf("num", *span(node), "1")
    post = POST if text.rstrip().endswith(("++", "--")) else ""  # its value is the old one
    return N("assign", *span(node), [target, N(op, *span(node), [target.copy(), one])], post)


def _binary(c: Walker, node: Node) -> N:
    named = c.named(node)
    if len(named) < 2:
        return N("other", *span(node), [c.expr(n) for n in named])
    op = c.text(named[1]) if len(named) == 3 else c.op_of(node)  # Kotlin: a until b
    left, right = c.expr(named[0]), c.expr(named[-1])
    if op == "*" and c.table.list_repeat:  # Python's [0] * n: an array of n
        for one, other in ((left, right), (right, left)):
            if one.kind == "list" and len(one.kids) == 1:
                made = filled(one.kids[0], other, *span(node))
                if made is not None:
                    return made
    return N(_OPS.get(op, op), *span(node), [left, right])


def _comprehension(c: Walker, node: Node) -> N:
    """Python's ``[0 for _ in range(n)]`` is an array of ``n`` (:func:`filled`);
    other comprehensions keep their parts, tagged: they repeat their element
    and rebind their loop variables (:mod:`~winnow.frontends.structural.temps`)."""
    named = c.named(node)
    if (node.type == "list_comprehension" and len(named) == 2
            and named[1].type == "for_in_clause"):
        source = c.field(named[1], "right")
        bound = c.expr(source) if source is not None else None
        if (bound is not None and bound.kind == "call" and len(bound.kids) == 2
                and bound.kids[0].text == "range"):
            made = filled(c.expr(named[0]), bound.kids[1], *span(node))
            if made is not None:
                return made
    return N("other", *span(node), [c.expr(n) for n in named], "comprehension")


def _new_array(c: Walker, node: Node) -> N:
    """Java's ``new int[n][m]`` reads as the neutral array of sizes ``n, m``;
    ``new int[] {1, 2}`` as the list ``{1, 2}``."""
    sizes = [c.expr(c.named(d)[0]) for d in c.named(node)
             if d.type == "dimensions_expr" and c.named(d)]
    if sizes:
        return new_array(sizes, *span(node))
    value = c.field(node, "value")
    return c.expr(value) if value is not None else _list(c, node)


def _compare_chain(c: Walker, node: Node) -> N:
    """Python ``a < b <= c`` reads as ``a < b and b <= c``."""
    named = c.named(node)
    ops = [c.text(ch) for ch in node.children if not ch.is_named]
    parts = [N(_OPS.get(op, op), *span(node), [c.expr(a), c.expr(b)])
             for op, a, b in zip(ops, named, named[1:], strict=False)]
    if not parts:
        return N("other", *span(node), [c.expr(n) for n in named])
    out = parts[0]
    for part in parts[1:]:
        out = N("and", *span(node), [out, part])
    return out


def _unary(c: Walker, node: Node) -> N:
    named = c.named(node)
    if not named:
        return leaf("other", *span(node))
    op = c.op_of(node)
    if op in ("++", "--"):
        return _update(c, node)
    inner = c.expr(named[-1])
    if op == "!!":  # Kotlin's a!! (not null: the value itself), or !!a
        return inner
    if op in ("!", "not"):
        return N("not", *span(node), [inner])
    if op == "-":
        if inner.kind == "num" and not inner.text.startswith("-"):  # -1 is a number
            return leaf("num", *span(node), "-" + inner.text)
        return N("neg", *span(node), [inner])
    if op == "+":
        return inner
    return N("other", *span(node), [inner], op)


def _not(c: Walker, node: Node) -> N:
    named = c.named(node)
    return N("not", *span(node), [c.expr(named[-1])]) if named else leaf("other", *span(node))


def _ternary(c: Walker, node: Node) -> N:
    cond = c.field(node, "condition")
    then = c.field(node, "consequence")
    other = c.field(node, "alternative")
    named = c.named(node)
    if cond is None or then is None or other is None:
        if len(named) != 3:
            return N("other", *span(node), [c.expr(n) for n in named])
        if c.table.ternary_value_first:  # Python: a if c else b
            then, cond, other = named
        else:
            cond, then, other = named
    return N("if", *span(node), [c.expr(cond), c.expr(then), c.expr(other)])


def _call(c: Walker, node: Node) -> N:
    function = c.field(node, "function") or c.field(node, "name")
    receiver = c.field(node, "object")
    args = c.field(node, "arguments")
    named = c.named(node)
    if function is None and named:
        function = named[0]
    if args is None and len(named) > 1 and c.role(named[-1]) == "args":
        args = named[-1]
    kids = [_callee(c, function, receiver, node)]
    chain = receiver if receiver is not None else (
        function if function is not None and c.role(function) == "field" else None)
    receivers = _chain_names(c, chain) if chain is not None else []
    if receiver is not None and not _is_name_chain(c, receiver):
        kids.append(c.expr(receiver))
    elif function is not None and c.role(function) == "field":
        obj = c.field(function, "object") or c.field(function, "operand")
        if obj is None and c.named(function):  # Kotlin: no field names
            obj = c.named(function)[0]
        if obj is not None and not _is_name_chain(c, obj):
            kids.append(c.expr(obj))
    if args is not None and args.type == "generator_expression":  # sum(x for x in y)
        kids.append(c.expr(args))
    elif args is not None:
        kids.extend(_args(c, args))
    if len(named) > 1 and c.role(named[-1]) == "trailing":  # Kotlin: f(a) { lambda }
        kids.append(c.expr(named[-1]))
    call = N("call", *span(node), kids, " ".join(receivers))
    rewritten: N = c.table.rewrite_call(c, call)
    return rewritten


def _args(c: Walker, args: Node) -> list[N]:
    out = []
    for arg in c.named(args):
        if c.role(arg) == "kwarg":
            name = c.field(arg, "name")
            value = c.field(arg, "value")
            if name is not None and value is not None and c.text(name) in ("end", "sep",
                                                                            "file"):
                # print(x, end=""): the table's rewrite reads it (tables.python_call)
                out.append(N(c.text(name), *span(arg), [c.expr(value)]))
                continue
            if name is not None and c.text(name) in LAYOUT_KEYWORDS:
                continue
        value = c.field(arg, "value") if c.role(arg) == "kwarg" else None
        out.append(c.expr(value if value is not None else arg))
    return out


def _callee(c: Walker, function: Node | None, receiver: Node | None, at: Node) -> N:
    """The called name: a dotted chain of names reads as its last name."""
    if function is None:
        return leaf("id", *span(at), "?")
    if c.role(function) == "field":
        last = c.field(function, "field") or c.field(function, "attribute") or c.field(
            function, "property")
        named = c.named(function)
        if last is None and named:
            last = named[-1]
        if last is not None:
            return leaf("id", *span(function), c.text(last))
    if c.role(function) in ("ident", "type"):
        return leaf("id", *span(function), c.text(function))
    return c.expr(function)


def _chain_names(c: Walker, node: Node) -> list[str]:
    """The names of a receiver chain (``a`` and ``b`` of ``a.b.f()``): the
    call reads them, though the stream shows only the called name."""
    if c.role(node) in ("ident", "type", "this"):
        return [c.text(node)]
    if c.role(node) == "field":
        return [name for child in c.named(node) for name in _chain_names(c, child)]
    return []


def _is_name_chain(c: Walker, node: Node) -> bool:
    role = c.role(node)
    if role in ("ident", "type", "this"):
        return True
    if role == "field":
        return all(_is_name_chain(c, n) for n in c.named(node))
    return False


def _new(c: Walker, node: Node) -> N:
    kind = c.field(node, "type") or c.field(node, "constructor")
    args = c.field(node, "arguments")
    kids = [leaf("id", *span(kind), c.text(kind).rsplit(".", 1)[-1])] if kind is not None else []
    if args is not None and args.type == "generator_expression":  # sum(x for x in y)
        kids.append(c.expr(args))
    elif args is not None:
        kids.extend(_args(c, args))
    return N("call", *span(node), kids)


def _field(c: Walker, node: Node) -> N:
    if _is_name_chain(c, node):
        named = c.named(node)
        last = named[-1] if named else node
        receivers = [name for n in named[:-1] for name in _chain_names(c, n)]
        return leaf("id", *span(node), c.text(last), " ".join(receivers))
    named = c.named(node)
    return N("field", *span(node), [c.expr(named[0])] if named else [])


def _index(c: Walker, node: Node) -> N:
    return N("index", *span(node), [c.expr(n) for n in c.named(node)])


def _ident(c: Walker, node: Node) -> N:
    return leaf("id", *span(node), c.text(node))


def _string(c: Walker, node: Node) -> N:
    """A string literal; one with interpolations reads as a concatenation."""
    parts: list[N] = []
    text: list[str] = []

    def flush(at: int) -> None:
        joined = "".join(text)
        text.clear()
        pieces = _DOLLAR.split(joined) if c.table.dollar_names else [joined]
        for i, piece in enumerate(pieces):  # odd pieces: Kotlin's "$name"
            if i % 2:
                parts.append(leaf("id", at, at, piece))
            elif piece:
                parts.append(leaf("str", at, at, piece))

    for child in c.named(node):
        if c.role(child) == "interp":
            flush(child.start_byte)
            inner = c.named(child)
            parts.append(c.expr(inner[0]) if inner else leaf("id", *span(child), "?"))
        elif c.role(child) == "str_part" or child.type.endswith("content"):
            text.append(c.text(child))
    if not parts and not (c.table.dollar_names and "$" in "".join(text)):
        raw = "".join(text) if text else _unquote(c.text(node))
        return leaf("str", *span(node), raw)
    flush(node.end_byte)
    if len(parts) == 1 and parts[0].kind == "str":
        return leaf("str", *span(node), parts[0].text)
    return N("concat", *span(node), parts)


def _unquote(text: str) -> str:
    text = text.lstrip("rRbBuUfF@$")
    for quote in ('"""', "'''", '"', "'", "`"):
        if len(text) >= 2 * len(quote) and text.startswith(quote) and text.endswith(quote):
            return text[len(quote):-len(quote)]
    return text


def _literal(kind: str) -> Callable[[Walker, Node], N]:
    def handler(c: Walker, node: Node) -> N:
        text = c.text(node)
        if kind == "num":
            text = text.lower().rstrip("lfdu").replace("_", "")
        elif kind == "chr":
            text = _unquote(text)
        return leaf(kind, *span(node), text)
    return handler


def _lambda(c: Walker, node: Node) -> N:
    return N("lambda", *span(node), [c.expr(n) for n in c.named(node)[-1:]])


def _list(c: Walker, node: Node) -> N:
    return N("list", *span(node), [c.expr(n) for n in c.named(node)])


def _cast(c: Walker, node: Node) -> N:
    value = c.field(node, "value")
    named = c.named(node)
    inner = value if value is not None else (named[-1] if named else None)
    return c.expr(inner) if inner is not None else leaf("other", *span(node))


def _unwrap(c: Walker, node: Node) -> N:
    named = c.named(node)
    if len(named) == 1:
        return c.expr(named[0])
    return N("other", *span(node), [c.expr(n) for n in named])


EXPR: dict[str, Callable[[Walker, Node], N]] = {
    "assign": _assign, "update": _update, "binary": _binary, "compare_chain": _compare_chain,
    "unary": _unary, "not": _not, "ternary": _ternary, "call": _call, "new": _new,
    "field": _field, "index": _index, "ident": _ident, "type": _ident, "this": _ident,
    "string": _string, "num": _literal("num"), "chr": _literal("chr"),
    "bool": _literal("bool"), "null": _literal("null"), "lambda": _lambda, "list": _list,
    "cast": _cast, "paren": _unwrap, "trailing": _unwrap, "comprehension": _comprehension,
    "new_array": _new_array,
}
