"""The structural front-end as a front-end: offsets, fall-backs, languages."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from winnow.cli.main import main
from winnow.frontends import FrontEndOptions, make_document
from winnow.frontends.structural import NEUTRAL_WEIGHT, supports, with_lexical
from winnow.model import Stream

PROGRAMS = {
    "java": ("x.java", "class A { int f(int n) { int s = 0; for (int i = 0; i < n; i++) "
                       "{ if (i % 2 == 0) s += i; } return s; } }"),
    "python": ("x.py", "def f(n):\n    s = 0\n    for i in range(n):\n        if i % 2 == 0:\n"
                       "            s += i\n    return s\n"),
    "c": ("x.c", "int f(int n) { int s = 0; for (int i = 0; i < n; i++) "
                 "{ if (i % 2 == 0) s += i; } return s; }"),
    "cpp": ("x.cpp", "int f(int n) { int s = 0; for (int i = 0; i < n; i++) "
                     "{ if (i % 2 == 0) s += i; } return s; }"),
    "csharp": ("x.cs", "class A { int F(int n) { int s = 0; for (int i = 0; i < n; i++) "
                       "{ if (i % 2 == 0) s += i; } return s; } }"),
    "javascript": ("x.js", "function f(n) { let s = 0; for (let i = 0; i < n; i++) "
                           "{ if (i % 2 == 0) s += i; } return s; }"),
    "typescript": ("x.ts", "function f(n: number): number { let s = 0; "
                           "for (let i = 0; i < n; i++) { if (i % 2 == 0) s += i; } return s; }"),
    "go": ("x.go", "package main\nfunc f(n int) int {\n\ts := 0\n\tfor i := 0; i < n; i++ {\n"
                   "\t\tif i%2 == 0 {\n\t\t\ts += i\n\t\t}\n\t}\n\treturn s\n}\n"),
    "kotlin": ("x.kt", "fun f(n: Int): Int {\n    var s = 0\n    var i = 0\n"
                       "    while (i < n) {\n        if (i % 2 == 0) s += i\n        i++\n"
                       "    }\n    return s\n}\n"),
}


@pytest.mark.parametrize("lang", sorted(PROGRAMS))
def test_every_language_parses_and_normalises(lang: str) -> None:
    name, source = PROGRAMS[lang]
    assert supports(lang)
    doc = make_document(source.encode(), name, frontend="structural")
    assert doc.warnings == ()
    assert doc.language == lang
    seen = [doc.stream.labels[u] for u in doc.stream.units.tolist()]
    for kind in ("func", "loop", "if", "return", "assign"):
        assert kind in seen, (lang, seen)


@pytest.mark.parametrize("lang", sorted(PROGRAMS))
def test_offsets_point_into_the_original(lang: str) -> None:
    name, source = PROGRAMS[lang]
    data = source.encode()
    stream = make_document(data, name, frontend="structural").stream
    assert np.all(stream.starts >= 0) and np.all(stream.ends <= len(data))
    assert np.all(stream.starts <= stream.ends)
    for unit, start, end in zip(stream.units.tolist(), stream.starts.tolist(),
                                stream.ends.tolist(), strict=True):
        if stream.labels[unit] == "ID":
            assert data[start:end].decode().replace("_", "").isalnum()


def test_utf16_file_gives_the_same_stream_with_its_own_offsets() -> None:
    name, source = PROGRAMS["java"]
    source = source.replace("int s = 0;", 'String t = "é"; int s = 0; System.out.println(t);')
    utf8 = make_document(source.encode(), name, frontend="structural").stream
    data16 = source.encode("utf-16")
    utf16 = make_document(data16, name, frontend="structural").stream
    assert utf8.units.tolist() == utf16.units.tolist()
    assert utf16.ends.max() <= len(data16)
    for start8, start16 in zip(utf8.starts.tolist(), utf16.starts.tolist(), strict=True):
        assert data16[start16:].decode("utf-16-le", "ignore").startswith(
            source.encode()[start8:].decode()[:1])


def test_syntax_error_falls_back_to_the_lexer() -> None:
    source = b"class A { void f() { int x = ; if (x > } }"
    doc = make_document(source, "x.java", frontend="structural")
    lexed = make_document(source, "x.java", frontend="code")
    assert any("syntax errors" in w for w in doc.warnings)
    assert doc.stream.units.tolist() == lexed.stream.units.tolist()


C_BODY = ('{ int s = 0; for (int i = 0; i < 9; i++) { if (i % 2 == 0) s += i; } '
          'printf("%d", s); }')


def _labels(source: str, name: str = "x.c") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The neutral stream's labels (without the lexer's tokens) and the warnings."""
    doc = make_document(source.encode(), name, frontend="structural",
                        options=FrontEndOptions(lexical=False))
    return tuple(doc.stream.labels[u] for u in doc.stream.units.tolist()), doc.warnings


