"""No two modules import each other, directly or around a longer cycle.

Read from the sources' import statements, as the layer test does (imports
inside functions count).  A package's ``__init__`` is left out: it re-exports
its own modules, which may import the package in turn.
"""

from __future__ import annotations

from pathlib import Path

from tests.unit.test_layers import SOURCES, SRC, imports


def _module(path: Path) -> str:
    return ".".join(path.relative_to(SRC.parent).with_suffix("").parts)


def _graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in SOURCES if p.name != "__init__.py"}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for imported in imports(path):
            while imported and imported not in modules:  # ``from pkg.mod import name``
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (its modules in order), or ``[]``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        todo = [iter(sorted(graph[start]))]
        state[start] = 1
        while todo:
            target = next(todo[-1], None)
            if target is None:
                state[path.pop()] = 2
                todo.pop()
            elif state.get(target) == 1:
                return [*path[path.index(target):], target]
            elif target not in state:
                state[target] = 1
                path.append(target)
                todo.append(iter(sorted(graph[target])))
    return []


def test_the_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_no_module_imports_itself_through_others() -> None:
    assert find_cycle(_graph()) == []
