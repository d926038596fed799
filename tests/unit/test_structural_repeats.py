"""The structural front-end's repeat loops and inlined temporaries: a
rewritten snippet and its original give the same stream, and a change that
matters gives a different one."""

from __future__ import annotations

import pytest

from tests.unit.test_structural_rules import java_main, labels, same
from winnow.frontends import FrontEndOptions, make_document

PRINT = 'System.out.println("Hi");'


def literals(source: str) -> list[int]:
    """The literal channel's ids (literals by value) of a Java file's neutral stream."""
    doc = make_document(source.encode(), "x.java", frontend="structural",
                        options=FrontEndOptions(lexical=False))
    assert doc.stream.literal_units is not None
    return doc.stream.literal_units.tolist()


@pytest.mark.parametrize("loop", [
    "for (int i = 0; i < 3; i++) { %s }",
    "for (int i = 1; i <= 3; i++) { %s }",
    "for (int i = 3; i > 0; i--) { %s }",
    "for (int i = 4; i >= 0; i -= 2) { %s }",
    "int i = 0; while (i != 3) { %s i++; }",
    "int k = 3; while (k > 0) { %s k = k - 1; }",
])
def test_a_counted_loop_of_three_reads_as_the_statement_three_times(loop: str) -> None:
    same(java_main(loop % PRINT), java_main(PRINT * 3))


def test_python_and_kotlin_repeat_loops_read_as_the_statements() -> None:
    unrolled = labels('print("Hi")\nprint("Hi")\nprint("Hi")\n', "python")
    assert labels('for _ in range(3):\n    print("Hi")\n', "python") == unrolled
    assert labels('fun main() {\n    repeat(3) { println("Hi") }\n}\n', "kotlin") == unrolled


def test_the_count_matters_and_a_counter_read_keeps_the_loop() -> None:
    three = labels(java_main(PRINT * 3))
    assert labels(java_main(PRINT * 4)) == three  # the count is NUM's literal:
    assert literals(java_main(PRINT * 4)) != literals(java_main(PRINT * 3))  # it differs
    assert labels(java_main("for (int i = 0; i < 3; i++) System.out.println(i);")) != labels(
        java_main("System.out.println(0); System.out.println(1); System.out.println(2);"))
    assert "NUM" in labels(java_main(PRINT * 2))  # a loop, with its count
    # a loop that may stop early, or whose counter is read after it, is no repeat
    for loop in ("for (int i = 0; i < 3; i++) { if (n > i) break; %s }",
                 "int i = 0; while (i < 3) { %s i++; } System.out.println(i);"):
        assert labels(java_main(loop % PRINT)) != three


def test_a_run_of_identical_groups_reads_as_a_loop_of_the_group() -> None:
    group = 'System.out.print("a"); System.out.println();'
    same(java_main(group * 3),
         java_main(f"for (int i = 0; i < 3; i++) {{ {group} }}"))
    assert labels(java_main(group * 3)) != labels(java_main(group * 2 + PRINT))


def test_a_loop_that_never_stops_is_left_alone() -> None:
    looping = labels(java_main(f"for (int i = 0; i < 3; i--) {{ {PRINT} }}"))
    assert looping != labels(java_main(PRINT * 3))
    assert looping.count("ID") > labels(java_main(PRINT * 3)).count("ID")  # counter kept


def test_a_temporary_read_once_reads_as_its_value() -> None:
    same(java_main("while (n != 0) { int r = n % 10; System.out.print(r); n = n / 10; }"),
         java_main("while (n != 0) { System.out.print(n % 10); n = n / 10; }"))
    # declared with a dead first value, or the update written before the print
    same(java_main("int r = 0; while (n != 0) { r = n % 10; n = n / 10; System.out.print(r); }"),
         java_main("while (n != 0) { System.out.print(n % 10); n = n / 10; }"))


def test_python_temporary_reads_as_its_value() -> None:
    same("def f(n):\n    d = n * 2\n    return d + 1\n",
         "def f(n):\n    return n * 2 + 1\n", "python")


def test_a_temporary_whose_inputs_change_before_the_read_stays() -> None:
    # n changes between the store and the print, and the print reads n too
    kept = java_main("int r = n % 10; n = n / 10; System.out.print(r + n);")
    inlined = java_main("n = n / 10; System.out.print(n % 10 + n);")
    assert labels(kept) != labels(inlined)
    assert "assign" in labels(kept)[labels(kept).index("func") + 1:][10:]


@pytest.mark.parametrize(("body", "kept"), [
    ("int r = n % 10; System.out.print(r); System.out.print(r);",  # read twice
     "assign ID % ID NUM"),
    ("int r = n % 10; for (int i = 0; i < n; i++) System.out.print(r);",  # read in a loop
     "assign ID % ID NUM"),
    ("int r = in.nextInt(); System.out.print(r);",  # a call: evaluated where it was
     "assign ID call ID } call ID ID }"),
])
def test_temporaries_that_are_not_inlined(body: str, kept: str) -> None:
    assert kept in " ".join(labels(java_main(body)))


def test_a_kotlin_conversion_reads_its_receiver() -> None:
    """``area.toFloat()`` reads ``area`` (the chain names the callee last):
    read twice, ``area`` is no temporary, as in Java's ``(float) area``."""
    kotlin = labels("fun main() {\n    val sc = Scanner(System.`in`)\n"
                    "    val n = sc.nextDouble()\n    val area = n * 2.0\n"
                    "    val volume = area * 3.0\n    println(area.toFloat())\n"
                    "    println(volume)\n}\n", "kotlin")
    java = labels("class A { public static void main(String[] a) {"
                  " Scanner in = new Scanner(System.in); double n = in.nextDouble();"
                  " double area = n * 2.0;"
                  " double volume = area * 3.0; System.out.println((float) area);"
                  " System.out.println(volume); } }")
    assert kotlin == java
    assert "assign" in kotlin  # area stays a variable


