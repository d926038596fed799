"""A statement repeated n times and a loop that runs it n times read alike.

``print(s); print(s); print(s)`` and ``for (int i = 0; i < 3; i++)
print(s);`` (``for (int i = 3; i > 0; i--)``, ``for (i = 4; i >= 0; i -= 2)``,
Python's ``for _ in range(3)``, Kotlin's ``repeat(3)``) do the same: both read
as one *repeat loop*, ``loop NUM(3) { print(s) }``.

* A counted loop is a repeat loop when its counter, a local variable,
  starts at a whole-number literal, is compared with a whole-number
  literal, steps by a literal (any whole number) towards it (once, at the
  top level of the body), is read or written
  nowhere else in the body, is not read after the loop, and the body has no
  ``break`` or ``continue``; the count is worked out from the three
  literals.  A loop that runs once reads as its body, one that never runs
  as nothing.
* A run of two or more identical statements, or of identical groups of up
  to :data:`MAX_PERIOD` statements, is a repeat loop of the group.
"""

from __future__ import annotations

from collections.abc import Callable

from winnow.frontends.structural.ir import N, exposed, leaf

#: The longest group of statements a run of repeats is looked for in.
MAX_PERIOD = 3
#: The largest count a repeat loop is given (larger loops stay as written).
MAX_COUNT = 1_000_000


def shape(node: N) -> tuple[object, ...]:
    """``node``'s subtree without its byte ranges: equal shapes, same code."""
    return (node.kind, node.text, node.reads, tuple(shape(k) for k in node.kids))


def repeat(count: int, body: list[N], start: int, end: int, at: tuple[int, int]) -> N:
    """The repeat loop of ``body``, ``count`` times (its ``NUM`` spans ``at``)."""
    return N("loop", start, end, [leaf("num", at[0], at[1], str(count)),
                                  N("block", start, end, body)], "repeat")


def counted(stmts: list[N], order: Callable[[list[N]], list[N]],
            locals_: set[str]) -> list[N]:
    """``stmts`` with each counter's ``i = a`` and its counted loop of a fixed
    count replaced by the repeat loop (``order`` puts the body, its step
    gone, back in canonical order; a counter is one of ``locals_``, the
    function's local variables: a field's last value may be read elsewhere).

    Linear: the loops that qualify but for the reads after them are found
    first, then one backward pass over the block finds what each statement
    leaves live (the counter must not be)."""
    found: dict[int, tuple[str, list[N]]] = {}
    for at in range(len(stmts) - 1):
        made = _counted(stmts[at], stmts[at + 1], order, locals_)
        if made is not None:
            found[at] = made
    if not found:
        return stmts
    live: set[str] = set()  # read by stmts[j:] before written
    dead: set[int] = set()
    for j in range(len(stmts), 1, -1):
        if j - 2 in found and found[j - 2][0] not in live:
            dead.add(j - 2)
        reads, kills = exposed([stmts[j - 1]])
        live -= kills
        live |= reads
    out: list[N] = []
    at = 0
    while at < len(stmts):
        if at in dead:
            out.extend(found[at][1])
            at += 2
        else:
            out.append(stmts[at])
            at += 1
    return out


def _whole(node: N) -> int | None:
    text = node.text
    if node.kind != "num" or not text.lstrip("-").isdigit() or len(text) > 9:
        return None
    return int(text)


def _counted(init: N, loop: N, order: Callable[[list[N]], list[N]],
             locals_: set[str]) -> tuple[str, list[N]] | None:
    """The counter and what ``init`` and ``loop`` read as, when they qualify
    (but for the reads after them: :func:`counted` checks those)."""
    if not (init.kind == "assign" and len(init.kids) == 2 and init.kids[0].kind == "id"
            and not init.kids[0].reads and init.kids[0].text in locals_):
        return None
    counter, first = init.kids[0].text, _whole(init.kids[1])
    if (first is None or loop.kind != "loop" or len(loop.kids) != 2 or loop.text == "do"
            or loop.kids[1].kind != "block"):
        return None
    cond, body = loop.kids
    moves = [(s, step) for s in body.kids if (step := _step(s, counter))]
    if len(moves) != 1:
        return None
    count = _count(cond, counter, first, moves[0][1])
    if count is None:
        return None
    rest = [s for s in body.kids if s is not moves[0][0]]
    if _mentions(rest, counter) or any(n.kind in ("break", "continue")
                                       for s in rest for n in s.walk()):
        return None
    if count <= 1:  # once: the body itself; never: nothing
        return counter, order(rest) if count else []
    return counter, [repeat(count, order(rest), init.start, loop.end, (cond.start, cond.end))]


