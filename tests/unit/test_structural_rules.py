"""One test per normalisation rule of the structural front-end: a rewritten
snippet and its original give the same stream (and a change that matters
gives a different one)."""

from __future__ import annotations

import pytest

from winnow.frontends import FrontEndOptions, make_document


def labels(source: str, lang: str = "java") -> list[str]:
    """The neutral stream (the rules are about it: the lexer's tokens that
    follow it by default are left out)."""
    ext = {"java": "java", "python": "py", "kotlin": "kt", "c": "c", "cpp": "cpp",
           "csharp": "cs", "javascript": "js", "typescript": "ts", "go": "go"}[lang]
    doc = make_document(source.encode(), f"x.{ext}", frontend="structural",
                        options=FrontEndOptions(lexical=False))
    assert doc.warnings == ()
    return [doc.stream.labels[u] for u in doc.stream.units.tolist()]


def java_main(body: str, members: str = "") -> str:
    return (f"class A {{ {members}\n public static void main(String[] a) {{\n"
            f"  Scanner in = new Scanner(System.in); int n = in.nextInt();\n{body}\n }} }}")


def same(a: str, b: str, lang: str = "java") -> None:
    assert labels(a, lang) == labels(b, lang)


def test_for_and_while_read_alike() -> None:
    same(java_main("for (int i = 0; i < n; i++) { System.out.println(i); }"),
         java_main("int i = 0; while (i < n) { System.out.println(i); i++; }"))


def test_do_while_reads_as_a_loop() -> None:
    same(java_main("int i = 0; do { System.out.println(i); i++; } while (i < n);"),
         java_main("int i = 0; while (i < n) { System.out.println(i); i = i + 1; }"))


@pytest.mark.parametrize("step", ["n++;", "++n;", "n += 1;", "n = n + 1;"])
def test_increments_read_alike(step: str) -> None:
    same(java_main(f"{step} System.out.println(n);"),
         java_main("n = n + 1; System.out.println(n);"))


def test_decrement_differs_from_increment() -> None:
    assert labels(java_main("n--; System.out.println(n);")) != labels(
        java_main("n++; System.out.println(n);"))


def test_negated_if_with_else_is_swapped() -> None:
    same(java_main('if (!(n < 3)) System.out.println("a"); else System.out.println(n);'),
         java_main('if (n < 3) System.out.println(n); else System.out.println("a");'))


def test_not_equal_with_else_is_swapped() -> None:
    same(java_main('if (n != 3) System.out.println("a"); else System.out.println(n);'),
         java_main('if (n == 3) System.out.println(n); else System.out.println("a");'))


@pytest.mark.parametrize(("a", "b"), [("n > 3", "3 < n"), ("n >= 3", "3 <= n"),
                                      ("n == 3", "3 == n")])
def test_comparisons_read_alike(a: str, b: str) -> None:
    same(java_main(f"if ({a}) System.out.println(n);"),
         java_main(f"if ({b}) System.out.println(n);"))


def test_ternary_assignment_reads_as_if() -> None:
    same(java_main("int m = n > 3 ? n : 3; System.out.println(m);"),
         java_main("int m; if (3 < n) m = n; else m = 3; System.out.println(m);"))


def test_ternary_return_reads_as_if() -> None:
    same("class A { int f(int n) { return n > 3 ? n : 3; } }",
         "class A { int f(int n) { if (n > 3) return n; else return 3; } }")


def test_nested_ifs_read_as_a_compound_condition() -> None:
    same(java_main("if (n > 3) { if (n < 9) { System.out.println(n); } }"),
         java_main("if (n > 3 && n < 9) System.out.println(n);"))


def test_early_return_reads_as_else() -> None:
    same("class A { int f(int n) { if (n < 0) { return 0; } n = n * 2; return n; } }",
         "class A { int f(int n) { if (n < 0) { return 0; } else { n = n * 2; return n; } } }")


def test_concatenation_and_format_read_alike() -> None:
    same(java_main('System.out.println("n = " + n + "!");'),
         java_main('System.out.println(String.format("n = %d!", n));'))


