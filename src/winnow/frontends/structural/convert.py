"""Syntax tree to neutral tree: one converter for every language, driven by a
per-language table of node kinds (:mod:`winnow.frontends.structural.tables`).

A table maps a grammar's node type to a *role* (``if``, ``for_c``,
``binary`` ...); the role's handler reads the node's fields and children and
builds :class:`~winnow.frontends.structural.ir.N` nodes.  Types the table does
not name keep their named children under a node of kind ``other`` (so nothing
is lost, it just reads less alike across languages); comments and
punctuation vanish.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from winnow.frontends.structural.ir import N, leaf
from winnow.frontends.structural.tables import LAYOUT_KEYWORDS, Table

Node = Any  # a tree_sitter.Node

_OPS = {"&&": "and", "and": "and", "||": "or", "or": "or", "is": "==", "is not": "!=",
        "===": "==", "!==": "!=", "not in": "notin", "//": "/", "**": "pow"}
_DOLLAR = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_CMP = frozenset({"<", ">", "<=", ">=", "==", "!=", "notin", "in"})


class Converter:
    """Converts one parsed file; ``src`` is its UTF-8 text."""

    def __init__(self, table: Table, src: bytes) -> None:
        self.table = table
        self.src = src
        #: statements already converted as another's body (Kotlin's grammar
        #: leaves the body of a brace-less ``for`` beside it)
        self.consumed: set[int] = set()

    # -- helpers --------------------------------------------------------------
    def text(self, node: Node) -> str:
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def role(self, node: Node) -> str:
        return self.table.roles.get(node.type, "")

    def named(self, node: Node) -> list[Node]:
        return [c for c in node.named_children if self.role(c) != "drop"]

    def field(self, node: Node, name: str) -> Node | None:
        found: Node | None = node.child_by_field_name(name)
        return found

    def op_of(self, node: Node) -> str:
        found = node.child_by_field_name("operator")
        if found is not None:
            return self.text(found)
        for child in node.children:
            if not child.is_named and self.text(child) not in ("(", ")"):
                return self.text(child)
        return "?"

    # -- statements -----------------------------------------------------------
    def stmts(self, node: Node | None) -> list[N]:
        """The statements a node stands for (a block gives its statements)."""
        if node is None:
            return []
        role = self.role(node)
        if role == "drop":
            return []
        handler = _STMT.get(role)
        if handler is not None:
            return handler(self, node)
        if role == "fbody" and node.named_child_count == 1 and self.role(
                node.named_children[0]) != "block":  # fun f() = expression
            value = self.expr(node.named_children[0])
            return [N("return", node.start_byte, node.end_byte, [value])]
        if role in ("block", "module", "body", "fbody"):
            out: list[N] = []
            for child in self.named(node):
                if child.id not in self.consumed:
                    out.extend(self.stmts(child))
            return out
        expr = self.expr(node)
        if expr.kind in ("assign", "if", "loop", "func", "class", "return", "block"):
            return [expr]
        return [N("expr", node.start_byte, node.end_byte, [expr])]

    def block(self, node: Node | None, at: Node) -> N:
        body = self.stmts(node)
        where = node if node is not None else at
        return N("block", where.start_byte, where.end_byte, body)

    # -- expressions ----------------------------------------------------------
    def expr(self, node: Node) -> N:
        role = self.role(node)
        handler = _EXPR.get(role)
        if handler is not None:
            return handler(self, node)
        if role == "if":  # Kotlin's if expression: val x = if (c) a else b
            stmts = self.stmts(node)
            if len(stmts) == 1 and len(stmts[0].kids) == 3:
                values = [b.kids[0].kids[0] for b in stmts[0].kids[1:]
                          if len(b.kids) == 1 and b.kids[0].kind == "expr" and b.kids[0].kids]
                if len(values) == 2:
                    return N("if", node.start_byte, node.end_byte, [stmts[0].kids[0], *values])
            return N("block", node.start_byte, node.end_byte, stmts)
        if role in ("block", "module", "body") or role in _STMT:
            return N("block", node.start_byte, node.end_byte, self.stmts(node))
        kids = [self.expr(c) for c in self.named(node)]
        if role == "unwrap" and len(kids) == 1:
            return kids[0]
        if not kids and not node.is_named:
            return leaf("other", node.start_byte, node.end_byte)
        if not kids:  # an unknown leaf: a name-like token
            return leaf("id", node.start_byte, node.end_byte, self.text(node))
        return N("other", node.start_byte, node.end_byte, kids)


def _span(node: Node) -> tuple[int, int]:
    return node.start_byte, node.end_byte


# -- statement handlers -------------------------------------------------------
def _if(c: Converter, node: Node) -> list[N]:
    cond = c.field(node, "condition")
    then = c.field(node, "consequence") or c.field(node, "body")
    alternatives = node.children_by_field_name("alternative")
    if cond is not None and then is None:  # Kotlin: condition, then, else by position
        rest = [n for n in c.named(node) if n.id != cond.id]
        then = rest[0] if rest else None
        alternatives = rest[1:2]
    kids = [c.expr(cond) if cond is not None else leaf("bool", *_span(node), "true"),
            c.block(then, node)]
    if alternatives:
        first, rest = alternatives[0], alternatives[1:]
        if c.role(first) == "elif" or rest:
            # Python: elif clauses chain as nested ifs
            kids.append(N("block", first.start_byte, node.end_byte,
                          _chain(c, list(alternatives))))
        else:
            kids.append(c.block(_else_body(c, first), first))
    return [N("if", *_span(node), kids)]


def _chain(c: Converter, clauses: list[Node]) -> list[N]:
    first = clauses[0]
    if c.role(first) != "elif":
        return c.stmts(_else_body(c, first))
    kids = [c.expr(c.field(first, "condition")), c.block(c.field(first, "consequence"), first)]
    if clauses[1:]:
        kids.append(N("block", clauses[1].start_byte, clauses[-1].end_byte,
                      _chain(c, clauses[1:])))
    return [N("if", *_span(first), kids)]


def _else_body(c: Converter, node: Node) -> Node:
    if c.role(node) == "else":
        body = c.field(node, "body")
        if body is not None:
            return body
        named = c.named(node)
        return named[0] if len(named) == 1 else node
    return node


def _while(c: Converter, node: Node) -> list[N]:
    cond = c.field(node, "condition")
    cond_n = c.expr(cond) if cond is not None else leaf("bool", *_span(node), "true")
    body = c.field(node, "body") or _child_with_role(c, node, "block")
    return [N("loop", *_span(node), [cond_n, c.block(body, node)])]


def _do(c: Converter, node: Node) -> list[N]:
    """``do body while (c)`` is a loop whose body runs at least once."""
    loop = _while(c, node)
    loop[0].text = "do"
    return loop


def _for_c(c: Converter, node: Node) -> list[N]:
    """``for (init; cond; update) body`` reads as ``init; while (cond) { body; update }``."""
    init: list[N] = []
    for part in node.children_by_field_name("init") or node.children_by_field_name(
            "initializer"):
        init.extend(c.stmts(part))
    cond = c.field(node, "condition")
    cond_n = c.expr(cond) if cond is not None else leaf("bool", *_span(node), "true")
    body = c.block(c.field(node, "body"), node)
    for part in node.children_by_field_name("update"):
        body.kids.extend(c.stmts(part))
    return [*init, N("loop", *_span(node), [cond_n, body])]


def _foreach(c: Converter, node: Node) -> list[N]:
    left = c.field(node, "left") or c.field(node, "name")
    right = c.field(node, "right") or c.field(node, "value")
    body = c.field(node, "body")
    if left is None or right is None:
        named = c.named(node)
        if len(named) == 2 and node.next_named_sibling is not None:
            named.append(node.next_named_sibling)  # Kotlin: for (i in r) stmt
            c.consumed.add(node.next_named_sibling.id)
        if len(named) < 3:
            return [N("other", *_span(node), [c.expr(n) for n in named])]
        left, right, body = named[0], named[-2], named[-1]
    target = c.expr(left)
    source = c.expr(right)
    counted = c.table.counted_loop(c, target, source)
    if counted is not None:
        init, cond, update = counted
        block = c.block(body, node)
        block.kids.append(update)
        return [init, N("loop", *_span(node), [cond, block])]
    return [N("loop", *_span(node), [N("in", left.start_byte, right.end_byte, [target, source]),
                                     c.block(body, node)])]


def _decl(c: Converter, node: Node) -> list[N]:
    """Declarations with a value read as assignments; bare ones vanish."""
    out: list[N] = []
    declarators = [d for d in c.named(node) if c.role(d) == "declarator"]
    for d in declarators:
        name = c.field(d, "name") or c.field(d, "declarator")
        value = c.field(d, "value")
        if name is None:
            named = c.named(d)
            if not named:
                continue
            name, value = named[0], (named[-1] if len(named) > 1 else None)
        if value is not None:
            out.append(N("assign", *_span(d), [c.expr(name), c.expr(value)]))
    if not declarators:  # Kotlin/Go style: (pattern, value) as direct children
        name = c.field(node, "name") or c.field(node, "left")
        value = c.field(node, "value") or c.field(node, "right")
        named = c.named(node)
        if name is None and len(named) >= 2:
            name, value = named[0], named[-1]
        if name is not None and value is not None:
            out.append(N("assign", *_span(node), [c.expr(name), c.expr(value)]))
    return out


def _simple(kind: str) -> Callable[[Converter, Node], list[N]]:
    def handler(c: Converter, node: Node) -> list[N]:
        return [N(kind, *_span(node), [c.expr(n) for n in c.named(node)])]
    return handler


def _child_with_role(c: Converter, node: Node, *roles: str) -> Node | None:
    return next((n for n in c.named(node) if c.role(n) in roles), None)


def _class(c: Converter, node: Node) -> list[N]:
    body = c.field(node, "body") or _child_with_role(c, node, "body")
    members = c.stmts(body) if body is not None else []
    return [N("class", *_span(node), members, _name(c, node))]


def _func(c: Converter, node: Node) -> list[N]:
    params = c.field(node, "parameters") or _child_with_role(c, node, "params")
    kids = [leaf("param", *_span(p), _param_name(c, p))
            for p in (c.named(params) if params is not None else [])]
    body = c.field(node, "body") or _child_with_role(c, node, "block", "body", "fbody")
    kids.append(c.block(body, node))
    return [N("func", *_span(node), kids, _name(c, node))]


def _param_name(c: Converter, node: Node) -> str:
    name = c.field(node, "name") or c.field(node, "pattern") or c.field(node, "declarator")
    if name is not None:
        return _param_name(c, name) if name.named_child_count else c.text(name)
    if c.role(node) == "ident" or not node.named_child_count:
        return c.text(node)
    for child in reversed(c.named(node)):
        if c.role(child) == "ident":
            return c.text(child)
    return c.text(node)


def _name(c: Converter, node: Node) -> str:
    name = c.field(node, "name")
    return c.text(name) if name is not None else ""


def _import(c: Converter, node: Node) -> list[N]:
    return [N("import", *_span(node), [], c.text(node))]


def _expr_stmt(c: Converter, node: Node) -> list[N]:
    named = c.named(node)
    out: list[N] = []
    for child in named:
        out.extend(c.stmts(child))
    return out


_STMT: dict[str, Callable[[Converter, Node], list[N]]] = {
    "if": _if, "while": _while, "do": _do, "for_c": _for_c, "foreach": _foreach,
    "decl": _decl, "return": _simple("return"), "break": _simple("break"),
    "continue": _simple("continue"), "throw": _simple("throw"), "class": _class,
    "func": _func, "import": _import, "expr_stmt": _expr_stmt, "try": _simple("try"),
    "switch": _simple("switch"), "case": _simple("case"),
}


# -- expression handlers ------------------------------------------------------
def _assign(c: Converter, node: Node) -> N:
    left = c.field(node, "left")
    right = c.field(node, "right")
    named = c.named(node)
    if left is None or right is None:
        if len(named) < 2:
            return N("other", *_span(node), [c.expr(n) for n in named])
        left, right = named[0], named[-1]
    op = c.op_of(node)
    target, value = c.expr(left), c.expr(right)
    if op not in ("=", ":=", "?") and op.endswith("="):  # x += e reads as x = x + e
        value = N(op[:-1], *_span(node), [target.copy(), value])
    return N("assign", *_span(node), [target, value])


def _update(c: Converter, node: Node) -> N:
    """``i++``, ``++i``, ``i--`` read as ``i = i + 1`` / ``i = i - 1``."""
    named = c.named(node)
    if not named:
        return leaf("other", *_span(node))
    target = c.expr(named[0])
    op = "-" if "--" in c.text(node) else "+"
    one = leaf("num", *_span(node), "1")
    return N("assign", *_span(node), [target, N(op, *_span(node), [target.copy(), one])])


def _binary(c: Converter, node: Node) -> N:
    named = c.named(node)
    if len(named) < 2:
        return N("other", *_span(node), [c.expr(n) for n in named])
    op = c.text(named[1]) if len(named) == 3 else c.op_of(node)  # Kotlin: a until b
    left, right = c.expr(named[0]), c.expr(named[-1])
    return N(_OPS.get(op, op), *_span(node), [left, right])


def _compare_chain(c: Converter, node: Node) -> N:
    """Python ``a < b <= c`` reads as ``a < b and b <= c``."""
    named = c.named(node)
    ops = [c.text(ch) for ch in node.children if not ch.is_named]
    parts = [N(_OPS.get(op, op), *_span(node), [c.expr(a), c.expr(b)])
             for op, a, b in zip(ops, named, named[1:], strict=False)]
    if not parts:
        return N("other", *_span(node), [c.expr(n) for n in named])
    out = parts[0]
    for part in parts[1:]:
        out = N("and", *_span(node), [out, part])
    return out


def _unary(c: Converter, node: Node) -> N:
    named = c.named(node)
    if not named:
        return leaf("other", *_span(node))
    op = c.op_of(node)
    if op in ("++", "--"):
        return _update(c, node)
    inner = c.expr(named[-1])
    if op in ("!", "not"):
        return N("not", *_span(node), [inner])
    if op == "-":
        if inner.kind == "num" and not inner.text.startswith("-"):  # -1 is a number
            return leaf("num", *_span(node), "-" + inner.text)
        return N("neg", *_span(node), [inner])
    if op == "+":
        return inner
    return N("other", *_span(node), [inner], op)


def _not(c: Converter, node: Node) -> N:
    named = c.named(node)
    return N("not", *_span(node), [c.expr(named[-1])]) if named else leaf("other", *_span(node))


def _ternary(c: Converter, node: Node) -> N:
    cond = c.field(node, "condition")
    then = c.field(node, "consequence")
    other = c.field(node, "alternative")
    named = c.named(node)
    if cond is None or then is None or other is None:
        if len(named) != 3:
            return N("other", *_span(node), [c.expr(n) for n in named])
        if c.table.ternary_value_first:  # Python: a if c else b
            then, cond, other = named
        else:
            cond, then, other = named
    return N("if", *_span(node), [c.expr(cond), c.expr(then), c.expr(other)])


def _call(c: Converter, node: Node) -> N:
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
    if args is not None:
        kids.extend(_args(c, args))
    call = N("call", *_span(node), kids, " ".join(receivers))
    return c.table.rewrite_call(c, call)


def _args(c: Converter, args: Node) -> list[N]:
    out = []
    for arg in c.named(args):
        if c.role(arg) == "kwarg":
            name = c.field(arg, "name")
            if name is not None and c.text(name) in LAYOUT_KEYWORDS:
                continue
        value = c.field(arg, "value") if c.role(arg) == "kwarg" else None
        out.append(c.expr(value if value is not None else arg))
    return out


def _callee(c: Converter, function: Node | None, receiver: Node | None, at: Node) -> N:
    """The called name: a dotted chain of names reads as its last name."""
    if function is None:
        return leaf("id", *_span(at), "?")
    if c.role(function) == "field":
        last = c.field(function, "field") or c.field(function, "attribute") or c.field(
            function, "property")
        named = c.named(function)
        if last is None and named:
            last = named[-1]
        if last is not None:
            return leaf("id", *_span(function), c.text(last))
    if c.role(function) in ("ident", "type"):
        return leaf("id", *_span(function), c.text(function))
    return c.expr(function)


def _chain_names(c: Converter, node: Node) -> list[str]:
    """The names of a receiver chain (``a`` and ``b`` of ``a.b.f()``): the
    call reads them, though the stream shows only the called name."""
    if c.role(node) in ("ident", "type", "this"):
        return [c.text(node)]
    if c.role(node) == "field":
        return [name for child in c.named(node) for name in _chain_names(c, child)]
    return []


def _is_name_chain(c: Converter, node: Node) -> bool:
    role = c.role(node)
    if role in ("ident", "type", "this"):
        return True
    if role == "field":
        return all(_is_name_chain(c, n) for n in c.named(node))
    return False


def _new(c: Converter, node: Node) -> N:
    kind = c.field(node, "type") or c.field(node, "constructor")
    args = c.field(node, "arguments")
    kids = [leaf("id", *_span(kind), c.text(kind).rsplit(".", 1)[-1])] if kind is not None else []
    if args is not None:
        kids.extend(_args(c, args))
    return N("call", *_span(node), kids)


def _field(c: Converter, node: Node) -> N:
    if _is_name_chain(c, node):
        named = c.named(node)
        last = named[-1] if named else node
        return leaf("id", *_span(node), c.text(last))
    named = c.named(node)
    return N("field", *_span(node), [c.expr(named[0])] if named else [])


def _index(c: Converter, node: Node) -> N:
    return N("index", *_span(node), [c.expr(n) for n in c.named(node)])


def _ident(c: Converter, node: Node) -> N:
    return leaf("id", *_span(node), c.text(node))


def _string(c: Converter, node: Node) -> N:
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
            parts.append(c.expr(inner[0]) if inner else leaf("id", *_span(child), "?"))
        elif c.role(child) == "str_part" or child.type.endswith("content"):
            text.append(c.text(child))
    if not parts and not (c.table.dollar_names and "$" in "".join(text)):
        raw = "".join(text) if text else _unquote(c.text(node))
        return leaf("str", *_span(node), raw)
    flush(node.end_byte)
    if len(parts) == 1 and parts[0].kind == "str":
        return leaf("str", *_span(node), parts[0].text)
    return N("concat", *_span(node), parts)


def _unquote(text: str) -> str:
    text = text.lstrip("rRbBuUfF@$")
    for quote in ('"""', "'''", '"', "'", "`"):
        if len(text) >= 2 * len(quote) and text.startswith(quote) and text.endswith(quote):
            return text[len(quote):-len(quote)]
    return text


def _literal(kind: str) -> Callable[[Converter, Node], N]:
    def handler(c: Converter, node: Node) -> N:
        text = c.text(node)
        if kind == "num":
            text = text.lower().rstrip("lfdu").replace("_", "")
        elif kind == "chr":
            text = _unquote(text)
        return leaf(kind, *_span(node), text)
    return handler


def _lambda(c: Converter, node: Node) -> N:
    return N("lambda", *_span(node), [c.expr(n) for n in c.named(node)[-1:]])


def _list(c: Converter, node: Node) -> N:
    return N("list", *_span(node), [c.expr(n) for n in c.named(node)])


def _cast(c: Converter, node: Node) -> N:
    value = c.field(node, "value")
    named = c.named(node)
    inner = value if value is not None else (named[-1] if named else None)
    return c.expr(inner) if inner is not None else leaf("other", *_span(node))


def _unwrap(c: Converter, node: Node) -> N:
    named = c.named(node)
    if len(named) == 1:
        return c.expr(named[0])
    return N("other", *_span(node), [c.expr(n) for n in named])


_EXPR: dict[str, Callable[[Converter, Node], N]] = {
    "assign": _assign, "update": _update, "binary": _binary, "compare_chain": _compare_chain,
    "unary": _unary, "not": _not, "ternary": _ternary, "call": _call, "new": _new,
    "field": _field, "index": _index, "ident": _ident, "type": _ident, "this": _ident,
    "string": _string, "num": _literal("num"), "chr": _literal("chr"),
    "bool": _literal("bool"), "null": _literal("null"), "lambda": _lambda, "list": _list,
    "cast": _cast, "paren": _unwrap,
}
