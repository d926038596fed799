"""The normalisation rules, applied to the neutral tree before it is emitted.

Each rule makes two equivalent forms read the same (docs/frontends.md lists
them with examples):

* expressions: ``a > b`` reads ``b < a`` (``>=`` as ``<=``); ``!(a < b)``
  reads ``b <= a``; ``a == b`` and ``a != b`` put their operands in one order;
  ``!!a`` reads ``a``;
* statements: ``x = c ? a : b`` / ``return c ? a : b`` read as the ``if``
  statement; ``if (!c) A else B`` reads ``if (c) B else A``; ``if (a) { if (b)
  X }`` reads ``if (a && b) X``; ``if (c) { ...; return } rest`` reads ``if (c)
  { ...; return } else { rest }``; ``for``/``while``/``do`` are one loop (the
  converter already reads ``for`` as ``init; while``) and ``i++``/``i += 1``
  as ``i = i + 1``;
* dead code: statements after a jump, expression statements without effect,
  and assignments to local variables that are never read (unless the value
  calls something) are dropped (the stores: :mod:`.deadcode`);
* order: within a block, runs of independent statements (no data dependence
  through the variables they read and write, and at most one of them with an
  effect) appear in one canonical order; so do class members, imports and
  top-level declarations;
* helpers: a function called exactly once in its file (not recursive, not
  ``main``) reads as if inlined at the call.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable

from winnow.frontends.structural import deadcode, idioms, loops, prints, repeats, temps, webs
from winnow.frontends.structural.deadcode import WINDOW
from winnow.frontends.structural.ir import (
    JUMPS,
    N,
    has_effect,
    names_read,
    names_written,
)
from winnow.frontends.structural.tables import PROMPTING_READS

_FLIP = {">": "<", ">=": "<="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_SYMMETRIC = frozenset({"==", "!=", "and", "or"})


def signature(node: N) -> tuple[str, ...]:
    """The kinds of ``node``'s subtree, pre-order: the key that orders nodes."""
    return tuple(n.kind if n.kind not in ("str", "num", "chr") else n.kind + n.text
                 for n in node.walk())


# -- expressions --------------------------------------------------------------
def expr(node: N) -> N:
    """Normalise an expression tree, children first."""
    node.kids = [expr(k) for k in node.kids]
    folded = _folded(node)
    if folded is not None:
        return folded
    if (node.kind == "pow" and not node.text  # x ** 2, not Math.pow(x, 2): a double
            and len(node.kids) == 2 and node.kids[0].kind == "id"
            and node.kids[1].kind == "num" and node.kids[1].text == "2"):
        return N("*", node.start, node.end, [node.kids[0], node.kids[0].copy()])  # x * x
    if node.kind in _FLIP and len(node.kids) == 2:
        node.kind = _FLIP[node.kind]
        node.kids.reverse()
    if node.kind == "not" and node.kids:
        inner = node.kids[0]
        if inner.kind in _NEGATE and len(inner.kids) == 2:
            inner.kind = _NEGATE[inner.kind]
            return expr(inner)
        if inner.kind == "not" and inner.kids:
            return inner.kids[0]
    if node.kind in _SYMMETRIC and len(node.kids) == 2:
        node.kids.sort(key=signature)
    if node.kind == "concat" or (node.kind == "+" and _has_string(node)):
        node.kind = "concat"
        flat: list[N] = []
        for kid in node.kids:
            for part in kid.kids if kid.kind == "concat" else [kid]:
                if part.kind == "str" and flat and flat[-1].kind == "str":  # "a " + "b"
                    flat[-1] = N("str", flat[-1].start, part.end, [], flat[-1].text + part.text)
                else:
                    flat.append(part)
        node.kids = flat
    return node


_FOLD = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