def test_unreachable_code_is_dropped() -> None:
    same("class A { int f(int n) { return n; } }",
         "class A { int f(int n) { return n; n = 2; } }")


def test_unused_variable_is_dropped() -> None:
    same(java_main("int unused = n * 2; System.out.println(n);"),
         java_main("System.out.println(n);"))


def test_unused_variable_keeps_its_call() -> None:
    assert labels(java_main("int unused = in.nextInt(); System.out.println(n);")) != labels(
        java_main("System.out.println(n);"))


def test_dead_store_is_dropped() -> None:
    same(java_main("int r = 0; r = n % 10; System.out.println(r);"),
         java_main("int r = n % 10; System.out.println(r);"))


def test_no_op_statement_is_dropped() -> None:
    same(java_main("n; System.out.println(n);"), java_main("System.out.println(n);"))


def test_independent_statements_in_canonical_order() -> None:
    same(java_main("int a = n * 2; int b = n + 1; System.out.println(a - b);"),
         java_main("int b = n + 1; int a = n * 2; System.out.println(a - b);"))


def test_dependent_statements_keep_their_order() -> None:
    assert labels(java_main("n = n * 2; n = n + 1; System.out.println(n);")) != labels(
        java_main("n = n + 1; n = n * 2; System.out.println(n);"))


def test_output_statements_keep_their_order() -> None:
    assert labels(java_main('System.out.println("a"); System.out.println(n);')) != labels(
        java_main('System.out.println(n); System.out.println("a");'))


def test_class_members_in_canonical_order() -> None:
    f = "int f(int x) { return g(x) * g(x + 1); } "
    g = "int g(int y) { if (y > 0) { return y; } return -y; } "
    same(f"class A {{ {f}{g} }}", f"class A {{ {g}{f} }}")


def test_top_level_declarations_in_canonical_order() -> None:
    f = "def f(x):\n    return g(x) * g(x + 1)\n"
    g = "def g(y):\n    if y > 0:\n        return y\n    return -y\n"
    same(f + g + "print(f(2))\n", g + f + "print(f(2))\n", "python")


def test_imports_do_not_matter() -> None:
    same("import java.util.Scanner;\nimport java.io.*;\n" + java_main("System.out.println(n);"),
         java_main("System.out.println(n);"))


def test_helper_called_once_reads_as_inlined() -> None:
    helper = "static void show(int v) { System.out.println(v * 2); System.out.println(v); } "
    same(java_main("show(n);", helper),
         java_main("System.out.println(n * 2); System.out.println(n);"))


def test_helper_returning_a_value_reads_as_inlined() -> None:
    helper = "static int read(Scanner s) { System.out.print(\"x\"); return s.nextInt(); } "
    same(java_main("int m = read(in); System.out.println(m + n);", helper),
         java_main("System.out.print(\"x\"); int m = in.nextInt(); System.out.println(m + n);"))


def test_helper_called_twice_is_kept() -> None:
    helper = "static void show(int v) { System.out.println(v * 2); System.out.println(v); } "
    assert labels(java_main("show(n); show(n + 1);", helper)) != labels(java_main(
        "System.out.println(n * 2); System.out.println(n);"
        "System.out.println((n + 1) * 2); System.out.println(n + 1);"))


def test_one_expression_helper_inlined_at_every_call() -> None:
    helper = "static double sq(double v) { return v * v; } "
    same(java_main("System.out.println(sq(n) + sq(n + 1));", helper),
         java_main("System.out.println(n * n + (n + 1) * (n + 1));"))


def test_qualified_and_imported_names_read_alike() -> None:
    same("class A { void f() { java.util.Scanner s = new java.util.Scanner(System.in);"
         " System.out.println(s.nextInt()); } }",
         "import java.util.Scanner; class A { void f() { Scanner s = new Scanner(System.in);"
         " System.out.println(s.nextInt()); } }")


def test_python_range_loop_reads_as_counted_loop() -> None:
    same("def f(n):\n    for i in range(n):\n        print(i)\n",
         "def f(n):\n    i = 0\n    while i < n:\n        print(i)\n        i += 1\n", "python")


