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



def _fake_scipy(root: Path) -> Path:
    """A ``scipy`` whose ``scipy.linalg`` notes each import of it in ``root/imported``."""
    package = root / "scipy"
    (package / "linalg").mkdir(parents=True)
    (package / "__init__.py").write_text('__version__ = "1.14.1"\n')
    (package / "linalg" / "__init__.py").write_text(
        f"with open({str(root / 'imported')!r}, 'a') as f:\n    f.write('linalg\\n')\n")
    (package / "linalg" / "cython_blas.py").write_text("")
    (package / "linalg" / "cython_lapack.py").write_text("")
    return root


def _first_kernel_with(fake: Path, *, blas_free: bool) -> list[str]:
    """Whether ``scipy.linalg`` and ``scipy`` were imported once a kernel has
    run under numba's JIT, and whether ``scipy.linalg`` can be imported
    afterwards."""
    import os
    import subprocess
    import sys

    code = ("import os, sys\n"
            "import numpy as np\n"
            "from winnow import compiled\n"
            + ("compiled.without_blas()\n" if blas_free else "")
            + "from winnow.matching.table import stable_order\n"
            "order, _ = stable_order(np.array([3, 1, 2], dtype=np.uint64))\n"
            "assert order.tolist() == [1, 2, 0]\n"
            f"print(os.path.exists({str(fake / 'imported')!r}), 'scipy' in sys.modules)\n"
            "import scipy.linalg\n"
            "print('scipy.linalg' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(fake), *sys.path]),
               WINNOW_KERNELS="jit")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120, env=env)
    return done.stdout.split()


def test_without_blas_numba_loads_without_importing_scipy(tmp_path: Path) -> None:
    assert _first_kernel_with(_fake_scipy(tmp_path), blas_free=True) == ["False", "False", "True"]


def test_by_default_numba_looks_for_scipy_blas(tmp_path: Path) -> None:
    # the library leaves numba alone: a caller's kernels may need its BLAS
    assert _first_kernel_with(_fake_scipy(tmp_path), blas_free=False) == ["True", "True", "True"]


def test_the_command_runs_without_blas() -> None:
    out = _run("import atexit, sys\n"
               "from winnow import compiled\n"
               "from winnow.cli.main import run\n"
               "atexit.register(lambda: print(compiled._blas_free, 'numba' in sys.modules))\n"
               "sys.argv = ['winnow', '--version']\n"
               "run()\n")
    assert out.split()[-2:] == ["True", "False"]  # set, and numba still not loaded


def _yaml_after_a_kernel(folder: Path) -> list[str]:
    """In the ``winnow`` command's setting, run in ``folder`` under numba's
    JIT: whether numba imported pyyaml (and so could read a config file
    there), and whether pyyaml can be imported afterwards."""
    import os
    import subprocess
    import sys

    code = ("import sys\n"
            "from winnow import compiled\n"
            "compiled.without_blas()\n"
            "from winnow.matching.table import stable_order\n"
            "import numba.core.config as config\n"
            "print('yaml' in sys.modules, config._HAVE_YAML)\n"
            "import yaml\n"
            "print(yaml.safe_load('a: 1'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120, cwd=folder,
                          env=dict(os.environ, WINNOW_KERNELS="jit"))
    return done.stdout.split()


def test_numba_loads_without_pyyaml_where_it_has_no_config_to_read(tmp_path: Path) -> None:
    assert _yaml_after_a_kernel(tmp_path) == ["False", "False", "{'a':", "1}"]


def test_numba_reads_a_config_file_in_the_folder_it_runs_in(tmp_path: Path) -> None:
    (tmp_path / ".numba_config.yaml").write_text("# nothing set\n")
    assert _yaml_after_a_kernel(tmp_path) == ["True", "True", "{'a':", "1}"]
