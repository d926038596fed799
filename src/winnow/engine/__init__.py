"""The fingerprinting engine: k-gram hashing and fingerprint selection.

It knows nothing of file formats (the paper's front-end rule, section 5.2):
its input is a stream of integer code units.
"""

from __future__ import annotations

import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.engine.anchors import Anchors, anchor_fingerprints, anchor_positions
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
    sif_select,
    winnow,
    winnow_units,
)
from winnow.engine.selectors import (
    SELECTORS,
    Selector,
    optimal_safe_p,
    register,
    select_fingerprints,
    selector,
    selector_for,
)


def fingerprint(units: npt.ArrayLike, config: WinnowConfig) -> Fingerprints:
    """Hash the k-grams of ``units`` and select fingerprints as ``config`` says.

    The method is ``config``'s selector (:func:`selector_for`); for the methods
    that select from hashes, the same result as
    ``select_fingerprints(kgram_hashes(units, k), w, method)``.  Winnowing and
    robust winnowing run fused (one pass, no array of all hashes).
    """
    return selector_for(config).fingerprint(units, config.k, config.seed)


__all__ = [
    "FINGERPRINT_DTYPE",
    "SELECTORS",
    "Anchors",
    "Fingerprints",
    "HashArray",
    "Selector",
    "anchor_fingerprints",
    "anchor_positions",
    "as_pairs",
    "bottom_n",
    "density",
    "fingerprint",
    "kgram_hash_reference",
    "kgram_hashes",
    "mod_p",
    "optimal_safe_p",
    "query_winnow",
    "register",
    "robust_winnow",
    "safe_mod_p",
    "select_fingerprints",
    "selector",
    "selector_for",
    "sif_select",
    "winnow",
    "winnow_units",
]