def test_python_fstring_reads_as_concatenation() -> None:
    same('def f(n):\n    print(f"n = {n}!")\n', 'def f(n):\n    print("n = " + n + "!")\n',
         "python")


def test_java_and_python_read_alike() -> None:
    java = ("class A { static int f(int n) { int s = 0; for (int i = 0; i < n; i++) "
            "{ s += i * i; } return s; } }")
    python = "def f(n):\n    s = 0\n    for i in range(n):\n        s += i * i\n    return s\n"
    body = [t for t in labels(java) if t != "class"]
    assert body[:-1] == labels(python, "python")


def test_conversions_read_as_their_argument() -> None:
    same("def f(s):\n    n = int(s)\n    print(n)\n", "def f(s):\n    n = s\n    print(n)\n",
         "python")
    same(java_main("int m = Integer.parseInt(\"7\"); System.out.println(m + n);"),
         java_main("int m = \"7\"; System.out.println(m + n);"))


def test_prompting_read_reads_as_print_then_read() -> None:
    same('def f():\n    n = input("n? ")\n    print(n)\n',
         'def f():\n    print("n? ")\n    n = input()\n    print(n)\n', "python")


def test_layout_keywords_and_floor_division() -> None:
    same('def f(n):\n    print(n // 10, end="")\n', "def f(n):\n    print(n / 10)\n", "python")


def test_kotlin_if_expression_reads_as_java_ternary() -> None:
    kotlin = "fun f(n: Int): Int {\n    val m = if (n > 3) n else 3\n    return m * 2\n}\n"
    java = "class A { int f(int n) { int m = n > 3 ? n : 3; return m * 2; } }"
    assert labels(kotlin, "kotlin") == [t for t in labels(java) if t != "class"][:-1]


def test_helper_named_like_a_library_method_is_inlined() -> None:
    helper = "static void print(int[] a) { for (int i = 9; i >= 0; i--) System.out.print(a[i]); } "
    same(java_main("int[] v = new int[10]; v[0] = n; print(v);", helper),
         java_main("int[] v = new int[10]; v[0] = n;"
                   " for (int i = 9; i >= 0; i--) System.out.print(v[i]);"))


def test_counter_compared_with_not_equal_reads_as_less_than() -> None:
    same(java_main("int i = 0; while (i != n) { System.out.println(i); i++; }"),
         java_main("for (int i = 0; i < n; i++) System.out.println(i);"))


def test_not_equal_without_a_counter_stays() -> None:
    assert labels(java_main("while (n != 0) { System.out.println(n); n = n / 10; }")) != labels(
        java_main("while (n < 0) { System.out.println(n); n = n / 10; }"))


def test_helper_with_a_temporary_is_inlined_at_every_call() -> None:
    helper = "static double area(double r) { double a = r * r * 3.14; return a; } "
    same(java_main("System.out.println(area(n)); System.out.println(area(n + 1) * 2);", helper),
         java_main("System.out.println(n * n * 3.14);"
                   " System.out.println((n + 1) * (n + 1) * 3.14 * 2);"))


def test_field_read_by_one_method_reads_as_its_local() -> None:
    same("class A { static Scanner in = new Scanner(System.in);\n"
         " public static void main(String[] a) { int n = in.nextInt(); System.out.println(n); } }",
         "class A { public static void main(String[] a) {\n"
         " Scanner in = new Scanner(System.in); int n = in.nextInt(); System.out.println(n); } }")


def test_field_written_by_a_method_stays_a_field() -> None:
    assert labels("class A { static int c = 0; void f() { c = c + 1; } void g() { "
                  "System.out.println(c); } }") != labels(
        "class A { void f() { c = c + 1; } void g() { int c = 0; System.out.println(c); } }")


@pytest.mark.parametrize("made, read", [
    ("int[] s = {n, 2, 3};", "System.out.println(s.length);"),
    ('String s = n + "x";', "System.out.println(s.length());"),
])
def test_a_length_read_keeps_the_variable_it_reads(made: str, read: str) -> None:
    """``s.length`` reads ``s``: the assignment it reads is not a dead store."""
    alone = read.replace("s.", "n.")
    assert labels(java_main(made + " " + read)) != labels(java_main(alone))


