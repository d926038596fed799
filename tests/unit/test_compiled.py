"""``winnow.compiled.uncached``: which kernels a first run still has to compile."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from winnow.compiled import uncached


def _kernel(index: Path) -> SimpleNamespace:
    return SimpleNamespace(_cache=SimpleNamespace(_cache_file=SimpleNamespace(
        _index_path=str(index))))


def test_kernels_without_a_cache_index_are_counted(tmp_path: Path) -> None:
    present = tmp_path / "k.nbi"
    present.write_bytes(b"")
    assert uncached(_kernel(present)) == 0
    assert uncached(_kernel(present), _kernel(tmp_path / "missing.nbi")) == 1
    assert uncached(SimpleNamespace()) == 0  # no on-disk cache: nothing to announce


def test_a_kernel_that_has_run_is_cached() -> None:
    import numpy as np

    from winnow.engine import _kernels, kgram_hashes

    kgram_hashes(np.arange(20, dtype=np.uint32), 5)
    assert uncached(_kernels.rolling_hashes) == 0
