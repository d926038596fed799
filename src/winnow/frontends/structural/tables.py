"""Per-language node-kind tables: which grammar node type plays which role.

One :class:`Table` per language names, for each tree-sitter node type the
converter must understand, its role (``if``, ``for_c``, ``call`` ...; see
:mod:`winnow.frontends.structural.convert`).  The grammars are the official
wheels on PyPI (``tree-sitter-java`` ...), loaded on first use; nothing is
downloaded at run time.
"""

from __future__ import annotations

import importlib
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from winnow.frontends.structural.arrays import is_array, kotlin_collection
from winnow.frontends.structural.ir import N, leaf, names_read
from winnow.frontends.structural.prints import kotlin_print, python_print
from winnow.frontends.structural.walker import Walker


def _no_counted(c: Walker, target: N, source: N) -> tuple[N, N, N] | None:
    return None


# -- special cases ------------------------------------------------------------
#: Calls that convert their one argument (``int(s)``, ``Integer.parseInt(s)``,
#: ``s.toInt()``): they read as the argument, so the languages' ways to read a
#: number agree.
CONVERSIONS = frozenset({
    "int", "float", "str", "bool", "parseInt", "parseDouble", "parseFloat", "parseLong",
    "valueOf", "toInt", "toDouble", "toFloat", "toLong", "toString", "Number", "String",
    "atoi", "atof", "stoi", "stod", "Parse", "ToInt32", "ToDouble", "Atoi",
})
#: Calls that read a line after showing their argument (``input("n? ")``): they
#: read as printing the prompt, then reading.
PROMPTING_READS = frozenset({"input", "prompt", "readline"})
#: Keyword arguments that only shape the output (Python's ``print(x, end="")``).
LAYOUT_KEYWORDS = frozenset({"end", "sep", "flush"})


def conversion(call: N) -> N:
    """A conversion call as its argument (:data:`CONVERSIONS`), other calls as they are."""
    if call.kids and call.kids[0].kind == "id" and call.kids[0].text in CONVERSIONS:
        if len(call.kids) == 2:
            return call.kids[1]
        # x.toInt(): the receiver x (Kotlin's chain names the callee last: not it)
        names = [n for n in call.text.split() if n != call.kids[0].text]
        if len(call.kids) == 1 and names:
            return leaf("id", call.start, call.end, names[-1], " ".join(names[:-1]))
    return call


_FORMAT_SPEC = re.compile(r"%[-#+ 0,(]*\d*(?:\.\d+)?[a-zA-Z%]|\{[^{}]*\}")


def format_call(c: Walker, call: N) -> N:
    """``String.format("a %d b", x)``, ``printf(...)``, ``"a {} b".format(x)``
    read as the concatenation ``"a " + x + " b"``."""
    if not call.kids or call.kids[0].kind != "id":
        return call
    converted = conversion(call)
    if converted is not call:
        return converted
    if len(call.kids) == 1 and call.kids[0].text in ("length", "size", "count"):
        return leaf("id", call.start, call.end, call.kids[0].text,  # s.length() as s.length
                    call.text)
    name = call.kids[0].text
    args = call.kids[1:]
    if name == "pow" and len(args) == 2:  # Math.pow(a, b), pow(a, b): Python's a ** b
        return N("pow", call.start, call.end, args, "call")  # a double: no x * x
    receivers = [n for n in call.text.split() if n != name]
    if name == "pow" and len(args) == 1 and len(receivers) == 1:  # Kotlin's a.pow(b)
        return N("pow", call.start, call.end, [leaf("id", call.start, call.start, receivers[0]),
                                               args[0]], "call")
    if name in ("format", "formatted") and args and args[0].kind == "str" and len(args) > 1:
        return N("concat", call.start, call.end, _split_format(args[0], args[1:]))
    if name in ("printf",) and args and args[0].kind == "str":
        joined = N("concat", args[0].start, call.end, _split_format(args[0], args[1:]))
        return N("call", call.start, call.end, [call.kids[0], joined])
    return call