def test_python_len_keeps_the_list_it_reads() -> None:
    assert labels("def f(k):\n    a = [k, 2, 3]\n    print(len(a))\n", "python") != labels(
        "def f(k):\n    print(len(k))\n", "python")


# -- the entry point -----------------------------------------------------------
JAVA_HELLO = ('public class Hello { public static void main(String[] args) {\n'
              '  int n = 3; System.out.println("hi " + n); } }')


@pytest.mark.parametrize("source, lang", [
    ('fun main() {\n    val n = 3\n    println("hi " + n)\n}\n', "kotlin"),
    ('fun main(args: Array<String>) {\n    val n = 3\n    println("hi $n")\n}\n', "kotlin"),
    ('n = 3\nprint("hi " + str(n))\n', "python"),
    ('def main():\n    n = 3\n    print(f"hi {n}")\n\n\nmain()\n', "python"),
    ('def main():\n    n = 3\n    print("hi", n)\n\n\nif __name__ == "__main__":\n    main()\n',
     "python"),
])
def test_the_entry_point_reads_as_one_main_without_parameters(source: str, lang: str) -> None:
    """Java's class around ``main``, ``main``'s parameters and Python's
    ``__main__`` guard vanish, and a script's statements read as ``main``'s
    body: a script and its ``main`` read alike."""
    java = labels(JAVA_HELLO)
    assert "class" not in java and "param" not in java and java[0] == "func"
    assert labels(source, lang) == java


def test_a_class_without_main_and_a_main_called_twice_stay() -> None:
    assert labels("class A { void f() { g(); } }")[0] == "class"
    twice = "def main():\n    print(1)\n\n\nmain()\nmain()\n"
    assert labels(twice, "python")[:2] == ["func", "call"]  # main, then the calls


def test_a_global_that_a_function_reads_stays_outside_main() -> None:
    script = ("seen = [0]\n\n\ndef f(n):\n    if n in seen:\n        print(n)\n\n\n"
              "f(1)\nf(2)\n")
    # seen stays global: otherwise it would read as main's unused local
    assert labels(script, "python").count("assign") == 1


# -- arrays and lists ------------------------------------------------------------
@pytest.mark.parametrize("source, lang", [
    ("fun f(n: Int) {\n    val m = Array(4) { DoubleArray(n) }\n    println(m)\n}\n", "kotlin"),
    ("def f(n):\n    m = [[0.0] * n for _ in range(4)]\n    print(m)\n", "python"),
    ("def f(n):\n    m = [[0.0 for j in range(n)] for i in range(4)]\n    print(m)\n", "python"),
])
def test_arrays_of_a_size_read_alike(source: str, lang: str) -> None:
    java = labels("class A { void f(int n) { double[][] m = new double[4][n];"
                  " System.out.println(m); } }")[1:-1]  # without the class
    assert labels(source, lang) == java


def test_one_dimensional_arrays_read_alike() -> None:
    java = labels("class A { void f(int n) { int[] a = new int[n]; a[0] = 1;"
                  " System.out.println(a); } }")[1:-1]
    assert labels("fun f(n: Int) {\n    val a = IntArray(n)\n    a[0] = 1\n    println(a)\n}\n",
                  "kotlin") == java
    assert labels("def f(n):\n    a = [0] * n\n    a[0] = 1\n    print(a)\n", "python") == java
    # a list of copies of a variable is not an empty array
    assert labels("def f(n, k):\n    a = [k] * n\n    a[0] = 1\n    print(a)\n",
                  "python") != labels("def f(n, k):\n    a = [0] * n\n    a[0] = 1\n"
                                      "    print(a)\n", "python")


def test_an_unused_array_vanishes() -> None:
    same(java_main("int[] a = new int[n]; System.out.println(n);"),
         java_main("System.out.println(n);"))


