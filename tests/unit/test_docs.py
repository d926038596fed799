"""The documentation agrees with the commands: docs/cli.md, the README's table, the links."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from winnow.cli.main import main
from winnow.cli.reference import cli_reference, command_help

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_cli_reference_is_up_to_date() -> None:
    current = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert current == cli_reference(), \
        "docs/cli.md is stale: run `python -m winnow.cli.reference > docs/cli.md`"


@pytest.mark.parametrize("name", sorted(main.commands))
def test_every_command_has_help_and_a_readme_row(name: str) -> None:
    command = main.commands[name]
    assert command.help and command.short_help != "", f"winnow {name} has no help text"
    assert f"## winnow {name}\n" in cli_reference()
    assert re.search(rf"^\| `winnow {name}\b[^|]*` \|", README, re.MULTILINE), \
        f"winnow {name} is missing from the README's command table"


#: Commands that print no result (a server prints only its log).
NO_RESULT = {"serve"}


@pytest.mark.parametrize("name", sorted(set(main.commands) - NO_RESULT))
def test_result_commands_share_format_and_output(name: str) -> None:
    text = command_help(name)
    assert re.search(r"--format \[table\|csv\|json\|jsonl(\|\w+)*\]", text)
    assert "-o, --output FILE" in text


def test_readme_links_every_doc() -> None:
    linked = set(re.findall(r"\]\((docs/[\w.-]+\.md)\)", README))
    present = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert present <= linked, f"README does not link {sorted(present - linked)}"
    assert linked <= present, f"README links missing docs {sorted(linked - present)}"


@pytest.mark.parametrize("name", sorted(main.commands))
def test_the_lazy_command_list_says_what_each_command_says(name: str) -> None:
    from winnow.cli.main import COMMANDS

    first = (main.commands[name].help or "").split("\n\n")[0]
    assert COMMANDS[name][1] == " ".join(first.split())


@pytest.mark.parametrize(("args", "printed"), [
    (["--help"], "Commands:"), (["--version"], "winnow, version"),
    (["languages"], "python         fast"),
])
def test_help_version_and_languages_import_neither_numpy_nor_numba(
        args: list[str], printed: str) -> None:
    import subprocess
    import sys

    code = ("import sys; from winnow.cli.main import main\n"
            f"try:\n    main({args!r})\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert printed in out  # the command ran
    assert out.strip().endswith("[]"), out[-300:]
