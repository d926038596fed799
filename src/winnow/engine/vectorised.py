"""The engine's hashing and its position-free selections in numpy alone.

The compiled kernels (:mod:`winnow.engine._kernels`) are the engine's fast
path, but the first compiled call of a process loads numba and the kernel
from its cache: about 0.3-0.4 s, hundreds of times what hashing one short
file takes.  For a stream of at most :data:`SHORT_UNITS` units,
:func:`fingerprint_short` computes the same fingerprints with numpy array
operations instead (``winnow query`` fingerprints one file this way); tests
check that both give identical hashes and selections.

The rolling hash without a loop: with digits ``c_j`` and the odd base ``b``
(invertible modulo 2^64), the prefix state ``S_t = c_0 b^t + ... + c_(t-1) b``
is ``b^t · Σ_(j<t) c_j b^(-j)``, a cumulative sum; the k-gram at ``i`` is
``H'_i = S_(i+k) - b^k S_i``, every product and sum modulo 2^64 (numpy's
unsigned arithmetic wraps).  Of the selections, ``sif``, ``mod-p`` and
``bottom-n`` depend only on the hashes and a greedy pass over the few
candidates, so they vectorise; the winnowing methods use the compiled kernels.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from winnow.config import WinnowConfig
from winnow.engine.hashing import HashArray, as_units, hash_base, hash_key
from winnow.engine.selection import Fingerprints
from winnow.engine.selectors import SELECTORS, Selector, selector_for

#: Streams up to this many units are fingerprinted by :func:`fingerprint_short`
#: with numpy (a few arrays of 8 bytes per unit); longer ones by the kernels.
SHORT_UNITS: Final = 1 << 20

#: The selection methods :func:`fingerprint_short` computes with numpy: those
#: whose selector has a numpy form.
VECTORISED_METHODS: Final = frozenset(
    name for name, cls in SELECTORS.items() if cls.select_numpy is not Selector.select_numpy)

_U64 = np.uint64
_MOD = 1 << 64


def _fmix64(x: HashArray) -> HashArray:
    x ^= x >> _U64(33)
    x *= _U64(0xFF51AFD7ED558CCD)
    x ^= x >> _U64(33)
    x *= _U64(0xC4CEB9FE1A85EC53)
    x ^= x >> _U64(33)
    return x


def _powers(base: int, n: int) -> HashArray:
    """``base^0 .. base^n`` modulo 2^64."""
    powers = np.full(n + 1, base, dtype=np.uint64)
    powers[0] = 1
    out: HashArray = np.multiply.accumulate(powers, dtype=np.uint64)
    return out


def rolling_hashes(units: npt.NDArray[np.integer], k: int, seed: int) -> HashArray:
    """The hashes :func:`winnow.engine.kgram_hashes` gives, without a loop."""
    n = units.shape[0]
    if n < k:
        return np.empty(0, dtype=np.uint64)
    key, base = hash_key(seed), hash_base(seed)
    digits = _fmix64((units.astype(np.uint64) + _U64(0x9E3779B97F4A7C15)) ^ _U64(key))
    scaled = digits * _powers(pow(base, -1, _MOD), n - 1)
    prefix = np.zeros(n + 1, dtype=np.uint64)
    np.cumsum(scaled, dtype=np.uint64, out=prefix[1:])
    state = prefix * _powers(base, n)  # S_t for t = 0 .. n
    grams = state[k:] - state[: n - k + 1] * _U64(pow(base, k, _MOD))
    return _fmix64(grams ^ _U64(key))


def fingerprint_short(units: npt.ArrayLike, config: WinnowConfig) -> Fingerprints:
    """``winnow.engine.fingerprint(units, config)``, with numpy alone when the
    stream is short (:data:`SHORT_UNITS`) and the method has a numpy form
    (:meth:`Selector.select_numpy <winnow.engine.selectors.Selector.select_numpy>`,
    :data:`VECTORISED_METHODS`); otherwise through the compiled kernels."""
    array = as_units(units)
    if array.shape[0] > SHORT_UNITS or config.method not in VECTORISED_METHODS:
        from winnow.engine import fingerprint

        return fingerprint(array, config)
    selected = selector_for(config).select_numpy(rolling_hashes(array, config.k, config.seed))
    assert selected is not None  # every VECTORISED_METHODS selector has a numpy form
    return selected
