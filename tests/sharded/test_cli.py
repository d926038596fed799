"""``--engine`` on ``winnow compare`` and ``winnow groups``: the sharded
engine's results are the in-memory engine's, end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from winnow.cli.main import main

pytestmark = pytest.mark.sharded

WORDS = [f"w{i}" for i in range(400)]


def words(rng: np.random.Generator, n: int) -> list[str]:
    return [WORDS[i] for i in rng.integers(0, len(WORDS), n)]


def planted_corpus(root: Path) -> dict[str, Path]:
    """30 new and 6 archive submissions of random words; a starter text in
    every one; some copy a passage of an earlier one (or of the archive)."""
    rng = np.random.default_rng(7)
    starter = words(rng, 150)
    folders = {"new": root / "new", "archive": root / "archive", "base": root / "base"}
    for folder in folders.values():
        folder.mkdir(parents=True)
    (folders["base"] / "starter.txt").write_text(" ".join(starter))
    texts: list[list[str]] = []
    for i in range(36):
        own = words(rng, 600)
        if i >= 6 and i % 3 == 0:  # a copied passage of an earlier text
            source = texts[int(rng.integers(0, i))]
            at = int(rng.integers(0, len(source) - 200))
            own[100:300] = source[at:at + 200]
        texts.append(own)
        folder = folders["archive"] if i < 6 else folders["new"]
        (folder / f"s{i:02d}.txt").write_text(" ".join(starter + own))
    return folders


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    return result.stdout


def compare_json(folders: dict[str, Path], *engine: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(run(
        "compare", "-q", "-j", "2", "--each", str(folders["new"]), "--archive",
        str(folders["archive"]), "--base", str(folders["base"] / "starter.txt"), "-m", "8",
        "-n", "0", "--format", "json", *engine))
    return data


def test_compare_is_the_same_on_every_engine(tmp_path: Path) -> None:
    folders = planted_corpus(tmp_path / "corpus")
    memory = compare_json(folders, "--engine", "in-memory")
    sharded = compare_json(folders, "--engine", "local-sharded", "--partitions", "3",
                           "--workdir", str(tmp_path / "run"))
    assert len(memory["pairs"]) >= 8
    assert memory["stats"]["ignored_common"] > 0
    assert (tmp_path / "run" / "merged").is_dir()  # it did run sharded
    memory.pop("parameters")
    sharded.pop("parameters")
    assert sharded == memory  # to the last bit: weights are sums of exact terms


def test_groups_is_the_same_on_every_engine(tmp_path: Path) -> None:
    planted_corpus(tmp_path / "corpus")
    db = str(tmp_path / "index.db")
    run("index", str(tmp_path / "corpus"), "--db", db, "-j", "1", "-q")
    common = ["groups", "--db", db, "--threshold", "0.2", "--max-df", "30", "--interesting",
              "--format", "json"]
    memory = run(*common, "--engine", "in-memory")
    sharded = run(*common, "--engine", "local-sharded", "--partitions", "4",
                  "--workdir", str(tmp_path / "run"))
    assert json.loads(memory)["counts"]["similar"] >= 3
    assert (tmp_path / "run" / "merged").is_dir()
    assert sharded == memory


def test_ray_address_wants_the_ray_engine(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["groups", "--db", str(tmp_path / "x.db"),
                                       "--ray-address", "127.0.0.1:6379"])
    assert result.exit_code == 2
    assert "--ray-address goes with --pair-engine ray" in result.output + result.stderr


def test_a_workdir_of_another_index_is_refused(tmp_path: Path) -> None:
    planted_corpus(tmp_path / "corpus")
    db = str(tmp_path / "index.db")
    run("index", str(tmp_path / "corpus" / "new"), "--db", db, "-j", "1", "-q")
    sharded = ["groups", "--db", db, "--engine", "local-sharded", "--workdir",
               str(tmp_path / "run")]
    first = run(*sharded)
    assert run(*sharded) == first  # the same index: the finished run is reused
    run("index", str(tmp_path / "corpus" / "archive"), "--db", db, "-j", "1", "-q")
    result = CliRunner().invoke(main, sharded)
    assert result.exit_code == 2
    assert "holds another run" in result.output + result.stderr
