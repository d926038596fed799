"""Property: any sequence of edits, indexed incrementally, equals a fresh build."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from winnow.index import FingerprintIndex
from winnow.sif.build import update_index

NAMES = ["a.txt", "b.txt", "d/c.txt", "d/e/f.txt", "g.bin"]

operation = st.one_of(
    st.tuples(st.just("write"), st.sampled_from(NAMES), st.integers(0, 50)),
    st.tuples(st.just("delete"), st.sampled_from(NAMES), st.just(0)),
    st.tuples(st.just("rename"), st.sampled_from(NAMES), st.integers(0, len(NAMES) - 1)),
    st.tuples(st.just("touch"), st.sampled_from(NAMES), st.just(0)),
)


def content(seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    base = np.random.default_rng(seed % 5).integers(97, 123, 6000, dtype=np.uint8)
    edits = rng.integers(0, 6000, 20)
    base[edits] = 32  # related contents share most fingerprints
    return base[: 2000 + 200 * (seed % 20)].tobytes()


def apply(root: Path, op: tuple[str, str, int]) -> None:
    kind, name, arg = op
    path = root / name
    if kind == "write":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content(arg))
    elif kind == "delete" and path.exists():
        path.unlink()
    elif kind == "rename" and path.exists():
        target = root / NAMES[arg]
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
    elif kind == "touch" and path.exists():
        os.utime(path, ns=(1, path.stat().st_mtime_ns + 10**9))


def snapshot(db: Path) -> dict[str, tuple[int, str, list[tuple[int, int]]]]:
    with FingerprintIndex(db, read_only=True) as index:
        rows = index._con.execute(
            "SELECT d.path, d.size, d.checksum || d.mtime_ns, list(f.hash ORDER BY f.pos), "
            "list(f.pos ORDER BY f.pos) FROM documents d LEFT JOIN fingerprints f "
            "ON f.doc = d.id GROUP BY ALL").fetchall()
        shared = sorted(index._con.execute(
            "SELECT d.path, s.hash FROM shared s JOIN documents d ON d.id = s.doc").fetchall())
    out = {path: (size, digest, sorted(zip(hashes, positions, strict=True)) if hashes[0]
                  is not None else []) for path, size, digest, hashes, positions in rows}
    out["<shared>"] = (0, "", shared)
    return out


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(operation, min_size=1, max_size=4), min_size=1, max_size=3))
def test_incremental_equals_fresh(rounds: list[list[tuple[str, str, int]]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root, db = Path(tmp) / "tree", Path(tmp) / "inc.db"
        root.mkdir()
        for ops in rounds:
            for op in ops:
                apply(root, op)
            with FingerprintIndex(db) as index:
                update_index(index, [root])
            fresh = Path(tmp) / "fresh.db"
            with FingerprintIndex(fresh) as index:
                update_index(index, [root])
            assert snapshot(db) == snapshot(fresh)
            fresh.unlink()
        shutil.rmtree(root)
