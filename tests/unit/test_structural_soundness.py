"""Soundness of the structural rules: two programs that behave differently
must read differently (else unrelated solutions look copied).  Each test is a
counterexample pair that a rule once read alike."""

from __future__ import annotations

from tests.unit.test_structural_rules import java_main
from winnow.frontends import FrontEndOptions, make_document
from winnow.frontends.structural.ir import N, leaf
from winnow.frontends.structural.prints import lines

_COUNT = "static int count; static void inc() { count++; }"


def streams(source: str, lang: str) -> tuple[list[int], list[int]]:
    """The neutral stream's units and its literal channel (literals by value)."""
    ext = {"java": "java", "python": "py"}[lang]
    doc = make_document(source.encode(), f"x.{ext}", frontend="structural",
                        options=FrontEndOptions(lexical=False))
    assert doc.warnings == ()
    assert doc.stream.literal_units is not None
    return doc.stream.units.tolist(), doc.stream.literal_units.tolist()


def differ(a: str, b: str, lang: str = "java") -> None:
    assert streams(a, lang) != streams(b, lang)


def test_a_temporary_of_a_field_is_not_moved_past_a_call() -> None:
    differ(java_main("int t = count; inc(); inc(); System.out.println(t);", _COUNT),
           java_main("inc(); inc(); System.out.println(count);", _COUNT))
    glob = "total = 0\n\ndef bump():\n    global total\n    total += 1\n\n"
    differ(glob + "def f():\n    t = total\n    bump()\n    print(t)\n",
           glob + "def f():\n    bump()\n    print(total)\n", "python")


def test_a_temporary_of_memory_is_not_read_after_an_effect() -> None:
    bump = "static int bump(int[] a) { a[0]++; return 1; }"
    differ(java_main("int[] a = new int[3]; int t = a[0];"
                     " System.out.println(bump(a) + t);", bump),
           java_main("int[] a = new int[3]; System.out.println(bump(a) + a[0]);", bump))
    differ("def f(a):\n    t = a[0]\n    print(a.pop(0) + t)\n",
           "def f(a):\n    print(a.pop(0) + a[0])\n", "python")


def test_a_comprehension_rebinding_an_input_keeps_the_temporary() -> None:
    differ("def f(x):\n    t = x * 2\n    return [t for x in range(3)]\n",
           "def f(x):\n    return [x * 2 for x in range(3)]\n", "python")


def test_a_store_to_a_field_another_function_reads_stays() -> None:
    members = "static int total; static void g() { System.out.println(total); }"
    differ(f"class A {{ {members} static void f(int n) {{ total = n * 2;"
           " System.out.println(total); } }",
           f"class A {{ {members} static void f(int n) {{ System.out.println(n * 2); }} }}")


def test_a_plain_self_call_in_a_function_returning_a_value_is_no_loop() -> None:
    differ("def f(i):\n    if i > 0:\n        print(i)\n        f(i - 1)\n"
           "    else:\n        return 5\n",
           "def f(i):\n    while i > 0:\n        print(i)\n        i = i - 1\n"
           "    return 5\n", "python")


def test_a_post_decremented_argument_is_no_step() -> None:
    def rec(arg: str) -> str:
        return (f"class A {{ static void f(int i) {{ if (i > 0) {{"
                f" System.out.println(i); f({arg}); }} }} }}")
    differ(rec("i--"), rec("--i"))


def test_a_field_counter_read_after_the_loop_is_no_repeat() -> None:
    members = "static int i; static void show() { System.out.println(i); }"
    hi = 'System.out.println("Hi");'
    differ(java_main(f"for (i = 0; i < 3; i++) {hi} show(); show();", members),
           java_main(f"{hi}{hi}{hi} show(); show();", members))


def test_a_break_ends_only_a_print_of_one_value() -> None:
    # Go's fmt.Print("a", "b\n") prints "ab\n", fmt.Println("a", "b") "a b\n"
    # (tested on the tree: the rule is language-neutral)
    call = N("call", 0, 9, [leaf("id", 0, 1, "Print"), leaf("str", 2, 3, "a"),
                            leaf("str", 4, 5, "b\\n")], "fmt")
    [stmt] = lines([N("expr", 0, 9, [call])])
    assert [k.text for k in stmt.kids[0].kids] == ["Print", "a", "b\\n"]
    one = N("call", 0, 9, [leaf("id", 0, 1, "Print"), leaf("str", 4, 5, "b\\n")], "fmt")
    [stmt] = lines([N("expr", 0, 9, [one])])
    assert [k.text for k in stmt.kids[0].kids] == ["println", "b"]


def test_python_print_separator_is_read() -> None:
    differ('def f(a, b):\n    print(a, b, sep="")\n',
           "def f(a, b):\n    print(a, b)\n", "python")


def test_math_pow_is_not_a_product() -> None:
    differ(java_main("System.out.println(Math.pow(n, 2));"),
           java_main("System.out.println(n * n);"))


def test_a_generator_rebinding_an_input_keeps_the_temporary() -> None:
    differ("def f(x):\n    t = x * 2\n    return sum(t for x in range(3))\n",
           "def f(x):\n    return sum(x * 2 for x in range(3))\n", "python")


def test_a_print_to_another_file_is_not_a_print() -> None:
    differ("import sys\n\ndef f(x):\n    print(x, file=sys.stderr)\n",
           "import sys\n\ndef f(x):\n    print(x)\n", "python")
    same = "import sys\n\ndef f(x):\n    print(x, file=sys.stderr)\n"
    assert streams(same, "python") == streams(same.replace("(x, ", "(x , "), "python")
