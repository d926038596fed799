"""Every selection method is reachable from the command line, and an index
records the method (with its parameters) and refuses another on reopening."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.index import FingerprintIndex


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def text(seed: int, size: int) -> bytes:
    rng = np.random.default_rng(seed)
    letters = rng.integers(97, 123, size, dtype=np.uint8)
    letters[rng.random(size) < 0.15] = 32
    return letters.tobytes()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "base.txt").write_bytes(text(1, 20_000))
    (root / "copy.txt").write_bytes(text(1, 20_000)[:15_000] + text(5, 3_000))
    (root / "other.txt").write_bytes(text(3, 20_000))
    return root


def test_an_anchors_index_is_recorded_and_checked(corpus: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    code, _, err = run("index", str(corpus), "--db", db, "-j", "1", "-q",
                       "--method", "anchors", "--anchor", "ab", "--anchor", "q ")
    assert code == 0, err
    with FingerprintIndex(db, read_only=True) as index:
        params = index.params
    assert params is not None
    assert params.config.method == "anchors" and params.config.anchors == ("ab", "q ")
    assert params.config.k == 50 and params.config.t == 149  # IndexParams' defaults
    code, out, err = run("groups", "--db", db, "--format", "csv")
    assert code == 0, err
    grouped = {Path(row["path"]).name for row in csv.DictReader(io.StringIO(out))}
    assert grouped == {"base.txt", "copy.txt"}
    code, _, err = run("index", str(corpus), "--db", db, "--method", "sif")
    assert code == 2 and "config.method: index has 'anchors', requested 'sif'" in err
    code, _, err = run("index", str(corpus), "--db", db, "--selection", "anchors",
                       "--anchor", "xy")
    assert code == 2 and "config.anchors" in err


def test_anchors_need_an_anchor(corpus: Path, tmp_path: Path) -> None:
    code, _, err = run("index", str(corpus), "--db", str(tmp_path / "b.db"),
                       "--method", "anchors")
    assert code == 2 and "needs at least one anchor" in err


@pytest.mark.parametrize("method", ["anchors", "mod-p", "bottom-n"])
def test_compare_selects_with_the_named_method(corpus: Path, method: str) -> None:
    code, out, err = run("compare", "-q", "-j", "1", "--format", "json", "-k", "20",
                         "--selection", method, "--anchor", "ab", "--anchor", "q ",
                         *(str(p) for p in sorted(corpus.iterdir())))
    assert code == 0, err
    data = json.loads(out)
    assert data["config"]["method"] == method
    best = data["pairs"][0]
    assert {Path(best["file_a"]).name, Path(best["file_b"]).name} == {"base.txt", "copy.txt"}
