"""winnow: find copied and similar content.

Implements *Winnowing* (Schleimer, Wilkerson, Aiken, SIGMOD 2003) and *sif*
(Manber, USENIX 1994).  The public library API is re-exported here, each name
imported on first use (``import winnow`` loads neither numpy nor numba):
:func:`compare_texts` and :func:`compare_paths` (:mod:`winnow.api`), the
comparison itself (:func:`compare`, :class:`CompareOptions`,
:class:`ComparisonResult`) and the engine's functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from winnow.config import METHODS, WinnowConfig
from winnow.errors import InputError, InvalidConfig, WinnowError

if TYPE_CHECKING:
    from winnow.api import (
        CompareOptions,
        ComparisonResult,
        TextSubmission,
        compare,
        compare_paths,
        compare_texts,
        dedup_records,
    )
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
#: Names imported from :mod:`winnow.api` on first use.
_API = ("CompareOptions", "ComparisonResult", "TextSubmission", "compare", "compare_paths",
        "compare_texts", "dedup_records")


def __getattr__(name: str) -> Any:
    if name in _ENGINE:
        from winnow import engine

        return getattr(engine, name)
    if name in _API:
        from winnow import api

        return getattr(api, name)
    raise AttributeError(f"module 'winnow' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names and the lazy ones (``dir(winnow)``, tab completion)."""
    return sorted({*globals(), *_ENGINE, *_API})


__version__ = "0.1.0"

__all__ = [
    "FINGERPRINT_DTYPE",
    "METHODS",
    "CompareOptions",
    "ComparisonResult",
    "Fingerprints",
    "InputError",
    "InvalidConfig",
    "TextSubmission",
    "WinnowConfig",
    "WinnowError",
    "__version__",
    "anchor_fingerprints",
    "compare",
    "compare_paths",
    "compare_texts",
    "dedup_records",
    "fingerprint",
    "kgram_hashes",
    "query_winnow",
    "select_fingerprints",
]
