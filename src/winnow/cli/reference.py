"""docs/cli.md, generated from the commands' own ``--help``.

Regenerate with ``python -m winnow.cli.reference > docs/cli.md``;
``tests/unit/test_docs.py`` fails when the file and the commands disagree.
"""

from __future__ import annotations

import click

from winnow.cli.main import main

#: Fixed width, so the text does not depend on the terminal that generates it.
WIDTH = 88

HEADER = """\
# Command-line reference

Generated from each command's `--help` by `python -m winnow.cli.reference > docs/cli.md`
(`tests/unit/test_docs.py` fails when this file is out of date). Topic guides:
[compare](compare.md), [report](report.md), [sif](sif.md), [front-ends](frontends.md),
[engine](engine.md), [accuracy](accuracy.md).

## Conventions

* Every command that prints results takes `--format table|csv|json|jsonl`
  (`table` by default) and `-o/--output FILE` (default: standard output).
  CSV has a header row; JSON is one document, JSON Lines one record per line.
  Tables, and CSV written to a terminal, show control characters in names
  escaped (`\x1b`, `\u202e`); CSV to a file or pipe keeps them as they are.
* Thresholds and shares given as options (`--threshold`, `--min-similarity`,
  `--cluster-threshold`, `--size-ratio`) are fractions from 0 to 1 in every
  command: `0.5` is 50 %.  A percent sign says percent explicitly (`25%` is
  0.25); a bare number above 1 is refused as a usage error (exit 2) naming the
  fraction it probably meant (`--threshold 25`: "did you mean 0.25 (25%)?"), so
  neither unit is ever read as the other.  Results show similarities in
  percent (`57.3%`, sif's `R100` layout) or as the documented fields of CSV/JSON.
* Messages go to standard error as `winnow: error: ...` and
  `winnow: warning: ...`; results go to standard output or `FILE`.
* Output paths (`-o FILE`, `--report`) are checked before any work: a target
  that is one of the inputs (the same file through any link, or a file inside
  an input folder), the index (`--db`) or another output is refused (exit 2);
  one that cannot be written fails at once (exit 3).  `FILE` is written to a
  temporary file beside it and renamed over it at the end, so a failed run
  leaves the old file whole; new files get the mode the umask allows.
* A reader that stops early (`winnow compare ... | head`) ends the run quietly.

## Exit codes

The same for every command (`winnow.cli.common.EXIT_*`; library errors carry
theirs in `winnow.errors.WinnowError.exit_code`):

| code | meaning |
|---|---|
| 0 | done |
| 1 | some input could not be read or used (each named on standard error); the rest was processed |
| 2 | usage error: a bad option or parameter value, parameters other than an index's, \
or an output that would overwrite an input or the index |
| 3 | failed for a reason outside the input: output or report not writable, standard \
output closed, index in use, or an internal error (one line; `winnow --debug COMMAND ...` \
shows the traceback) |

`winnow evaluate` uses 2 for every error in its input (e.g. an unreadable labels file, a
path outside `--root`, a pair labelled both 1 and 0).
"""


def command_help(name: str | None) -> str:
    """The ``--help`` text of ``winnow NAME`` (of ``winnow`` itself for ``None``)."""
    root = click.Context(main, info_name="winnow", terminal_width=WIDTH,
                         max_content_width=WIDTH, **main.context_settings)
    if name is None:
        return main.get_help(root)
    command = main.commands[name]
    ctx = click.Context(command, info_name=name, parent=root, terminal_width=WIDTH,
                        max_content_width=WIDTH)
    return command.get_help(ctx)


def cli_reference() -> str:
    """The whole of docs/cli.md."""
    parts = [HEADER, "## winnow\n", "```text\n" + command_help(None) + "\n```\n"]
    for name in sorted(main.commands):
        parts += [f"## winnow {name}\n", "```text\n" + command_help(name) + "\n```\n"]
    return "\n".join(parts)


if __name__ == "__main__":
    print(cli_reference(), end="")
