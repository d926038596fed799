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


def _run(code: str) -> str:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    return done.stdout.strip()


def test_prepare_to_fork_sets_up_the_compiler_target_once_numba_is_loaded() -> None:
    # numba's array functions are registered when its target is set up, not at import
    out = _run("import sys, numba\n"
               "from winnow.compiled import prepare_to_fork\n"
               "print('numba.np.arraymath' in sys.modules)\n"
               "prepare_to_fork()\n"
               "print('numba.np.arraymath' in sys.modules)")
    assert out.split() == ["False", "True"]


def test_prepare_to_fork_does_not_load_numba() -> None:
    out = _run("import sys\n"
               "from winnow.compiled import prepare_to_fork\n"
               "prepare_to_fork()\n"
               "print('numba' in sys.modules)")
    assert out == "False"
