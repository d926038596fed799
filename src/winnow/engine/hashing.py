"""Stable, seeded 64-bit k-gram hashing.

The hash of a k-gram is the improved Karp-Rabin polynomial of the winnowing
paper (section 2.2), computed incrementally in O(n):

    H'(c_1 .. c_k) = c_1 b^k + c_2 b^(k-1) + ... + c_k b      (mod 2^64)

* **Digits.**  Each code unit ``u`` (a byte or a front-end's token id) becomes
  the digit ``c = fmix64((u + 0x9E3779B97F4A7C15) XOR key)``: a pseudo-random
  64-bit value, so a unit is one digit and token boundaries are unambiguous
  (``["ab", "c"]`` and ``["a", "bc"]`` are different unit sequences, never
  joined into one string).
* **Modulus 2^64.**  Native machine arithmetic, as the paper recommends; no
  division anywhere in the loop.
* **Base.**  ``b = fmix64(key XOR 0x5851F42D4C957F2D) | 1`` — a seeded odd
  64-bit constant (odd, so multiplication by ``b`` is invertible mod 2^64 and
  loses no bits).
* **Output.**  ``fmix64(H' XOR key)``.  Modulo 2^64 the low bits of ``H'``
  depend only on the low bits of the digits; the MurmurHash3 finaliser (a
  bijection with full avalanche) makes every unit affect every output bit,
  which the low-bit selections (0 mod p, sif's "last bits zero") rely on.
* **Seed.**  ``key = fmix64(seed + 0x9E3779B97F4A7C15)``; the default seed is
  :data:`winnow.config.DEFAULT_SEED`.  The values depend only on the units,
  ``k`` and the seed: never on the process, the platform or Python's salted
  ``hash()``.  ``tests/golden`` pins them.

Known limit: a polynomial hash modulo 2^64 has engineered collisions
(Thue-Morse strings) only for k-grams longer than about 2^10 units; our ``k`` is
far below that.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from winnow.config import DEFAULT_SEED
from winnow.errors import InvalidConfig

_GOLDEN = 0x9E3779B97F4A7C15
_BASE_SALT = 0x5851F42D4C957F2D
_MASK = (1 << 64) - 1

HashArray = npt.NDArray[np.uint64]


def _fmix64(x: int) -> int:
    x ^= x >> 33
    x = (x * 0xFF51AFD7ED558CCD) & _MASK
    x ^= x >> 33
    x = (x * 0xC4CEB9FE1A85EC53) & _MASK
    x ^= x >> 33
    return x


def hash_key(seed: int) -> int:
    """The 64-bit key derived from a seed."""
    return _fmix64((seed + _GOLDEN) & _MASK)


def hash_base(seed: int) -> int:
    """The odd polynomial base derived from a seed."""
    return _fmix64(hash_key(seed) ^ _BASE_SALT) | 1


def as_units(units: npt.ArrayLike) -> npt.NDArray[np.integer]:
    """Validate a stream of code units: a 1-D array of non-negative integers."""
    array = np.asarray(units)
    if array.ndim != 1:
        raise InvalidConfig([f"units must be a 1-D array, got shape {array.shape}"])
    if array.size == 0:
        return array.astype(np.uint8)
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidConfig([f"units must be integers, got dtype {array.dtype}"])
    if np.issubdtype(array.dtype, np.signedinteger) and int(array.min()) < 0:
        raise InvalidConfig(["units must be non-negative"])
    return np.ascontiguousarray(array)


def kgram_hashes(units: npt.ArrayLike, k: int, *, seed: int = DEFAULT_SEED) -> HashArray:
    """Hash every k-gram of ``units``: element ``i`` hashes ``units[i : i + k]``.

    ``units`` is a numpy integer array of bytes or token ids.  A stream shorter
    than ``k`` has no k-grams and gives an empty array.

    >>> kgram_hashes(np.frombuffer(b"abcab", dtype=np.uint8), 3).shape
    (3,)
    """
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        raise InvalidConfig([f"k (noise threshold) must be an integer >= 1, got {k!r}"])
    if not 0 <= seed < 2**64:
        raise InvalidConfig([f"seed must be in [0, 2**64), got {seed}"])
    from winnow.engine import _kernels  # numba: loaded by the first compiled call

    array = as_units(units)
    result: HashArray = _kernels.rolling_hashes(
        array, int(k), np.uint64(hash_key(seed)), np.uint64(hash_base(seed))
    )
    return result


def kgram_hash_reference(units: list[int], seed: int = DEFAULT_SEED) -> int:
    """The hash of one k-gram computed from its definition, in plain Python.

    Slow; for tests and for readers who want the formula without the rolling.
    """
    key = hash_key(seed)
    base = hash_base(seed)
    h = 0
    for u in units:
        digit = _fmix64(((int(u) + _GOLDEN) & _MASK) ^ key)
        h = ((h + digit) * base) & _MASK
    return _fmix64(h ^ key)