def _folded(node: N) -> N | None:
    """Whole-number arithmetic on two literals as its value (``N - 1`` with
    ``N = 10`` as ``9``); small values only, so that no input makes a huge
    number."""
    if node.kind not in _FOLD or len(node.kids) != 2:
        return None
    values = []
    for kid in node.kids:
        if kid.kind != "num" or not kid.text.lstrip("-").isdigit() or len(kid.text) > 9:
            return None
        values.append(int(kid.text))
    return N("num", node.start, node.end, [], str(_FOLD[node.kind](*values)))


def _has_string(node: N) -> bool:
    return any(k.kind in ("str", "concat") for k in node.kids)


# -- statements ---------------------------------------------------------------
def block(stmts: list[N], locals_: set[str]) -> list[N]:
    """Normalise the statements of one block (recursively)."""
    out: list[N] = []
    for stmt in stmts:
        out.extend(statement(stmt, locals_))
    out = deadcode.unreachable(loops.element_loops(prints.lines(out)))
    out = repeats.rolled(repeats.counted(out, lambda body: _reorder(body, locals_), locals_))
    out = deadcode.dead_stores(out, locals_)
    out = _early_return(out)
    webs.split(out, locals_)
    return _reorder(out, locals_)


def statement(stmt: N, locals_: set[str]) -> list[N]:
    """One statement, normalised: may vanish or become several."""
    kind = stmt.kind
    if kind == "block":
        return block(stmt.kids, locals_)
    if kind == "assign":
        stmt.text = ""  # i++ as a statement is ++i: its value goes unread
    if kind in ("assign", "expr"):
        prompt = _prompt(stmt)
        if prompt is not None:
            return [prompt, *statement(stmt, locals_)]
        reads = idioms.unpacked_reads(stmt)
        if reads is not None:
            return [s for read in reads for s in statement(read, locals_)]
    if kind == "expr":
        inner = expr(stmt.kids[0]) if stmt.kids else None
        if inner is None or not has_effect(inner, set()):
            return []
        if inner.kind == "if" and len(inner.kids) == 3:  # c ? f() : g() as a statement
            return statement(N("if", stmt.start, stmt.end, [
                inner.kids[0], _wrap(inner.kids[1], "expr"), _wrap(inner.kids[2], "expr")]),
                locals_)
        stmt.kids = [inner]
        return [stmt]
    if kind == "assign" and len(stmt.kids) == 2 and _no_op_assignment(*stmt.kids):
        return []
    if kind in ("assign", "return") and len(stmt.kids) >= 1:
        stmt.kids = [expr(k) for k in stmt.kids]
        value = stmt.kids[-1]
        if value.kind == "if" and len(value.kids) == 3:  # x = c ? a : b
            head = stmt.kids[:-1]
            then = N(kind, stmt.start, stmt.end, [*(h.copy() for h in head), value.kids[1]])
            other = N(kind, stmt.start, stmt.end, [*(h.copy() for h in head), value.kids[2]])
            return statement(N("if", stmt.start, stmt.end, [value.kids[0], then, other]),
                             locals_)
        return [stmt]
    if kind == "if":
        return _if(stmt, locals_)
    if kind == "loop" and len(stmt.kids) == 2:
        stmt.kids[1] = N("block", stmt.kids[1].start, stmt.kids[1].end,
                         block(_stmts_of(stmt.kids[1]), locals_))
        stmt.kids[0] = _counted_condition(expr(stmt.kids[0]), stmt.kids[1].kids)
        return [stmt]
    if kind in ("func", "class"):
        return [stmt]
    stmt.kids = [N("block", k.start, k.end, block(k.kids, locals_)) if k.kind == "block"
                 else expr(k) for k in stmt.kids]
    return [stmt]


def _no_op_assignment(target: N, value: N) -> bool:
    """``x = x``: Kotlin's ``var n = n`` (a parameter copied into a variable),
    or a helper's ``var m = start`` once ``start`` reads as the caller's ``m``."""
    return (target.kind == "id" and value.kind == "id"
            and (value.text, value.reads) == (target.text, target.reads))


