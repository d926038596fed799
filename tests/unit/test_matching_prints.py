"""What a worker keeps of a file: the distinct hashes of both channels, sorted."""

from __future__ import annotations

import numpy as np
import pytest

from winnow.config import WinnowConfig
from winnow.frontends import make_document
from winnow.matching.prints import distinct, document_hashes, document_prints

SOURCE = b"""def f(a, b):
    s = "text" + 'more'
    return a * 42 + b / 3.5 - f(a - 1, "text")
""" * 5


@pytest.mark.parametrize(("data", "name"), [
    (SOURCE, "a.py"), (SOURCE[:40], "b.py"), (b"", "c.py"), (b"prose, not code " * 9, "d.txt"),
])
@pytest.mark.parametrize("literal", [None, WinnowConfig(k=4, t=6)])
@pytest.mark.parametrize("method", ["robust", "winnow", "mod-p", "bottom-n"])
def test_document_hashes_are_the_distinct_hashes_of_document_prints(
        data: bytes, name: str, literal: WinnowConfig | None, method: str) -> None:
    """Winnowing's hashes come without their positions; other methods' from
    document_prints' array: the same either way."""
    doc = make_document(data, name)
    config = WinnowConfig(k=5, t=8, method=method)
    hashes = document_hashes(doc, config, literal)
    reference = np.unique(document_prints(doc, config, literal)["hash"])
    assert hashes.dtype == np.uint64
    assert hashes.tolist() == reference.tolist()
    assert distinct(document_prints(doc, config, literal)["hash"]).tolist() == hashes.tolist()
    if literal is not None and data == SOURCE:  # the literal channel adds hashes
        assert hashes.shape[0] > document_hashes(doc, config).shape[0]


@pytest.mark.parametrize("sizes", [(0, 0), (1, 0), (0, 3), (2, 2), (700, 250), (5000, 0)])
@pytest.mark.parametrize("shape", ["uniform", "repeats", "shared top bits"])
def test_sorted_distinct_is_np_unique_of_both(sizes: tuple[int, int], shape: str) -> None:
    """Also when the values are not uniform: buckets of one value, and values
    that all fall in one bucket (heap-sorted)."""
    from winnow.matching._prints_kernels import sorted_distinct

    rng = np.random.default_rng(sum(sizes))
    top = 2**64 if shape != "shared top bits" else 2**30
    first = rng.integers(0, top, sizes[0], dtype=np.uint64)
    second = rng.integers(0, top, sizes[1], dtype=np.uint64)
    if shape == "repeats" and sizes[0]:
        first[::2] = first[0]
        second[: sizes[1] // 2] = first[: sizes[1] // 2]
    got = sorted_distinct(first, second)
    assert got.dtype == np.uint64
    assert got.tolist() == np.unique(np.concatenate([first, second])).tolist()


@pytest.mark.parametrize("robust", [True, False])
def test_winnow_unit_hashes_are_winnow_units_hash_column(robust: bool) -> None:
    from winnow.engine.selection import winnow_unit_hashes, winnow_units

    rng = np.random.default_rng(4)
    for units in (rng.integers(0, 50, 500).astype(np.uint32), np.zeros(300, np.uint32),
                  np.arange(3, dtype=np.uint32), [5, 6, 7, 8, 9, 10]):
        hashes = winnow_unit_hashes(units, 4, 5, robust=robust, seed=9)
        assert hashes.dtype == np.uint64 and hashes.flags.c_contiguous
        assert hashes.tolist() == winnow_units(units, 4, 5, robust=robust, seed=9)["hash"].tolist()
