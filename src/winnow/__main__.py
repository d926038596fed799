"""``python -m winnow``: the same as the ``winnow`` command."""

from winnow.cli.main import run

run()
