"""The language-neutral tree the structural front-end normalises and emits.

Every syntax node a grammar gives becomes an :class:`N` whose ``kind`` is one
letter of the neutral alphabet (:data:`ALPHABET`): the same kinds for Java,
Python, C and the rest, so a program and its translation read alike.  Each
node keeps the byte range of the syntax node it came from, so every unit the
front-end emits points into the original file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

#: The neutral alphabet's name, shown in reports of cross-language comparisons.
ALPHABET_NAME = "winnow-neutral-1"

#: Statement kinds.
STATEMENTS = frozenset({
    "block", "if", "loop", "return", "break", "continue", "throw", "expr", "assign",
    "func", "class", "import", "try", "switch", "case", "stmt",
})
#: Statements after which nothing in the same block runs.
JUMPS = frozenset({"return", "break", "continue", "throw"})
#: Kinds whose evaluation may have an effect beyond the variables they assign.
EFFECTS = frozenset({"call", "new", "return", "break", "continue", "throw", "yield"})
#: The callee's name of the neutral array-making call (:mod:`.arrays`), which
#: has no effect.
ARRAY = "[]"
#: The standard input stream as a name chain reads it (its name, then the
#: receiver): ``System.in`` (Java; Kotlin's ``System.`in```), ``sys.stdin``,
#: ``os.Stdin`` (Go), ``Console.In`` (C#), C's ``stdin``.
STANDARD_INPUT = frozenset({("in", "System"), ("`in`", "System"), ("stdin", "sys"),
                            ("Stdin", "os"), ("In", "Console"), ("stdin", "")})
#: Every kind the converters produce (operators are kinds too: ``+``, ``<`` ...).
ALPHABET = frozenset({
    *STATEMENTS, "call", "new", "id", "str", "num", "chr", "bool", "null", "field",
    "index", "concat", "not", "neg", "and", "or", "lambda", "list", "in", "param",
    "cast", "yield", "other",
})


@dataclass
class N:
    """One node: a neutral ``kind``, the source bytes ``[start, end)``, children.

    ``text`` is an identifier's name or a literal's value (string contents
    without quotes), used for dependences and the literal channel; ``reads``
    the other names an ``id`` reads, space-separated: the receivers of a
    name chain read as its last name (``a`` of ``a.length``, ``x`` of
    ``len(x)``), which the stream does not show but the data flow needs.
    """

    kind: str
    start: int
    end: int
    kids: list[N] = field(default_factory=list)
    text: str = ""
    reads: str = ""

    def walk(self) -> Iterator[N]:
        """This node and all below it, pre-order (iteratively: trees can be deep)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.kids))

    def copy(self) -> N:
        """A deep copy (inlining puts one body in a new place)."""
        return N(self.kind, self.start, self.end, [k.copy() for k in self.kids], self.text,
                 self.reads)


def leaf(kind: str, start: int, end: int, text: str = "", reads: str = "") -> N:
    return N(kind, start, end, [], text, reads)