def test_lists_written_out_read_alike() -> None:
    java = labels("class A { void f(int n) { int[] a = new int[] {n, 2};"
                  " System.out.println(a); } }")[1:-1]
    assert labels("class A { void f(int n) { int[] a = {n, 2}; System.out.println(a); } }"
                  )[1:-1] == java
    assert labels("fun f(n: Int) {\n    val a = intArrayOf(n, 2)\n    println(a)\n}\n",
                  "kotlin") == java
    assert labels("fun f(n: Int) {\n    val a = listOf(n, 2)\n    println(a)\n}\n",
                  "kotlin") == java
    assert labels("def f(n):\n    a = [n, 2]\n    print(a)\n", "python") == java


# -- Kotlin ------------------------------------------------------------------------
def test_kotlin_repeat_reads_as_a_counted_loop() -> None:
    counted = labels("fun f(n: Int) {\n    for (it in 0 until n) {\n        println(it)\n"
                     "    }\n}\n", "kotlin")
    assert labels("fun f(n: Int) {\n    repeat(n) {\n        println(it)\n    }\n}\n",
                  "kotlin") == counted
    assert "loop" in counted


def test_kotlin_trailing_lambda_is_read() -> None:
    """``xs.forEach { println(it) }``: the lambda is the call's last argument
    (it was lost before)."""
    assert labels("fun f(xs: List<Int>) {\n    xs.forEach { println(it) }\n}\n",
                  "kotlin") != labels("fun f(xs: List<Int>) {\n    xs.forEach { }\n}\n",
                                      "kotlin")


@pytest.mark.parametrize("loop", ["for (i in a.indices)", "for (i in 0 until a.size)",
                                  "for (i in 0..a.size - 1)"])
def test_kotlin_counted_loops_read_as_java_and_python(loop: str) -> None:
    java = labels("class A { void f(int[] a) { for (int i = 0; i < a.length; i++)"
                  " System.out.println(a[i]); } }")[1:-1]
    python = labels("def f(a):\n    for i in range(len(a)):\n        print(a[i])\n", "python")
    kotlin = labels(f"fun f(a: IntArray) {{\n    {loop} println(a[i])\n}}\n", "kotlin")
    assert python == java
    assert kotlin == java


def test_kotlin_string_templates_read_as_concatenation() -> None:
    java = labels('class A { void f(int n) { System.out.println("n = " + n + ", next "'
                  ' + (n + 1)); } }')[1:-1]
    assert labels('fun f(n: Int) {\n    println("n = $n, next ${n + 1}")\n}\n',
                  "kotlin") == java


def test_self_assignment_vanishes() -> None:
    same(java_main("n = n; System.out.println(n);"), java_main("System.out.println(n);"))
    assert labels("class A { int x; A(int x) { this.x = x; } }") != labels(
        "class A { int x; A(int x) { } }")


# -- rules without a test before -------------------------------------------------------
def test_constant_conditions_keep_the_branch_taken() -> None:
    same(java_main("if (true) System.out.println(n); else System.out.println(1);"),
         java_main("System.out.println(n);"))
    same(java_main("if (false) System.out.println(n); System.out.println(2);"),
         java_main("System.out.println(2);"))


def test_double_negation_reads_as_the_condition() -> None:
    same(java_main("boolean b = n > 0; if (!!b) System.out.println(n);"),
         java_main("boolean b = n > 0; if (b) System.out.println(n);"))


def test_printf_and_format_read_as_concatenation() -> None:
    same(java_main('System.out.printf("%d items, %.2f each%n", n, 0.5);'),
         java_main('System.out.print(n + " items, " + 0.5 + " each");'))
    same(java_main('String s = String.format("[%s]", n); System.out.println(s);'),
         java_main('String s = "[" + n + "]"; System.out.println(s);'))
    same('def f(n):\n    print("{} items".format(n))\n', 'def f(n):\n    print(n + " items")\n',
         "python")


def test_minus_one_is_a_number_counting_down() -> None:
    java = labels("class A { void f(int[] a) { for (int i = 9; i >= 0; i--)"
                  " System.out.println(a[i]); } }")[1:-1]
    assert labels("def f(a):\n    for i in range(9, -1, -1):\n        print(a[i])\n",
                  "python") == java
    assert labels("fun f(a: IntArray) {\n    for (i in 9 downTo 0) println(a[i])\n}\n",
                  "kotlin") == java


