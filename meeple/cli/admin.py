"""``meeple backup`` and ``meeple restore``: the web platform's database into a file and back,
while it runs (see :mod:`meeple.server.backup`); ``meeple admin grant`` and ``revoke``: who
are the web platform's operators (they suspend accounts, delete chat lines, close tables and
read reports)."""

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
operators = typer.Typer(help=N_("The web platform's operators: make a person one, or no "
                                "longer one."), no_args_is_help=True)
commands.add_typer(operators, name="admin")
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


def _set_operator(name: str, db: str | None, operator: bool) -> str:
    """Make the registered person ``name`` an operator (or no longer one); their name."""
    _backups()  # the web extra is there
    from meeple.server import auth
    from meeple.server.store import SqlStore

    store = SqlStore(_database(db))
    try:
        user = store.user_by_key(auth.name_key(name.strip())) if len(name) <= 64 else None
        if user is None or user.deleted is not None:
            fail(_("no player of that name: {name}", name=repr(name)))
            raise AssertionError  # fail has exited
        if user.guest:
            fail(_("{name} is a guest: only a registered player can be an operator",
                   name=user.name))
        store.set_operator(user.id, operator)
        return user.name
    finally:
        store.close()


@operators.command(help=N_("Make a registered player an operator of the web platform."))
@handled
def grant(
    name: str = typer.Argument(..., metavar=N_("NAME"), help=N_("the player's name")),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Make a person an operator."""
    shown = _set_operator(name, db, True)
    common.console.print(escape(_("{name} is an operator now", name=shown)))


@operators.command(help=N_("Make an operator of the web platform a player like any other."))
@handled
def revoke(
    name: str = typer.Argument(..., metavar=N_("NAME"), help=N_("the player's name")),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Make an operator no longer one."""
    shown = _set_operator(name, db, False)
    common.console.print(escape(_("{name} is no longer an operator", name=shown)))
