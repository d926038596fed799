"""The dependency direction of DESIGN.md, read from the sources' import statements.

cli -> serve, experiments -> reports -> matching -> index -> engine <- frontends <-
sources: a package imports only packages below it, and only the CLI (and, for
templates, the reports and the server) import click, tqdm and jinja2; only the
server imports aiohttp, only the experiments import matplotlib.  Imports inside
functions count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "winnow"

#: The base: winnow's single-file modules (config, errors, model ...), which
#: import only each other (``__init__`` re-exports the engine's API and, lazily,
#: the library's short API of ``api``, which sits on the matching stage).
APPLICATION = {"evaluation", "__main__", "api"}
BASE = {p.stem for p in SRC.glob("*.py")} - APPLICATION
#: What each package may import from winnow, besides itself and the base modules.
ALLOWED = {
    **{name: set() for name in BASE - {"__init__"}},
    "__init__": {"engine", "api"},
    "engine": set(),
    # the pair-counting stage: its entry point, engine registry and in-memory engine
    "pairs": set(),
    "frontends": {"engine"},
    "sources": {"engine", "frontends"},
    "index": {"engine", "frontends", "sources"},
    "matching": {"engine", "frontends", "sources", "index", "pairs"},
    "sif": {"engine", "frontends", "sources", "index", "matching", "pairs"},
    "corpus": {"engine", "frontends", "sources", "index", "matching", "pairs"},
    "reports": {"engine", "frontends", "sources", "index", "matching", "sif", "corpus"},
    "evaluation": {"engine", "frontends", "sources", "index", "matching", "reports"},
    "serve": {"engine", "frontends", "sources", "index", "matching", "reports"},
    "api": {"engine", "frontends", "sources", "index", "matching", "corpus", "pairs"},
    # the sharded engines of the pair-counting stage run the matching stage's
    # counting per partition
    "sharded": {"pairs", "matching"},
    # the papers' experiments run every stage, and the evaluation of labelled sets
    "experiments": {"engine", "frontends", "sources", "index", "matching", "reports", "sif",
                    "evaluation"},
}
#: Third-party modules only the named packages may import.
RESTRICTED = {"click": {"cli"}, "tqdm": {"cli"}, "jinja2": {"reports", "serve"},
              "aiohttp": {"serve"}, "matplotlib": {"experiments"},
              "ray": {"sharded"}}


def imports(path: Path) -> set[str]:
    """Absolute module names imported anywhere in ``path`` (relative ones resolved)."""
    package = path.relative_to(SRC.parent).with_suffix("").parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.add(module)
            if module == "winnow":  # from winnow import engine
                found.update(f"winnow.{alias.name}" for alias in node.names)
    return found


def layer_of(path: Path) -> str:
    parts = path.relative_to(SRC).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


SOURCES = sorted(SRC.rglob("*.py"))


def test_the_packages_are_where_the_rules_expect() -> None:
    layers = {layer_of(p) for p in SOURCES}
    assert set(ALLOWED) | {"cli"} <= layers


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_follow_the_dependency_direction(path: Path) -> None:
    layer = layer_of(path)
    found = imports(path)
    for module, users in RESTRICTED.items():
        used = {m for m in found if m == module or m.startswith(module + ".")}
        assert layer in users or not used, f"{layer} imports {sorted(used)}"
    if layer not in ALLOWED:
        return
    for module in sorted(found):
        parts = module.split(".")
        if parts[0] != "winnow" or len(parts) < 2:
            continue
        target = parts[1]
        assert target in BASE | ALLOWED[layer] | {layer}, \
            f"{path.relative_to(SRC)} ({layer}) imports {module}"
