"""A temporary read once reads as its value.

``int r = n % 10; print(r);`` and ``print(n % 10);`` do the same: a local
variable set once in the function's body, to a value without effect (no call
but the quiet ones of :func:`~winnow.frontends.structural.ir.has_effect`),
and read exactly once, by a later statement of the same block, is replaced
by its value there and its assignment vanishes, when

* no statement between them writes a variable the value reads (nor has an
  effect, when the value reads memory a call may change: a field, an
  element or a name that is not one of the function's locals), unless it
  can move after the reading statement: it has no data dependence on the
  statements it moves past, and not both have an effect
  (``r = n % 10; n = n / 10; print(r)`` reads ``print(n % 10); n = n / 10``);
* the value has at most :data:`MAX_VALUE` nodes and the read comes within
  :data:`WINDOW` statements;
* the read is not inside a loop, a function, a lambda or a comprehension
  of that statement (where the value would be worked out again, maybe with
  other inputs),
  and the statement writes no variable the value reads (an assignment's
  value is read before its target is written, so ``t = a + 1; a = t * 2``
  qualifies); when the value reads memory, nothing with an effect in that
  statement runs before the read (``t = a[0]; print(a.pop(0) + t)`` stays).

It runs on a function's body once the body is normalised (a dead
``int r = 0;`` before the loop that sets ``r`` is gone by then). Names are
counted over the body (the tree has no scopes): a variable the body
writes before it reads it is the body's own, as for the dead stores at
exit, unless a name read outside the function (a field or a global).
"""

from __future__ import annotations

from collections import Counter

from winnow.frontends.structural.ir import (
    N,
    exposed_reads,
    has_effect,
    names_read,
    names_written,
)

#: Kinds whose contents may run several times, or never, per run of the
#: statement holding them.
_REPEATING = frozenset({"loop", "func", "lambda", "class"})
#: The text that tags a comprehension (kind ``other``): it repeats its
#: element and rebinds its loop variables.
COMPREHENSION = "comprehension"
#: Kinds of a value that reads memory a call may change.
_MEMORY = frozenset({"field", "index"})
#: The largest value (in nodes) put in place of a read: chains of
#: temporaries must not build one deep expression.
MAX_VALUE = 16
#: How many later statements are searched for the read (the work is
#: quadratic in it, and input is untrusted).
WINDOW = 64


def inline_temporaries(body: N, locals_: set[str]) -> bool:
    """Inline, in place, every temporary of the function body ``body`` that
    qualifies (``locals_``: its local variables); whether any was."""
    done = False
    for _ in range(8):  # chains: a = x * 2; b = a + 1; print(b)
        candidates = _candidates(body) & locals_
        if not candidates or not _inline_pass(body, candidates, locals_):
            break
        done = True
    return done


def _candidates(root: N) -> set[str]:
    """Names assigned once (as a plain variable) and read once in ``root``,
    not read before that assignment (a field's or a parameter's value), nowhere bound
    as a parameter or loop variable, never a receiver or a callee."""
    writes: Counter[str] = Counter()
    reads: Counter[str] = Counter()
    barred: set[str] = set()
    for node in root.walk():
        if node.kind == "assign" and node.kids:
            target = node.kids[0]
            if target.kind == "id":
                writes[target.text] += 1
                reads[target.text] -= 1  # the walk counts the target below
            elif target.kind in _MEMORY:
                barred.update(names_read(target))
        if node.kind == "id":
            reads[node.text] += 1
            barred.update(node.reads.split())
        elif node.kind == "call":
            barred.update(node.text.split())
            if node.kids and node.kids[0].kind == "id":
                barred.add(node.kids[0].text)
        elif node.kind in ("in", "param", "lambda"):
            barred.update(n.text for n in node.walk() if n.kind in ("id", "param"))
            barred.add(node.text)
    barred |= exposed_reads(root.kids)
    return {name for name, count in writes.items()
            if count == 1 and reads[name] == 1 and name not in barred}


def _inline_pass(root: N, candidates: set[str], locals_: set[str]) -> bool:
    done = False
    for holder in list(root.walk()):
        if holder.kind not in ("block", "func") and holder is not root:
            continue
        at = 0
        while at < len(holder.kids):
            if _inline_at(holder.kids, at, candidates, locals_):
                del holder.kids[at]
                done = True
                continue
            at += 1
    return done