def _split_format(fmt: N, values: list[N]) -> list[N]:
    parts: list[N] = []
    pos = 0
    remaining = list(values)
    for match in _FORMAT_SPEC.finditer(fmt.text):
        if match.group() in ("%%", "%n"):
            continue
        if match.start() > pos:
            parts.append(leaf("str", fmt.start, fmt.end, fmt.text[pos:match.start()]))
        if remaining:
            parts.append(remaining.pop(0))
        pos = match.end()
    if pos < len(fmt.text):
        parts.append(leaf("str", fmt.start, fmt.end, fmt.text[pos:]))
    return parts + remaining


def counted(target: N, start: N, stop: N, step: int, inclusive: bool,
            at: N) -> tuple[N, N, N]:
    """``i = start; while (i < stop) { ...; i = i + step }`` (``>`` going down,
    ``<=``/``>=`` with ``inclusive``), in the form the converter gives a C
    ``for`` loop: a descending ``i >= 0`` reads ``0 <= i``."""
    init = N("assign", target.start, at.end, [target.copy(), start])
    if step > 0:
        cond = N("<=" if inclusive else "<", at.start, at.end, [target.copy(), stop])
    elif not inclusive and stop.kind == "num" and _integer(stop.text) is not None:
        bound = leaf("num", stop.start, stop.end, str(int(stop.text) + 1))
        cond = N("<=", at.start, at.end, [bound, target.copy()])
    else:
        cond = N("<=" if inclusive else "<", at.start, at.end, [stop, target.copy()])
    one = leaf("num", at.start, at.end, "1")
    update = N("assign", target.start, target.end, [target.copy(), N(
        "+" if step > 0 else "-", target.start, target.end, [target.copy(), one])])
    return init, cond, update


