"""The one frozen, validated set of fingerprinting parameters.

Names follow the winnowing paper (Schleimer, Wilkerson, Aiken 2003, section 3):

* ``k`` — the *noise threshold*: matches shorter than ``k`` units are ignored;
  it is also the length of the k-grams that are hashed.
* ``t`` — the *guarantee threshold*: every match of at least ``t`` units is found.
* ``w = t - k + 1`` — the winnowing window, derived and never stored.

The same object configures the library, the CLI and (through :meth:`as_dict`)
the on-disk index, which refuses to be used with different parameters.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Final

from winnow.errors import InvalidConfig

#: The names of the selection methods (:data:`winnow.engine.selectors.SELECTORS`,
#: where each is implemented with its parameters and their defaults), here so that
#: a config is validated and the CLI lists them without loading the engine.
METHODS: Final = ("winnow", "robust", "mod-p", "safe-mod-p", "sif", "bottom-n", "anchors")

#: Default hash seed.  Changing it changes every stored hash (an index-format bump).
DEFAULT_SEED: Final = 0

#: The default selection method of ``WinnowConfig`` (and of ``compare``,
#: ``fingerprint``): robust winnowing (paper, section 5.2).
DEFAULT_METHOD: Final = "robust"

#: The default noise threshold ``k`` and guarantee threshold ``t`` of
#: ``WinnowConfig`` (also the ``bytes`` front-end's row of
#: :data:`winnow.frontends.options.DEFAULT_PARAMS`): 50 units, window 100.
DEFAULT_K: Final = 50
DEFAULT_T: Final = 149

# The selection methods' own parameters when a config leaves them ``None``:
# each method's selector (:mod:`winnow.engine.selectors`) resolves them here.

#: sif's ``bits``: hashes whose last 8 bits are zero, about one k-gram in 256
#: (Manber 1994, section 2).
DEFAULT_SIF_BITS: Final = 8

#: bottom-n's ``n``: the ``n`` smallest hashes of a document.
DEFAULT_BOTTOM_N: Final = 100


def default_mod_p(w: int) -> int:
    """0 mod p's default ``p = round((w + 1) / 2)``: the density of winnowing
    with window ``w`` (paper, section 3.1.1)."""
    return max(1, round((w + 1) / 2))


def optimal_safe_p(w: int) -> int:
    """Safe 0 mod p's default: the ``p`` minimising its density, ``1 / P0`` with
    ``P0 = ln(w)/w``, that is ``round(w / ln w)`` (paper, section 3.1.2)."""
    if w < 3:
        return 1
    return max(1, round(w / math.log(w)))

#: MOSS ``-m`` / ``--max-df``: a fingerprint found in more documents than this
#: is ignored.  An integer ``>= 1`` is a count of documents, a fraction
#: ``0 < f < 1`` a share of them, ``0`` no cap (one type for every command).
MaxDf = int | float


def check_max_df(value: object) -> str | None:
    """The problem with a ``--max-df`` value (:data:`MaxDf`), or ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return f"max_df must be a number, got {value!r}"
    if value < 0 or (value >= 1 and value != int(value)):
        return f"max_df must be 0, an integer >= 1 or a fraction in (0, 1); got {value!r}"
    return None


def max_df_count(value: MaxDf, documents: int, *, at_least: int = 2) -> int:
    """A :data:`MaxDf` as a count of documents, for ``documents`` of them: an
    integer as is; a fraction ``f`` as ``ceil(f * documents)`` and ``0`` (no
    cap) as ``documents``, each at least ``at_least`` (so that a fingerprint
    can still pair two documents).  ``winnow groups`` and ``winnow dedup`` convert
    their ``-m`` here once they know the number of documents."""
    problem = check_max_df(value)
    if problem is not None:
        raise InvalidConfig([problem])
    if value >= 1:
        return int(value)
    return max(documents if value == 0 else math.ceil(value * documents), at_least)


@dataclass(frozen=True, slots=True)
class WinnowConfig:
    """Fingerprinting parameters, validated on construction.

    ``p`` (mod-p, safe-mod-p), ``bits`` (sif), ``n`` (bottom-n) and
    ``anchors`` (anchors: the strings whose occurrences start a fingerprint)
    are the method's own parameters; ``None`` means the method's documented
    default (:data:`DEFAULT_SIF_BITS`, :data:`DEFAULT_BOTTOM_N`,
    :func:`default_mod_p`, :func:`optimal_safe_p`), resolved by its selector
    (:func:`winnow.engine.selectors.selector_for`).
    """

    k: int = DEFAULT_K
    t: int = DEFAULT_T
    method: str = DEFAULT_METHOD
    seed: int = DEFAULT_SEED
    p: int | None = None
    bits: int | None = None
    n: int | None = None
    anchors: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        problems: list[str] = []
        if self.anchors is not None:  # a list read back from JSON: stored as a tuple
            object.__setattr__(self, "anchors", tuple(self.anchors))
            if not self.anchors or not all(isinstance(a, str) and a for a in self.anchors):
                problems.append(f"anchors must be non-empty strings, got {self.anchors!r}")
        elif self.method == "anchors":
            problems.append("the anchors method needs at least one anchor")
        for name in ("k", "t", "seed"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                problems.append(f"{name} must be an integer, got {value!r}")
        if not problems:
            if self.k < 1:
                problems.append(f"k (noise threshold) must be >= 1, got {self.k}")
            if self.t < self.k:
                problems.append(
                    f"t (guarantee threshold) must be >= k (noise threshold), "
                    f"got t={self.t} < k={self.k}"
                )
            if not 0 <= self.seed < 2**64:
                problems.append(f"seed must be in [0, 2**64), got {self.seed}")
        if self.method not in METHODS:
            problems.append(f"method must be one of {', '.join(METHODS)}; got {self.method!r}")
        for name, low in (("p", 1), ("bits", 0), ("n", 1)):
            value = getattr(self, name)
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or value < low
            ):
                problems.append(f"{name} must be an integer >= {low}, got {value!r}")
        if self.bits is not None and isinstance(self.bits, int) and self.bits > 63:
            problems.append(f"bits must be <= 63, got {self.bits}")
        if problems:
            raise InvalidConfig(problems)

    @property
    def w(self) -> int:
        """The winnowing window, ``t - k + 1`` (paper, section 3)."""
        return self.t - self.k + 1

    def as_dict(self) -> dict[str, Any]:
        """Plain-data form, for JSON output and the index's stored parameters
        (``anchors`` only when set, as a list)."""
        data = {**asdict(self), "w": self.w}
        anchors = data.pop("anchors")
        return data if anchors is None else {**data, "anchors": list(anchors)}

