"""The stage's one entry point."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from winnow.errors import InvalidConfig
from winnow.pairs.model import PairSums, Postings
from winnow.pairs.registry import EngineChoice, engine_named
from winnow.parallel import Progress


@contextmanager
def count_pairs(postings: Postings, cap: int, choice: EngineChoice | None = None,
                progress: Progress | None = None) -> Iterator[PairSums]:
    """The pair sums of ``postings``, hashes in more than ``cap`` documents
    dropped (MOSS ``-m``), counted by the engine ``choice`` names (default:
    ``auto``, :meth:`EngineChoice.resolve` on ``postings.rows`` and
    ``row_bytes``).  The sums
    are valid inside the ``with`` block (a sharded engine's temporary working
    folder is removed at its end).  ``progress(stage, done, total)`` follows
    the engine's stages."""
    if cap < 1:
        raise InvalidConfig([f"cap must be at least 1; got {cap}"])
    choice = choice or EngineChoice()
    engine = engine_named(choice.resolve(postings.rows, postings.row_bytes))
    with engine.count(postings, cap, choice, progress) as sums:
        yield sums
