"""``python -m meeple.cli``: the ``meeple`` command."""

from meeple.cli import main

main()
