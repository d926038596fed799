"""Incremental index updates: add, modify, touch, delete, rename, remove; walking."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from winnow.config import WinnowConfig
from winnow.engine import fingerprint
from winnow.index import SIF_DEFAULT, FingerprintIndex, IndexParams
from winnow.sif.build import remove_paths, update_index
from winnow.sources.walk import WalkPolicy, walk


def random_text(seed: int, size: int) -> bytes:
    rng = random.Random(seed)
    words = [bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
             for _ in range(500)]
    out = bytearray()
    while len(out) < size:
        out += rng.choice(words) + (b"\n" if rng.random() < 0.1 else b" ")
    return bytes(out[:size])


def state(index: FingerprintIndex) -> dict[str, tuple[int, str, int]]:
    return {d.path: (d.size, d.checksum, d.n_fp) for d in index.documents()}


def stored_hashes(index: FingerprintIndex, path: str) -> list[int]:
    (row,) = [d for d in index.documents() if d.path == path]
    rows = index._con.execute("SELECT hash FROM fingerprints WHERE doc = ? ORDER BY pos",
                              [row.id]).fetchall()
    return [r[0] for r in rows]


def expected_hashes(data: bytes) -> list[int]:
    fps = fingerprint(np.frombuffer(data, dtype=np.uint8), SIF_DEFAULT)
    assert IndexParams().hash_shift == 8  # sif keeps hashes whose 8 low bits are zero
    hashes = np.asarray(fps["hash"], dtype=np.uint64)
    assert not np.any(hashes & np.uint64(0xFF))
    return (hashes >> np.uint64(8)).view(np.int64).tolist()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    (root / "sub").mkdir(parents=True)
    for i, name in enumerate(["a.txt", "b.txt", "sub/c.txt"]):
        (root / name).write_bytes(random_text(i, 6000 + 1000 * i))
    return root


def test_first_build_stores_engine_fingerprints(tree: Path, tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        summary = update_index(index, [tree])
        assert (summary.added, summary.files_seen) == (3, 3)
        for name in ("a.txt", "sub/c.txt"):
            path = str(tree / name)
            assert stored_hashes(index, path) == expected_hashes((tree / name).read_bytes())
        assert index.info().bytes_indexed == sum(f.stat().st_size for f in tree.rglob("*.txt"))


def test_add_modify_delete_rename(tree: Path, tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        update_index(index, [tree])
        before = state(index)
        (tree / "new.txt").write_bytes(random_text(10, 5000))            # add
        (tree / "a.txt").write_bytes(random_text(11, 7000))              # modify
        (tree / "b.txt").unlink()                                        # delete
        (tree / "sub/c.txt").rename(tree / "sub/moved.txt")              # rename
        summary = update_index(index, [tree])
        after = state(index)
        assert (summary.added, summary.updated, summary.removed) == (2, 1, 2)
        assert set(after) == {str(tree / p) for p in ("a.txt", "new.txt", "sub/moved.txt")}
        assert after[str(tree / "sub/moved.txt")] == before[str(tree / "sub/c.txt")]
        assert stored_hashes(index, str(tree / "a.txt")) == expected_hashes(
            (tree / "a.txt").read_bytes())
        fps = index.info().fingerprints
        assert fps == sum(v[2] for v in after.values())  # no orphaned fingerprints


def test_vanished_root_drops_its_files(tree: Path, tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        update_index(index, [tree])
        shutil.rmtree(tree / "sub")
        summary = update_index(index, [tree / "sub", tree / "a.txt"])
        assert [(Path(s.path).name, s.reason) for s in summary.skipped] == [
            ("sub", "no such file or directory")]
        assert summary.removed == 1 and len(index.documents()) == 2


def test_touched_file_is_checksummed_not_refingerprinted(tree: Path, tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        update_index(index, [tree])
        os.utime(tree / "a.txt", ns=(1, 10**18))
        summary = update_index(index, [tree])
        assert (summary.unchanged, summary.updated, summary.bytes_read) == (
            3, 0, (tree / "a.txt").stat().st_size)
        summary = update_index(index, [tree])  # mtime now recorded: nothing read
        assert summary.bytes_read == 0 and summary.unchanged == 3


def test_same_size_same_mtime_change_is_not_seen_but_checksum_guards(
        tree: Path, tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        update_index(index, [tree])
        stat = (tree / "b.txt").stat()
        data = bytearray((tree / "b.txt").read_bytes())
        data[0] ^= 1
        (tree / "b.txt").write_bytes(bytes(data))
        os.utime(tree / "b.txt", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
        update_index(index, [tree])
        (row,) = index.documents([str(tree / "b.txt")])
        from winnow.sif.fingerprinting import checksum

        assert row.checksum == checksum(bytes(data))


def test_only_given_roots_are_pruned(tree: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.txt").write_bytes(random_text(5, 3000))
    with FingerprintIndex(tmp_path / "i.db") as index:
        update_index(index, [tree, other])
        update_index(index, [tree / "sub"])
        assert len(index.documents()) == 4
        assert remove_paths(index, [tree]) == 3
        assert [d.path for d in index.documents()] == [str(other / "x.txt")]


def test_parallel_build_equals_serial(tree: Path, tmp_path: Path) -> None:
    for i in range(12):
        (tree / f"extra{i}.txt").write_bytes(random_text(100 + i, 20000))
    with FingerprintIndex(tmp_path / "serial.db") as serial:
        update_index(serial, [tree], jobs=1)
        expected = state(serial)
    with FingerprintIndex(tmp_path / "parallel.db") as parallel:
        update_index(parallel, [tree], jobs=2)
        assert state(parallel) == expected


def test_overlapping_roots_index_each_file_once(tree: Path, tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        summary = update_index(index, [tree, tree / "sub", tree / "a.txt", tree / "a.txt"])
        assert summary.added == 3 and len(index.documents()) == 3


def test_walk_skips_links_loops_fifos(tmp_path: Path) -> None:
    root = tmp_path / "w"
    (root / "d").mkdir(parents=True)
    (root / "d" / "f.txt").write_text("hello")
    (root / "d" / "loop").symlink_to(root)
    (root / "broken").symlink_to(root / "nowhere")
    (root / "filelink").symlink_to(root / "d" / "f.txt")
    os.mkfifo(root / "pipe")
    plain = walk([root])
    assert [f.path for f in plain.files] == [str(root / "d" / "f.txt")]
    reasons = {Path(s.path).name: s.reason for s in plain.skipped}
    assert reasons["pipe"] == "FIFO (named pipe)"
    assert reasons["loop"] == reasons["filelink"] == "symbolic link (not followed)"
    followed = walk([root], WalkPolicy(links="always"))
    assert {Path(f.path).name for f in followed.files} == {"f.txt", "filelink"}
    reasons = {Path(s.path).name: s.reason for s in followed.skipped}
    assert reasons["loop"] == "symbolic link loop"
    assert reasons["broken"] == "vanished or broken symbolic link"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything")
def test_unreadable_entries_reported_and_old_state_kept(tree: Path, tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        update_index(index, [tree])
        (tree / "sub").chmod(0)
        (tree / "a.txt").write_bytes(b"changed, and now unreadable " * 100)
        (tree / "a.txt").chmod(0)
        try:
            summary = update_index(index, [tree])
        finally:
            (tree / "sub").chmod(0o755)
            (tree / "a.txt").chmod(0o644)
        assert {Path(s.path).name: s.reason for s in summary.skipped} == {
            "sub": "permission denied", "a.txt": "permission denied"}
        assert len(index.documents()) == 3


def test_compact_after_removal_shrinks_and_keeps_content(tmp_path: Path) -> None:
    root = tmp_path / "many"
    root.mkdir()
    rng = np.random.default_rng(0)
    for i in range(40):
        (root / f"f{i}.txt").write_bytes(rng.integers(97, 123, 60_000, dtype=np.uint8).tobytes())
    db = tmp_path / "i.db"
    dense = IndexParams(config=WinnowConfig(k=8, t=8, method="sif", bits=0))  # many rows
    with FingerprintIndex(db) as index:
        update_index(index, [root], dense)
        for i in range(30):
            (root / f"f{i}.txt").unlink()
        update_index(index, [root])
        kept = state(index)
        before = db.stat().st_size
        index.compact()
        assert state(index) == kept
        assert index.info().fingerprints == sum(v[2] for v in kept.values())
    assert db.stat().st_size < before
    assert not (tmp_path / "i.db.compact").exists()
    with FingerprintIndex(db, read_only=True) as index:
        assert index.params is not None and len(index.documents()) == 10


def test_files_over_the_size_limit_are_checksummed_only(tree: Path, tmp_path: Path) -> None:
    (tree / "big-copy.txt").write_bytes((tree / "b.txt").read_bytes())
    with FingerprintIndex(tmp_path / "i.db") as index:
        summary = update_index(index, [tree], max_file_bytes=6500)
        rows = {Path(d.path).name: d for d in index.documents()}
        assert summary.checksum_only == 3  # b.txt and big-copy.txt (7000 B), sub/c.txt
        assert rows["a.txt"].n_fp > 0 and rows["b.txt"].n_fp == rows["c.txt"].n_fp == 0
        assert rows["a.txt"].frontend == "bytes" and rows["b.txt"].frontend is None
        assert rows["b.txt"].checksum == rows["big-copy.txt"].checksum
        from winnow.sif.fingerprinting import checksum
        from winnow.sif.groups import GroupOptions, find_groups

        assert rows["c.txt"].checksum == checksum((tree / "sub/c.txt").read_bytes())
        groups = find_groups(index, GroupOptions())
        assert [len(g.members) for g in groups.identical] == [2]
