"""The persistent fingerprint index (sif's *All_Fingers*, Manber 1994, section 3).

One embedded DuckDB file holding documents, their fingerprints with positions
and the parameters they were made with; see :mod:`winnow.index.store`.
"""

from __future__ import annotations

from winnow.index.params import DEFAULT_FRONTEND, FORMAT_VERSION, SIF_DEFAULT, IndexParams
from winnow.index.store import DocRow, FingerprintIndex, IndexInfo, NewDocument

__all__ = [
    "DEFAULT_FRONTEND",
    "FORMAT_VERSION",
    "SIF_DEFAULT",
    "DocRow",
    "FingerprintIndex",
    "IndexInfo",
    "IndexParams",
    "NewDocument",
]
