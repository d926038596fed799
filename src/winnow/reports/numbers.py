"""How every output shows a share and a cluster: one rule for all of them.

* A share is a fraction from 0 to 1 in the machine formats (CSV, JSON, JSON Lines)
  and a percentage in what people read (tables, the HTML report), **rounded down**
  at the precision shown: ``0.908`` reads ``90.8%`` with one decimal and ``90%``
  whole, and ``100%`` means complete (``0.9996`` reads ``99.9%``, never ``100%``).
  Rounding down never shows a pair as more similar than it is.
* Clusters are numbered from 1, in the order the result lists them (largest first),
  in the table, the CSV and JSON, and the HTML report alike.
"""

from __future__ import annotations

import math

#: Added before rounding down, so that 0.29 (stored as 0.28999...) reads 29%.
_EPSILON = 1e-9


def percent(fraction: float | None, decimals: int = 0, missing: str = "–") -> str:
    """``fraction`` as a percentage rounded down to ``decimals`` (``missing`` for None)."""
    if fraction is None:
        return missing
    scale = 10 ** decimals
    value = math.floor(fraction * 100 * scale + _EPSILON) / scale
    return f"{value:.{decimals}f}%"


def cluster_number(index: int) -> int:
    """The number a cluster is shown with: its position in the result, from 1."""
    return index + 1


def share(fraction: float, digits: int = 4) -> float:
    """A share of the sif stage (a fraction), as the machine formats write it:
    rounded down to ``digits`` decimals, 1.0 only when it is complete (``0.99996``
    gives ``0.9999``); sif's occurrence count, which can pass 1, is kept as is."""
    if fraction >= 1.0:
        return fraction
    scale = float(10 ** digits)
    return math.floor(fraction * scale + _EPSILON * scale) / scale


def whole_percent(fraction: float) -> int:
    """``fraction`` as a whole percentage rounded down (``0.29`` gives 29)."""
    return math.floor(fraction * 100 + _EPSILON)
