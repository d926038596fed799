"""One-against-all queries, including sif's own experiment (Manber 1994, section 5)."""

from __future__ import annotations

import os
import random
import statistics
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from winnow.engine import fingerprint
from winnow.errors import InvalidConfig
from winnow.index import SIF_DEFAULT, FingerprintIndex, IndexParams
from winnow.sif.build import update_index
from winnow.sif.fingerprinting import checksum
from winnow.sif.query import query_file
from winnow.sources.walk import walk

#: Real C sources on every Debian Python image: CPython's own headers.
PY_INCLUDE = Path(sysconfig.get_paths()["include"])
CORPUS_FILES = 3000
CORPUS_BYTES = 30_000_000


def mutate(data: bytes, seed: int, edits: int = 300, width: int = 50) -> bytes:
    """sif's experiment: ``edits`` random substitutions of ``width`` characters."""
    rng = random.Random(seed)
    out = bytearray(data)
    alphabet = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ;(){}*=\n"
    for _ in range(edits):
        at = rng.randrange(0, len(out) - width)
        out[at: at + width] = bytes(rng.choice(alphabet) for _ in range(width))
    return bytes(out)


def real_c_file() -> Path:
    for name in ("object.h", "abstract.h", "unicodeobject.h"):
        path = PY_INCLUDE / name
        if path.is_file() and 20_000 <= path.stat().st_size <= 40_000:
            return path
    pytest.skip(f"no ~30 KB C header in {PY_INCLUDE}")


def corpus_roots(tmp: Path) -> list[Path]:
    """Python's headers plus a deterministic slice of /usr/include.

    Other Python versions' headers are left out: their ``object.h`` is a real
    relative of the query, which sif's experiment (one original among
    unrelated files) does not have."""
    files = [f for f in walk(["/usr/include"]).files
             if not f.path.startswith(str(PY_INCLUDE)) and "/python" not in f.path]
    chosen, total = [], 0
    for entry in files:
        if len(chosen) >= CORPUS_FILES or total + entry.size > CORPUS_BYTES:
            break
        chosen.append(entry.path)
        total += entry.size
    if len(chosen) < 1000:
        pytest.skip("fewer than 1000 real files under /usr/include")
    return [PY_INCLUDE, *map(Path, chosen)]


@pytest.fixture(scope="module")
def header_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("sif-experiment")
    db = tmp / "headers.db"
    with FingerprintIndex(db) as index:
        summary = update_index(index, corpus_roots(tmp), jobs=2)
    assert summary.files_seen >= 1000
    return db


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
def test_sif_experiment_original_found_nothing_else(header_index: Path, tmp_path: Path) -> None:
    original = real_c_file()
    digest = checksum(original.read_bytes())
    sims = []
    with FingerprintIndex(header_index, read_only=True) as index:
        assert index.info().documents >= 1000
        params = index.params
        assert params is not None
        for seed in range(8):
            query = tmp_path / f"query{seed}.h"
            query.write_bytes(mutate(original.read_bytes(), seed))
            result = query_file(index, params, str(query), threshold=0.05)
            paths = [m.match for m in result.matches]
            assert str(original) in paths
            # nothing but the original (or byte-identical copies of it) passes 5 %
            others = [m for m in result.matches
                      if index.documents([m.match])[0].checksum != digest]
            assert others == [], [(m.match, m.contained) for m in others]
            sims.append(100 * result.matches[0].contained)  # a fraction, in percent
    print(f"\nsif experiment similarities: {[round(s, 1) for s in sims]}, "
          f"mean {statistics.mean(sims):.1f}%")
    assert min(sims) >= 20 and max(sims) <= 70  # sif: 37-62 %, about half changed


def test_query_measures_match_brute_force(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    base = rng.integers(97, 123, 40_000, dtype=np.uint8).tobytes()
    files = {"whole.txt": base, "half.txt": base[:20_000], "inner.txt": base[10_000:20_000],
             "double.txt": base + base[:10_000],
             "other.txt": rng.integers(97, 123, 30_000, dtype=np.uint8).tobytes()}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    query = tmp_path / "q.txt"
    query.write_bytes(base[5_000:30_000])

    def fset(data: bytes) -> set[int]:
        return set(fingerprint(np.frombuffer(data, dtype=np.uint8), SIF_DEFAULT)["hash"].tolist())

    q = fset(query.read_bytes())
    with FingerprintIndex(tmp_path / "i.db") as index:
        update_index(index, [tmp_path / n for n in files])
        result = query_file(index, IndexParams(), str(query), threshold=0.0)
        half = query_file(index, IndexParams(), str(query), threshold=0.75, measure="contains")
        with pytest.raises(InvalidConfig, match=r"did you mean 0\.5 \(50%\)"):
            query_file(index, IndexParams(), str(query), threshold=50)
    got = {Path(m.match).name: (m.contained, m.contains, m.shared) for m in result.matches}
    # the threshold is a fraction, like every share returned
    assert {Path(m.match).name for m in half.matches} == {
        name for name, (_, contains, _) in got.items() if contains >= 0.75}
    assert 0 < len(half.matches) < len(result.matches)
    for name, data in files.items():
        f = fset(data)
        shared = len(q & f)
        if shared:
            assert got[name] == pytest.approx((shared / len(q), shared / len(f),
                                               shared))
        else:
            assert name not in got
    # a file holding the query, and one held in it: near 100 % one way (sif's
    # no-overlap rule may re-synchronise a few fingerprints at the edges)
    assert got["whole.txt"][0] >= 0.95 and got["inner.txt"][1] >= 0.95


def test_threshold_measure_and_tiny_identical_files(tmp_path: Path) -> None:
    (tmp_path / "tiny.txt").write_bytes(b"too short for a fingerprint")
    (tmp_path / "copy.txt").write_bytes(b"too short for a fingerprint")
    with FingerprintIndex(tmp_path / "i.db") as index:
        update_index(index, [tmp_path])
        result = query_file(index, IndexParams(), str(tmp_path / "tiny.txt"))
        assert [(Path(m.match).name, m.identical) for m in result.matches] == [("copy.txt", True)]
        with_self = query_file(index, IndexParams(), str(tmp_path / "tiny.txt"),
                               include_self=True)
        assert len(with_self.matches) == 2
    assert os.path.exists(tmp_path / "i.db")
