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

from collections.abc import Callable

from winnow.frontends.structural.expressions import EXPR, Node, span
from winnow.frontends.structural.ir import N, leaf
from winnow.frontends.structural.tables import Table


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
        """The node type's role in the language's table; ``error`` for the
        ``ERROR`` nodes of a parse with syntax errors (:mod:`.recovery`)."""
        return self.table.roles.get(node.type, "error" if node.is_error else "")

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
        if role == "error":  # the well-formed constructs it holds; stray tokens vanish
            return [s for child in self.named(node) if child.child_count
                    for s in self.stmts(child)]
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
        handler = EXPR.get(role)
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
        if role in ("unwrap", "error") and len(kids) == 1:
            return kids[0]
        if not kids and not node.is_named:
            return leaf("other", node.start_byte, node.end_byte)
        if not kids:  # an unknown leaf: a name-like token
            return leaf("id", node.start_byte, node.end_byte, self.text(node))
        return N("other", node.start_byte, node.end_byte, kids)




# -- statement handlers -------------------------------------------------------
def _if(c: Converter, node: Node) -> list[N]:
    cond = c.field(node, "condition")
    then = c.field(node, "consequence") or c.field(node, "body")
    alternatives = node.children_by_field_name("alternative")
    if cond is not None and then is None:  # Kotlin: condition, then, else by position
        rest = [n for n in c.named(node) if n.id != cond.id]
        then = rest[0] if rest else None
        alternatives = rest[1:2]
    kids = [c.expr(cond) if cond is not None else leaf("bool", *span(node), "true"),
            c.block(then, node)]
    if alternatives:
        first, rest = alternatives[0], alternatives[1:]
        if c.role(first) == "elif" or rest:
            # Python: elif clauses chain as nested ifs
            kids.append(N("block", first.start_byte, node.end_byte,
                          _chain(c, list(alternatives))))
        else:
            kids.append(c.block(_else_body(c, first), first))
    return [N("if", *span(node), kids)]


def _chain(c: Converter, clauses: list[Node]) -> list[N]:
    first = clauses[0]
    if c.role(first) != "elif":
        return c.stmts(_else_body(c, first))
    kids = [c.expr(c.field(first, "condition")), c.block(c.field(first, "consequence"), first)]
    if clauses[1:]:
        kids.append(N("block", clauses[1].start_byte, clauses[-1].end_byte,
                      _chain(c, clauses[1:])))
    return [N("if", *span(first), kids)]


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
    cond_n = c.expr(cond) if cond is not None else leaf("bool", *span(node), "true")
    body = c.field(node, "body") or _child_with_role(c, node, "block")
    return [N("loop", *span(node), [cond_n, c.block(body, node)])]


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
    cond_n = c.expr(cond) if cond is not None else leaf("bool", *span(node), "true")
    body = c.block(c.field(node, "body"), node)
    for part in node.children_by_field_name("update"):
        body.kids.extend(c.stmts(part))
    return [*init, N("loop", *span(node), [cond_n, body])]


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
            return [N("other", *span(node), [c.expr(n) for n in named])]
        left, right, body = named[0], named[-2], named[-1]
    target = c.expr(left)
    source = c.expr(right)
    counted = c.table.counted_loop(c, target, source)
    if counted is not None:
        init, cond, update = counted
        block = c.block(body, node)
        block.kids.append(update)
        return [init, N("loop", *span(node), [cond, block])]
    return [N("loop", *span(node), [N("in", left.start_byte, right.end_byte, [target, source]),
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
            out.append(N("assign", *span(d), [c.expr(name), c.expr(value)]))
    if not declarators:  # Kotlin/Go style: (pattern, value) as direct children
        name = c.field(node, "name") or c.field(node, "left")
        value = c.field(node, "value") or c.field(node, "right")
        named = c.named(node)
        if name is None and len(named) >= 2:
            name, value = named[0], named[-1]
        if name is not None and value is not None:
            out.append(N("assign", *span(node), [c.expr(name), c.expr(value)]))
    return out


def _simple(kind: str) -> Callable[[Converter, Node], list[N]]:
    def handler(c: Converter, node: Node) -> list[N]:
        return [N(kind, *span(node), [c.expr(n) for n in c.named(node)])]
    return handler


def _child_with_role(c: Converter, node: Node, *roles: str) -> Node | None:
    return next((n for n in c.named(node) if c.role(n) in roles), None)


def _class(c: Converter, node: Node) -> list[N]:
    body = c.field(node, "body") or _child_with_role(c, node, "body")
    members = c.stmts(body) if body is not None else []
    return [N("class", *span(node), members, _name(c, node))]


def _func(c: Converter, node: Node) -> list[N]:
    params = c.field(node, "parameters") or _child_with_role(c, node, "params")
    kids = [leaf("param", *span(p), _param_name(c, p))
            for p in (c.named(params) if params is not None else [])]
    body = c.field(node, "body") or _child_with_role(c, node, "block", "body", "fbody")
    kids.append(c.block(body, node))
    return [N("func", *span(node), kids, _name(c, node))]


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
    return [N("import", *span(node), [], c.text(node))]


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
