"""The numpy forms of the engine give the compiled kernels' fingerprints exactly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.config import WinnowConfig
from winnow.engine import fingerprint, kgram_hash_reference, kgram_hashes
from winnow.engine import vectorised as V


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), max_size=60), st.integers(1, 12),
       st.integers(0, 2**64 - 1))
def test_rolling_hashes_equal_the_kernel_and_the_definition(units: list[int], k: int,
                                                            seed: int) -> None:
    array = np.array(units, dtype=np.uint32)
    ours = V.rolling_hashes(V.as_units(array), k, seed)
    assert ours.dtype == np.uint64
    assert np.array_equal(ours, kgram_hashes(array, k, seed=seed))
    assert ours.tolist() == [kgram_hash_reference(units[i:i + k], seed)
                             for i in range(max(0, len(units) - k + 1))]


CONFIGS = [WinnowConfig(k=50, t=50, method="sif", bits=8),
           WinnowConfig(k=4, t=4, method="sif", bits=2, seed=7),
           WinnowConfig(k=5, t=12, method="mod-p"),
           WinnowConfig(k=5, t=12, method="mod-p", p=3, seed=99),
           WinnowConfig(k=5, t=12, method="bottom-n", n=20),
           WinnowConfig(k=5, t=12, method="robust"),  # not vectorised: the kernels
           WinnowConfig(k=5, t=12, method="safe-mod-p")]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.method}-k{c.k}")
@pytest.mark.parametrize("n", [0, 3, 4, 50, 51, 5000, 200_000])
def test_fingerprint_short_equals_fingerprint(config: WinnowConfig, n: int) -> None:
    # A small alphabet: repeated k-grams, so ties and overlapping candidates occur.
    units = np.random.default_rng(n).integers(0, 4, n).astype(np.uint8)
    expected = fingerprint(units, config)
    got = V.fingerprint_short(units, config)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected)
    if n >= 5000 and config.method in V.VECTORISED_METHODS:
        assert got.size > 0


def test_long_streams_go_to_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    units = np.random.default_rng(1).integers(0, 256, 3000).astype(np.uint8)
    config = CONFIGS[0]
    calls: list[int] = []

    def spy(array: np.ndarray, cfg: WinnowConfig) -> np.ndarray:
        calls.append(array.shape[0])
        return fingerprint(array, cfg)

    monkeypatch.setattr("winnow.engine.fingerprint", spy)
    monkeypatch.setattr(V, "SHORT_UNITS", 2000)
    assert np.array_equal(V.fingerprint_short(units, config), fingerprint(units, config))
    assert calls == [3000]


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
def test_one_file_query_does_not_load_the_compiler(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = "".join(f"line {i} of a file shared by two copies\n" for i in range(200))
    (corpus / "a.txt").write_text(text)
    (corpus / "b.txt").write_text(text + "and one more line\n")
    db = str(tmp_path / "i.db")
    winnow = [sys.executable, "-m", "winnow"]
    subprocess.run([*winnow, "index", str(corpus), "--db", db, "-q", "-j", "1"], check=True)
    code = ("import sys; from winnow.cli.main import main\n"
            f"try:\n    main(['query', {str(corpus / 'a.txt')!r}, '--db', {db!r}])\n"
            "except SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numba'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "b.txt" in out  # the copy was found
    assert out.strip().endswith("[]"), out[-300:]
