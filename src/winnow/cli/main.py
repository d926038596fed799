"""The ``winnow`` command group: a thin skin over the library.

Each command lives in its own module and is registered here.  Library errors
(:class:`winnow.errors.WinnowError`) a command does not handle itself become
messages and exit codes in :class:`winnow.cli.common.WinnowGroup`; nothing
here does real work.
"""

from __future__ import annotations

import click

from winnow import __version__
from winnow.cli.common import WinnowGroup
from winnow.cli.compare import compare_command
from winnow.cli.dircmp import dircmp_command
from winnow.cli.evaluate import evaluate_command
from winnow.cli.experiments import experiments_command
from winnow.cli.fingerprint import fingerprint_command
from winnow.cli.groups import groups_command
from winnow.cli.index import index_command
from winnow.cli.languages import languages_command
from winnow.cli.query import query_command
from winnow.cli.scan import scan_command
from winnow.cli.tokens import tokens_command


@click.group(cls=WinnowGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="winnow")
def main() -> None:
    """Find copied and similar content: winnowing (MOSS) and sif in one tool."""


main.add_command(fingerprint_command)
main.add_command(compare_command)
main.add_command(evaluate_command)
main.add_command(tokens_command)
main.add_command(languages_command)
main.add_command(index_command)
main.add_command(query_command)
main.add_command(groups_command)
main.add_command(scan_command)
main.add_command(dircmp_command)
main.add_command(experiments_command)
