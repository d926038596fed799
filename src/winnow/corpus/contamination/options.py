"""The validated settings of a contamination scan and their defaults.

Tokens are words (:mod:`winnow.corpus.contamination.tokens`).  The defaults
follow from winnowing's guarantee and the rule most contamination reports
use, GPT-3's and lm-evaluation-harness's "an item is contaminated when it
shares a 13-gram (of words) with the training data":

* ``t = 13``: every run of at least 13 tokens that an item shares with a
  record contains a fingerprint, so every item that the 13-gram rule flags
  is found (and extended to its full length);
* ``min_tokens = 13``: a span is reported when it holds at least 13 equal
  tokens, the same bar as the 13-gram rule's, except that they may be
  split by small edits;
* ``k`` (the noise threshold: no run shorter than ``k`` tokens is ever
  seen) and ``gap`` (the tokens an edit may change between two runs of a
  span): chosen on ``benchmarks/contamination.py`` (docs/contamination.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from winnow.config import DEFAULT_SEED, WinnowConfig
from winnow.corpus.readers import Fields
from winnow.errors import InvalidConfig

DEFAULT_K: Final = 5
DEFAULT_T: Final = 13
DEFAULT_MIN_TOKENS: Final = 13
DEFAULT_GAP: Final = 3
#: Locations listed per item.
DEFAULT_LOCATIONS: Final = 3


@dataclass(frozen=True)
class ContaminationSettings:
    """What a scan does: where the items' and the corpus records' text and
    names are, the fingerprinting thresholds ``k`` and ``t`` (tokens), the
    joining ``gap`` (tokens), the ``min_tokens`` a span needs, the
    ``locations`` listed per item and the worker processes (``jobs``,
    ``0``: every core)."""

    eval_fields: Fields = field(default_factory=Fields)
    corpus_fields: Fields = field(default_factory=Fields)
    k: int = DEFAULT_K
    t: int = DEFAULT_T
    min_tokens: int = DEFAULT_MIN_TOKENS
    gap: int = DEFAULT_GAP
    locations: int = DEFAULT_LOCATIONS
    seed: int = DEFAULT_SEED
    jobs: int = 0

    def __post_init__(self) -> None:
        problems = []
        for name, low in (("min_tokens", 1), ("gap", 0), ("locations", 0), ("jobs", 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                problems.append(f"{name} must be an integer >= {low}, got {value!r}")
        try:
            self.config  # noqa: B018 - validates k, t and seed
        except InvalidConfig as error:
            problems += error.problems
        if problems:
            raise InvalidConfig(problems)

    @property
    def config(self) -> WinnowConfig:
        """Robust winnowing of token ``k``-grams, window ``t - k + 1``."""
        return WinnowConfig(self.k, self.t, "robust", self.seed)


__all__ = ["DEFAULT_GAP", "DEFAULT_K", "DEFAULT_LOCATIONS", "DEFAULT_MIN_TOKENS",
           "DEFAULT_T", "ContaminationSettings"]