def _prompt(stmt: N) -> N | None:
    """``x = input("n? ")`` reads as ``print("n? "); x = input()``: the prompt
    comes out as a statement of its own (the call loses its argument)."""
    for node in stmt.walk():
        if (node.kind == "call" and len(node.kids) == 2 and node.kids[0].kind == "id"
                and node.kids[0].text in PROMPTING_READS):
            shown = node.kids.pop()
            printer = N("id", node.start, node.start, [], "print")
            return N("expr", shown.start, shown.end,
                     [N("call", shown.start, shown.end, [printer, shown])])
    return None


def _counted_condition(cond: N, body: list[N]) -> N:
    """``while (i != n) { ...; i = i + 1 }`` reads as ``while (i < n)`` (and
    ``n < i`` counting down): a counter stepping by one towards its bound."""
    if cond.kind != "!=" or len(cond.kids) != 2:
        return cond
    for side, counter in enumerate(cond.kids):
        if counter.kind != "id":
            continue
        for stmt in body:
            step = _step_of(stmt, counter.text)
            if step:
                bound = cond.kids[1 - side]
                pair = [counter, bound] if step > 0 else [bound, counter]
                return N("<", cond.start, cond.end, pair)
    return cond


def _step_of(stmt: N, name: str) -> int:
    """+1 for ``name = name + 1``, -1 for ``name = name - 1``, else 0."""
    if stmt.kind != "assign" or len(stmt.kids) != 2 or stmt.kids[0].text != name:
        return 0
    value = stmt.kids[1]
    if (value.kind in ("+", "-") and len(value.kids) == 2 and value.kids[0].kind == "id"
            and value.kids[0].text == name and value.kids[1].kind == "num"
            and value.kids[1].text == "1"):
        return 1 if value.kind == "+" else -1
    return 0


def _wrap(node: N, kind: str) -> N:
    return N(kind, node.start, node.end, [node])


def _stmts_of(node: N) -> list[N]:
    return node.kids if node.kind == "block" else [node]


def _if(stmt: N, locals_: set[str]) -> list[N]:
    cond = expr(stmt.kids[0])
    then = block(_stmts_of(stmt.kids[1]), locals_) if len(stmt.kids) > 1 else []
    other = block(_stmts_of(stmt.kids[2]), locals_) if len(stmt.kids) > 2 else []
    if cond.kind == "bool":
        return then if cond.text.lower() == "true" else other
    if not then and not other:
        return [_wrap(cond, "expr")] if has_effect(cond, set()) else []
    if cond.kind == "not" and cond.kids and other:  # if (!c) A else B -> if (c) B else A
        cond, then, other = cond.kids[0], other, then
    if cond.kind in ("!=", "<=") and len(cond.kids) == 2 and other:
        cond = expr(N(_NEGATE[cond.kind], cond.start, cond.end, cond.kids))
        then, other = other, then
    if not then:  # if (c) {} else B -> if (!c) B
        cond, then, other = expr(N("not", cond.start, cond.end, [cond])), other, []
    if not other and len(then) == 1 and then[0].kind == "if" and len(then[0].kids) == 2:
        inner = then[0]  # if (a) { if (b) X } -> if (a && b) X
        cond = expr(N("and", cond.start, inner.kids[0].end, [cond, inner.kids[0]]))
        then = _stmts_of(inner.kids[1])
    kids = [cond, N("block", stmt.start, stmt.end, then)]
    if other:
        kids.append(N("block", stmt.start, stmt.end, other))
    stmt.kids = kids
    return [stmt]


def _ends_in_jump(stmts: list[N]) -> bool:
    return bool(stmts) and stmts[-1].kind in JUMPS


