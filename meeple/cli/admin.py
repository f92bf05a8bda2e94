"""``meeple backup`` and ``meeple restore``: the web platform's database into a file and back,
while it runs (see :mod:`meeple.server.backup`)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import typer
from rich.markup import escape

from meeple.cli import common
from meeple.cli.common import fail, handled
from meeple.engine.i18n import N_, words

_, _n = words(__file__)
commands = typer.Typer()
"""The commands of this module (``meeple.cli`` adds them to ``meeple``)."""
DB_HELP = N_("database URL (default: SQLite in ./meeple-data); postgresql+psycopg://...")


def _backups() -> ModuleType:
    """:mod:`meeple.server.backup`, or a one-line refusal where the web extra is missing."""
    try:
        from meeple.server import backup
    except ImportError as e:
        fail(_("the web platform needs the web extra: pip install 'meeple[web]' ({reason})",
               reason=str(e)))
        raise  # fail has exited
    return backup


def _database(db: str | None) -> str:
    """The database of ``--db``, else of the server's settings (``MEEPLE_DB``, the file of
    ``MEEPLE_CONFIG``), else the default SQLite file."""
    from meeple.server import settings
    from meeple.server.db import default_sqlite_url

    return settings.load(db=db).db or default_sqlite_url()


@commands.command(help=N_("Copy the web platform's database into a file, while it runs."))
@handled
def backup(
    out: Path = typer.Argument(..., metavar=N_("FILE"), help=N_("the backup file to write")),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Copy the web platform's database into a file."""
    backups = _backups()
    backups.backup(_database(db), out)
    common.console.print(escape(_("backup written to {file}", file=str(out))))


@commands.command(help=N_("Put a backup back into the web platform's database (stop its "
                          "servers first): what the database held is replaced."))
@handled
def restore(
    source: Path = typer.Argument(..., metavar=N_("FILE"), help=N_("the backup file to read")),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Put a backup back into the web platform's database."""
    backups = _backups()
    backups.restore(_database(db), source)
    common.console.print(escape(_("restored {file}", file=str(source))))
