"""``--lang`` for prose selects the text front-end; a ``--lang`` that leaves most
files shorter than k is a usage error, not an empty result."""

from __future__ import annotations

import json
import random
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
