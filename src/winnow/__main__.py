"""``python -m winnow``: the same as the ``winnow`` command."""

from winnow.cli import main

main()
