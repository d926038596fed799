"""Dead code in the neutral tree: statements after a jump, and stores nothing reads.

Applied by :mod:`winnow.frontends.structural.normalise` to every block and
function body (docs/frontends.md, "dead code"): a store is dropped only
when no read can see it and its value calls nothing (an effect stays, as
an expression statement).
"""

from __future__ import annotations

from winnow.frontends.structural.ir import (
    JUMPS,
    N,
    exposed,
    exposed_kills,
    exposed_reads,
    has_effect,
    names_read,
    names_written,
)

#: The most statements of one block that reordering and dead-store removal
#: compare with each other (both are quadratic; blocks are rarely longer).
WINDOW = 64


def dead_stores(stmts: list[N], locals_: set[str]) -> list[N]:
    """``x = a; ... x = b`` with no read of ``x`` between: the first store is
    dead and vanishes (unless its value calls something)."""
    out: list[N] = []
    for i, stmt in enumerate(stmts):
        if (stmt.kind == "assign" and len(stmt.kids) == 2 and stmt.kids[0].kind == "id"
                and stmt.kids[0].text in locals_ and not has_effect(stmt.kids[1], set())):
            name = stmt.kids[0].text
            later = stmts[i + 1:i + 1 + WINDOW]
            overwritten = any(name in _killed_by(s) for s in later)
            if overwritten and name not in exposed_reads(_until_kill(later, name)):
                continue
        out.append(stmt)
    return out


def dead_at_exit(stmts: list[N], locals_: set[str]) -> list[N]:
    """A function body's stores that nothing reads before the function ends or
    another store (``int r = 0; while (..) { r = n % 10; print(r); }``: the
    loop writes ``r`` before it reads it) vanish, unless the value calls
    something.  Only variables the function writes before it reads them
    count: ``total = total + x`` may update a field (Java's fields need no
    ``this.``), whose value outlives the call."""
    own = locals_ - exposed_reads(stmts)
    live: set[str] = set()
    kept: list[N] = []
    for stmt in reversed(stmts):
        if (stmt.kind == "assign" and len(stmt.kids) == 2 and stmt.kids[0].kind == "id"
                and not stmt.kids[0].reads  # this.x = ..., a field
                and stmt.kids[0].text in own and stmt.kids[0].text not in live
                and not has_effect(stmt.kids[1], set())):
            continue
        reads, kills = exposed([stmt])
        live = (live - kills) | reads
        kept.append(stmt)
    return kept[::-1]


def _killed_by(stmt: N) -> set[str]:
    """The names ``stmt`` surely writes (a later read sees its value, not an earlier one)."""
    return exposed_kills([stmt])


def _until_kill(stmts: list[N], name: str) -> list[N]:
    """``stmts`` up to and including the first that surely writes ``name``."""
    for i, stmt in enumerate(stmts):
        if name in _killed_by(stmt):
            return stmts[:i + 1]
    return stmts


def unreachable(stmts: list[N]) -> list[N]:
    """``stmts`` up to the first jump (``return``, ``break``, ...): what follows never runs."""
    for i, stmt in enumerate(stmts):
        if stmt.kind in JUMPS:
            return stmts[:i + 1]
    return stmts


def drop_unused(body: list[N], params: set[str]) -> list[N]:
    """Assignments to local variables never read anywhere in the function are
    dropped (their value stays as a statement when it calls something)."""
    for _ in range(3):
        root = N("block", 0, 0, body)
        read = names_read(root)
        assigned = names_written(root)
        unused = assigned - read - params
        if not unused:
            return body
        body = _drop_assignments(body, unused)
    return body


def _drop_assignments(stmts: list[N], unused: set[str]) -> list[N]:
    out: list[N] = []
    for stmt in stmts:
        if (stmt.kind == "assign" and stmt.kids and stmt.kids[0].kind == "id"
                and stmt.kids[0].text in unused):
            if has_effect(stmt.kids[-1], set()):
                out.append(N("expr", stmt.kids[-1].start, stmt.kids[-1].end, [stmt.kids[-1]]))
            continue
        if stmt.kind not in ("func", "class"):
            stmt.kids = [N(k.kind, k.start, k.end, _drop_assignments(k.kids, unused), k.text)
                         if k.kind == "block" else k for k in stmt.kids]
        out.append(stmt)
    return out
