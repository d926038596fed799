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

#: The selection methods :func:`winnow.select_fingerprints` knows.
METHODS: Final = ("winnow", "robust", "mod-p", "safe-mod-p", "sif", "bottom-n")

#: Default hash seed.  Changing it changes every stored hash (an index-format bump).
DEFAULT_SEED: Final = 0


@dataclass(frozen=True, slots=True)
class WinnowConfig:
    """Fingerprinting parameters, validated on construction.

    ``p`` (mod-p, safe-mod-p), ``bits`` (sif) and ``n`` (bottom-n) are the
    method's own parameters; ``None`` means the method's documented default,
    resolved by :meth:`method_params`.
    """

    k: int = 50
    t: int = 149
    method: str = "robust"
    seed: int = DEFAULT_SEED
    p: int | None = None
    bits: int | None = None
    n: int | None = None

    def __post_init__(self) -> None:
        problems: list[str] = []
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

    def method_params(self) -> dict[str, int]:
        """The keyword parameters :func:`select_fingerprints` gets for ``method``."""
        return method_defaults(self.method, self.k, self.w, p=self.p, bits=self.bits, n=self.n)

    def as_dict(self) -> dict[str, Any]:
        """Plain-data form, for JSON output and the index's stored parameters."""
        return {**asdict(self), "w": self.w}


def method_defaults(
    method: str, k: int, w: int, *, p: int | None, bits: int | None, n: int | None
) -> dict[str, int]:
    """Resolve a method's own parameters, filling documented defaults.

    * mod-p: ``p = round((w + 1) / 2)``, the density of winnowing (section 3.1.1).
    * safe-mod-p: ``p = round(w / ln w)``, the optimum of section 3.1.2.
    * sif: ``bits = 8`` (Manber selects hashes whose last 8 bits are zero) and
      ``k`` to skip overlapping k-grams.
    * bottom-n: ``n = 100``.
    """
    if method == "mod-p":
        return {"p": p if p is not None else max(1, round((w + 1) / 2))}
    if method == "safe-mod-p":
        return {"p": p if p is not None else optimal_safe_p(w)}
    if method == "sif":
        return {"bits": bits if bits is not None else 8, "k": k}
    if method == "bottom-n":
        return {"n": n if n is not None else 100}
    return {}


def optimal_safe_p(w: int) -> int:
    """The ``p`` minimising Safe 0 mod p's density, ``1 / P0`` with ``P0 = ln(w)/w``."""
    if w < 3:
        return 1
    return max(1, round(w / math.log(w)))
