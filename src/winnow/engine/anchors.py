"""sif's first selection method: anchors (Manber 1994, section 2).

A fixed set of short *anchor* strings is searched for in the document; at each
occurrence the fixed-length string starting there (the k-gram at the anchor's
first unit) is fingerprinted.  Two files sharing a passage that contains an
anchor share that fingerprint, wherever the passage sits.

Anchors are located with an Aho-Corasick automaton (``pyahocorasick``), so the
cost is linear in the document length whatever the number of anchors.
:class:`Anchors` makes it a selection method like the others
(``method="anchors"``, ``--method anchors --anchor TEXT``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import ahocorasick
import numpy as np
import numpy.typing as npt

from winnow.config import DEFAULT_SEED
from winnow.engine.hashing import as_units, kgram_hashes
from winnow.engine.selection import Fingerprints, _pack
from winnow.engine.selectors import Selector, register
from winnow.errors import InvalidConfig

_MAX_UNIT = 0x10FFFF


def _as_text(units: npt.NDArray[np.integer]) -> str:
    """Spell a unit stream as a str, one character per unit, for the matcher."""
    if units.size and int(units.max()) > _MAX_UNIT:
        raise InvalidConfig([f"anchor search needs units <= {_MAX_UNIT:#x}"])
    raw = np.ascontiguousarray(units, dtype="<u4").tobytes()
    return raw.decode("utf-32-le", errors="surrogatepass")


def _anchor_text(anchor: bytes | str | Sequence[int]) -> str:
    if isinstance(anchor, str):
        anchor = anchor.encode("utf-8")
    text = _as_text(np.asarray(list(anchor), dtype=np.int64))
    if not text:
        raise InvalidConfig(["anchors must not be empty"])
    return text


def anchor_positions(
    units: npt.ArrayLike, anchors: Iterable[bytes | str | Sequence[int]]
) -> npt.NDArray[np.int64]:
    """Start positions of every occurrence of every anchor, sorted, unique."""
    automaton = ahocorasick.Automaton()
    for anchor in anchors:
        text = _anchor_text(anchor)
        automaton.add_word(text, len(text))
    if len(automaton) == 0:
        raise InvalidConfig(["at least one anchor is needed"])
    automaton.make_automaton()
    haystack = _as_text(as_units(units))
    starts = [end - length + 1 for end, length in automaton.iter(haystack)]
    return np.unique(np.asarray(starts, dtype=np.int64))


def anchor_fingerprints(
    units: npt.ArrayLike,
    k: int,
    anchors: Iterable[bytes | str | Sequence[int]],
    *,
    seed: int = DEFAULT_SEED,
) -> Fingerprints:
    """Fingerprint the k-gram starting at each anchor occurrence.

    Occurrences too close to the end to start a full k-gram are dropped.
    """
    array = as_units(units)
    hashes = kgram_hashes(array, k, seed=seed)
    starts = anchor_positions(array, anchors)
    starts = starts[starts < hashes.shape[0]]
    return _pack(hashes, starts)


@register
@dataclass(frozen=True)
class Anchors(Selector):
    """sif's anchors as a selection method: the k-gram at every occurrence of
    one of ``anchors`` (UTF-8 strings, matched against the units as bytes or
    characters; a front-end whose units are token ids rarely contains them)."""

    name: ClassVar[str] = "anchors"
    takes: ClassVar[tuple[str, ...]] = ("anchors",)
    from_hashes: ClassVar[bool] = False
    anchors: tuple[str, ...]

    @classmethod
    def create(cls, k: int | None, w: int, given: Mapping[str, Any]) -> Selector:
        anchors = tuple(given.get("anchors") or ())
        if not anchors:
            raise InvalidConfig(["the anchors method needs at least one anchor"])
        for anchor in anchors:
            _anchor_text(anchor)  # refuses empty and out-of-range anchors now
        return cls(anchors=anchors)

    def select(self, hashes: npt.ArrayLike) -> Fingerprints:
        raise InvalidConfig(["anchors select at positions in the units, not from hashes: "
                             "use winnow.fingerprint(units, config)"])

    def fingerprint(self, units: npt.ArrayLike, k: int, seed: int) -> Fingerprints:
        return anchor_fingerprints(units, k, self.anchors, seed=seed)

    def params(self) -> dict[str, Any]:
        return {"anchors": list(self.anchors)}
