"""File-level normalisation: helpers inlined, then every declaration and block
normalised (:mod:`winnow.frontends.structural.normalise`) and put in order."""

from __future__ import annotations

from collections import Counter

from winnow.frontends.structural.ir import (
    N,
    leaf,
    names_read,
    names_written,
    read_counts,
    target_name,
)
from winnow.frontends.structural.normalise import block, expr, members, signature
from winnow.frontends.structural.recursion import tail_loops

#: Never inlined: entry points and methods a runtime calls.  ``main`` is an
#: entry point where nothing calls it (Java); a script's one ``main()`` call
#: (Python, Kotlin's top level) inlines it like any helper.
_NEVER_INLINE = frozenset({"", "__init__", "run", "toString", "equals", "hashCode"})
_RANK = {"import": 0, "assign": 1, "class": 2, "func": 3}


def normalise_file(root: N) -> N:
    """The whole file: inline helpers called once, normalise, order."""
    root.kids = [s for stmt in root.kids for s in _unguarded(stmt)]
    _unread_returned_stores(root)
    tail_loops(root)
    for _ in range(4):
        if not _inline_once(root):
            break
    _fields_to_locals(root)
    _propagate_constants(root)
    _entry_point(root)
    top_decls = [s for s in root.kids if s.kind in ("import", "func", "class")]
    code = [s for s in root.kids if s.kind not in ("import", "func", "class")]
    decls = members(top_decls, _sort_members, read_counts(root))
    local_names = names_written(N("block", root.start, root.end, code))
    root.kids = [*decls, *block(code, local_names)]
    return root


# -- constants ----------------------------------------------------------------
_CONSTANT_KINDS = frozenset({"num", "str", "chr", "bool"})


def _scopes(root: N) -> list[N]:
    """The file, its classes and its functions' bodies: the holders whose own
    statements run once per entry (not inside a branch or a loop)."""
    out = [root]
    for node in root.walk():
        if node.kind == "class":
            out.append(node)
        elif node.kind == "func" and node.kids and node.kids[-1].kind == "block":
            out.append(node.kids[-1])
    return out


def _propagate_constants(root: N) -> None:
    """A variable or field set once in the whole file, to a literal, by a
    statement of its own scope (``static final int N = 10;``, ``s = "Hi";``
    in ``main``, Python's ``LIMIT = 10``), reads as that literal, and the
    assignment vanishes: a literal moved into a named constant, or back."""
    writes: Counter[str] = Counter()
    bound: set[str] = set()
    for node in root.walk():
        if node.kind == "assign" and node.kids:
            name = target_name(node.kids[0])
            if name is not None:
                writes[name] += 1 if node.kids[0].kind == "id" else 2
        elif node.kind in ("in", "param", "lambda"):
            bound |= {n.text for n in node.walk() if n.kind in ("id", "param")}
    constants: dict[str, N] = {}
    for scope in _scopes(root):
        for stmt in list(scope.kids):
            if (stmt.kind == "assign" and len(stmt.kids) == 2 and stmt.kids[0].kind == "id"
                    and not stmt.kids[0].reads and stmt.kids[1].kind in _CONSTANT_KINDS
                    and writes[stmt.kids[0].text] == 1 and stmt.kids[0].text not in bound):
                constants[stmt.kids[0].text] = stmt.kids[1]
                scope.kids = [k for k in scope.kids if k is not stmt]
    if not constants:
        return
    for node in root.walk():
        for i, kid in enumerate(node.kids):
            if (kid.kind == "id" and not kid.reads and kid.text in constants
                    and not (node.kind == "call" and i == 0)):
                value = constants[kid.text]
                node.kids[i] = leaf(value.kind, kid.start, kid.end, value.text)


def _unread_returned_stores(root: N) -> None:
    """``return x = e`` reads ``return e`` when nothing in the file reads
    ``x`` (a variable stored only to be returned)."""
    returns = [n for n in root.walk() if n.kind == "return" and len(n.kids) == 1
               and n.kids[0].kind == "assign" and len(n.kids[0].kids) == 2
               and n.kids[0].kids[0].kind == "id" and not n.kids[0].kids[0].reads]
    if not returns:
        return
    read = names_read(root)
    for ret in returns:
        if ret.kids[0].kids[0].text not in read:
            ret.kids = [ret.kids[0].kids[1]]


