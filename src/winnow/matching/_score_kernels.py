"""The compiled pass of :func:`winnow.matching.scores.pair_scores` (numba).

Every share of every pair, from its counts and its two owners' set sizes and
weights, in one loop over the pairs: where the same formulas as numpy
expressions made some forty passes over arrays of a million pairs and a
temporary array for each.  Each value is computed with the same operations
in the same order as those expressions (IEEE divisions and sums), so the
shares are the same to the last bit.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.compiled import jit

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

#: The rows of :func:`pair_ratios`' output, in order.
RATIOS = ("containment_a", "containment_b", "jaccard", "dice", "weighted", "rarity",
          "weighted_dice", "weighted_a", "weighted_b")


@jit()
def _share(num: float, den: float) -> float:
    """``num / den`` where ``den > 0`` (else 0), at most 1."""
    out = num / den if den > 0.0 else 0.0
    return 1.0 if out > 1.0 else out


@jit()
def pair_ratios(a: I64, b: I64, shared: I64, weight: F64, df_sum: F64, sizes: I64,
                weight_totals: F64, n_owners: int, out: F64) -> None:
    """Fill ``out`` (``len(RATIOS)`` rows, a column per pair) with the shares
    :data:`RATIOS` names: with ``s`` the pair's shared count, ``f`` and ``W``
    its owners' set sizes and weights, ``w`` its shared weight,
    ``s / f_a``, ``s / f_b``, ``s / (f_a + f_b - s)``, ``2 s / (f_a + f_b)``,
    ``w / min(W_a, W_b)``, ``df_sum / (s N)``, ``2 w / (W_a + W_b)``,
    ``w / W_a``, ``w / W_b``, each 0 over a zero and at most 1."""
    scale = float(max(n_owners, 1))
    for i in range(a.shape[0]):
        s = float(shared[i])
        fa = float(sizes[a[i]])
        fb = float(sizes[b[i]])
        wa = weight_totals[a[i]]
        wb = weight_totals[b[i]]
        w = weight[i]
        out[0, i] = _share(s, fa)
        out[1, i] = _share(s, fb)
        out[2, i] = _share(s, fa + fb - s)
        out[3, i] = _share(2.0 * s, fa + fb)
        out[4, i] = _share(w, wa if wa <= wb else wb)
        out[5, i] = _share(df_sum[i], s * scale)
        out[6, i] = _share(2.0 * w, wa + wb)
        out[7, i] = _share(w, wa)
        out[8, i] = _share(w, wb)
