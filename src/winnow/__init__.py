"""winnow: find copied and similar content.

Implements *Winnowing* (Schleimer, Wilkerson, Aiken, SIGMOD 2003) and *sif*
(Manber, USENIX 1994).  The public library API is re-exported here.
"""

from __future__ import annotations

from winnow.config import METHODS, WinnowConfig
from winnow.engine import (
    FINGERPRINT_DTYPE,
    Fingerprints,
    anchor_fingerprints,
    fingerprint,
    kgram_hashes,
    query_winnow,
    select_fingerprints,
)
from winnow.errors import InputError, InvalidConfig, WinnowError

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