# -- the entry point ----------------------------------------------------------
def _unguarded(stmt: N) -> list[N]:
    """Python's ``if __name__ == "__main__": body`` reads as ``body``: the
    script's statements, as the other languages' ``main`` reads."""
    if stmt.kind != "if" or len(stmt.kids) != 2 or stmt.kids[0].kind != "==":
        return [stmt]
    operands = {(k.kind, k.text) for k in stmt.kids[0].kids}
    if operands != {("id", "__name__"), ("str", "__main__")}:
        return [stmt]
    then = stmt.kids[1]
    return then.kids if then.kind == "block" else [then]


def _entry_point(root: N) -> None:
    """The program's entry point reads as one function ``main()`` without
    parameters, at the top level: Java's class that holds ``main`` vanishes
    (its members move to the top level, where Kotlin, Python, C and Go declare
    them), ``main``'s parameters go (``String[] args``, ``fun main()``), and a
    script's top-level statements read as the body of ``main`` (those that
    set a variable a function reads stay global)."""
    holders = [s for s in root.kids if s.kind == "class" and any(
        m.kind == "func" and m.text == "main" for m in s.kids)]
    if len(holders) == 1:
        at = next(i for i, s in enumerate(root.kids) if s is holders[0])
        root.kids[at:at + 1] = holders[0].kids
    if any(c.kids[0].text == "main" for c in _calls(root)):
        return
    mains = [s for s in root.kids if s.kind == "func" and s.text == "main"]
    if len(mains) == 1:
        mains[0].kids = [k for k in mains[0].kids if k.kind != "param"]
        return
    decls = N("block", root.start, root.end,
              [s for s in root.kids if s.kind in ("func", "class")])
    globals_read = names_read(decls)
    body = [s for s in root.kids if s.kind not in ("import", "func", "class")
            and not names_written(s) & globals_read]
    if mains or not body:
        return
    root.kids = [s for s in root.kids if not any(s is b for b in body)]
    root.kids.append(N("func", body[0].start, body[-1].end,
                       [N("block", body[0].start, body[-1].end, body)], "main"))


def _fields_to_locals(root: N) -> None:
    """A field initialised where it is declared, never assigned again and read
    by one method only reads as that method's first statement (a local moved
    to the class, or back)."""
    for holder in [n for n in root.walk() if n.kind == "class"]:
        funcs = [m for m in holder.kids if m.kind == "func"]
        for field in [m for m in holder.kids if m.kind == "assign"]:
            if not field.kids or field.kids[0].kind != "id":
                continue
            name = field.kids[0].text
            readers = [f for f in funcs if name in names_read(f)]
            if len(readers) != 1 or any(name in names_written(f) for f in funcs):
                continue
            body = readers[0].kids[-1] if readers[0].kids else None
            if body is None or body.kind != "block":
                continue
            holder.kids = [m for m in holder.kids if m is not field]
            body.kids.insert(0, field)


def _sort_members(stmts: list[N]) -> list[N]:
    for stmt in stmts:
        if stmt.kind == "assign":
            stmt.kids = [expr(k) for k in stmt.kids]
    return sorted(stmts, key=lambda s: (_RANK.get(s.kind, 4), signature(s)))


# -- inlining -----------------------------------------------------------------
def _functions(root: N) -> dict[str, list[tuple[N, N]]]:
    """Function name -> [(function, the class or file holding it)]."""
    found: dict[str, list[tuple[N, N]]] = {}
    stack = [root]
    while stack:
        holder = stack.pop()
        for member in holder.kids:
            if member.kind == "func":
                found.setdefault(member.text, []).append((member, holder))
            elif member.kind == "class":
                stack.append(member)
    return found


def _is_local_call(node: N) -> bool:
    """A call that may reach a function of this file: by a bare name or on
    ``this``/``self`` (``System.out.print(x)`` is not the file's ``print``)."""
    return (node.kind == "call" and bool(node.kids) and node.kids[0].kind == "id"
            and node.text in ("", "this", "self"))


