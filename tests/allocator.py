"""Tests' probe of glibc's allocator: whether a large array is mapped on its
own or taken from the heap (``mallinfo2``'s bytes in mapped blocks)."""

from __future__ import annotations

import ctypes
import sys

import numpy as np
import pytest

GLIBC = pytest.mark.skipif(
    sys.platform != "linux" or not hasattr(ctypes.CDLL(None), "mallinfo2"),
    reason="glibc's allocator")


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def mapped_apart(mib: int) -> bool:
    """Whether an array of ``mib`` MiB is mapped on its own (not from the heap)."""
    mallinfo2 = ctypes.CDLL(None).mallinfo2
    mallinfo2.restype = _MallInfo2
    before = mallinfo2().hblkhd
    array = np.ones(mib << 17)  # 8-byte values
    mapped = bool(mallinfo2().hblkhd - before >= mib << 20)
    del array
    return mapped
