"""File-level normalisation: helpers inlined, then every declaration and block
normalised (:mod:`winnow.frontends.structural.normalise`) and put in order."""

from __future__ import annotations

from collections import Counter

from winnow.frontends.structural.ir import N, names_written
from winnow.frontends.structural.normalise import block, expr, members, signature

_NEVER_INLINE = frozenset({"", "main", "__init__", "run", "toString", "equals", "hashCode"})
_RANK = {"import": 0, "assign": 1, "class": 2, "func": 3}


def normalise_file(root: N) -> N:
    """The whole file: inline helpers called once, normalise, order."""
    for _ in range(4):
        if not _inline_once(root):
            break
    top_decls = [s for s in root.kids if s.kind in ("import", "func", "class")]
    code = [s for s in root.kids if s.kind not in ("import", "func", "class")]
    decls = members(top_decls, _sort_members)
    local_names = names_written(N("block", root.start, root.end, code))
    root.kids = [*decls, *block(code, local_names)]
    return root


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


def _calls(node: N) -> list[N]:
    return [n for n in node.walk() if n.kind == "call" and n.kids and n.kids[0].kind == "id"]


def _inline_once(root: N) -> bool:
    """Inline one helper called exactly once; whether one was."""
    funcs = _functions(root)
    counts = Counter(call.kids[0].text for call in _calls(root))
    for name, defs in sorted(funcs.items()):
        if name in _NEVER_INLINE or len(defs) != 1 or counts[name] != 1:
            continue
        func, holder = defs[0]
        if any(c.kids[0].text == name for c in _calls(func)):
            continue  # recursive (the one call is inside it)
        if _inline_at_call(root, func):
            holder.kids = [m for m in holder.kids if m is not func]
            return True
    return False


def _inline_at_call(root: N, func: N) -> bool:
    for parent in root.walk():
        if parent.kind not in ("block", "class", "func") and parent is not root:
            continue
        for i, stmt in enumerate(parent.kids):
            if stmt.kind in ("func", "class", "block", "param", "import"):
                continue
            call = next((c for c in _calls(stmt) if c.kids[0].text == func.text), None)
            if call is None:
                continue
            replacement = _inlined(stmt, call, func)
            if replacement is None:
                return False
            parent.kids[i:i + 1] = replacement
            return True
    return False


def _inlined(stmt: N, call: N, func: N) -> list[N] | None:
    params = [p for p in func.kids if p.kind == "param"]
    body = [s.copy() for s in func.kids[-1].kids] if func.kids[-1].kind == "block" else []
    args = call.kids[1:]
    pre = [N("assign", a.start, a.end, [N("id", p.start, p.end, [], p.text), a])
           for p, a in zip(params, args, strict=False)]
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


def _replace(node: N, old: N, new: N) -> bool:
    for i, kid in enumerate(node.kids):
        if kid is old:
            node.kids[i] = new
            return True
        if _replace(kid, old, new):
            return True
    return False
