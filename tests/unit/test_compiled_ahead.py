"""Kernels compiled ahead of time (``winnow.compiled.Kernel``, ``winnow/_aot_build.py``):
which compiled function a call takes, the JIT for everything else, and, in
this install, the main commands run without numba with the JIT's results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from winnow import compiled
from winnow.compiled import Kernel, type_key

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "python" / "submissions"


def _numba_key(value: Any) -> Any:
    """``numba.typeof(value)`` written as :func:`type_key` writes a type (but
    for a Python int past int64's range, which numba's dispatcher does not
    type as ``typeof`` does: it is left to the JIT)."""
    from numba import typeof
    from numba.core import types

    if type(value) is int and not -(2**63) <= value < 2**63:
        return None

    numba_type = typeof(value)
    if isinstance(numba_type, types.Array):
        if not numba_type.aligned or str(numba_type.dtype) not in _NUMERIC:
            return None
        return (np.dtype(str(numba_type.dtype)), numba_type.ndim, numba_type.layout,
                not numba_type.mutable)
    name = str(numba_type)
    return np.dtype(name) if name in _NUMERIC else None


_NUMERIC = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
            "uint64", "float32", "float64"}


def _values() -> list[Any]:
    base = np.arange(24, dtype=np.int64)
    readonly = np.frombuffer(b"some bytes", dtype=np.uint8)
    return [
        True, False, 0, -5, 2**63 - 1, 2**63, -(2**63), 3.5,
        np.uint64(7), np.int32(-3), np.float32(1.5), np.bool_(True), np.uint8(200),
        base, base.astype(np.uint32), base.astype(np.bool_), base.astype(np.float64),
        base.reshape(4, 6), base.reshape(4, 6).T, base[::2], base.reshape(4, 6)[:, :3],
        np.zeros(0, dtype=np.uint64), np.zeros((0, 3), dtype=np.int64), readonly,
        np.arange(4, dtype=np.complex128), np.array(["a"], dtype=object), "text", None,
        (1, 2),
    ]


@pytest.mark.parametrize("value", _values(), ids=lambda v: type(v).__name__)
def test_type_keys_follow_numba_typeof(value: Any) -> None:
    assert type_key(value) == _numba_key(value)


def test_an_unaligned_array_is_left_to_the_jit() -> None:
    unaligned = np.frombuffer(b"\0" * 17, dtype=np.uint8)[1:].view(np.uint64)
    assert not unaligned.flags.aligned and type_key(unaligned) is None


def test_a_kernel_calls_the_function_compiled_for_the_arguments_types() -> None:
    calls: list[str] = []

    def total(values: Any, start: Any) -> Any:
        return values.sum() + start

    def compiled_total(values: Any, start: Any) -> Any:
        calls.append("compiled")
        return total(values, start)

    key = (type_key(np.zeros(1, dtype=np.int64)), type_key(1))
    kernel = Kernel(total, {}, {key: compiled_total})
    values = np.arange(5, dtype=np.int64)
    assert kernel(values, 10) == 20 and calls == ["compiled"]
    # other types (uint32, a float, keywords): numba's JIT of the same function
    assert kernel(values.astype(np.uint32), 10) == 20
    assert kernel(values, 1.5) == 11.5
    assert kernel(values, start=1) == 11
    assert calls == ["compiled"]
    assert kernel.dispatcher.py_func is total


def _twice(x: Any) -> Any:
    return 2 * x


_helper = Kernel(_twice, {"inline": "always"}, {})


def _doubled_sum(values: Any) -> Any:
    out = 0
    for v in values:
        out += _helper(v)
    return out


def test_a_kernel_jit_compiled_can_call_and_inline_other_kernels() -> None:
    outer = Kernel(_doubled_sum, {}, {})  # its global _helper: a Kernel, as numba sees it
    assert outer(np.arange(4, dtype=np.int64)) == 12


def _manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **changes: Any) -> Path:
    """A manifest of one source file and one module file, as a build writes
    it (with ``changes``), made the one :mod:`winnow.compiled` reads; the
    module's import gives a stand-in whose file is ``module.so``."""
    source, built = tmp_path / "source.py", tmp_path / "module.so"
    source.write_text("x = 1\n")
    built.write_bytes(b"compiled")
    manifest = {"module": built.name, "module_sha256": compiled.source_digest(built),
                "cpu": compiled.cpu_signature(), "numba": "0",
                "sources": {"source.py": compiled.source_digest(source)}, "exports": {}}
    path = tmp_path / "_aot_kernels.json"
    path.write_text(json.dumps({**manifest, **changes}))
    monkeypatch.setattr(compiled, "AOT_MANIFEST", path)
    monkeypatch.setattr(compiled.importlib, "import_module",
                        lambda name: SimpleNamespace(__file__=str(built)))
    for name in (compiled.KERNELS_ENV, *compiled.NUMBA_SETTINGS):
        monkeypatch.delenv(name, raising=False)
    return path


