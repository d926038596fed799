"""Build the project's own labelled set of disguised copies (``rewrites``).

    .venv/bin/python benchmarks/rewrites/make.py [--out /tmp/winnow-rewrites]

Originals are real files: modules of the running Python's standard library
(:data:`ORIGINALS`, read from ``sysconfig``; the set depends on the Python
version, 3.11 here).  Each gets five machine-made copies, written with
:mod:`ast` (so layout and comments change too):

* ``plain``: the original as :func:`ast.unparse` writes it (the yardstick:
  every other copy holds the same code);
* ``insert``: after every second top-level statement, a function of an
  unrelated module (:data:`FILLER`) is inserted: the copy is about twice as
  long as the original, its code interleaved with other code;
* ``append``: the original appended to a whole unrelated module (a copy
  embedded in a larger file);
* ``split``: every function of four statements or more split in two, the
  first half moved into a helper of its own defined before it;
* ``reorder``: the top-level definitions, and the methods of every class,
  in a shuffled order (seeded).

``hand/`` holds small programs with rewrites written by hand the way an AI
assistant rewrites code to hide a copy (names, loop forms, helpers
extracted, comprehensions, guard clauses, docstrings, type hints); each
``NAME.py`` has its rewrite ``NAME.rewrite.py``.

Labels (``labels.csv``, columns ``file_a,file_b,label,kind``): each original
against each of its copies (1, ``kind`` = the transformation, ``hand`` for
the hand-written ones); each original against every other original and
every copy of another original (0, ``kind`` = ``independent``).  The pairs
of two originals of one package-like family (the hand programs solve
similar small tasks) are the hard negatives.
"""

from __future__ import annotations

import argparse
import ast
import csv
import random
import shutil
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent

ORIGINALS = ("bisect.py", "shlex.py", "textwrap.py", "fnmatch.py", "glob.py", "colorsys.py",
             "getopt.py", "netrc.py", "quopri.py", "sched.py", "graphlib.py", "tabnanny.py")
FILLER = ("pprint.py", "difflib.py", "cmd.py", "mailcap.py")
KINDS = ("plain", "insert", "append", "split", "reorder")


def _filler_functions(stdlib: Path) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for name in FILLER:
        tree = ast.parse((stdlib / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and len(node.body) >= 3:
                out.append(node)
    return out


def insert(tree: ast.Module, filler: list[ast.stmt], rng: random.Random) -> ast.Module:
    body: list[ast.stmt] = []
    for i, stmt in enumerate(tree.body):
        body.append(stmt)
        if i % 2 == 1:
            body.append(rng.choice(filler))
    return ast.Module(body=body, type_ignores=[])


def _split(func: ast.FunctionDef) -> list[ast.stmt]:
    if len(func.body) < 4:
        return [func]
    half = len(func.body) // 2
    helper = ast.FunctionDef(
        name=f"_{func.name}_first", args=func.args, body=func.body[:half],
        decorator_list=[], returns=None, type_comment=None)
    # the helper is called first, with the function's own arguments
    call = ast.Expr(ast.Call(func=ast.Name(helper.name, ast.Load()),
                             args=[ast.Name(a.arg, ast.Load()) for a in func.args.args],
                             keywords=[]))
    main = ast.FunctionDef(name=func.name, args=func.args, body=[call, *func.body[half:]],
                           decorator_list=func.decorator_list, returns=func.returns,
                           type_comment=None)
    return [ast.copy_location(helper, func), ast.copy_location(main, func)]


def split(tree: ast.Module) -> ast.Module:
    body: list[ast.stmt] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            body.extend(_split(stmt))
        elif isinstance(stmt, ast.ClassDef):
            members: list[ast.stmt] = []
            for member in stmt.body:
                members.extend(_split(member) if isinstance(member, ast.FunctionDef)
                               else [member])
            stmt.body = members
            body.append(stmt)
        else:
            body.append(stmt)
    return ast.Module(body=body, type_ignores=[])


def reorder(tree: ast.Module, rng: random.Random) -> ast.Module:
    head = [s for s in tree.body if not isinstance(s, ast.FunctionDef | ast.ClassDef)]
    defs = [s for s in tree.body if isinstance(s, ast.FunctionDef | ast.ClassDef)]
    rng.shuffle(defs)
    for node in defs:
        if isinstance(node, ast.ClassDef):
            rng.shuffle(node.body)
    return ast.Module(body=head + defs, type_ignores=[])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/winnow-rewrites"))
    args = parser.parse_args()
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    (out / "gen").mkdir(parents=True)
    rng = random.Random(21)
    filler = _filler_functions(stdlib)
    rows: list[tuple[str, str, int, str]] = []
    groups: dict[str, list[str]] = {}
    for name in ORIGINALS:
        text = (stdlib / name).read_text(encoding="utf-8")
        stem = name.removesuffix(".py")
        original = f"gen/{stem}.py"
        (out / original).write_text(text, encoding="utf-8")
        copies = {
            "plain": ast.unparse(ast.parse(text)),
            "insert": ast.unparse(insert(ast.parse(text), filler, rng)),
            "append": (stdlib / FILLER[len(groups) % len(FILLER)]).read_text(encoding="utf-8")
            + "\n\n" + ast.unparse(ast.parse(text)),
            "split": ast.unparse(split(ast.parse(text))),
            "reorder": ast.unparse(reorder(ast.parse(text), rng)),
        }
        groups[original] = []
        for kind, copy in copies.items():
            path = f"gen/{stem}.{kind}.py"
            (out / path).write_text(copy + "\n", encoding="utf-8")
            rows.append((original, path, 1, kind))
            groups[original].append(path)
    (out / "hand").mkdir()
    for source in sorted((HERE / "hand").glob("*.py")):
        shutil.copy(source, out / "hand" / source.name)
    for source in sorted((HERE / "hand").glob("*.py")):
        if source.name.endswith(".rewrite.py"):
            continue
        original = f"hand/{source.name}"
        rewrite = f"hand/{source.name.removesuffix('.py')}.rewrite.py"
        rows.append((original, rewrite, 1, "hand"))
        groups[original] = [rewrite]
    originals = list(groups)
    for i, a in enumerate(originals):
        for b in originals[i + 1:]:
            rows.append((a, b, 0, "independent"))
            rows.extend((a, copy, 0, "independent") for copy in groups[b])
            rows.extend((b, copy, 0, "independent") for copy in groups[a])
    with (out / "labels.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file_a", "file_b", "label", "kind"])
        writer.writerows(rows)
    positives = sum(r[2] for r in rows)
    print(f"{out}: {len(rows)} labelled pairs, {positives} positive")


if __name__ == "__main__":
    main()