def test_local_syntax_errors_are_read_around_not_lexed() -> None:
    """SOCO's C files lost their names (``int () {``, ``FILE* ;``): tree-sitter
    recovers, and the front-end reads what it placed instead of lexing."""
    intact, _ = _labels("int main() " + C_BODY)
    assert intact[0] == "func" and "loop" in intact and "if" in intact
    for broken in ("int () " + C_BODY,  # a missing name
                   "int main() " + C_BODY.replace("for", "@@ for")):  # a stray token
        labels, warnings = _labels(broken)
        assert warnings == ()
        assert labels == intact, broken


def test_statements_inside_an_error_node_are_kept() -> None:
    """``() { ... }`` at file level is an ERROR node holding a block: its
    statements are read, as statements at file level, which read as the body
    of ``main`` (the name SOCO deleted there)."""
    intact, _ = _labels("int main() " + C_BODY)
    labels, warnings = _labels("() " + C_BODY)
    assert warnings == ()
    assert labels == intact


def test_unplaced_bytes_count_stray_tokens_and_missing_nodes() -> None:
    from winnow.frontends.structural.recovery import unplaced_bytes, usable
    from winnow.frontends.structural.tables import parser_for

    def unplaced(source: bytes) -> int:
        return unplaced_bytes(parser_for("c").parse(source).root_node)

    assert unplaced(b"int main() { return 0; }") == 0
    assert unplaced(b"int main() { int x = 1; @@ ; return x; }") == 2
    assert unplaced(b"int () { return 0; }") == 1  # the missing name
    garbage = b"int main() { return 0; } ) ) ) } } = = = + + + ; ; while while"
    root = parser_for("c").parse(garbage).root_node
    assert not usable(root, len(garbage))
    assert usable(root, 100 * len(garbage))


@pytest.mark.parametrize("name, source", [
    ("x.py", b"# helper\ndef area(w, h):\n    return w * h  # product\n\nprint(area(2, 3))\n"),
    ("x.c", b"#include <stdio.h>\n// helper\nint area(int w, int h) {\n  return w * h;\n}\n"),
])
def test_cr_only_line_endings_give_the_lf_stream(name: str, source: bytes) -> None:
    """A CR-only file must not turn into one comment or one preprocessor line
    (a copy saved with old-Mac line endings would hide)."""
    lf = make_document(source, name, frontend="structural")
    cr = make_document(source.replace(b"\n", b"\r"), name, frontend="structural")
    assert cr.warnings == lf.warnings == ()
    assert cr.stream.units.tolist() == lf.stream.units.tolist()
    assert cr.stream.starts.tolist() == lf.stream.starts.tolist()
    assert "return" in [lf.stream.labels[u] for u in lf.stream.units.tolist()]


