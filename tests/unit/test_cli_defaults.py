"""One home for defaults: every command's option defaults are the library's
config objects' (no literal copies in the CLI), and the selectors, the
front-ends' table and the index read theirs from :mod:`winnow.config`."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from winnow.cli.main import load_command
from winnow.config import (
    DEFAULT_BOTTOM_N,
    DEFAULT_SEED,
    DEFAULT_SIF_BITS,
    WinnowConfig,
    default_mod_p,
    optimal_safe_p,
)
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


def test_serve_defaults_are_the_settings_s() -> None:
    from winnow.serve.settings import DEFAULT_DATA, Settings

    options, settings = defaults("serve"), Settings(DEFAULT_DATA)
    for name in ("host", "moss_port", "http_port", "workers", "reply_wait", "idle_timeout",
                 "upload_deadline", "max_connections", "max_per_address", "retention_days",
                 "failed_retention_hours"):
        assert options["--" + name.replace("_", "-")] == getattr(settings, name), name
    assert options["--data"] == settings.data == Path("winnow-serve")
    assert options["--job-seconds"] == settings.job_limits.wall_seconds
    assert options["--job-memory-mb"] * (1 << 20) == settings.job_limits.memory_bytes


def test_serve_binds_this_machine_only_by_default() -> None:
    assert defaults("serve")["--host"] == "127.0.0.1"


def test_the_serve_defaults_need_no_aiohttp() -> None:
    """The CLI reads the server's defaults (for ``--help``) without the extra."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['aiohttp'] = None; import winnow.cli.serve; "
            "import winnow.serve.settings as s; print(s.Settings(s.DEFAULT_DATA).http_port)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert (done.returncode, done.stdout) == (0, "8080\n"), done.stderr
    blocked = subprocess.run([sys.executable, "-c", code.replace("cli.serve", "serve.app")],
                             capture_output=True, text=True, check=False)
    assert blocked.returncode != 0 and "aiohttp" in blocked.stderr  # the check can fail


def _literal_defaults(path: Path) -> list[str]:
    """The options of a CLI module whose ``default=`` is a number or a string."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "option":
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg == "default" and isinstance(value, ast.Constant) \
                        and isinstance(value.value, int | float | str) \
                        and not isinstance(value.value, bool):
                    found.append(ast.unparse(node.args[0]))
    return found


def test_serve_options_have_no_literal_defaults() -> None:
    import winnow.cli.serve

    assert _literal_defaults(Path(winnow.cli.serve.__file__)) == []


#: The literal defaults the CLI keeps: field names, ``-j 0`` (every core) and
#: choices of what to print, none of them a copy of a library default.
LITERALS = {"contamination.py": ["'--text-field'", "'--corpus-text-field'", "'-j'"],
            "dedup.py": ["'--text-field'"], "grouping.py": ["'--sort'"],
            "options.py": ["'-j'"], "query.py": ["'--measure'"]}


def test_no_other_cli_option_has_a_literal_default() -> None:
    import winnow.cli

    found = {path.name: _literal_defaults(path)
             for path in sorted(Path(winnow.cli.__file__).parent.glob("*.py"))}
    assert {name: sorted(options) for name, options in found.items() if options} \
        == {name: sorted(options) for name, options in LITERALS.items()}


@pytest.mark.parametrize("command", ["compare", "evaluate", "fingerprint", "tokens"])
def test_unit_defaults_to_the_front_end_options(command: str) -> None:
    from winnow.frontends.options import FrontEndOptions

    assert defaults(command)["--unit"] == FrontEndOptions().unit


@pytest.mark.parametrize("command", ["compare", "groups", "dedup"])
def test_pair_engine_defaults_to_the_engine_choice(command: str) -> None:
    from winnow.pairs.registry import EngineChoice

    assert defaults(command)["--pair-engine"] == EngineChoice().engine


def test_passage_defaults_are_passage_settings() -> None:
    from winnow.corpus import Fields
    from winnow.corpus.passages import PassageSettings

    assert defaults("dedup")["--min-tokens"] == PassageSettings(Fields()).min_tokens


def test_the_literal_check_finds_a_literal(tmp_path: Path) -> None:
    source = tmp_path / "cli.py"
    source.write_text('@click.option("--port", default=8080)\n'
                      '@click.option("--host", default=HOST)\n'
                      '@click.option("--flag", default=False)\ndef f(): pass\n')
    assert _literal_defaults(source) == ["'--port'"]


@pytest.mark.parametrize("w", [1, 2, 3, 8, 100, 101])
def test_selectors_default_to_the_config_s(w: int) -> None:
    from winnow.engine.selectors import selector

    assert selector("mod-p", None, w).params() == {"p": default_mod_p(w)}
    assert selector("safe-mod-p", None, w).params() == {"p": optimal_safe_p(w)}
    assert selector("sif", 50, w).params() == {"bits": DEFAULT_SIF_BITS, "k": 50}
    assert selector("bottom-n", None, w).params() == {"n": DEFAULT_BOTTOM_N}


def test_selector_defaults_are_the_documented_values() -> None:
    """The values docs/engine.md states: bits 8, n 100, p = (w+1)/2, w/ln w."""
    assert (DEFAULT_SIF_BITS, DEFAULT_BOTTOM_N) == (8, 100)
    assert [default_mod_p(w) for w in (1, 8, 100)] == [1, 4, 50]
    assert [optimal_safe_p(w) for w in (2, 8, 100)] == [1, 4, 22]


def test_selectors_write_no_literal_default() -> None:
    """Each ``_given(given, name, default)`` reads its default from the config."""
    import winnow.engine.selectors

    tree = ast.parse(Path(winnow.engine.selectors.__file__).read_text(encoding="utf-8"))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and getattr(node.func, "id", None) == "_given"]
    assert len(calls) == 4
    for call in calls:
        assert not isinstance(call.args[2], ast.Constant), ast.unparse(call)


def test_frontend_and_index_defaults_read_the_config() -> None:
    from winnow.frontends.options import DEFAULT_PARAMS, default_params
    from winnow.index.params import SIF_DEFAULT, IndexParams

    config = WinnowConfig()
    assert DEFAULT_PARAMS["bytes"] == default_params("no-such") == (config.k, config.t)
    assert SIF_DEFAULT.bits == DEFAULT_SIF_BITS == IndexParams.create().config.bits
    assert IndexParams.create(k=20).config == WinnowConfig(20, 20, "sif", bits=DEFAULT_SIF_BITS)


def test_fingerprint_k_and_t_default_to_the_front_end_s() -> None:
    options = defaults("fingerprint")
    assert options["-k"] is None and options["-t"] is None


def test_no_seed_option_has_a_literal_default() -> None:
    """A ``--seed`` default is a name (``DEFAULT_SEED``) or ``None``, never a copy."""
    import winnow.cli

    for path in Path(winnow.cli.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and any(
                    isinstance(arg, ast.Constant) and arg.value == "--seed" for arg in node.args):
                default = next(k.value for k in node.keywords if k.arg == "default")
                assert not (isinstance(default, ast.Constant) and default.value is not None), \
                    f"{path.name}: --seed has a literal default"