def _calls(node: N) -> list[N]:
    return [n for n in node.walk() if _is_local_call(n)]


def _inline_once(root: N) -> bool:
    """Inline one helper (at each of its calls); whether one was."""
    funcs = _functions(root)
    counts = Counter(call.kids[0].text for call in _calls(root))
    sites = _call_sites(root)
    for name, defs in sorted(funcs.items()):
        if name in _NEVER_INLINE or len(defs) != 1 or counts[name] == 0:
            continue
        if counts[name] > 1 and not _one_expression(defs[0][0]):
            continue
        func, holder = defs[0]
        if any(c.kids[0].text == name for c in _calls(func)):
            continue  # recursive (the one call is inside it)
        inlined = counts[name] > 1 and _hoist(sites.get(name, []), func)
        for parent, stmt in [] if inlined else sites.get(name, []):
            inlined |= _inline_in(parent, stmt, func)
        if inlined:
            if not any(c.kids[0].text == name for c in _calls(root)):
                holder.kids = [m for m in holder.kids if m is not func]
            return True
    return False


def _shape(node: N) -> tuple[object, ...]:
    return (node.kind, node.text, node.reads, tuple(_shape(k) for k in node.kids))


def _hoist(sites: list[tuple[N, N]], func: N) -> bool:
    """A one-expression helper called several times with the same arguments,
    which nothing writes in between, reads as one temporary set where it is
    first called (``bmi = w / (h * h); print(bmi); if (bmi < 18.5) ...`` and
    ``print(bmi(w, h)); if (bmi(w, h) < 18.5) ...`` read alike)."""
    if not sites:
        return False
    parent, first = sites[0]
    at = next((i for i, s in enumerate(parent.kids) if s is first), None)
    if at is None or parent.kind != "block":  # not a class's field
        return False
    region = parent.kids[at:]
    calls = [n for s in region for n in s.walk()
             if _is_local_call(n) and n.kids[0].text == func.text]
    everywhere = [n for _, s in sites for n in _own_calls(s) if n.kids[0].text == func.text]
    if len(calls) < 2 or any(not any(c is n for n in calls) for c in everywhere):
        return False
    args = calls[0].kids[1:]
    if any(_shape_list(c.kids[1:]) != _shape_list(args) for c in calls[1:]):
        return False
    if names_read(N("block", 0, 0, list(args))) & names_written(N("block", 0, 0, region)):
        return False
    value = _value_of(func)
    if value is None:
        return False
    params = [p for p in func.kids if p.kind == "param"]
    value = _substitute(value, {p.text: a for p, a in zip(params, args, strict=False)})
    temp = f"{func.text}()"  # no identifier is spelled so
    for call in calls:
        for stmt in region:
            if stmt is call:
                continue
            if _replace(stmt, call, leaf("id", call.start, call.end, temp)):
                break
    parent.kids.insert(at, N("assign", first.start, first.start,
                             [leaf("id", first.start, first.start, temp), value]))
    return True


def _shape_list(nodes: list[N]) -> list[tuple[object, ...]]:
    return [_shape(n) for n in nodes]


def _call_sites(root: N) -> dict[str, list[tuple[N, N]]]:
    """Callee name -> the statements (with the block holding them) whose own
    expressions call it."""
    sites: dict[str, list[tuple[N, N]]] = {}
    for parent in root.walk():
        if parent.kind not in ("block", "class", "func") and parent is not root:
            continue
        for stmt in parent.kids:
            if stmt.kind in ("func", "class", "block", "param", "import"):
                continue
            for name in {c.kids[0].text for c in _own_calls(stmt)}:
                sites.setdefault(name, []).append((parent, stmt))
    return sites


def _inline_in(parent: N, stmt: N, func: N) -> bool:
    """Inline ``func`` at its calls in ``stmt`` (a statement of ``parent``)."""
    done = False
    while True:
        at = next((i for i, s in enumerate(parent.kids) if s is stmt), None)
        call = next((c for c in _own_calls(stmt) if c.kids[0].text == func.text), None)
        if at is None or call is None:
            return done
        replacement = _inlined(stmt, call, func, parent.kids[at + 1:])
        if replacement is None:
            return done
        parent.kids[at:at + 1] = replacement
        done = True
        if not any(r is stmt for r in replacement):
            return done