#: A project translation (benchmarks/translations/case-03/p3.kt) with random
#: edits: tree-sitter-kotlin's error recovery took a minute of CPU on it.
RUNAWAY_KOTLIN = (
    b'import java.util.Scanner\n'
    b'\n'
    b'un main() {\n'
    b'    valc = Scanner(System.`in`)\n'
    b'    var berat = 0.0\n'
    b'    var inci = 0.0\n'
    b'    var tinggi = 0.0\n'
    b'  \\  var bmi = 0.0\n'
    b'    var feet = 0.0   print("Enter weigh@t in pounds: ")\n'
    b'    berat = sc.nextDouble()\n'
    b'    print("Enter feet: ")\n'
    b'    feet = sc.nextDouble()\n'
    b'    print("Enter inches: ")\n'
    b'    inci = sc.nextD;ouble()  tinggi = feet * 12 + inci\n'
    b'    bmi = ber/*at * 0.#45359237 / ((tinggi * 0.0254) * (tinggi * 0.0254))\n'
    b'    println("BMI is " +bmi)\n'
    b'    if (bmi < 18.5) {\n'
    b'        println("Underweight")\n'
    b'    } else ifbmi < 25) {\n'
    b'        printl("Normal")\n'
    b'    } else if (bmi < 30) {\n'
    b'    (    print#ln("Overweight")\n'
    b'    } else {\n'
    b'        println("Obese")\n'
    b'    }\n'
    b'}\n'
)


def test_a_runaway_parse_is_stopped_and_the_file_lexed() -> None:
    import time

    start = time.process_time()
    doc = make_document(RUNAWAY_KOTLIN, "x.kt", frontend="structural")
    assert time.process_time() - start < 20  # the budget is 2 s (+1 s per MB)
    assert any("parsing took over 2 s of CPU time: lexed" in w for w in doc.warnings)
    lexed = make_document(RUNAWAY_KOTLIN, "x.kt", frontend="code")
    assert doc.stream.units.tolist() == lexed.stream.units.tolist()
    # the (cached) parser was reset: the next Kotlin file parses on its own
    name, source = PROGRAMS["kotlin"]
    assert make_document(source.encode(), name, frontend="structural").warnings == ()


def test_parse_budget_stops_the_parser_not_a_quick_parse() -> None:
    from winnow.frontends.structural.recovery import ParseTooSlow, parse
    from winnow.frontends.structural.tables import parser_for

    source = b"class A { int f() { return 1; } }\n" * 100
    assert not parse(parser_for("java"), source).root_node.has_error
    with pytest.raises(ParseTooSlow):
        parse(parser_for("java"), source, budget=0.0)
    again = parse(parser_for("java"), b"class B { }")  # not the rest of the old parse
    assert not again.root_node.has_error and again.root_node.end_byte == 11


def test_threads_parse_with_parsers_of_their_own() -> None:
    import threading

    from winnow.frontends.structural.tables import parser_for

    here = parser_for("java")
    assert parser_for("java") is here
    seen: list[object] = []
    thread = threading.Thread(target=lambda: seen.append(parser_for("java")))
    thread.start()
    thread.join()
    assert seen and seen[0] is not here


def test_deep_nesting_falls_back_without_crashing() -> None:
    source = ("class A { int f() { return " + "(" * 3000 + "1" + ")" * 3000 + "; } }").encode()
    doc = make_document(source, "x.java", frontend="structural")
    assert any("nested too deeply" in w for w in doc.warnings)
    lexed = make_document(source, "x.java", frontend="code")
    assert np.array_equal(doc.stream.units, lexed.stream.units)  # the code front-end's


def test_language_without_a_table_is_lexed() -> None:
    source = b"fn main() { let x = 1; println!(\"{}\", x); }"
    doc = make_document(source, "x.rs", frontend="structural")
    lexed = make_document(source, "x.rs", frontend="code")
    assert doc.stream.units.tolist() == lexed.stream.units.tolist()


