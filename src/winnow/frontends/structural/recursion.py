"""A function that ends by calling itself reads as the loop it stands for.

``void f(int i) { if (i > 0) { print(s); f(i - 1); } }`` and ``void f(int
i) { while (i > 0) { print(s); i = i - 1; } }`` do the same (tail-call
elimination), and so do ``return f(--i)`` in the branch and ``else return
""``: a function whose body starts with ``if (c) { S; f(a) }`` or ``if (c)
{ S; return f(a) }`` (its only call of itself, on a bare name or ``this``)
reads as ``while (c) { S; p = a }``, then the ``else`` branch and the rest
of the body (the rest only after ``return f(a)``: after a plain call it
would run once per level).  Each argument may read its own parameter but
no other (the parameters are set one after the other, not at once); an
argument ``--i`` or ``i - 1`` sets ``i`` (``i--`` passes the old value: no
loop).  After a plain call, no ``return`` of the function may give a value
(the levels above the last would give none).  Once it loops, a function called
once is inlined like any other helper.
"""

from __future__ import annotations

from winnow.frontends.structural.expressions import POST
from winnow.frontends.structural.ir import N, leaf, names_read


def tail_loops(root: N) -> None:
    """Rewrite, in place, every function of ``root`` that qualifies."""
    for func in [n for n in root.walk() if n.kind == "func"]:
        _tail_loop(func)


def _self_call(stmt: N, name: str) -> tuple[N | None, bool]:
    """The call of ``name`` that ``stmt`` is (``f(a)`` or ``return f(a)``),
    and whether it is returned."""
    returned = stmt.kind == "return"
    if stmt.kind not in ("expr", "return") or len(stmt.kids) != 1:
        return None, False
    call = stmt.kids[0]
    if _calls_itself(call, name):
        return call, returned
    return None, False


def _calls_itself(node: N, name: str) -> bool:
    return (node.kind == "call" and bool(node.kids) and node.kids[0].kind == "id"
            and node.kids[0].text == name and node.text in ("", "this", "self"))


def _tail_loop(func: N) -> None:
    params = [p.text for p in func.kids if p.kind == "param"]
    body = func.kids[-1] if func.kids and func.kids[-1].kind == "block" else None
    if not params or body is None or not body.kids or body.kids[0].kind != "if":
        return
    first, rest = body.kids[0], body.kids[1:]
    if len(first.kids) < 2 or first.kids[1].kind != "block" or not first.kids[1].kids:
        return
    cond, then = first.kids[0], first.kids[1]
    *steps, last = then.kids
    call, returned = _self_call(last, func.text)
    if call is None or (rest and not returned):
        return
    if not returned and any(n.kind == "return" and n.kids for n in func.walk()):
        return  # f(i - 1) without return: the callers give no value
    if sum(1 for n in func.walk() if _calls_itself(n, func.text)) != 1:
        return
    updates = _updates(params, call)
    if updates is None:
        return
    other = first.kids[2] if len(first.kids) > 2 else None
    after = [] if other is None else (other.kids if other.kind == "block" else [other])
    loop = N("loop", first.start, then.end,
             [cond, N("block", then.start, then.end, [*steps, *updates])])
    body.kids = [loop, *after, *rest]


def _updates(params: list[str], call: N) -> list[N] | None:
    """The assignments that set the parameters to the call's arguments, or
    ``None`` when one reads another parameter."""
    args = call.kids[1:]
    if len(args) != len(params):
        return None
    updates: list[N] = []
    for param, arg in zip(params, args, strict=True):
        if arg.kind == "id" and arg.text == param and not arg.reads:
            continue  # f(arr, ...): unchanged
        value = arg
        if arg.kind == "assign" and arg.text == POST:
            return None  # f(i--) passes i itself
        if (arg.kind == "assign" and len(arg.kids) == 2 and arg.kids[0].kind == "id"
                and arg.kids[0].text == param):
            value = arg.kids[1]  # f(--i): i = i - 1
        if (names_read(value) & (set(params) - {param})
                or any(n.kind == "assign" for n in value.walk())):
            return None
        updates.append(N("assign", arg.start, arg.end,
                         [leaf("id", arg.start, arg.start, param), value]))
    return updates