def _early_return(stmts: list[N]) -> list[N]:
    """``if (c) { A; return } B`` reads ``if (c) { A; return } else { B }``."""
    for i, stmt in enumerate(stmts[:-1]):
        if stmt.kind == "if" and len(stmt.kids) == 2 and _ends_in_jump(stmt.kids[1].kids):
            rest = _early_return(stmts[i + 1:])
            stmt.kids.append(N("block", rest[0].start, rest[-1].end, rest))
            return stmts[:i + 1]
    return stmts


def _reorder(stmts: list[N], locals_: set[str]) -> list[N]:
    """Independent statements in one canonical order (Kahn's algorithm, the
    smallest :func:`signature` first among those whose dependences are met),
    within windows of :data:`WINDOW` statements (the work is quadratic in
    its length, and input is untrusted)."""
    if len(stmts) > WINDOW:
        return [s for at in range(0, len(stmts), WINDOW)
                for s in _reorder(stmts[at:at + WINDOW], locals_)]
    if len(stmts) < 2:
        return stmts
    reads = [names_read(s) for s in stmts]
    writes = [names_written(s) for s in stmts]
    effects = [has_effect(s, locals_) or s.kind in ("func", "class") for s in stmts]
    preds: list[set[int]] = [set() for _ in stmts]
    for j in range(len(stmts)):
        for i in range(j):
            if (writes[i] & (reads[j] | writes[j]) or reads[i] & writes[j]
                    or (effects[i] and effects[j])):
                preds[j].add(i)
    keys = [signature(s) for s in stmts]
    ready = [(keys[j], j) for j in range(len(stmts)) if not preds[j]]
    heapq.heapify(ready)
    out: list[N] = []
    done: set[int] = set()
    while ready:
        _, i = heapq.heappop(ready)
        out.append(stmts[i])
        done.add(i)
        for j in range(len(stmts)):
            if j not in done and i in preds[j]:
                preds[j].discard(i)
                if not preds[j]:
                    heapq.heappush(ready, (keys[j], j))
    return out


# -- functions, classes, files ------------------------------------------------
def function(func: N, reads: Counter[str] | None = None) -> N:
    """Normalise a function: its body's blocks, then unused locals.  Its
    local variables are its parameters and the names it writes, less those
    read outside it (``reads``: in how many functions, or the rest of the
    file, each name is read): a field or a global another function reads."""
    params = {p.text for p in func.kids if p.kind == "param"}
    body = func.kids[-1] if func.kids and func.kids[-1].kind == "block" else None
    if body is None:
        return func
    written = names_written(body)
    if reads is not None:
        own = names_read(func)
        written = {n for n in written if reads[n] - (n in own) <= 0}
    local_names = written | params
    stmts = block(body.kids, local_names)
    stmts = deadcode.dead_at_exit(stmts, local_names)
    stmts = deadcode.drop_unused(stmts, params)
    new_body = N("block", body.start, body.end, stmts)
    if temps.inline_temporaries(new_body, local_names):
        _reorder_all(new_body, local_names)
    func.kids[-1] = new_body
    return func


def _reorder_all(node: N, locals_: set[str]) -> None:
    """Every block below ``node`` (inner ones first), and ``node``'s own
    statements, put back in canonical order after a rule changed them."""
    for kid in node.kids:
        if kid.kind not in ("func", "class"):
            _reorder_all(kid, locals_)
    if node.kind == "block":
        node.kids = _reorder(node.kids, locals_)


def members(stmts: list[N], sort: Callable[[list[N]], list[N]],
            reads: Counter[str] | None = None) -> list[N]:
    """Class members / top-level declarations: functions and classes normalised
    and put in canonical order (imports first, then fields, then the rest)."""
    normalised: list[N] = []
    for stmt in stmts:
        if stmt.kind == "func":
            normalised.append(function(stmt, reads))
        elif stmt.kind == "class":
            stmt.kids = members(stmt.kids, sort, reads)
            normalised.append(stmt)
        else:
            normalised.append(stmt)
    return sort(normalised)
