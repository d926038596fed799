"""docs/cli.md, generated from the commands' own ``--help``.

Regenerate with ``python -m winnow.cli.reference > docs/cli.md``;
``tests/unit/test_docs.py`` fails when the file and the commands disagree.
"""

from __future__ import annotations

import click

from winnow.cli.main import main
from winnow.errors import exit_code_table

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
* One word, one meaning, in every command: a threshold is `--threshold` or
  `--min-...`; a score name is `--score`; `-m/--max-df` caps the documents a
  fingerprint may be found in, with one type (a count `N >= 1`, a share
  `0 < x < 1` or `10%`, `0` for no cap); a front-end switch is
  `--frontend-option NAME=VALUE`; the pair counter is `--pair-engine`.  The
  old spellings (compare's `--similarity`, dedup's `--similarity` and
  `--containment`, `--max-occurrences`, `--keep case` and the other front-end
  `--keep`s, dedup's `--keep` (now `--keep-records`), dedup-files' `--keep`
  (now `--keep-copy`), `--size-ratio`, `--cluster-threshold`, `--engine`)
  still work in this release, with a deprecation warning on standard error.
* Thresholds and shares given as options (`--threshold`, `--min-similarity`,
  `--min-containment`, `--min-cluster-similarity`, `--min-size-ratio`) are
  fractions from 0 to 1 in every command: `0.5` is 50 %.  A percent sign says
  percent explicitly (`25%` is 0.25); a bare number above 1 is refused as a
  usage error (exit 2) naming the fraction it probably meant (`--threshold
  25`: "did you mean 0.25 (25%)?"), so neither unit is ever read as the
  other.  Results show similarities in percent (`57.3%`, sif's `R100`
  layout) or as the documented fields of CSV/JSON.
* Messages go to standard error as `winnow: error: ...` and
  `winnow: warning: ...`; results go to standard output or `FILE`.
* Output paths (`-o FILE`, `--report`) are checked before any work: a target
  that is one of the inputs (the same file through any link, or a file inside
  an input folder), the index (`--db`) or another output is refused (exit 2);
  one that cannot be written fails at once (exit 3).  `FILE` is written to a
  temporary file beside it and renamed over it at the end, so a failed run
  leaves the old file whole; new files get the mode the umask allows.
* A reader that stops early (`winnow compare ... | head -1`, any command) ends
  the run quietly, with exit code 0.

## Exit codes

The same for every command.  Each error winnow reports is a class of
`winnow.errors` carrying its code (`exit_code`), turned into the message
`winnow: error: ...` and that code by the command group alone:

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
    parts = [HEADER + exit_code_table(), "## winnow\n",
             "```text\n" + command_help(None) + "\n```\n"]
    for name in sorted(main.commands):
        parts += [f"## winnow {name}\n", "```text\n" + command_help(name) + "\n```\n"]
    return "\n".join(parts)


if __name__ == "__main__":
    print(cli_reference(), end="")
