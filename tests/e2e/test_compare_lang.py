"""``--lang`` for prose selects the text front-end; a ``--lang`` that leaves most
files shorter than k is a usage error, not an empty result."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from winnow.cli.main import main
from winnow.frontends import default_params


def _prose(folder: Path) -> list[str]:
    rng = random.Random(1)
    vocab = [f"word{i}" for i in range(300)]
    shared = " ".join(rng.choice(vocab) for _ in range(150))
    paths = []
    for i in range(4):
        path = folder / f"s{i}.md"
        path.write_text((shared if i < 2 else " ".join(rng.choice(vocab) for _ in range(150)))
                        + "\n")
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("lang", ["text", "txt", "prose", "markdown", "Markdown"])
def test_a_prose_lang_selects_the_text_front_end(tmp_path: Path, lang: str) -> None:
    paths = _prose(tmp_path)
    result = CliRunner().invoke(main, ["compare", "-q", *paths, "--lang", lang,
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    top = data["pairs"][0]
    assert {Path(top["file_a"]).name, Path(top["file_b"]).name} == {"s0.md", "s1.md"}
    assert top["similarity"] > 0.9
    assert (data["config"]["k"], data["config"]["t"]) == default_params("text")
    assert not any("shorter than k" in issue["reason"] for issue in data["issues"])


def test_a_lang_that_leaves_files_shorter_than_k_is_a_usage_error(tmp_path: Path) -> None:
    paths = _prose(tmp_path)
    result = CliRunner().invoke(main, ["compare", "-q", *paths, "--frontend", "code",
                                       "--lang", "text"])
    assert result.exit_code == 2
    assert "4 of 4 files shorter than k" in result.output and "--frontend text" in result.output


def test_the_other_pairs_do_not_change_when_a_folder_of_text_joins(tmp_path: Path) -> None:
    # One submission of one-line .txt files (more files than the Python ones,
    # so the front-end most files get is text) in a Python class: every
    # other pair keeps its parameters (k, t), so its fingerprints and every
    # score that depends on the pair alone, exactly.  (IDF-weighted scores
    # depend on the number of submissions by definition.)
    examples = Path(__file__).resolve().parents[2] / "examples" / "python" / "submissions"
    shutil.copytree(examples, tmp_path / "class")
    plain = _pairs(tmp_path / "class")
    notes = tmp_path / "class" / "zed"
    notes.mkdir()
    for i in range(9):
        (notes / f"note{i}.txt").write_text(f"see the lecture notes, part {i}\n")
    mixed = _pairs(tmp_path / "class")
    assert plain and {k: v for k, v in mixed.items() if "zed" not in k[0] + k[1]} == plain
    assert len(plain) >= 6


def _pairs(folder: Path) -> dict[tuple[str, str], tuple[float, ...]]:
    result = CliRunner().invoke(main, ["compare", "-q", "--each", str(folder), "-n", "0",
                                       "--similarity", "dice", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.stdout)
    return {(Path(p["file_a"]).name, Path(p["file_b"]).name): (
        p["similarity"], p["shared"], p["containment_a"], p["containment_b"], p["jaccard"],
        p["coverage_a"], p["lines_a"], p["longest"]) for p in data["pairs"]}
