"""Front-end options and the per-front-end default parameters ``k`` and ``t``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from winnow.config import DEFAULT_K, DEFAULT_T

Unit = Literal["chars", "words"]


@dataclass(frozen=True)
class FrontEndOptions:
    """What a front-end keeps.  Defaults follow the winnowing paper (section 5.2).

    Text: ``unit`` is one character (default) or one word; case, punctuation
    and whitespace are dropped unless kept.  Code: identifiers collapse to one
    symbol and literals to one symbol per kind unless kept.  Notebooks: code
    cells only unless ``notebook_markdown``.  Structural: the code front-end's
    tokens follow the neutral ones unless ``lexical`` is false (comparisons
    across languages turn it off).
    """

    unit: Unit = "chars"
    keep_case: bool = False
    keep_punctuation: bool = False
    keep_whitespace: bool = False
    keep_identifiers: bool = False
    keep_literals: bool = False
    notebook_markdown: bool = False
    lexical: bool = True

    def __post_init__(self) -> None:
        if self.unit not in ("chars", "words"):
            raise ValueError(f"unit must be 'chars' or 'words', not {self.unit!r}")


DEFAULT_OPTIONS = FrontEndOptions()

#: Default noise threshold ``k`` and guarantee threshold ``t`` per front-end,
#: in that front-end's units, tuned on the labelled sets (docs/accuracy.md):
#: code: 10 tokens (about one statement) and t = k, i.e. every k-gram is a
#: fingerprint (window 1): with ``winnow compare``'s literal channel this was
#: the best setting on IR-Plag and SOCO, and it leaves nothing to the luck of
#: which k-grams a window selects (small programs have few); text: 16
#: characters (about three words), t = 23 (window 8) -- best on Clough &
#: Stevenson among k = 5..40.  Words: 8 words (not tuned: no labelled set uses it).
#: Bytes (and any other front-end): :class:`winnow.config.WinnowConfig`'s own
#: defaults (:data:`winnow.config.DEFAULT_K`, :data:`winnow.config.DEFAULT_T`).
DEFAULT_PARAMS: dict[str, tuple[int, int]] = {
    "code": (10, 10),
    "structural": (10, 10),
    "notebook": (10, 10),
    "text": (16, 23),
    "text-words": (8, 16),
    "html": (16, 23),
    "document": (16, 23),
    "bytes": (DEFAULT_K, DEFAULT_T),
}


def default_params(frontend: str, options: FrontEndOptions | None = None) -> tuple[int, int]:
    """``(k, t)`` for a front-end (``text`` in word mode has its own row)."""
    if options is not None and options.unit == "words" and frontend in ("text", "html",
                                                                         "document"):
        return DEFAULT_PARAMS["text-words"]
    return DEFAULT_PARAMS.get(frontend, DEFAULT_PARAMS["bytes"])
