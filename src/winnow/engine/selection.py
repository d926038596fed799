"""Fingerprint selection: which k-gram hashes represent a document.

Every method takes the array of k-gram hashes (:func:`kgram_hashes`) and
returns a :data:`FINGERPRINT_DTYPE` structured array of the selected
``(hash, pos)`` pairs in increasing position order; ``pos`` is the index of
the k-gram, so the fingerprint covers units ``[pos, pos + k)``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from winnow.compiled import uninterrupted
from winnow.config import DEFAULT_SEED
from winnow.engine.hashing import HashArray, as_units, hash_base, hash_key
from winnow.errors import InvalidConfig

#: One selected fingerprint: the k-gram's hash and its index in the hash array.
FINGERPRINT_DTYPE: Final = np.dtype([("hash", "<u8"), ("pos", "<i8")])

Fingerprints = npt.NDArray[np.void]


def _compiled() -> Any:
    """The compiled kernels, imported on first use (numba takes about 0.25 s to
    load: importing the engine does not pay it)."""
    from winnow.engine import _kernels

    return _kernels


@lru_cache(maxsize=16)
def _seed_constants(seed: int) -> tuple[np.uint64, np.uint64]:
    """The hash key and base of ``seed`` as the kernels take them."""
    return np.uint64(hash_key(seed)), np.uint64(hash_base(seed))


def _units(units: npt.ArrayLike) -> npt.NDArray[np.integer]:
    """:func:`as_units`, at once for what front-ends give (a non-empty,
    contiguous 1-D array of unsigned integers: it returns those as they are)."""
    if (type(units) is np.ndarray and units.ndim == 1 and units.dtype.kind == "u"
            and units.shape[0] and units.flags.c_contiguous):
        return units
    return as_units(units)


def _pack(hashes: HashArray, positions: npt.NDArray[np.int64]) -> Fingerprints:
    out = np.empty(positions.shape[0], dtype=FINGERPRINT_DTYPE)
    out["pos"] = positions
    out["hash"] = hashes[positions]
    return out


def _check_hashes(hashes: npt.ArrayLike) -> HashArray:
    array = np.asarray(hashes)
    if array.ndim != 1:
        raise InvalidConfig([f"hashes must be a 1-D array, got shape {array.shape}"])
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise InvalidConfig([f"hashes must be integers, got dtype {array.dtype}"])
    if array.size and np.issubdtype(array.dtype, np.signedinteger) and int(array.min()) < 0:
        raise InvalidConfig(["hashes must be non-negative"])
    return np.ascontiguousarray(array, dtype=np.uint64)


def _check_positive(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise InvalidConfig([f"{name} must be an integer >= 1, got {value!r}"])
    return int(value)


def _check_bits(bits: object) -> int:
    if isinstance(bits, bool) or not isinstance(bits, int | np.integer) or not 0 <= bits <= 63:
        raise InvalidConfig([f"bits must be an integer in [0, 63], got {bits!r}"])
    return int(bits)


def winnow(hashes: npt.ArrayLike, w: int) -> Fingerprints:
    """Winnowing, Definition 1: in each window of ``w`` consecutive hashes select
    the minimum; on ties the rightmost.  Each selected position is recorded once.

    A sequence shorter than ``w`` is treated as one window.
    """
    array = _check_hashes(hashes)
    return _pack(array, _compiled().winnow_positions(array, _check_positive("w", w), False))


def robust_winnow(hashes: npt.ArrayLike, w: int) -> Fingerprints:
    """Robust winnowing, Definition 3: select the minimum of each window; break
    ties by keeping the hash the window one position to the left selected, else
    the rightmost minimum.  On a run of equal hashes this selects one position
    per ``w`` instead of every position (section 5.1).
    """
    array = _check_hashes(hashes)
    return _pack(array, _compiled().winnow_positions(array, _check_positive("w", w), True))


def mod_p(hashes: npt.ArrayLike, p: int) -> Fingerprints:
    """0 mod p, Manber's selection (section 2.3): every hash ``h`` with
    ``h mod p = 0``.  Expected density ``1/p``; no guarantee on gaps."""
    array = _check_hashes(hashes)
    return _pack(array, _compiled().mod_p_positions(array, _check_positive("p", p)))


def safe_mod_p(hashes: npt.ArrayLike, w: int, p: int) -> Fingerprints:
    """Safe 0 mod p (section 3.1.2): select every hash that is not Ugly.

    Good: ``h mod p = 0``.  Bad: it and the ``w - 1`` hashes to its left are all
    not Good.  Ugly: otherwise.  Keeps winnowing's guarantee; expected density
    ``1/p + (1 - 1/p)^w``, about ``(1 + ln w)/w`` at the best ``p = w / ln w``.
    """
    array = _check_hashes(hashes)
    positions = _compiled().safe_mod_p_positions(
        array, _check_positive("w", w), _check_positive("p", p)
    )
    return _pack(array, positions)


def sif_select(hashes: npt.ArrayLike, bits: int, k: int) -> Fingerprints:
    """sif's hash-based selection (Manber 1994, section 2): keep the hashes whose
    last ``bits`` bits are zero (about one in ``2^bits``), never overlapping —
    after selecting k-gram ``i`` the next candidate is ``i + k``."""
    array = _check_hashes(hashes)
    positions = _compiled().sif_positions(array, _check_bits(bits), _check_positive("k", k))
    return _pack(array, positions)


def bottom_n(hashes: npt.ArrayLike, n: int) -> Fingerprints:
    """Bottom-n: the ``n`` smallest distinct hashes (Heintze; Broder's
    resemblance sketch), each at its first position, returned in position order.

    A fixed-size sketch: it estimates resemblance, not containment (section 2.3).
    """
    array = _check_hashes(hashes)
    n = _check_positive("n", n)
    _values, first = np.unique(array, return_index=True)  # sorted by value
    chosen = np.sort(first[:n]).astype(np.int64)
    return _pack(array, chosen)


def query_winnow(hashes: npt.ArrayLike, w: int, w_query: int) -> Fingerprints:
    """Query-time winnowing (section 3.2): winnow with a window ``w' >= w``.

    The result is a subset of the window-``w`` winnowing: the rightmost minimum
    of a ``w'`` window is also the rightmost minimum of every ``w`` window inside
    it that contains it.  Fewer look-ups for a coarser answer.
    """
    w = _check_positive("w", w)
    w_query = _check_positive("w_query", w_query)
    if w_query < w:
        raise InvalidConfig([f"query window w'={w_query} must be >= the index window w={w}"])
    return winnow(hashes, w_query)


def winnow_units(
    units: npt.ArrayLike, k: int, w: int, *, robust: bool = True, seed: int = DEFAULT_SEED
) -> Fingerprints:
    """Hash the k-grams of ``units`` and winnow them in one compiled pass.

    Equal to ``winnow(kgram_hashes(units, k), w)`` (``robust_winnow`` when
    ``robust``) but never holds the array of all hashes: the fast path of
    :func:`winnow.fingerprint`.  Returns a ``FINGERPRINT_DTYPE`` array.
    """
    hashes, positions = _fused(units, k, w, robust, seed)
    out = np.empty(positions.shape[0], dtype=FINGERPRINT_DTYPE)
    out["hash"] = hashes
    out["pos"] = positions
    return out


def winnow_unit_hashes(
    units: npt.ArrayLike, k: int, w: int, *, robust: bool = True, seed: int = DEFAULT_SEED
) -> HashArray:
    """The hashes :func:`winnow_units` selects, in position order, without
    their positions: for a caller that keeps only the hashes."""
    hashes, _ = _fused(units, k, w, robust, seed)
    return hashes


def _fused(units: npt.ArrayLike, k: int, w: int, robust: bool, seed: int
           ) -> tuple[HashArray, npt.NDArray[np.int64]]:
    """The compiled pass of :func:`winnow_units`: ``(hashes, positions)``."""
    k = _check_positive("k (noise threshold)", k)
    w = _check_positive("w", w)
    key, base = _seed_constants(seed)
    kernels = _compiled()
    with uninterrupted():  # two arrays come back (winnow.compiled.uninterrupted)
        hashes, positions = kernels.winnow_fused(_units(units), k, key, base, w, robust)
    return hashes, positions


def winnow_units_distinct(
    units: npt.ArrayLike, bounds: npt.ArrayLike, k: int, w: int, *, robust: bool = True,
    seed: int = DEFAULT_SEED,
) -> tuple[HashArray, npt.NDArray[np.int64]]:
    """The distinct hashes :func:`winnow_units` selects in each document of a
    batch (document ``d`` is ``units[bounds[d]:bounds[d + 1]]``), sorted, in one
    compiled call: ``(hashes of every document in turn, count per document)``.
    ``robust`` is accepted for symmetry: robust and plain winnowing select
    the same set of hashes (each window's minimum), in different positions.
    ``bounds`` must ascend from 0 or more to at most ``len(units)``
    (``ValueError`` otherwise: the compiled loop writes each document's
    hashes where the bounds say, unchecked)."""
    k = _check_positive("k (noise threshold)", k)
    w = _check_positive("w", w)
    edges = np.ascontiguousarray(bounds, dtype=np.int64).reshape(-1)
    values = as_units(units)
    if edges.shape[0] and (edges[0] < 0 or edges[-1] > values.shape[0]
                           or bool((edges[1:] < edges[:-1]).any())):
        raise ValueError(f"bounds must ascend within 0 .. {values.shape[0]} (the units)")
    with uninterrupted():  # two arrays come back (winnow.compiled.uninterrupted)
        hashes, counts = _compiled().winnow_distinct(
            values, edges, int(k), np.uint64(hash_key(seed)),
            np.uint64(hash_base(seed)), int(w),
        )
    return hashes, counts


def as_pairs(fingerprints: Fingerprints) -> list[tuple[int, int]]:
    """``[(hash, pos), ...]`` as Python ints: for tests and small outputs only."""
    pairs = zip(fingerprints["hash"], fingerprints["pos"], strict=True)
    return [(int(h), int(p)) for h, p in pairs]


def density(fingerprints: Fingerprints, n_hashes: int) -> float:
    """Fraction of the hashes that were selected (the paper's *density*)."""
    return len(fingerprints) / n_hashes if n_hashes else 0.0
