"""``winnow.parallel.holding_freed_memory``: the pair table's arrays come from
the C allocator's heap and are reused there, not mapped and unmapped each."""

from __future__ import annotations

import multiprocessing

from tests.allocator import GLIBC, mapped_apart
from winnow import parallel


def _before_inside_after(mapping: bool) -> tuple[bool, bool, bool]:
    """In a forked child (its allocator is its own): large arrays mapped apart
    before, inside and after a block, in a process that maps its large arrays
    apart on purpose (``mapping``) or not."""
    parallel._mapping = mapping
    before = mapped_apart(64)  # above any threshold glibc sets by itself (32 MiB)
    with parallel.holding_freed_memory():
        inside = mapped_apart(64)
    return before, inside, mapped_apart(64)


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
        return mapped_apart(64)


@GLIBC
def test_a_sharded_engine_inside_the_block_still_maps_its_arrays_apart() -> None:
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_mapped_after_the_engine_asks)