# -- constants ---------------------------------------------------------------------
def test_a_named_constant_reads_as_its_literal() -> None:
    same(java_main("System.out.println(GREETING + n);",
                   'static final String GREETING = "Hi ";'),
         java_main('System.out.println("Hi " + n);'))
    same(java_main('String s = "Hi"; System.out.println(s); System.out.println(s);'),
         java_main('System.out.println("Hi"); System.out.println("Hi");'))
    same("LIMIT = 10\n\n\ndef f(n):\n    return n < LIMIT\n", "def f(n):\n    return n < 10\n",
         "python")


def test_a_variable_set_twice_or_a_parameter_is_not_a_constant() -> None:
    assert labels(java_main("int m = 1; if (n > 3) m = 2; System.out.println(m);")) != labels(
        java_main("if (n > 3) System.out.println(2); System.out.println(1);"))
    twice = labels("def f(k):\n    print(k)\n\n\ndef g():\n    k = 3\n    print(k)\n", "python")
    assert twice.count("NUM") == 1 and twice.count("ID") > 2  # f's k stays a name


def test_making_a_reader_of_standard_input_has_no_effect() -> None:
    """``new Scanner(System.in)`` shows nothing: it moves freely past a prompt."""
    prompt = 'System.out.print("n? ");'
    reader = "java.util.Scanner in = new java.util.Scanner(System.in);"
    read = "int n = in.nextInt(); System.out.println(n);"
    wrapped = ("java.io.BufferedReader in = new java.io.BufferedReader("
               "new java.io.InputStreamReader(System.in));")
    body = labels(f"class A {{ void f() {{ {reader} {prompt} {read} }} }}")
    assert labels(f"class A {{ void f() {{ {prompt} {reader} {read} }} }}") == body
    assert labels(f"class A {{ void f() {{ {prompt} {wrapped} {read} }} }}") == labels(
        f"class A {{ void f() {{ {wrapped} {prompt} {read} }} }}")
    # a reader of a file is an effect: it stays where it was
    other = "java.util.Scanner in = new java.util.Scanner(file);"
    assert labels(f"class A {{ void f() {{ {prompt} {other} {read} }} }}") != labels(
        f"class A {{ void f() {{ {other} {prompt} {read} }} }}")


def test_a_store_the_function_never_reads_vanishes() -> None:
    loop = "while (n > 0) { r = n % 10; System.out.print(r); n = n / 10; }"
    same(java_main(f"int r = 0; {loop}"), java_main(f"int r; {loop}"))
    # read in the next turn of the loop: kept
    counted = "while (n > 0) { System.out.print(r); r = n % 10; n = n / 10; }"
    assert labels(java_main(f"int r = 0; {counted}")) != labels(java_main(f"int r; {counted}"))


def test_helper_called_with_the_same_arguments_reads_as_one_temporary() -> None:
    helper = "static double bmi(double w, double h) { return w / (h * h); } "
    calls = ('System.out.println("BMI " + bmi(n, 2.0)); if (bmi(n, 2.0) < 18.5) '
             'System.out.println("low"); else if (bmi(n, 2.0) < 25) System.out.println("ok");')
    temporary = ('double b = n / (2.0 * 2.0); System.out.println("BMI " + b); if (b < 18.5) '
                 'System.out.println("low"); else if (b < 25) System.out.println("ok");')
    same(java_main(calls, helper), java_main(temporary))
    # an argument written between the calls: each call reads its own value
    moved = calls.replace("if (bmi", "n = n + 1; if (bmi")
    assert labels(java_main(moved, helper)) != labels(
        java_main(temporary.replace("if (b", "n = n + 1; if (b")))


def test_kotlin_do_while_this_and_raw_strings_read_as_java() -> None:
    kotlin = ('class A(val n: Int) {\n    fun f() {\n        var i = 0\n        do {\n'
              '            println(this.n + i)\n            i++\n        } while (i < n)\n'
              '        println("""n = $n""")\n    }\n}\n')
    java = ("class A { int n; void f() { int i = 0; do { System.out.println(this.n + i); i++; }"
            ' while (i < n); System.out.println("n = " + n); } }')
    assert labels(kotlin, "kotlin") == labels(java)
    assert "loop" in labels(kotlin, "kotlin")