def test_a_current_build_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _manifest(tmp_path, monkeypatch)
    assert compiled._read_exports() == {}


@pytest.mark.parametrize("changes", [
    {"sources": {"source.py": "0" * 64}},  # a source changed since the build
    {"cpu": "another cpu"},
    {"module": "other.so"},  # another Python's module, or an older build's
    {"module_sha256": "0" * 64},
], ids=["source", "cpu", "module", "module-digest"])
def test_a_module_that_is_not_this_builds_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changes: dict[str, Any]) -> None:
    _manifest(tmp_path, monkeypatch, **changes)
    assert compiled._read_exports() is None


@pytest.mark.parametrize("setting", [("WINNOW_KERNELS", "jit"), ("WINNOW_KERNELS", " JIT"),
                                     ("NUMBA_DISABLE_JIT", "1"), ("NUMBA_BOUNDSCHECK", "1")])
def test_the_environment_can_ask_for_the_jit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: tuple[str, str]) -> None:
    _manifest(tmp_path, monkeypatch)
    monkeypatch.setenv(*setting)
    assert compiled._read_exports() is None
    monkeypatch.setenv(setting[0], "0" if setting[0].startswith("NUMBA") else "")
    assert compiled._read_exports() == {}


def test_every_listed_kernel_exists() -> None:
    spec = json.loads((ROOT / "src" / "winnow" / "kernel_signatures.json").read_text())
    import importlib

    for module_name, kernels in spec["kernels"].items():
        module = importlib.import_module(module_name)
        for name, signatures in kernels.items():
            kernel = getattr(module, name)
            assert callable(kernel) and signatures, f"{module_name}.{name}"


# --- this install: the commands' kernels compiled ahead of time ---------------

def _winnow(args: list[str], cwd: Path, jit: bool) -> tuple[str, bool]:
    """A ``winnow`` command in a process of its own: its output file's text
    (the last argument), and whether numba was loaded."""
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('numba' in sys.modules, file=sys.stderr))\n"
            "from winnow.cli.main import run\n"
            f"sys.argv = ['winnow', *{args!r}]\n"
            "run()\n")
    env = dict(os.environ, WINNOW_KERNELS="jit" if jit else "")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env=env)
    assert done.returncode in (0, 1), done.stderr
    return (cwd / args[-1]).read_text(encoding="utf-8"), done.stderr.split()[-1] == "True"


def _records(path: Path, texts: list[str]) -> Path:
    path.write_text("".join(json.dumps({"id": f"r{i}", "text": t}) + "\n"
                            for i, t in enumerate(texts)))
    return path


WORDS = str.split("the quick brown fox jumps over the lazy dog while a careful reader checks "
                  "every passage of the long report for text copied from somewhere else")


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(3)
    texts = [" ".join(rng.choice(WORDS, size=120)) for _ in range(30)]
    texts.append(texts[0] + " and one more sentence at the end of it")
    texts.append(texts[5][:300])
    corpus = _records(tmp_path / "corpus.jsonl", texts)
    items = _records(tmp_path / "eval.jsonl", [texts[7][40:400], "nothing like the corpus"])
    return corpus, items


def _commands(tmp_path: Path) -> list[list[str]]:
    corpus, items = _corpus(tmp_path)
    return [
        ["compare", "--each", str(SAMPLE), "-q", "--format", "csv", "-n", "0", "-o",
         "pairs.csv"],
        ["compare", "--each", str(SAMPLE), "-q", "--format", "json", "-o", "pairs.json"],
        ["dedup", str(corpus), "-q", "-o", "dups.csv"],
        ["dedup", str(corpus), "-q", "--engine", "local-sharded", "--workdir",
         str(tmp_path / "shards"), "-o", "dups-sharded.csv"],
        ["dedup", str(corpus), "-q", "--passages", "--min-tokens", "20", "-o",
         "passages.csv"],
        ["contamination", str(items), "--corpus", str(corpus), "-q", "--format", "csv",
         "-o", "contamination.csv"],
    ]


@pytest.mark.slow
def test_the_install_compiled_the_kernels_ahead_of_time() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from winnow import compiled; print(compiled.ahead_of_time())"],
        capture_output=True, text=True, check=True, timeout=60,
        env=dict(os.environ, WINNOW_KERNELS=""))
    assert done.stdout.split() == ["True"], (
        "no current ahead-of-time build: reinstall (pip install -e .) after changing "
        "the kernels, winnow/compiled.py or kernel_signatures.json")


@pytest.mark.slow
def test_the_commands_run_without_numba_and_give_the_jits_results(tmp_path: Path) -> None:
    for command in _commands(tmp_path):
        ahead, numba_loaded = _winnow(command, tmp_path, jit=False)
        assert not numba_loaded, f"numba loaded by: winnow {' '.join(command)}"
        jitted, numba_loaded = _winnow(command, tmp_path, jit=True)
        assert numba_loaded
        assert ahead == jitted, f"winnow {' '.join(command)}"
        assert ahead.strip()
