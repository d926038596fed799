"""Ways to print the same line read alike.

* ``println("")`` (Python's ``print("")``) reads as ``println()``: an empty
  string prints nothing;
* ``print("Hi\\n")`` and ``printf("Hi\\n")`` read as ``println("Hi")``: a
  line break at the end of what is printed is what ``println`` adds (a
  call of one value only: Go's ``Println("a", "b")`` puts a space between);
* ``print(x); println();`` reads as ``println(x)``.

Calls are recognised by their name: ``printf``, ``write`` (Python's
``print(x, end=e)`` reads as ``write(x + e)``, ``e`` a line break unless
given: :func:`~winnow.frontends.structural.tables.python_call`), C#'s
``Console.Write``, Go's ``fmt.Print`` and Java's ``System.out.print`` print
no line break, and so does Kotlin's bare ``print`` (read as ``write``:
:func:`~winnow.frontends.structural.tables.kotlin_call`);
``println``, ``WriteLine``, ``Println`` and ``puts`` end the line.
"""

from __future__ import annotations

from winnow.frontends.structural.ir import N, leaf

#: Calls that print their argument without a line break (``print`` only on
#: Java's ``System.out``: see :func:`_no_break`).
PRINT = frozenset({"print", "printf", "Write", "write", "Print"})
#: Calls that print their argument, then a line break.
PRINTLN = frozenset({"println", "WriteLine", "puts", "Println"})
#: A line break at the end of a literal, as the converter keeps it (escaped).
_BREAK = "\\n"


def _printer(stmt: N) -> N | None:
    """The print call ``stmt`` consists of, if it is one."""
    if stmt.kind != "expr" or len(stmt.kids) != 1:
        return None
    call = stmt.kids[0]
    if call.kind != "call" or not call.kids or call.kids[0].kind != "id":
        return None
    return call if call.kids[0].text in PRINT | PRINTLN else None


def lines(stmts: list[N]) -> list[N]:
    """``stmts`` with the print calls read as above."""
    out: list[N] = []
    for stmt in stmts:
        call = _printer(stmt)
        if call is None:
            out.append(stmt)
            continue
        if _no_break(call) and len(call.kids) == 2:  # Print("a", "b\n") is no Println
            last = _without_break(call.kids[-1])
            if last is not None:
                call.kids[-1] = last
                call.kids[0].text = "println"
        args = call.kids[1:]
        if len(args) == 1 and args[0].kind == "str" and args[0].text == "":
            call.kids = call.kids[:1]
            args = []
        previous = _printer(out[-1]) if out else None
        if (not args and call.kids[0].text in PRINTLN and previous is not None
                and _no_break(previous) and len(previous.kids) == 2
                and previous.text == call.text):
            previous.kids[0].text = "println"  # print(x); println() -> println(x)
            out[-1].end = max(out[-1].end, stmt.end)
            continue
        out.append(stmt)
    return out


def _no_break(call: N) -> bool:
    """Whether ``call`` prints without a line break (:data:`PRINT`)."""
    name = call.kids[0].text
    return name in PRINT and (name != "print" or call.text == "System out")


def _without_break(arg: N) -> N | None:
    """``arg`` (a literal, or a concatenation ending in one) without the line
    break it ends in; ``None`` when it ends in none."""
    last = arg.kids[-1] if arg.kind == "concat" and arg.kids else arg
    if last.kind != "str" or not last.text.endswith(_BREAK):
        return None
    last.text = last.text[:-len(_BREAK)]
    if last is arg:
        return arg
    if not last.text and len(arg.kids) > 1:
        arg.kids.pop()  # x + "\n": the emptied literal goes
    return arg.kids[0] if len(arg.kids) == 1 else arg  # printf("Hi\n"): one part


def python_print(call: N, end: N | None, sep: N | None = None) -> N:
    """Python's ``print(a, b, sep=s, end=e)`` as ``write(a + s + b + e)``,
    ``s`` a space and ``e`` a line break when not given: Java's ``print``,
    which :func:`lines` reads as ``println`` when ``e`` ends the line."""
    if end is None:
        end = leaf("str", call.end, call.end, _BREAK)
    shown: list[N] = []
    for arg in call.kids[1:]:  # print(a, b) shows a, a space, b
        if shown:
            gap = leaf("str", arg.start, arg.start, " ") if sep is None else sep.copy()
            if not (gap.kind == "str" and gap.text == ""):
                shown.append(gap)
        shown.append(arg)
    if not (end.kind == "str" and end.text == ""):
        shown.append(end)
    writer = leaf("id", call.kids[0].start, call.kids[0].end, "write")
    if not shown:
        return N("call", call.start, call.end, [writer], call.text)
    value = shown[0] if len(shown) == 1 else N("concat", shown[0].start, call.end, shown)
    return N("call", call.start, call.end, [writer, value], call.text)


def kotlin_print(call: N) -> N:
    """Kotlin's bare ``print(x)`` (no line break, unlike Python's) as
    ``write(x)``, in place; ``call`` itself."""
    if call.kids and call.kids[0].kind == "id" and call.kids[0].text == "print" and not call.text:
        call.kids[0].text = "write"
    return call
