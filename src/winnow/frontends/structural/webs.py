"""A variable set anew is a new variable: live ranges split before reordering.

``i = 0; while (i < n) {..}; i = 0; while (i < m) {..}`` reuses ``i`` for two
loops; a copy that names the second counter ``j`` (or declares each loop's
own ``int i``) says the same.  For statement reordering
(:func:`~winnow.frontends.structural.normalise.block`) the two loops are
independent only if the two uses of ``i`` are two variables, so within one
block each statement that sets a local variable without reading it first
starts a new *web*: every web but the last is renamed (the last keeps the
name that later code reads).  Names never reach the stream, so this only
changes which statements may move past each other.
"""

from __future__ import annotations

import itertools

from winnow.frontends.structural.ir import JUMPS, N, exposed

_FRESH = itertools.count()


def split(stmts: list[N], locals_: set[str]) -> None:
    """Rename, in place, the earlier webs of each local variable that
    ``stmts`` set anew more than once (new names are added to ``locals_``).
    A block with a jump between two such statements is left alone: a value
    of an earlier web could leave the block through it."""
    starts: dict[str, list[int]] = {}
    for i, stmt in enumerate(stmts):
        reads, kills = exposed([stmt])
        for name in kills - reads:
            if name in locals_:
                starts.setdefault(name, []).append(i)
    for name, at in starts.items():
        if len(at) < 2 or any(n.kind in JUMPS for s in stmts[at[0]:at[-1]] for n in s.walk()):
            continue
        for first, end in itertools.pairwise(at):
            new = f"{name}'{next(_FRESH)}"  # no identifier is spelled so
            locals_.add(new)
            for stmt in stmts[first:end]:
                _rename(stmt, name, new)


def _rename(stmt: N, old: str, new: str) -> None:
    for node in stmt.walk():
        if node.kind == "id" and node.text == old:
            node.text = new
        if node.reads and old in node.reads.split():
            node.reads = " ".join(new if n == old else n for n in node.reads.split())
        if node.kind == "call" and node.text and old in node.text.split():
            node.text = " ".join(new if n == old else n for n in node.text.split())
