"""winnow: find copied and similar content.

Implements *Winnowing* (Schleimer, Wilkerson, Aiken, SIGMOD 2003) and *sif*
(Manber, USENIX 1994).  The public library API is re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from winnow.config import METHODS, WinnowConfig
from winnow.errors import InputError, InvalidConfig, WinnowError

if TYPE_CHECKING:
    from winnow.engine import (
        FINGERPRINT_DTYPE,
        Fingerprints,
        anchor_fingerprints,
        fingerprint,
        kgram_hashes,
        query_winnow,
        select_fingerprints,
    )

#: Names imported from the engine on first use (it loads numba and numpy:
#: ``winnow --help`` and ``winnow --version`` must not).
_ENGINE = ("FINGERPRINT_DTYPE", "Fingerprints", "anchor_fingerprints", "fingerprint",
           "kgram_hashes", "query_winnow", "select_fingerprints")


def __getattr__(name: str) -> Any:
    if name in _ENGINE:
        from winnow import engine

        return getattr(engine, name)
    raise AttributeError(f"module 'winnow' has no attribute {name!r}")


__version__ = "0.1.0"

__all__ = [
    "FINGERPRINT_DTYPE",
    "METHODS",
    "Fingerprints",
    "InputError",
    "InvalidConfig",
    "WinnowConfig",
    "WinnowError",
    "__version__",
    "anchor_fingerprints",
    "fingerprint",
    "kgram_hashes",
    "query_winnow",
    "select_fingerprints",
]
