"""What the expression handlers and the language tables ask of the converter
(:class:`winnow.frontends.structural.convert.Converter` is one): a protocol of
its own, so that neither module imports the converter that imports them."""

from __future__ import annotations

from typing import Any, Protocol

from winnow.frontends.structural.ir import N

Node = Any  # a tree_sitter.Node


class Walker(Protocol):
    """A converter over one file's syntax tree."""

    @property
    def table(self) -> Any:
        """The language's :class:`~winnow.frontends.structural.tables.Table`
        (typed loosely: the tables module imports this one)."""
        ...

    def text(self, node: Node) -> str: ...

    def role(self, node: Node) -> str: ...

    def named(self, node: Node) -> list[Node]: ...

    def field(self, node: Node, name: str) -> Node | None: ...

    def op_of(self, node: Node) -> str: ...

    def expr(self, node: Node) -> N: ...
