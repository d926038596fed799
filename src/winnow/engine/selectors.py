"""The selection methods by name: one :class:`Selector` class per method.

A configuration (:class:`winnow.config.WinnowConfig`), ``--method`` on the
command line and the parameters an index stores all name a method of
:data:`SELECTORS`; :func:`selector_for` turns a configuration into the
selector object the engine, compare and the index call.  Adding a method is
one class here (or in an engine module of its own, like
:class:`winnow.engine.anchors.Anchors`) decorated with :func:`register`;
its name goes in :data:`winnow.config.METHODS` too, which the CLI and a
config read without loading the engine (a test checks both agree), and a
parameter of a new kind becomes a :class:`WinnowConfig` field.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, ClassVar, Final, TypeVar

import numpy as np
import numpy.typing as npt

from winnow.config import (
    DEFAULT_BOTTOM_N,
    DEFAULT_SIF_BITS,
    WinnowConfig,
    default_mod_p,
)
from winnow.config import optimal_safe_p as optimal_safe_p  # its home is the config
from winnow.engine.hashing import HashArray, kgram_hashes
from winnow.engine.selection import (
    Fingerprints,
    _check_bits,
    _check_positive,
    _pack,
    bottom_n,
    mod_p,
    robust_winnow,
    safe_mod_p,
    sif_select,
    winnow,
    winnow_units,
    winnow_units_distinct,
)
from winnow.errors import InvalidConfig


class Selector(ABC):
    """A selection method with its parameters resolved: the object the engine,
    the index and compare call to pick fingerprints.

    A subclass is one method: its :attr:`name` (what :class:`WinnowConfig`'s
    ``method``, ``--method`` and an index's stored parameters say), its own
    parameters as fields, :meth:`create` (defaults from ``k`` and ``w``) and
    :meth:`select`.  :func:`register` adds it to :data:`SELECTORS`.
    """

    #: The method's name in configs, on the command line and in an index.
    name: ClassVar[str]
    #: The :class:`WinnowConfig` fields this method reads (its own parameters).
    takes: ClassVar[tuple[str, ...]] = ()
    #: Whether :meth:`select` works on hashes alone (:func:`select_fingerprints`).
    from_hashes: ClassVar[bool] = True

    @classmethod
    @abstractmethod
    def create(cls, k: int | None, w: int, given: Mapping[str, Any]) -> Selector:
        """The selector for window ``w`` (and ``k``, when known) with the
        parameters ``given`` (``None`` or missing: the documented default)."""

    @abstractmethod
    def select(self, hashes: npt.ArrayLike) -> Fingerprints:
        """Select from the k-gram hashes (:func:`kgram_hashes`)."""

    def fingerprint(self, units: npt.ArrayLike, k: int, seed: int) -> Fingerprints:
        """Hash the k-grams of ``units`` and select (the engine's entry point)."""
        return self.select(kgram_hashes(units, k, seed=seed))

    def distinct(self, units: npt.ArrayLike, bounds: npt.ArrayLike, k: int, seed: int
                 ) -> tuple[HashArray, npt.NDArray[np.int64]]:
        """The distinct selected hashes of each document of a batch (document
        ``d`` is ``units[bounds[d]:bounds[d + 1]]``), sorted: ``(every document's
        hashes in turn, count per document)``.  A document shorter than ``k``
        has none."""
        array, edges = np.asarray(units), np.asarray(bounds, dtype=np.int64)
        parts: list[HashArray] = []
        counts = np.zeros(max(edges.shape[0] - 1, 0), dtype=np.int64)
        for d in range(counts.shape[0]):
            piece = array[edges[d]:edges[d + 1]]
            if piece.shape[0] >= k:
                parts.append(np.unique(self.fingerprint(piece, k, seed)["hash"]))
                counts[d] = parts[-1].shape[0]
        hashes = np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)
        return hashes.astype(np.uint64, copy=False), counts

    def select_numpy(self, hashes: HashArray) -> Fingerprints | None:
        """The same selection with numpy alone (no compiled kernel), or ``None``
        where the method has no such form (:mod:`winnow.engine.vectorised`)."""
        return None

    def params(self) -> dict[str, Any]:
        """The resolved parameters (:func:`dataclasses.asdict` of the fields)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]

    @property
    def hash_shift(self) -> int:
        """Low bits every selected hash has zero, which an index may drop."""
        return 0


#: Every selection method by name, in the order the CLI lists them.
SELECTORS: Final[dict[str, type[Selector]]] = {}

S = TypeVar("S", bound=type[Selector])


def register(cls: S) -> S:
    """Class decorator: make a :class:`Selector` reachable by its name."""
    SELECTORS[cls.name] = cls
    return cls


def _given(given: Mapping[str, Any], name: str, default: Any) -> Any:
    value = given.get(name)
    return default if value is None else value


@register
@dataclass(frozen=True)
class Winnowing(Selector):
    """Winnowing, Definition 1 (:func:`winnow`), hashed and selected in one
    compiled pass."""

    name: ClassVar[str] = "winnow"
    robust: ClassVar[bool] = False
    w: int

    @classmethod
    def create(cls, k: int | None, w: int, given: Mapping[str, Any]) -> Selector:
        return cls(w=_check_positive("w", w))

    def select(self, hashes: npt.ArrayLike) -> Fingerprints:
        return robust_winnow(hashes, self.w) if self.robust else winnow(hashes, self.w)

    def fingerprint(self, units: npt.ArrayLike, k: int, seed: int) -> Fingerprints:
        return winnow_units(units, k, self.w, robust=self.robust, seed=seed)

    def distinct(self, units: npt.ArrayLike, bounds: npt.ArrayLike, k: int, seed: int
                 ) -> tuple[HashArray, npt.NDArray[np.int64]]:
        return winnow_units_distinct(units, bounds, k, self.w, robust=self.robust, seed=seed)

    def params(self) -> dict[str, Any]:
        return {}


@register
@dataclass(frozen=True)
class RobustWinnowing(Winnowing):
    """Robust winnowing, Definition 3 (:func:`robust_winnow`)."""

    name: ClassVar[str] = "robust"
    robust: ClassVar[bool] = True


@register
@dataclass(frozen=True)
class ModP(Selector):
    """0 mod p (:func:`mod_p`); default ``p = round((w + 1) / 2)``, the
    density of winnowing (section 3.1.1; :func:`winnow.config.default_mod_p`)."""

    name: ClassVar[str] = "mod-p"
    takes: ClassVar[tuple[str, ...]] = ("p",)
    p: int

    @classmethod
    def create(cls, k: int | None, w: int, given: Mapping[str, Any]) -> Selector:
        return cls(p=_check_positive("p", _given(given, "p", default_mod_p(w))))

    def select(self, hashes: npt.ArrayLike) -> Fingerprints:
        return mod_p(hashes, self.p)

    def select_numpy(self, hashes: HashArray) -> Fingerprints | None:
        return _pack(hashes, np.flatnonzero(hashes % np.uint64(self.p) == 0).astype(np.int64))


@register
@dataclass(frozen=True)
class SafeModP(Selector):
    """Safe 0 mod p (:func:`safe_mod_p`); default ``p = round(w / ln w)``, the
    optimum of section 3.1.2 (:func:`winnow.config.optimal_safe_p`)."""

    name: ClassVar[str] = "safe-mod-p"
    takes: ClassVar[tuple[str, ...]] = ("p",)
    w: int
    p: int

    @classmethod
    def create(cls, k: int | None, w: int, given: Mapping[str, Any]) -> Selector:
        w = _check_positive("w", w)
        return cls(w=w, p=_check_positive("p", _given(given, "p", optimal_safe_p(w))))

    def select(self, hashes: npt.ArrayLike) -> Fingerprints:
        return safe_mod_p(hashes, self.w, self.p)

    def params(self) -> dict[str, Any]:
        return {"p": self.p}


@register
@dataclass(frozen=True)
class Sif(Selector):
    """Manber's selection (:func:`sif_select`): default ``bits = 8``
    (:data:`winnow.config.DEFAULT_SIF_BITS`); needs ``k`` to skip overlapping
    k-grams."""

    name: ClassVar[str] = "sif"
    takes: ClassVar[tuple[str, ...]] = ("bits",)
    bits: int
    k: int

    @classmethod
    def create(cls, k: int | None, w: int, given: Mapping[str, Any]) -> Selector:
        if k is None:
            raise InvalidConfig(["sif selection needs k (the k-gram length) to skip overlaps"])
        return cls(bits=_check_bits(_given(given, "bits", DEFAULT_SIF_BITS)),
                   k=_check_positive("k", k))

    def select(self, hashes: npt.ArrayLike) -> Fingerprints:
        return sif_select(hashes, self.bits, self.k)

    def select_numpy(self, hashes: HashArray) -> Fingerprints | None:
        return _pack(hashes, sif_positions_numpy(hashes, self.bits, self.k))

    @property
    def hash_shift(self) -> int:
        """Manber: selected values "should be shifted ... before storing them
        to save space" (section 2): their last ``bits`` bits are zero."""
        return self.bits


@register
@dataclass(frozen=True)
class BottomN(Selector):
    """Bottom-n (:func:`bottom_n`); default ``n = 100``
    (:data:`winnow.config.DEFAULT_BOTTOM_N`)."""

    name: ClassVar[str] = "bottom-n"
    takes: ClassVar[tuple[str, ...]] = ("n",)
    n: int

    @classmethod
    def create(cls, k: int | None, w: int, given: Mapping[str, Any]) -> Selector:
        return cls(n=_check_positive("n", _given(given, "n", DEFAULT_BOTTOM_N)))

    def select(self, hashes: npt.ArrayLike) -> Fingerprints:
        return bottom_n(hashes, self.n)

    def select_numpy(self, hashes: HashArray) -> Fingerprints | None:
        return bottom_n(hashes, self.n)


def sif_positions_numpy(hashes: HashArray, bits: int, k: int) -> npt.NDArray[np.int64]:
    """sif's selection without the kernel: low ``bits`` bits zero, the next
    candidate ``k`` later (a greedy pass over the few candidates)."""
    mask = np.uint64((1 << bits) - 1)
    chosen: list[int] = []
    after = 0
    for at in np.flatnonzero((hashes & mask) == 0).tolist():
        if at >= after:
            chosen.append(at)
            after = at + k
    return np.array(chosen, dtype=np.int64)


def selector(method: str, k: int | None, w: int, **given: Any) -> Selector:
    """The registered selector ``method`` with its parameters resolved."""
    cls = SELECTORS.get(method)
    if cls is None:
        raise InvalidConfig([f"method must be one of {', '.join(SELECTORS)}; got {method!r}"])
    return cls.create(k, w, given)


@lru_cache(maxsize=64)
def selector_for(config: WinnowConfig) -> Selector:
    """The selector ``config`` names, with its parameters (cached: a config is
    frozen, and compare asks once per file)."""
    return selector(config.method, config.k, config.w,
                    **{name: getattr(config, name) for name in SELECTORS[config.method].takes})


def select_fingerprints(
    hashes: npt.ArrayLike, w: int, method: str = "winnow", **params: Any
) -> Fingerprints:
    """Select fingerprints from k-gram hashes with a method of :data:`SELECTORS`.

    ``params`` are the method's own parameters (``p`` for ``mod-p`` and
    ``safe-mod-p``, ``bits`` and ``k`` for ``sif``, ``n`` for ``bottom-n``);
    missing ones take the method's defaults (:meth:`Selector.create`).
    The result is a numpy structured array with fields ``hash`` and ``pos``;
    ``len()`` counts fingerprints and iterating yields ``(hash, pos)`` records.
    Methods that select from the units rather than their hashes (``anchors``)
    are reached through :func:`winnow.fingerprint`.
    """
    if method not in SELECTORS:
        raise InvalidConfig([f"method must be one of {', '.join(SELECTORS)}; got {method!r}"])
    w = _check_positive("w", w)
    known = {"k", *(name for cls in SELECTORS.values() for name in cls.takes)}
    unknown = set(params) - known
    if unknown:
        raise InvalidConfig([f"unknown parameter(s) for {method}: {', '.join(sorted(unknown))}"])
    k = params.pop("k", None)
    return selector(method, k, w, **params).select(hashes)