def test_passages_of_reordered_code_have_valid_byte_ranges(tmp_path: Path) -> None:
    body = ('System.out.println("first line of output");\n int a = n * 2;\n int b = n + 7;\n'
            ' int c = a * b - n;\n System.out.println(a + b + c);\n')
    other = ('System.out.println("first line of output");\n int b = n + 7;\n int a = n * 2;\n'
             ' int c = a * b - n;\n System.out.println(a + b + c);\n')
    for name, text in (("a.java", body), ("b.java", other)):
        (tmp_path / name).write_text(
            "class A { static void f(int n) {\n" + text + "} }\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(tmp_path / "a.java"),
                                       str(tmp_path / "b.java"), "--frontend", "structural",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    pair = report["pairs"][0]
    assert pair["similarity"] > 0.9
    assert pair["passages"]
    for passage in pair["passages"]:
        for side in ("a", "b"):
            start, end = passage[side]["bytes"]
            assert 0 <= start < end <= (tmp_path / "a.java").stat().st_size + 2


JAVA_REVERSE = """public class A {
    public static void main(String[] args) {
        java.util.Scanner in = new java.util.Scanner(System.in);
        System.out.print("Enter an integer: ");
        int number = in.nextInt();
        while (number != 0) {
            int remainder = number % 10;
            System.out.print(remainder);
            number = number / 10;
        }
        System.out.println();
    }
}
"""
PYTHON_REVERSE = """number = int(input("Enter an integer: "))
while number != 0:
    remainder = number % 10
    print(remainder, end="")
    number = number // 10
print()
"""


def _compare(tmp_path: Path, *extra: str) -> tuple[float, str]:
    (tmp_path / "a.java").write_text(JAVA_REVERSE, encoding="utf-8")
    (tmp_path / "b.py").write_text(PYTHON_REVERSE, encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(tmp_path / "a.java"),
                                       str(tmp_path / "b.py"), "--format", "json", *extra])
    assert result.exit_code == 0, result.output
    start = result.output.index("{")
    pairs = json.loads(result.output[start:])["pairs"]
    return (pairs[0]["similarity"] if pairs else 0.0), result.output[:start]


def test_files_in_two_languages_are_compared_across_them(tmp_path: Path) -> None:
    similarity, note = _compare(tmp_path)
    assert "across languages (java, python)" in note
    assert "winnow-neutral-1" in note
    lexed, _ = _compare(tmp_path, "--frontend", "code")
    assert similarity > 0.3 > lexed


def test_cross_language_switch_forces_the_neutral_alphabet(tmp_path: Path) -> None:
    forced, note = _compare(tmp_path, "--cross-language")
    assert "across languages" in note
    automatic, _ = _compare(tmp_path)
    assert forced == automatic