def _one_expression(func: N) -> bool:
    """A helper that computes one expression without calls (``return e``, or
    ``x = e; return f(x)``): inlined at every call, however many."""
    return _value_of(func) is not None


def _value_of(func: N) -> N | None:
    """The expression a :func:`_one_expression` helper returns, its local
    assignments substituted (a copy), else ``None``."""
    body = func.kids[-1] if func.kids else None
    if body is None or body.kind != "block" or not body.kids or len(body.kids) > 4:
        return None
    *steps, last = body.kids
    if last.kind != "return" or len(last.kids) != 1:
        return None
    bound: dict[str, N] = {}
    for step in steps:
        if step.kind != "assign" or len(step.kids) != 2 or step.kids[0].kind != "id":
            return None
        bound[step.kids[0].text] = _substitute(step.kids[1].copy(), bound)
    value = _substitute(last.kids[0].copy(), bound)
    return None if any(n.kind == "call" for n in value.walk()) else value


def _own_calls(stmt: N) -> list[N]:
    """Calls in a statement's own expressions (not in the blocks it holds)."""
    out: list[N] = []
    stack = [k for k in stmt.kids if k.kind != "block"]
    while stack:
        node = stack.pop()
        if node.kind in ("block", "func", "class", "lambda"):
            continue
        if _is_local_call(node):
            out.append(node)
        stack.extend(node.kids)
    return out


def _inlined(stmt: N, call: N, func: N, after: list[N]) -> list[N] | None:
    params = [p for p in func.kids if p.kind == "param"]
    body = [s.copy() for s in func.kids[-1].kids] if func.kids[-1].kind == "block" else []
    args = call.kids[1:]
    value = _value_of(func)
    if value is not None:  # substitute the expression, arguments for parameters
        bound = {p.text: a for p, a in zip(params, args, strict=False)}
        value = _substitute(value, bound)
        return [stmt] if _replace(stmt, call, value) else None
    if stmt.kind == "loop":
        return None  # its condition runs again: the body cannot move before it
    written = names_written(N("block", 0, 0, body))
    read_after = names_read(N("block", 0, 0, after))
    pre = []
    for param, arg in zip(params, args, strict=False):
        # f(x) with f(p): p reads as x, unless f writes p and x is read afterwards
        if arg.kind == "id" and (param.text not in written or arg.text not in read_after):
            _rename(body, param.text, arg.text)
        else:
            pre.append(N("assign", arg.start, arg.end,
                         [N("id", param.start, param.end, [], param.text), arg]))
    returns = [n for s in body for n in s.walk() if n.kind == "return"]
    if stmt.kind == "expr" and stmt.kids and stmt.kids[0] is call:
        if body and body[-1].kind == "return":
            last = body.pop()
            body.extend(N("expr", k.start, k.end, [k]) for k in last.kids)
        return [*pre, *body]
    if len(returns) == 1 and body and body[-1] is returns[0] and returns[0].kids:
        value = returns[0].kids[0]
        if _replace(stmt, call, value):
            return [*pre, *body[:-1], stmt]
    return None


def _substitute(node: N, bound: dict[str, N]) -> N:
    if node.kind == "id" and node.text in bound:
        return bound[node.text].copy()
    node.kids = [_substitute(k, bound) for k in node.kids]
    return node


def _rename(stmts: list[N], old: str, new: str) -> None:
    for stmt in stmts:
        for node in stmt.walk():
            if node.kind == "id" and node.text == old:
                node.text = new
            elif node.kind == "call" and node.text:
                node.text = " ".join(new if n == old else n for n in node.text.split())


def _replace(node: N, old: N, new: N) -> bool:
    for i, kid in enumerate(node.kids):
        if kid is old:
            node.kids[i] = new
            return True
        if _replace(kid, old, new):
            return True
    return False
