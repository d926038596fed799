"""The parameters an index is built with, stored inside it and checked on use.

Fingerprints are only comparable when they were made the same way: the same
``k``, selection method and its parameters, hash seed, front-end and front-end
options (winnowing paper, section 5.2: the front-end decides what a match is).
The index records all of them with a format version; opening it with anything
different is refused (:class:`winnow.errors.IndexMismatch`) rather than
silently mixing incomparable fingerprints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from winnow.config import DEFAULT_SIF_BITS, WinnowConfig

#: Bumped whenever the stored layout or the meaning of a stored value changes.
#: 2: sif-selected hashes are stored shifted right by ``bits``.
FORMAT_VERSION: Final = 2

#: sif's own selection (Manber 1994, section 2): 50-byte k-grams, hashes whose
#: last 8 bits are zero (about one per 256 k-grams), never overlapping.
#: ``t`` is unused by this method; ``t = k`` keeps the config valid.
SIF_DEFAULT: Final = WinnowConfig(k=50, t=50, method="sif", bits=DEFAULT_SIF_BITS)

#: The front-end sif uses by default: raw bytes, nothing normalised.
DEFAULT_FRONTEND: Final = "bytes"

#: The winnowing window of an index built with a winnowing method and no ``t``
#: (``t = k + WINDOW - 1``).
WINDOW: Final = 100


@dataclass(frozen=True)
class IndexParams:
    """Everything that decides which fingerprints a file gets.

    ``frontend`` is a front-end name (``bytes``, ``text``, ``code`` ... or
    ``auto`` for the per-file automatic choice); ``frontend_options`` the
    non-default :class:`winnow.frontends.options.FrontEndOptions` fields.
    """

    config: WinnowConfig = SIF_DEFAULT
    frontend: str = DEFAULT_FRONTEND
    frontend_options: dict[str, Any] = field(default_factory=dict)

    @property
    def hash_shift(self) -> int:
        """Low bits dropped from stored hashes: sif's selection keeps only hashes
        whose last ``bits`` bits are zero, so "their values should be shifted
        ... before storing them to save space" (Manber 1994, section 2)."""
        from winnow.engine.selectors import selector_for  # numpy: only when indexing

        return selector_for(self.config).hash_shift

    @classmethod
    def create(cls, *, k: int | None = None, t: int | None = None, method: str | None = None,
               seed: int | None = None, frontend: str | None = None,
               frontend_options: Mapping[str, Any] | None = None,
               **method_params: Any) -> IndexParams:
        """The parameters of a new index, each missing one from the defaults:
        :data:`SIF_DEFAULT`'s method and ``k`` (and, for sif, its ``bits``),
        ``t = k`` for sif (unused by it) and ``k + WINDOW - 1`` otherwise (a
        window of :data:`WINDOW`), :data:`SIF_DEFAULT`'s seed,
        :data:`DEFAULT_FRONTEND`.  ``method_params`` are the method's own
        (``p``, ``bits``, ``n``, ``anchors``).  Raises
        :class:`~winnow.errors.InvalidConfig`."""
        method = method or SIF_DEFAULT.method
        k_value = SIF_DEFAULT.k if k is None else k
        t_value = t if t is not None else (k_value if method == "sif" else k_value + WINDOW - 1)
        if method == SIF_DEFAULT.method and method_params.get("bits") is None:
            method_params["bits"] = SIF_DEFAULT.bits
        config = WinnowConfig(k=k_value, t=t_value, method=method,
                              seed=SIF_DEFAULT.seed if seed is None else seed, **method_params)
        return cls(config=config, frontend=frontend or DEFAULT_FRONTEND,
                   frontend_options=dict(frontend_options or {}))

    def as_dict(self) -> dict[str, Any]:
        """Plain data, as stored in the index (with the format version)."""
        return {
            "format_version": FORMAT_VERSION,
            "config": self.config.as_dict(),
            "frontend": self.frontend,
            "frontend_options": dict(sorted(self.frontend_options.items())),
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> IndexParams:
        """Inverse of :meth:`as_dict` (the derived ``w`` is dropped)."""
        config = {k: v for k, v in data["config"].items() if k != "w"}
        return cls(
            config=WinnowConfig(**config),
            frontend=str(data["frontend"]),
            frontend_options=dict(data.get("frontend_options", {})),
        )

    def differences(self, other: IndexParams) -> list[str]:
        """Human-readable ``name: stored X, requested Y`` lines; empty if equal."""
        mine, theirs = _flat(self.as_dict()), _flat(other.as_dict())
        return [
            f"{key}: index has {mine.get(key)!r}, requested {theirs.get(key)!r}"
            for key in sorted(set(mine) | set(theirs))
            if mine.get(key) != theirs.get(key)
        ]


def _flat(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out