def _step(stmt: N, counter: str) -> int:
    """``s`` for ``counter = counter + s``, ``-s`` for ``- s`` (a literal), else 0."""
    if stmt.kind != "assign" or len(stmt.kids) != 2 or stmt.kids[0].kind != "id":
        return 0
    target, value = stmt.kids
    if (target.text != counter or target.reads or value.kind not in ("+", "-")
            or len(value.kids) != 2 or value.kids[0].kind != "id"
            or value.kids[0].text != counter or value.kids[0].reads):
        return 0
    size = _whole(value.kids[1])
    if size is None:
        return 0
    return size if value.kind == "+" else -size


def _mentions(stmts: list[N], name: str) -> bool:
    for stmt in stmts:
        for node in stmt.walk():
            if ((node.kind in ("id", "param") and node.text == name)
                    or name in node.reads.split()
                    or (node.kind == "call" and name in node.text.split())):
                return True
    return False


def _count(cond: N, counter: str, first: int, step: int) -> int | None:
    """How many times a loop on ``cond`` runs, its counter from ``first`` by
    ``step``; ``None`` when it never stops or ``cond`` is not of the form."""
    if cond.kind not in ("<", "<=", "!=") or len(cond.kids) != 2:
        return None
    left, right = cond.kids
    if left.kind == "id" and left.text == counter and not left.reads:
        bound, up = _whole(right), True
    elif right.kind == "id" and right.text == counter and not right.reads:
        bound, up = _whole(left), False
    else:
        return None
    if bound is None:
        return None
    if cond.kind == "!=":
        gap = bound - first
        if gap % step or gap // step < 0:
            return None
        count = gap // step
    else:
        # counting up: first < bound (<=); down: bound < first (<=)
        gap = bound - first if up else first - bound
        if cond.kind == "<=":
            gap += 1
        if gap <= 0:
            count = 0
        elif (step > 0) != up:
            return None  # runs for ever (or until overflow)
        else:
            count = -(-gap // abs(step))
    return count if count <= MAX_COUNT else None


def rolled(stmts: list[N]) -> list[N]:
    """``stmts`` with each run of two or more identical statements (or groups
    of up to :data:`MAX_PERIOD`) replaced by the repeat loop of one."""
    heads = [(s.kind, s.text, len(s.kids)) for s in stmts]
    if not any(heads[i] == heads[i + p] for p in range(1, MAX_PERIOD + 1)
               for i in range(len(heads) - p)):
        return stmts  # no statement like one up to MAX_PERIOD after it (the common case)
    shapes: dict[int, tuple[object, ...]] = {}

    def alike(i: int, j: int) -> bool:
        if heads[i] != heads[j]:
            return False
        for k in (i, j):
            if k not in shapes:
                shapes[k] = shape(stmts[k])
        return shapes[i] == shapes[j]

    out: list[N] = []
    at = 0
    while at < len(stmts):
        best_period, best_times = 1, 1
        for period in range(1, MAX_PERIOD + 1):
            times = 1
            while (at + (times + 1) * period <= len(stmts)
                   and all(alike(at + k, at + times * period + k) for k in range(period))):
                times += 1
            if times >= 2 and times * period > best_times * best_period:
                best_period, best_times = period, times
        if best_times < 2:
            out.append(stmts[at])
            at += 1
            continue
        end = at + best_times * best_period
        first, last = stmts[at], stmts[end - 1]
        out.append(repeat(best_times, stmts[at:at + best_period], first.start, last.end,
                          (first.start, first.start)))
        at = end
    return out
