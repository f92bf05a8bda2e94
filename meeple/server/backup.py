"""Backups of the web platform's database, taken while it runs: PostgreSQL through
``pg_dump``/``pg_restore`` (of the server's own major version when the machine has it),
SQLite through its online backup API (a consistent copy, however busy the file is)."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from meeple.engine import MeepleError
from meeple.engine.i18n import words

_, _n = words(__file__)
PG_LIB = Path("/usr/lib/postgresql")


class BackupError(MeepleError):
    """A backup or a restore that could not be done, in words."""


def backup(url: str, out: Path) -> None:
    """Copy the database at ``url`` into the file ``out`` (made anew)."""
    out = Path(out)
    if _is_sqlite(url):
        with contextlib.closing(_sqlite(url, must_exist=True)) as source, \
                contextlib.closing(sqlite3.connect(out)) as target:
            source.backup(target)
        return
    _run(_pg_tool("pg_dump", url), "--format=custom", "--no-owner", "--no-privileges",
         "--file", str(out), "--dbname", _libpq(url))


def restore(url: str, source: Path) -> None:
    """Put the backup ``source`` into the database at ``url``, in place of what it holds.
    The servers on that database should be stopped first."""
    source = Path(source)
    if not source.is_file():
        raise BackupError(_("there is no backup {file}", file=str(source)))
    if _is_sqlite(url):
        with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as held, \
                contextlib.closing(_sqlite(url, must_exist=False)) as target:
            try:
                held.backup(target)
            except sqlite3.DatabaseError as e:
                raise BackupError(_("{file} is not a backup of a SQLite database",
                                    file=str(source))) from e
        return
    _run(_pg_tool("pg_restore", url), "--clean", "--if-exists", "--no-owner",
         "--no-privileges", "--single-transaction", "--exit-on-error", "--dbname", _libpq(url),
         str(source))


def _is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite(url: str, must_exist: bool) -> sqlite3.Connection:
    path = make_url(url).database
    if not path or path == ":memory:":
        raise BackupError(_("a backup needs a database in a file"))
    if must_exist and not Path(path).is_file():
        raise BackupError(_("there is no database {file}", file=path))
    return sqlite3.connect(path, timeout=30)


def _libpq(url: str) -> str:
    """The URL as PostgreSQL's own tools read it (no driver name)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _pg_tool(name: str, url: str) -> str:
    """``pg_dump``/``pg_restore`` of the database server's major version where the machine
    has it (an older one refuses a newer server), else the one on the path."""
    major = _server_major(url)
    own = PG_LIB / str(major) / "bin" / name
    if own.is_file():
        return str(own)
    found = shutil.which(name)
    if found is None:
        raise BackupError(_("{tool} is not installed: install the PostgreSQL client of the "
                            "server's version (apt install postgresql-client-{major})",
                            tool=name, major=major))
    return found


def _server_major(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            number = int(conn.exec_driver_sql("SHOW server_version_num").scalar_one())
    except Exception as e:
        raise BackupError(_("cannot reach the database: {reason}",
                            reason=str(e).splitlines()[0])) from e
    finally:
        engine.dispose()
    return number // 10000


def _run(tool: str, *args: str) -> None:
    done = subprocess.run([tool, *args], capture_output=True, text=True)
    if done.returncode != 0:
        lines = [x for x in done.stderr.splitlines() if x.strip()]
        raise BackupError(_("{tool} failed: {reason}", tool=Path(tool).name,
                            reason=lines[-1] if lines else str(done.returncode)))