def _inline_at(stmts: list[N], at: int, candidates: set[str], locals_: set[str]) -> bool:
    """Put the value of ``stmts[at]`` (a temporary's assignment) in place of
    its one read in a later statement; whether it did.  A statement between
    them that writes the value's inputs is moved after the reading one when
    it commutes with everything up to it (the two orders are one program)."""
    stmt = stmts[at]
    if not (stmt.kind == "assign" and len(stmt.kids) == 2 and stmt.kids[0].kind == "id"
            and not stmt.kids[0].reads and stmt.kids[0].text in candidates):
        return False
    name, value = stmt.kids[0].text, stmt.kids[1]
    if sum(1 for _ in value.walk()) > MAX_VALUE or has_effect(value, set()):
        return False
    inputs = names_read(value)
    memory = (any(n.kind in _MEMORY or n.reads for n in value.walk())
              or bool(inputs - locals_))
    blockers: list[int] = []
    for offset, later in enumerate(stmts[at + 1:at + 1 + WINDOW], start=at + 1):
        found = _read_site(later, name)
        if found is None:
            if names_written(later) & inputs or (memory and has_effect(later, set())):
                blockers.append(offset)
            continue
        parent, index = found
        if names_written(later) & inputs and not _read_first(later, parent):
            return False
        if memory and _effect_before(later, parent, index):
            return False
        if any(not _commute(stmts[b], s, locals_)
               for b in blockers for s in stmts[b + 1:offset + 1]):
            return False
        parent.kids[index] = value
        moved = [stmts[b] for b in blockers]
        kept = [s for i, s in enumerate(stmts[at:offset + 1], start=at) if i not in blockers]
        stmts[at:offset + 1] = [*kept, *moved]
        return True
    return False


def _commute(first: N, second: N, locals_: set[str]) -> bool:
    """Whether two statements may run in either order (no data dependence
    through the variables they read and write, not both with an effect)."""
    writes_1, writes_2 = names_written(first), names_written(second)
    if writes_1 & (names_read(second) | writes_2) or names_read(first) & writes_2:
        return False
    return not (has_effect(first, locals_) and has_effect(second, locals_))


def _read_site(stmt: N, name: str) -> tuple[N, int] | None:
    """The parent and index of the ``id`` reading ``name`` in ``stmt``, unless
    it sits inside a repeating kind; ``None`` when ``stmt`` does not read
    ``name`` outside one (a read inside one blocks nothing: there is only
    one read, so it is not this statement's)."""
    if _repeats(stmt):
        return None
    stack: list[N] = [stmt]
    while stack:
        node = stack.pop()
        for index, kid in enumerate(node.kids):
            if kid.kind == "id" and kid.text == name and not (node.kind == "assign"
                                                                and index == 0):
                return node, index
            if not _repeats(kid):
                stack.append(kid)
    return None


def _repeats(node: N) -> bool:
    return node.kind in _REPEATING or (node.kind == "other" and node.text == COMPREHENSION)


def _effect_before(stmt: N, parent: N, index: int) -> bool:
    """Whether something with an effect in ``stmt`` runs before the read,
    ``parent.kids[index]``: a part left of the read's path down from
    ``stmt`` (a node's parts are worked out left to right, before it)."""
    above: dict[int, tuple[N, int]] = {}
    stack = [stmt]
    while stack and parent is not stmt and id(parent) not in above:
        node = stack.pop()
        for at, kid in enumerate(node.kids):
            above[id(kid)] = (node, at)
            stack.append(kid)
    node, at = parent, index
    while True:
        if any(has_effect(kid, set()) for kid in node.kids[:at]):
            return True
        if node is stmt:
            return False
        node, at = above[id(node)]


def _read_first(stmt: N, parent: N) -> bool:
    """Whether ``stmt`` is an assignment to a variable whose value is or
    holds the read's ``parent`` (the value is worked out before the target
    is written)."""
    if stmt.kind != "assign" or len(stmt.kids) != 2 or stmt.kids[0].kind != "id":
        return False
    return parent is stmt or any(node is parent for node in stmt.kids[1].walk())