def test_cross_language_note_is_in_the_json_header_and_the_html_report(
        tmp_path: Path) -> None:
    (tmp_path / "a.java").write_text(JAVA_REVERSE, encoding="utf-8")
    (tmp_path / "b.py").write_text(PYTHON_REVERSE, encoding="utf-8")
    (tmp_path / "c.py").write_text(PYTHON_REVERSE.replace("10", "16"), encoding="utf-8")
    files = [str(tmp_path / n) for n in ("a.java", "b.py", "c.py")]
    result = CliRunner().invoke(main, ["compare", *files, "--format", "json"])
    assert result.exit_code == 0, result.output
    header = json.loads(result.output[result.output.index("{"):])["parameters"]
    assert header["cross_language"] == {"languages": ["java", "python"],
                                        "alphabet": "winnow-neutral-1",
                                        "frontend": "structural"}
    one = CliRunner().invoke(main, ["compare", *files[1:], "--format", "json"])
    assert "cross_language" not in json.loads(one.output[one.output.index("{"):])["parameters"]
    page = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["compare", *files, "--report", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "across languages <b>java, python in the alphabet winnow-neutral-1 (structural " \
        "front-end)</b>" in html


def test_explicit_structural_front_end_across_languages_drops_the_lexer(
        tmp_path: Path) -> None:
    """Within one language the structural stream goes on with the lexer's
    tokens; across languages they cannot match, so a mixed batch is read in
    the neutral alphabet only, with or without ``--frontend structural``."""
    automatic, _ = _compare(tmp_path)
    explicit, note = _compare(tmp_path, "--frontend", "structural")
    assert "across languages" in note
    assert explicit == automatic


ORIGINAL = """public class T6 {
    public static void main(String[] args) {
        java.util.Scanner input = new java.util.Scanner(System.in);
        int[] num = new int[10];
        for (int i = 0; i < 10; i++) {
            System.out.print("Read a number: ");
            num[i] = input.nextInt();
        }
        for (int i = 9; i >= 0; i--) {
            System.out.println(num[i]);
        }
    }
}
"""
#: IR-Plag task 6's independent solutions: the same program, written otherwise
INDEPENDENT = """import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        int numbers[] = new int[10];
        for (int i = 0; i < 10; ++i) {
            System.out.print("Read a number: ");
            numbers[i] = sc.nextInt();
        }
        for (int i = 9; i >= 0; i -= 1) {
            System.out.println(numbers[i]);
        }
    }
}
"""


def test_lexer_tokens_rank_a_copy_above_an_independent_rewrite(tmp_path: Path) -> None:
    """Normalised, an independent solution of a textbook task is the original;
    the lexer's tokens after the neutral ones keep the copy (comments and
    layout changed) above it."""
    (tmp_path / "a.java").write_text(ORIGINAL, encoding="utf-8")
    (tmp_path / "b.java").write_text("// my work\n" + ORIGINAL.replace("    ", "\t"),
                                     encoding="utf-8")
    (tmp_path / "c.java").write_text(INDEPENDENT, encoding="utf-8")

    def similarity(*extra: str) -> dict[str, float]:
        result = CliRunner().invoke(main, ["compare", str(tmp_path), "--each", "--format",
                                           "json", "--frontend", "structural", *extra])
        assert result.exit_code == 0, result.output
        pairs = json.loads(result.output[result.output.index("{"):])["pairs"]
        return {"".join(sorted(p["file_a"][0] + p["file_b"][0])): p["similarity"]
                for p in pairs}

    neutral = similarity("--frontend-option", "lexical=false")
    assert neutral["ab"] == neutral["ac"] == 1.0  # a tie
    both = similarity()
    assert both["ab"] == 1.0
    assert both["ac"] < both["ab"] - 0.03  # the tie broken (0.93 when written)


def test_with_lexical_appends_the_lexer_stream_under_other_ids() -> None:
    name, source = PROGRAMS["java"]
    neutral = make_document(source.encode(), name, frontend="structural",
                            options=FrontEndOptions(lexical=False)).stream
    lexed = make_document(source.encode(), name, frontend="code").stream
    both = make_document(source.encode(), name, frontend="structural").stream
    n, w = len(neutral), NEUTRAL_WEIGHT
    assert len(both) == w * n + len(lexed)
    assert both.units[:n].tolist() == neutral.units.tolist()
    views = [both.units[i * n:(i + 1) * n].tolist() for i in range(w)]
    for i, view in enumerate(views):  # the same tokens, under ids of each view's own
        assert [both.labels[u] for u in view] == [neutral.labels[u] for u in views[0]]
        assert both.starts[i * n:(i + 1) * n].tolist() == neutral.starts.tolist()
        assert all(not set(view) & set(other) for other in views[:i])
    assert both.starts[w * n:].tolist() == lexed.starts.tolist()
    assert not set(both.units[w * n:].tolist()) & set(both.units[:w * n].tolist())
    assert [both.labels[u] for u in both.units[w * n:].tolist()] == [
        lexed.labels[u] for u in lexed.units.tolist()]


def test_the_neutral_weight_moves_a_score_towards_the_tree() -> None:
    """The independent rewrite below normalises to the original program, its
    text does not: the more neutral copies, the nearer their likeness is to 1."""
    def streams(source: str) -> tuple[Stream, Stream]:
        data = source.encode()
        return (make_document(data, "x.java", frontend="structural",
                              options=FrontEndOptions(lexical=False)).stream,
                make_document(data, "x.java", frontend="code").stream)

    a, b = streams(ORIGINAL), streams(INDEPENDENT)
    assert a[0].units.tolist() == b[0].units.tolist()

    def likeness(weight: int) -> float:
        fa = set(_grams(with_lexical(*a, weight=weight)))
        fb = set(_grams(with_lexical(*b, weight=weight)))
        return 2 * len(fa & fb) / (len(fa) + len(fb))

    assert likeness(1) < likeness(2) < likeness(NEUTRAL_WEIGHT) <= 1.0
    with pytest.raises(ValueError):
        with_lexical(*a, weight=0)


def _grams(stream: Stream, k: int = 8) -> list[tuple[int, ...]]:
    units = stream.units.tolist()
    return [tuple(units[i:i + k]) for i in range(len(units) - k + 1)]


def test_long_blocks_and_deep_elif_chains_stay_fast() -> None:
    import time

    chain = "".join(f"    elif x == {i}:\n        y = {i}\n" for i in range(60))
    lines = "".join(f"    v{i} = v{i - 1} + {i}\n" for i in range(1, 3000))
    source = (f"def f(x):\n    if x < 0:\n        y = 0\n{chain}    v0 = y\n{lines}"
              "    return v2999\n")
    start = time.process_time()
    doc = make_document(source.encode(), "x.py", frontend="structural")
    assert doc.warnings == () and len(doc.stream) > 3000
    assert time.process_time() - start < 20  # was exponential in the elif depth


def test_an_unexpected_tree_falls_back_to_the_lexer(monkeypatch: pytest.MonkeyPatch) -> None:
    from winnow.frontends.structural import program

    def broken(root: object) -> object:
        raise IndexError("a tree no rule expected")

    monkeypatch.setattr(program, "normalise_file", broken)
    name, source = PROGRAMS["java"]
    doc = make_document(source.encode(), name, frontend="structural")
    lexed = make_document(source.encode(), name, frontend="code")
    assert any("cannot normalise (IndexError)" in w for w in doc.warnings)
    assert doc.stream.units.tolist() == lexed.stream.units.tolist()


def test_tokens_command_shows_the_structural_stream(tmp_path: Path) -> None:
    (tmp_path / "a.java").write_text(JAVA_REVERSE, encoding="utf-8")
    result = CliRunner().invoke(main, ["tokens", "--frontend", "structural",
                                       str(tmp_path / "a.java")])
    assert result.exit_code == 0, result.output
    assert "front-end structural, language java" in result.output
    line = next(li for li in result.output.splitlines() if "number % 10" in li)
    # the neutral tokens (their weighted copies shown once), then the lexer's;
    # remainder, read once, is inlined: its value stays on its own line
    assert line.rstrip().endswith("| % ID NUM int ID = ID % NUM ;")
    assert f"come {NEUTRAL_WEIGHT} times under other ids" in result.output
    rows = CliRunner().invoke(main, ["tokens", "--frontend", "structural", "--format", "jsonl",
                                     str(tmp_path / "a.java")])
    labels = [json.loads(r)["label"] for r in rows.output.splitlines()
              if json.loads(r)["text"].startswith("number % 10")]
    assert labels.count("%") == NEUTRAL_WEIGHT  # the rows list every unit, copies too
    neutral = CliRunner().invoke(main, ["tokens", "--frontend", "structural",
                                        "--frontend-option", "lexical=false",
                                        str(tmp_path / "a.java")])
    assert neutral.exit_code == 0, neutral.output
    line = next(li for li in neutral.output.splitlines() if "number % 10" in li)
    assert line.rstrip().endswith("| % ID NUM")



def test_a_passage_over_the_same_bytes_as_an_earlier_one_is_shown_once() -> None:
    """The neutral tokens' copies can match alike (the same runs in each
    copy): the scores count every copy, a report shows each place once."""
    from winnow.matching.model import Passage, Region
    from winnow.matching.pairs import distinct_passages
    from winnow.model import Span

    def passage(index: int, units: int, a: tuple[int, int], b: tuple[int, int]) -> Passage:
        return Passage(index, Region("a.java", Span(units, units + 5), Span(*a), (1, 2)),
                       Region("b.java", Span(units, units + 5), Span(*b), (1, 2)), 5, 1)

    found = (passage(0, 0, (0, 40), (0, 44)), passage(1, 30, (0, 40), (0, 44)),
             passage(2, 60, (50, 90), (0, 44)), passage(3, 90, (0, 40), (0, 44)))
    shown = distinct_passages(found)
    assert [(p.index, p.a.units.start) for p in shown] == [(0, 0), (1, 60)]
    alone = found[:1]
    assert distinct_passages(alone) is alone  # nothing repeated: the same tuple
