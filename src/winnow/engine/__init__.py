"""The fingerprinting engine: k-gram hashing and fingerprint selection.

It knows nothing of file formats (the paper's front-end rule, section 5.2):
its input is a stream of integer code units.
"""

from __future__ import annotations

import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.engine.anchors import anchor_fingerprints, anchor_positions
from winnow.engine.hashing import HashArray, kgram_hash_reference, kgram_hashes
from winnow.engine.selection import (
    FINGERPRINT_DTYPE,
    Fingerprints,
    as_pairs,
    bottom_n,
    density,
    mod_p,
    query_winnow,
    robust_winnow,
    safe_mod_p,
    select_fingerprints,
    sif_select,
    winnow,
    winnow_units,
)


def fingerprint(units: npt.ArrayLike, config: WinnowConfig) -> Fingerprints:
    """Hash the k-grams of ``units`` and select fingerprints as ``config`` says.

    The same result as ``select_fingerprints(kgram_hashes(units, k), w, method)``;
    winnowing and robust winnowing run fused (one pass, no array of all hashes).
    """
    if config.method in ("winnow", "robust"):
        return winnow_units(units, config.k, config.w, robust=config.method == "robust",
                            seed=config.seed)
    hashes = kgram_hashes(units, config.k, seed=config.seed)
    return select_fingerprints(hashes, config.w, config.method, **config.method_params())


__all__ = [
    "FINGERPRINT_DTYPE",
    "Fingerprints",
    "HashArray",
    "anchor_fingerprints",
    "anchor_positions",
    "as_pairs",
    "bottom_n",
    "density",
    "fingerprint",
    "kgram_hash_reference",
    "kgram_hashes",
    "mod_p",
    "query_winnow",
    "robust_winnow",
    "safe_mod_p",
    "select_fingerprints",
    "sif_select",
    "winnow",
    "winnow_units",
]
