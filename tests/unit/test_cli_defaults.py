"""One home for defaults: every command's option defaults are the library's
config objects' (no literal copies in the CLI)."""

from __future__ import annotations

from typing import Any

import pytest

from winnow.cli.main import load_command
from winnow.config import DEFAULT_SEED, WinnowConfig
from winnow.corpus import DedupSettings
from winnow.fileio import DEFAULT_MAX_FILE_BYTES
from winnow.matching import CompareOptions
from winnow.sif.fingerprinting import MAX_FINGERPRINT_BYTES
from winnow.sif.groups import GroupOptions


def defaults(command: str) -> dict[str, Any]:
    """Each option of ``command`` (by its longest name) and its default."""
    return {max(param.opts, key=len): param.default for param in load_command(command).params}


@pytest.mark.parametrize("command", ["compare", "evaluate", "fingerprint"])
def test_the_engine_options_default_to_the_config(command: str) -> None:
    options = defaults(command)
    assert options["--seed"] == DEFAULT_SEED == WinnowConfig().seed
    assert options["--selection"] == WinnowConfig().method


@pytest.mark.parametrize("command", ["compare", "evaluate"])
def test_compare_defaults_are_compare_options(command: str) -> None:
    options, library = defaults(command), CompareOptions()
    assert options["--max-df"] == library.max_occurrences
    assert options["--score"] == library.similarity
    assert options["--literal-k"] == library.literal_k
    assert options["--min-cluster-similarity"] == library.cluster_threshold
    assert options["--max-file-size"] == DEFAULT_MAX_FILE_BYTES >> 20


def test_compare_reporting_defaults_are_compare_options() -> None:
    options, library = defaults("compare"), CompareOptions()
    assert options["--top"] == library.top and options["--passages-top"] == library.passages_top
    assert options["--min-similarity"] == library.min_similarity


@pytest.mark.parametrize("command", ["groups", "scan"])
def test_group_defaults_are_group_options(command: str) -> None:
    options, library = defaults(command), GroupOptions()
    assert options["--threshold"] == library.threshold
    assert options["--max-df"] == library.max_df


def test_dedup_defaults_are_dedup_settings() -> None:
    options, library = defaults("dedup"), DedupSettings()
    assert options["--min-similarity"] == library.similarity
    assert options["--min-containment"] == library.containment
    assert options["--min-fingerprints"] == library.min_fingerprints
    assert options["--max-df"] == library.max_occurrences
    assert (options["-k"], options["-t"]) == (library.k, library.t)


def test_index_defaults_are_the_index_library_s() -> None:
    options = defaults("index")
    assert options["--max-file-size"] == MAX_FINGERPRINT_BYTES >> 20
    assert options["--seed"] is None  # what the index has, else SIF_DEFAULT's


def test_serve_limits_are_the_intake_s() -> None:
    from winnow.serve.intake import Limits

    options, limits = defaults("serve"), Limits()
    assert options["--max-file-mb"] * (1 << 20) == limits.max_file_bytes
    assert options["--max-job-mb"] * (1 << 20) == limits.max_job_bytes
    assert options["--max-files"] == limits.max_files


def test_no_seed_option_has_a_literal_default() -> None:
    """A ``--seed`` default is a name (``DEFAULT_SEED``) or ``None``, never a copy."""
    import ast
    from pathlib import Path

    import winnow.cli

    for path in Path(winnow.cli.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and any(
                    isinstance(arg, ast.Constant) and arg.value == "--seed" for arg in node.args):
                default = next(k.value for k in node.keywords if k.arg == "default")
                assert not (isinstance(default, ast.Constant) and default.value is not None), \
                    f"{path.name}: --seed has a literal default"