def names_read(node: N) -> set[str]:
    """Identifiers read anywhere in ``node`` (an assignment's target excluded,
    except the base of a field or index target, which is read)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur.kind == "assign" and cur.kids:
            target = cur.kids[0]
            if target.kind != "id":
                stack.append(target)
            out.update(target.reads.split())  # a field target's receivers are read
            stack.extend(cur.kids[1:])
            continue
        if cur.kind == "id":
            out.add(cur.text)
            out.update(cur.reads.split())
        elif cur.kind == "call" and cur.text:
            out.update(cur.text.split())
        stack.extend(cur.kids)
    return out


def read_counts(root: N) -> Counter[str]:
    """In how many places each name is read: each function not inside
    another, and the rest of the file together."""
    out: Counter[str] = Counter()
    rest: list[N] = []
    stack = [root]
    while stack:
        node = stack.pop()
        for kid in node.kids:
            if kid.kind == "func":
                out.update(names_read(kid))
            elif kid.kind in ("class", "block"):
                stack.append(kid)
            else:
                rest.append(kid)
    out.update(names_read(N("block", root.start, root.end, rest)))
    return out


def target_name(node: N) -> str | None:
    """The variable an assignment target writes (``a`` for ``a``, ``a.b``, ``a[i]``)."""
    while node.kind in ("field", "index") and node.kids:
        node = node.kids[0]
    return node.text if node.kind == "id" else None


def names_written(node: N) -> set[str]:
    """Variables assigned anywhere in ``node``."""
    out: set[str] = set()
    for cur in node.walk():
        if cur.kind == "assign" and cur.kids:
            name = target_name(cur.kids[0])
            if name is not None:
                out.add(name)
        elif cur.kind == "in" and cur.kids:  # for x in xs: writes x
            out |= {n.text for n in cur.kids[0].walk() if n.kind == "id"}
    return out


def has_effect(node: N, locals_: set[str]) -> bool:
    """Whether ``node`` may do more than assign the local variables ``locals_``:
    a call, a jump, or a write to a field, an element or a non-local name."""
    for cur in node.walk():
        if cur.kind in EFFECTS and not _quiet_call(cur):
            return True
        if cur.kind == "assign" and cur.kids:
            target = cur.kids[0]
            if target.kind != "id" or target.text not in locals_:
                return True
    return False


def _quiet_call(node: N) -> bool:
    """A call without an effect of its own: the neutral array, or a reader of
    the standard input made ready (``new Scanner(System.in)``,
    ``new BufferedReader(new InputStreamReader(System.in))``)."""
    if node.kind != "call" or not node.kids:
        return False
    if node.kids[0].text == ARRAY:
        return True
    while node.kind == "call" and len(node.kids) == 2:
        node = node.kids[1]
        if node.kind == "id" and (node.text, node.reads) in STANDARD_INPUT:
            return True
    return False


def exposed_reads(stmts: list[N]) -> set[str]:
    """Variables a statement list may read before it writes them (its upward
    exposed uses): what an earlier assignment can be live for."""
    return _exposed_list(stmts)[0]


def exposed_kills(stmts: list[N]) -> set[str]:
    """Variables a statement list always writes (on every path through it)."""
    return _exposed_list(stmts)[1]


def exposed(stmts: list[N]) -> tuple[set[str], set[str]]:
    """:func:`exposed_reads` and :func:`exposed_kills` in one pass."""
    return _exposed_list(stmts)


def _exposed_list(stmts: list[N]) -> tuple[set[str], set[str]]:
    """``(exposed reads, kills)`` of a statement list, in one pass over it."""
    out: set[str] = set()
    killed: set[str] = set()
    for stmt in stmts:
        reads, kills = _exposed(stmt)
        out |= reads - killed
        killed |= kills
    return out, killed


def _exposed(stmt: N) -> tuple[set[str], set[str]]:
    if stmt.kind == "assign" and len(stmt.kids) == 2 and stmt.kids[0].kind == "id":
        return names_read(stmt.kids[1]), {stmt.kids[0].text}
    if stmt.kind == "block":
        return _exposed_list(stmt.kids)[0], set()
    if stmt.kind == "loop" and len(stmt.kids) == 2:
        reads, kills = _exposed_list(stmt.kids[1].kids)
        return names_read(stmt.kids[0]) | reads, kills if stmt.text == "do" else set()
    if stmt.kind == "if" and len(stmt.kids) >= 2:
        branches = [_exposed_list(b.kids if b.kind == "block" else [b]) for b in stmt.kids[1:]]
        reads = names_read(stmt.kids[0])
        for branch_reads, _ in branches:
            reads |= branch_reads
        kills = branches[0][1] & branches[1][1] if len(branches) == 2 else set()
        return reads, kills
    return names_read(stmt), set()