def test_a_store_only_returned_reads_as_the_returned_value() -> None:
    same("class A { static double area(double r) { double a; return a = r * r * 3.14; } }",
         "class A { static double area(double r) { return r * r * 3.14; } }")
    # a field another method reads keeps its store
    kept = labels("class A { double a; double area(double r) { return a = r * r; }"
                  " double last() { return a; } }")
    assert "assign" in kept


@pytest.mark.parametrize("rewritten", [
    'System.out.print("Hi\\n");',
    'System.out.print("Hi"); System.out.println();',
    'System.out.print("Hi"); System.out.println("");',
    'System.out.printf("Hi\\n");',
])
def test_ways_to_print_a_line_read_alike(rewritten: str) -> None:
    same(java_main(rewritten), java_main('System.out.println("Hi");'))
    assert literals(java_main(rewritten)) == literals(java_main('System.out.println("Hi");'))


def test_printing_a_value_then_a_line_break() -> None:
    same(java_main('System.out.print(n + "\\n");'), java_main("System.out.println(n);"))
    same(java_main("System.out.print(n); System.out.println();"),
         java_main("System.out.println(n);"))


def test_line_breaks_that_are_not_the_same_line_stay() -> None:
    one = labels(java_main("System.out.println(n);"))
    # a statement between, or a line printed twice
    assert labels(java_main("System.out.print(n); n = n + 1; System.out.println();")) != one
    assert labels(java_main("System.out.println(n); System.out.println();")) != one
    # Python's print ends the line itself: print(x); print() prints a blank line too
    assert labels("def f(x):\n    print(x)\n    print()\n", "python") != labels(
        "def f(x):\n    print(x)\n", "python")


def test_python_print_reads_as_java_print_and_println() -> None:
    def py(body: str) -> list[str]:
        return labels("def f(x):\n" + "".join(f"    {line}\n" for line in body.split(";")),
                      "python")

    line = py("print(x)")
    assert py('print(x, end="");print()') == line
    assert py('print(x, end="\\n")') == line
    assert py('print(x, end=" ")') != line  # a space, no line break
    assert py('print(x, end="")') == py('print(x, end="")')
    # print("a", x) shows "a x": Java's System.out.println("a " + x)
    java = labels('class A { static void f(int x) { System.out.println("a " + x); } }')
    assert py('print("a", x)') == java[1:-1]  # Java's class token and its end aside


def test_kotlin_print_then_println_reads_as_println() -> None:
    def kt(body: str) -> list[str]:
        return labels("fun f(x: Int) {\n" + "".join(f"    {s}\n" for s in body.split(";"))
                      + "}\n", "kotlin")

    assert kt("print(x);println()") == kt("println(x)")
    assert kt('print("a\\n")') == kt('println("a")')
    assert kt("print(x)") != kt("println(x);println()")


def test_a_loop_that_runs_once_reads_as_its_body_and_never_as_nothing() -> None:
    same(java_main(f"for (int i = 0; i < 1; i++) {{ {PRINT} }}"), java_main(PRINT))
    same(java_main(f"for (int i = 5; i < 5; i++) {{ {PRINT} }} System.out.println(n);"),
         java_main("System.out.println(n);"))


def test_a_square_as_a_power_reads_as_a_product() -> None:
    # Math.pow(n, 2) is a double, n * n an int: test_structural_soundness.py
    assert labels("def f(r):\n    return r ** 2\n", "python") == labels(
        "def f(r):\n    return r * r\n", "python")
    assert labels(java_main("System.out.println(Math.pow(n, 3));")) != labels(
        java_main("System.out.println(n * n * n);"))  # only squares


def test_a_function_ending_in_a_call_of_itself_reads_as_a_loop() -> None:
    loop = labels(java_main("int i = 5; while (i > 0) { System.out.println(i); i--; }"))
    recursive = ("static void f(int i) { if (i > 0) { System.out.println(i); f(i - 1); } }",
                 'static String f(int i) { if (i > 0) { System.out.println(i); return f(--i); }'
                 ' else return ""; }')
    for helper in recursive:
        assert labels(java_main("f(5);", helper)) == loop
    # in Python, and with a parameter that stays as it is
    assert labels("def f(a, i):\n    if i < 3:\n        print(a[i])\n        f(a, i + 1)\n",
                  "python") == labels(
        "def f(a, i):\n    while i < 3:\n        print(a[i])\n        i = i + 1\n", "python")


@pytest.mark.parametrize("helper", [
    # the call is not last: work after it runs once per level, on the way back
    "static void f(int i) { if (i > 0) { f(i - 1); System.out.println(i); } }",
    # code after the branch runs once per level after a plain call
    "static void f(int i) { if (i > 0) { System.out.println(i); f(i - 1); }"
    " System.out.println(0); }",
    # an argument reads another parameter: they are set at once
    "static void f(int i, int j) { if (i > 0) { System.out.println(i); f(j, i - 1); } }",
])
def test_recursion_that_is_no_loop_stays(helper: str) -> None:
    stream = labels(java_main("f(5, 1);" if "int j" in helper else "f(5);", helper))
    assert stream.count("func") == 2  # f is still a function of its own (recursive)