def _integer(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def python_range(c: Walker, target: N, source: N) -> tuple[N, N, N] | None:
    """``for i in range(a, b)`` reads as ``i = a; while i < b: ...; i = i + 1``;
    ``range(a, b, -1)`` counts down."""
    if (target.kind != "id" or source.kind != "call" or not source.kids
            or source.kids[0].text != "range" or not 2 <= len(source.kids) <= 4):
        return None
    bounds = source.kids[1:]
    start = bounds[0] if len(bounds) >= 2 else leaf("num", source.start, source.start, "0")
    stop = bounds[1] if len(bounds) >= 2 else bounds[0]
    step = 1
    if len(bounds) == 3:
        value = _integer(bounds[2].text) if bounds[2].kind == "num" else None
        if value is None or value not in (1, -1):
            return None
        step = value
    return counted(target, start, stop, step, False, source)


def kotlin_range(c: Walker, target: N, source: N) -> tuple[N, N, N] | None:
    """``for (i in a until b)`` / ``a..b`` / ``a..<b`` / ``a downTo b`` read as
    the counted loop."""
    if target.kind != "id" or source.kind not in ("until", "..", "..<", "downTo") or len(
            source.kids) != 2:
        return None
    start, stop = source.kids
    step = -1 if source.kind == "downTo" else 1
    return counted(target, start, stop, step, source.kind in ("..", "downTo"), source)


def kotlin_loop(c: Walker, target: N, source: N) -> tuple[N, N, N] | None:
    """Kotlin's counted loops: ranges (:func:`kotlin_range`) and ``for (i in
    a.indices)``, read as ``for (i = 0; i < a.size; i++)``."""
    if target.kind == "id" and source.kind == "id" and source.text == "indices":
        zero = leaf("num", source.start, source.start, "0")
        size = leaf("id", source.start, source.end, "size", source.reads)
        return counted(target, zero, size, 1, False, source)
    return kotlin_range(c, target, source)


def kotlin_call(c: Walker, call: N) -> N:
    """Kotlin's calls: a trailing lambda is the last argument (``f(a) { .. }``
    is ``f(a, { .. })``), ``repeat(n) { body }`` reads as the counted loop over
    ``it``, arrays and lists as :func:`~.arrays.kotlin_collection`, ``print``
    as :func:`~.prints.kotlin_print`, then :func:`format_call`."""
    if len(call.kids) >= 2 and call.kids[0].kind == "call" and call.kids[-1].kind == "lambda":
        call = N("call", call.start, call.end, [*call.kids[0].kids, *call.kids[1:]],
                 call.kids[0].text)
    kids = kotlin_print(call).kids
    if (len(kids) == 3 and kids[0].kind == "id" and kids[0].text == "repeat"
            and kids[2].kind == "lambda" and kids[2].kids):
        counter = leaf("id", call.start, call.start, "it")
        init, cond, update = counted(counter, leaf("num", call.start, call.start, "0"),
                                     kids[1], 1, False, call)
        body = kids[2].kids[0]
        stmts = body.kids if body.kind == "block" else [N("expr", body.start, body.end, [body])]
        loop = N("loop", call.start, call.end, [cond, N("block", body.start, body.end,
                                                        [*stmts, update])])
        return N("block", call.start, call.end, [init, loop])
    made = kotlin_collection(call)
    if made is not call or is_array(call):
        return made
    return format_call(c, call)


def python_call(c: Walker, call: N) -> N:
    """``len(x)`` reads as a length field (``x.length``); ``print(a, b,
    sep=s, end=e)`` as ``write(a + s + b + e)`` (``s`` is a space and ``e`` a line break unless
    given: :func:`~winnow.frontends.structural.prints.python_print`), with its
    ``file=f`` as a second argument (not the standard output); format calls as
    :func:`format_call`."""
    ends = [k for k in call.kids if k.kind == "end"]
    seps = [k for k in call.kids if k.kind == "sep"]
    files = [k.kids[0] for k in call.kids if k.kind == "file" and k.kids]
    call.kids = [k for k in call.kids if k.kind not in ("end", "sep", "file")]
    if len(call.kids) == 2 and call.kids[0].text == "len":
        return leaf("id", call.start, call.end, "len", " ".join(sorted(names_read(call.kids[1]))))
    if call.kids and call.kids[0].text == "print" and not call.text:
        shown = python_print(call, ends[-1].kids[0] if ends and ends[-1].kids else None,
                             seps[-1].kids[0] if seps and seps[-1].kids else None)
        shown.kids.extend(files)  # print(x, file=f) writes elsewhere: never a plain print
        return shown
    call.kids.extend(files)  # another call's file= is an argument like any other
    return format_call(c, call)


# -- the tables ---------------------------------------------------------------
_COMMON = {
    "comment": "drop", "line_comment": "drop", "block_comment": "drop",
    "parenthesized_expression": "paren", "identifier": "ident", "true": "bool",
    "false": "bool", "null": "null", "string": "string",
    "binary_expression": "binary", "unary_expression": "unary",
    "update_expression": "update", "assignment_expression": "assign",
    "if_statement": "if", "while_statement": "while", "do_statement": "do",
    "for_statement": "for_c", "return_statement": "return", "break_statement": "break",
    "continue_statement": "continue", "throw_statement": "throw",
    "expression_statement": "expr_stmt", "call_expression": "call",
    "block": "block", "compound_statement": "block", "statement_block": "block",
    "conditional_expression": "ternary", "ternary_expression": "ternary",
    "argument_list": "args", "arguments": "args", "subscript_expression": "index",
    "field_expression": "field", "member_expression": "field", "try_statement": "try",
    "switch_statement": "switch", "number_literal": "num", "string_literal": "string",
    "char_literal": "chr", "character_literal": "chr", "this": "this",
    "type_identifier": "type", "field_identifier": "ident", "property_identifier": "ident",
    "new_expression": "new", "lambda_expression": "lambda", "cast_expression": "cast",
    "string_content": "str_part", "escape_sequence": "str_part",
    "string_fragment": "str_part", "template_substitution": "interp",
    "template_string": "string", "array": "list", "array_initializer": "list",
    "initializer_list": "list", "import_declaration": "import", "package_declaration": "drop",
    "preproc_include": "import", "using_directive": "import",
}

@dataclass(frozen=True)
class Table:
    """One language's roles, its grammar module and its few special cases."""

    language: str
    module: str
    roles: dict[str, str]
    function: str = "language"
    ternary_value_first: bool = False
    #: ``$name`` inside string text is an interpolated name (Kotlin)
    dollar_names: bool = False
    counted_loop: Callable[[Walker, N, N], tuple[N, N, N] | None] = _no_counted
    rewrite_call: Callable[[Walker, N], N] = format_call
    #: ``[0] * n`` is an array of ``n`` zeros (Python)
    list_repeat: bool = False


JAVA = Table("java", "tree_sitter_java", {
    **_COMMON, "program": "module", "class_declaration": "class",
    "interface_declaration": "class", "enum_declaration": "class",
    "record_declaration": "class", "class_body": "body", "interface_body": "body",
    "enum_body": "body", "method_declaration": "func", "constructor_declaration": "func",
    "constructor_body": "block", "field_declaration": "decl",
    "local_variable_declaration": "decl", "variable_declarator": "declarator",
    "enhanced_for_statement": "foreach", "method_invocation": "call",
    "object_creation_expression": "new", "array_creation_expression": "new_array",
    "field_access": "field", "array_access": "index", "scoped_identifier": "field",
    "decimal_integer_literal": "num", "hex_integer_literal": "num",
    "octal_integer_literal": "num", "binary_integer_literal": "num",
    "decimal_floating_point_literal": "num", "null_literal": "null",
    "modifiers": "drop", "marker_annotation": "drop", "annotation": "drop",
    "switch_expression": "switch", "switch_block_statement_group": "case",
    "throws": "drop", "type_parameters": "drop",
})

PYTHON = Table("python", "tree_sitter_python", {
    **_COMMON, "module": "module", "class_definition": "class", "function_definition": "func",
    "decorated_definition": "unwrap", "decorator": "drop", "assignment": "assign",
    "augmented_assignment": "assign", "binary_operator": "binary",
    "boolean_operator": "binary", "comparison_operator": "compare_chain",
    "not_operator": "not", "unary_operator": "unary", "call": "call", "attribute": "field",
    "subscript": "index", "integer": "num", "float": "num", "none": "null",
    "elif_clause": "elif", "else_clause": "else", "for_statement": "foreach",
    "interpolation": "interp", "list": "list", "tuple": "list", "dictionary": "list",
    "set": "list", "lambda": "lambda", "import_statement": "import",
    "import_from_statement": "import", "future_import_statement": "import",
    "raise_statement": "throw", "pass_statement": "drop", "keyword_argument": "kwarg",
    "string_start": "drop", "string_end": "drop", "type": "drop",
    "expression_list": "list", "pattern_list": "list", "global_statement": "drop",
    "nonlocal_statement": "drop", "list_comprehension": "comprehension",
    "set_comprehension": "comprehension", "dictionary_comprehension": "comprehension",
    "generator_expression": "comprehension",
}, ternary_value_first=True, counted_loop=python_range, rewrite_call=python_call,
    list_repeat=True)

C = Table("c", "tree_sitter_c", {
    **_COMMON, "translation_unit": "module", "function_definition": "func",
    "declaration": "decl", "init_declarator": "declarator", "struct_specifier": "drop",
    "preproc_def": "drop", "preproc_function_def": "drop", "primitive_type": "drop",
    "pointer_expression": "unwrap", "sizeof_expression": "call",
    "concatenated_string": "string",
})

CPP = Table("cpp", "tree_sitter_cpp", {
    **C.roles, "class_specifier": "class", "field_declaration_list": "body",
    "field_declaration": "decl", "for_range_loop": "foreach", "namespace_definition": "unwrap",
    "declaration_list": "body", "raw_string_literal": "string",
    "qualified_identifier": "field", "template_function": "ident",
    "condition_clause": "paren", "using_declaration": "import",
})

CSHARP = Table("csharp", "tree_sitter_c_sharp", {
    **_COMMON, "compilation_unit": "module", "class_declaration": "class",
    "struct_declaration": "class", "interface_declaration": "class",
    "declaration_list": "body", "method_declaration": "func",
    "constructor_declaration": "func", "field_declaration": "unwrap",
    "local_declaration_statement": "unwrap", "variable_declaration": "decl",
    "variable_declarator": "declarator", "foreach_statement": "foreach",
    "invocation_expression": "call", "object_creation_expression": "new",
    "member_access_expression": "field", "element_access_expression": "index",
    "integer_literal": "num", "real_literal": "num", "boolean_literal": "bool",
    "null_literal": "null", "interpolated_string_expression": "string",
    "interpolation": "interp", "namespace_declaration": "unwrap",
    "file_scoped_namespace_declaration": "unwrap", "prefix_unary_expression": "unary",
    "postfix_unary_expression": "update", "modifier": "drop", "predefined_type": "drop",
    "argument": "unwrap", "string_literal_content": "str_part",
})

JAVASCRIPT = Table("javascript", "tree_sitter_javascript", {
    **_COMMON, "program": "module", "class_declaration": "class", "class_body": "body",
    "method_definition": "func", "function_declaration": "func",
    "function_expression": "lambda", "arrow_function": "lambda",
    "lexical_declaration": "decl", "variable_declaration": "decl",
    "variable_declarator": "declarator", "for_in_statement": "foreach",
    "augmented_assignment_expression": "assign", "number": "num", "undefined": "null",
    "import_statement": "import", "object": "list", "subscript_expression": "index",
    "field_definition": "decl",
})

TYPESCRIPT = Table("typescript", "tree_sitter_typescript", {
    **JAVASCRIPT.roles, "type_annotation": "drop", "accessibility_modifier": "drop",
    "public_field_definition": "decl", "interface_declaration": "drop",
    "type_alias_declaration": "drop", "as_expression": "cast",
    "non_null_expression": "paren", "predefined_type": "drop",
}, function="language_typescript")

GO = Table("go", "tree_sitter_go", {
    **_COMMON, "source_file": "module", "function_declaration": "func",
    "method_declaration": "func", "short_var_declaration": "assign",
    "assignment_statement": "assign", "var_declaration": "unwrap", "var_spec": "decl",
    "inc_statement": "update", "dec_statement": "update", "selector_expression": "field",
    "index_expression": "index", "int_literal": "num", "float_literal": "num",
    "interpreted_string_literal": "string", "raw_string_literal": "string",
    "rune_literal": "chr", "nil": "null", "import_declaration": "import",
    "package_clause": "drop", "expression_list": "unwrap", "for_clause": "unwrap",
    "literal_value": "list", "composite_literal": "list",
    "interpreted_string_literal_content": "str_part",
})

KOTLIN = Table("kotlin", "tree_sitter_kotlin", {
    **_COMMON, "source_file": "module", "class_declaration": "class",
    "object_declaration": "class", "class_body": "body", "function_declaration": "func",
    "secondary_constructor": "func", "function_body": "fbody",
    "property_declaration": "decl", "return_expression": "return",
    "function_value_parameters": "params", "unary_expression": "unary",
    "variable_declaration": "unwrap", "if_expression": "if",
    "do_while_statement": "do", "navigation_expression": "field",
    "value_arguments": "args", "value_argument": "unwrap", "character_literal": "chr",
    "float_literal": "num", "range_expression": "binary",
    "string_literal": "string", "multiline_string_literal": "string",
    "string_content": "str_part", "interpolation": "interp", "this_expression": "this",
    "infix_expression": "binary", "assignment": "assign", "import": "import",
    "package_header": "drop", "modifiers": "drop", "annotation": "drop",
    "file_annotation": "drop", "type_arguments": "drop", "when_expression": "switch",
    "when_entry": "case", "index_expression": "index", "for_statement": "foreach",
    "user_type": "type", "parenthesized_expression": "paren", "as_expression": "cast",
    "throw_expression": "throw", "try_expression": "try",
    "annotated_lambda": "trailing", "lambda_literal": "lambda",
    "anonymous_function": "lambda", "multi_variable_declaration": "list",
}, counted_loop=kotlin_loop, rewrite_call=kotlin_call, dollar_names=True)

TABLES: dict[str, Table] = {t.language: t for t in (JAVA, PYTHON, C, CPP, CSHARP, JAVASCRIPT,
                                                    TYPESCRIPT, GO, KOTLIN)}


@cache
def _grammar(language: str) -> Any:
    """The tree-sitter ``Language`` of one of :data:`TABLES` (imports its wheel)."""
    import tree_sitter

    table = TABLES[language]
    module = importlib.import_module(table.module)
    return tree_sitter.Language(getattr(module, table.function)())


_PARSERS = threading.local()


def parser_for(language: str) -> Any:
    """This thread's tree-sitter parser for one of :data:`TABLES` (a parser
    holds the state of its parse: threads must not share one)."""
    import tree_sitter

    parsers: dict[str, Any] = _PARSERS.__dict__.setdefault("by_language", {})
    parser = parsers.get(language)
    if parser is None:
        parser = parsers[language] = tree_sitter.Parser(_grammar(language))
    return parser