def test_kotlin_throw_and_try_are_read() -> None:
    """A ``throw`` ends its block (what follows is unreachable), in Kotlin too."""
    same('fun f(n: Int) {\n    if (n < 0) {\n        throw IllegalStateException("neg")\n'
         '        println(n)\n    }\n}\n',
         'fun f(n: Int) {\n    if (n < 0) {\n        throw IllegalStateException("neg")\n'
         '    }\n}\n', "kotlin")
    assert "try" in labels("fun f(a: IntArray) {\n    val t = try { a[0] } catch (e: Exception)"
                           " { 0 }\n    println(t)\n}\n", "kotlin")


def test_a_field_updated_by_a_method_stays() -> None:
    """``total = total + x`` reads what an earlier call left: not a dead store."""
    method = labels("class A { int total; void add(int x) { total = total + x; } }")
    assert "assign" in method


# -- a whole program and its translations ----------------------------------------
JAVA_SQUARES = """public class Squares {
    static final int N = 10;

    public static void main(String[] args) {
        int[] squares = new int[N];
        for (int i = 0; i < N; i++) {
            squares[i] = i * i;
        }
        for (int i = N - 1; i >= 0; i--) {
            System.out.println("square " + i + " = " + squares[i]);
        }
    }
}
"""
PYTHON_SQUARES = """N = 10


def main():
    squares = [0] * N
    for i in range(N):
        squares[i] = i * i
    for i in range(N - 1, -1, -1):
        print(f"square {i} = {squares[i]}")


if __name__ == "__main__":
    main()
"""
KOTLIN_SQUARES = """const val N = 10

fun main() {
    val squares = IntArray(N)
    for (i in squares.indices) {
        squares[i] = i * i
    }
    for (i in N - 1 downTo 0) {
        println("square $i = ${squares[i]}")
    }
}
"""


def test_a_program_and_its_translations_read_alike() -> None:
    """The entry point, a named constant, array making, counted loops in each
    language's idiom and string templates together: one stream."""
    java = labels(JAVA_SQUARES)
    assert labels(PYTHON_SQUARES, "python") == java
    kotlin = labels(KOTLIN_SQUARES, "kotlin")
    # squares.indices reads as 0 until squares.size, where Java says N: one ID for a NUM
    assert len(kotlin) == len(java)
    assert sum(a != b for a, b in zip(kotlin, java, strict=True)) == 1


def test_whole_number_arithmetic_on_literals_is_folded() -> None:
    same(java_main("for (int i = 10 - 1; i >= 0; i--) System.out.println(i * n);"),
         java_main("for (int i = 9; i >= 0; i--) System.out.println(i * n);"))
    same(java_main("System.out.println(n * (2 * 3));"), java_main("System.out.println(n * 6);"))
    assert labels(java_main("System.out.println(n * (2.5 * 3));")) != labels(
        java_main("System.out.println(n * 7.5);"))  # not whole numbers: kept


def test_a_counter_reused_by_two_loops_is_two_variables() -> None:
    """Two independent loops may be written in either order; reusing ``i``
    for both must not pin them to the order they were written in."""
    first = "int s = 0; for (int i = 0; i < n; i++) s += i;"
    second = "int t = 0; for (int i = 0; i < 5; i++) t += 2;"
    second_j = second.replace("(int i", "(int j").replace("i < 5; i++", "j < 5; j++")
    end = " System.out.println(s + t);"
    same(java_main(first + " " + second + end), java_main(second_j + " " + first + end))
    # a value read after the second loop is that loop's: the order still holds
    # (k read twice, so that it stays a variable: a temporary read once is inlined)
    reused = java_main("int i = 0; while (i < n) i++; int k = i; i = 0; while (i < 5) i++;"
                       " System.out.println(k + i); System.out.println(k);")
    stream = labels(reused)
    copy_at = next(i for i in range(len(stream)) if stream[i:i + 3] == ["assign", "ID", "ID"])
    assert stream.index("loop") < copy_at  # k = i after the loop that counts i


