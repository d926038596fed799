"""``winnow.parallel.holding_freed_memory``: the pair table's arrays come from
the C allocator's heap and are reused there, not mapped and unmapped each."""

from __future__ import annotations

import ctypes
import multiprocessing
import sys

import numpy as np
import pytest

from winnow import parallel

GLIBC = pytest.mark.skipif(
    sys.platform != "linux" or not hasattr(ctypes.CDLL(None), "mallinfo2"),
    reason="glibc's allocator")


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _mapped_apart() -> bool:
    """Whether a 64 MiB array (above any threshold glibc sets by itself) is
    mapped on its own."""
    mallinfo2 = ctypes.CDLL(None).mallinfo2
    mallinfo2.restype = _MallInfo2
    before = mallinfo2().hblkhd
    array = np.ones(8 << 20)
    mapped = mallinfo2().hblkhd - before >= 64 << 20
    del array
    return mapped


def _before_inside_after(mapping: bool) -> tuple[bool, bool, bool]:
    """In a forked child (its allocator is its own): large arrays mapped apart
    before, inside and after a block, in a process that maps its large arrays
    apart on purpose (``mapping``) or not."""
    parallel._mapping = mapping
    before = _mapped_apart()
    with parallel.holding_freed_memory():
        inside = _mapped_apart()
    return before, inside, _mapped_apart()


@GLIBC
def test_large_arrays_come_from_the_heap_only_inside_the_block() -> None:
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_before_inside_after, (False,)) == (True, False, True)


@GLIBC
def test_a_process_mapping_its_arrays_apart_keeps_doing_so() -> None:
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_before_inside_after, (True,)) == (True, True, True)


def _mapped_after_the_engine_asks() -> bool:
    """A sharded engine started inside the block maps its arrays apart."""
    parallel._mapping = False
    with parallel.holding_freed_memory():
        parallel.map_large_allocations()  # as the sharded engines' caller does
        return _mapped_apart()


@GLIBC
def test_a_sharded_engine_inside_the_block_still_maps_its_arrays_apart() -> None:
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_mapped_after_the_engine_asks)
