"""dircmp's library: shares are fractions, like its command line's --threshold."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.errors import InvalidConfig
from winnow.index import FingerprintIndex
from winnow.reports.sif_changes import share_text
from winnow.sif.build import update_index
from winnow.sif.dircmp import DirComparison, changed_cap, compare_dirs


def text(seed: int, size: int) -> bytes:
    rng = np.random.default_rng(seed)
    return rng.integers(97, 123, size, dtype=np.uint8).tobytes()


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    tmp = tmp_path_factory.mktemp("dircmp")
    a, b = tmp / "a", tmp / "b"
    (b / "sub").mkdir(parents=True)
    a.mkdir()
    same, moved, touched = text(1, 20_000), text(2, 20_000), text(3, 30_000)
    (a / "same.txt").write_bytes(same)
    (b / "same.txt").write_bytes(same)
    (a / "mv.txt").write_bytes(moved)
    (b / "sub" / "mv2.txt").write_bytes(moved[:14_000] + text(4, 6_000))  # moved, edited
    (a / "t.txt").write_bytes(touched)
    (b / "t.txt").write_bytes(touched[:-1] + b"!")  # one byte changed
    with FingerprintIndex(tmp / "i.db") as index:
        update_index(index, [a, b])
    return a, b, tmp / "i.db"


def test_similarities_are_fractions(trees: tuple[Path, Path, Path]) -> None:
    a, b, db = trees
    with FingerprintIndex(db, read_only=True) as index:
        result = compare_dirs(index, str(a), str(b), threshold=0.5)
        strict = compare_dirs(index, str(a), str(b), threshold=0.9)
    got = {(e.status, e.path_a, e.path_b): e.similarity for e in result.entries}
    assert got[("identical", "same.txt", "same.txt")] == 1.0
    touched = got[("modified", "t.txt", "t.txt")]
    assert 0.99 < touched <= changed_cap(30_000, 30_000) < 1.0  # never 100 % when changed
    moved = got[("similar", "mv.txt", "sub/mv2.txt")]
    assert 0.5 <= moved < 0.9
    # 0.9 is a fraction too: the edited copy no longer pairs
    assert {e.status for e in strict.entries} >= {"only-a", "only-b"}
    assert "similar" not in {e.status for e in strict.entries}
    assert 0 < result.resemblance < 1 and 0 < result.a_in_b < 1 and 0 < result.b_in_a < 1


def test_the_library_gives_what_the_cli_prints(trees: tuple[Path, Path, Path]) -> None:
    a, b, db = trees
    out = CliRunner().invoke(main, ["dircmp", str(a), str(b), "--db", str(db), "-q",
                                    "--threshold", "0.5", "--format", "json"],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.stderr
    printed = json.loads(out.stdout)
    with FingerprintIndex(db, read_only=True) as index:
        result = compare_dirs(index, str(a), str(b), 0.5)

    def down(value: float) -> float:
        return value if value >= 1 else math.floor(value * 10_000 + 1e-5) / 10_000

    assert [(e["status"], e["path_a"], e["path_b"], e["similarity"])
            for e in printed["entries"]] == [
        (e.status, e.path_a, e.path_b, down(e.similarity)) for e in result.entries]
    assert printed["resemblance"] == down(result.resemblance)
    assert printed["a_in_b"] == down(result.a_in_b)


def test_a_percentage_is_refused(trees: tuple[Path, Path, Path]) -> None:
    a, b, db = trees
    with FingerprintIndex(db, read_only=True) as index, \
            pytest.raises(InvalidConfig, match=r"got 50; did you mean 0\.5 \(50%\)\?"):
        compare_dirs(index, str(a), str(b), threshold=50)


def test_caps_and_table_text_take_fractions() -> None:
    assert changed_cap(100, 100) == pytest.approx(0.99) and changed_cap(0, 0) == 0.0
    assert changed_cap(100, 50) == pytest.approx(0.5)
    assert share_text(1.0) == "100%" and share_text(0.9996) == "99.9%"
    assert share_text(0.29) == "29.0%" and share_text(0.0) == "0.0%"
    empty = DirComparison("a", "b")
    assert empty.resemblance == 1.0 and empty.a_in_b == 0.0
    half = DirComparison("a", "b", fingerprints_a=10, fingerprints_b=20, shared_fingerprints=5)
    assert (half.resemblance, half.a_in_b, half.b_in_a) == (5 / 25, 0.5, 0.25)