def test_kotlin_numbers_and_ranges_read_as_numbers_and_loops() -> None:
    kotlin = labels("fun f(m: Int) {\n    println(m * 1.609)\n    for (i in 1..m) println(i)\n}\n",
                    "kotlin")
    java = labels("class A { void f(int m) { System.out.println(m * 1.609);"
                  " for (int i = 1; i <= m; i++) System.out.println(i); } }")[1:-1]
    assert kotlin == java


def test_python_print_of_several_values_reads_as_a_concatenation() -> None:
    java = labels('class A { void f(int n, int m) { System.out.println("Sum: " + n + " " + m); } }')
    assert labels('def f(n, m):\n    print("Sum:", n, m)\n', "python") == java[1:-1]
    # adjacent literals are one literal: "a" + " " is "a "
    same(java_main('System.out.println("Sum:" + " " + n);'),
         java_main('System.out.println("Sum: " + n);'))


def test_kotlin_not_null_assertion_reads_as_its_value() -> None:
    same("fun main() {\n    val n = readLine()!!.toInt()\n    println(n)\n}\n",
         "fun main() {\n    val n = readln().toInt()\n    println(n)\n}\n", "kotlin")


def test_powers_read_alike() -> None:
    # cubes: a square reads as x * x (test_structural_repeats.py)
    java = labels("class A { double f(double x) { return Math.pow(x, 3) + 1; } }")[1:-1]
    assert labels("def f(x):\n    return x ** 3 + 1\n", "python") == java
    assert labels("import kotlin.math.pow\n\nfun f(x: Double): Double {\n"
                  "    return x.pow(3) + 1\n}\n", "kotlin") == java
    assert "pow" in java


def test_a_counted_loop_over_the_elements_reads_as_the_element_loop() -> None:
    java = labels("class A { int f(int[] a) { int s = 0; for (int v : a) s += v; return s; } }")
    assert java[1:-1] == labels("class A { int f(int[] a) { int s = 0; for (int i = 0;"
                                " i < a.length; i++) s += a[i]; return s; } }")[1:-1]
    assert labels("def f(a):\n    s = 0\n    for v in a:\n        s += v\n    return s\n",
                  "python") == java[1:-1]
    assert labels("def f(a):\n    s = 0\n    for i in range(len(a)):\n        s += a[i]\n"
                  "    return s\n", "python") == java[1:-1]
    assert labels("fun f(a: IntArray): Int {\n    var s = 0\n    for (i in 0 until a.size) {\n"
                  "        s += a[i]\n    }\n    return s\n}\n", "kotlin") == java[1:-1]


@pytest.mark.parametrize("body", [
    "s += a[i] * i;",  # the counter read on its own
    "a[i] = s;",  # an element written
    "s += a[i + 1];",  # another element
])
def test_a_counted_loop_that_needs_its_counter_stays_counted(body: str) -> None:
    assert "in" not in labels(f"class A {{ int f(int[] a) {{ int s = 0; for (int i = 0;"
                              f" i < a.length; i++) {{ {body} }} return s; }} }}")


@pytest.mark.parametrize("line", ['r, l = map(float, input("r and l? ").split())',
                                  'r, l = input("r and l? ").split()',
                                  'r, l = map(float, input("r and l? ").split(" "))'])
def test_python_unpacked_reads_read_as_one_read_per_name(line: str) -> None:
    one_by_one = ('def f():\n    print("r and l? ")\n    r = float(input())\n'
                  '    l = float(input())\n    print(r * l)\n')
    same(f"def f():\n    {line}\n    print(r * l)\n", one_by_one, "python")


def test_python_swap_is_not_a_read() -> None:
    assert "call" not in labels("def f(a, b):\n    a, b = b, a\n    return a - b\n", "python")


def test_kotlin_destructured_reads_read_as_one_read_per_name() -> None:
    kotlin = ('fun main() {\n    val (r, l) = readln().split(" ").map { it.toDouble() }\n'
              '    println(r * l)\n}\n')
    python = "r, l = map(float, input().split())\nprint(r * l)\n"
    assert labels(kotlin, "kotlin") == labels(python, "python")
