"""Storage: the tables of the web platform (SQLAlchemy 2) and opening a database with its
migrations applied.

SQLite (the default, a file in WAL mode) and PostgreSQL (``postgresql+psycopg://...``) are
supported. Every accepted move is one row of ``moves``; a table's state is rebuilt by replaying
them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    false,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .domain import Visibility

MIGRATIONS = Path(__file__).parent / "migrations"
BUSY_TIMEOUT_MS = 30_000
TRUNCATE_WAIT_MS = 250
WAL_LIMIT = 16 << 20
"""SQLite: the write-ahead log is truncated once a checkpoint finds it larger (bytes)."""
MIGRATION_LOCK = 0x6D6565706C65
"""The PostgreSQL advisory lock held while the migrations are applied ("meeple")."""


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class Setting(Base):
    """Server-wide values shared by every process (the cookie signing secret)."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class User(Base):
    """A player: registered (with a password hash) or a guest (a name only)."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    name_key: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float)
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)
    operator: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the person moderates (``meeple admin grant``)."""
    suspended: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When an operator suspended the account (``None``: it is not)."""
    deleted: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the person deleted their account (its games stay, under "deleted player")."""


class SessionRow(Base):
    """A signed-in browser: the hash of the id its cookie carries, whose it is, and whether
    it was ended (logged out)."""

    __tablename__ = "sessions"
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created: Mapped[float] = mapped_column(Float)
    last_seen: Mapped[float] = mapped_column(Float)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


class TableRow(Base):
    """A table: one game with its options, seats, clock, status and result."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    visibility: Mapped[str] = mapped_column(String(16), default=Visibility.PUBLIC.value)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True,
                                                 index=True)
    invite_code: Mapped[str] = mapped_column(String(40))
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[float] = mapped_column(Float)
    started: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[list[int]] = mapped_column(JSON, default=list)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    autostart: Mapped[bool] = mapped_column(Boolean, default=False)


class SeatRow(Base):
    """One seat of a table: open, a person (user and hashed seat token) or a bot."""

    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # a SeatKind
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    name: Mapped[str | None] = mapped_column(String(60), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    clock_remaining: Mapped[float | None] = mapped_column(Float, nullable=True)
    turn_started: Mapped[float | None] = mapped_column(Float, nullable=True)


class MoveRow(Base):
    """One accepted move: its number in the table, the player (-1: chance), id and notation.

    The primary key (table, number) makes sure a move number is taken only once, even with
    several server processes on one database.
    """

    __tablename__ = "moves"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(200))
    created: Mapped[float] = mapped_column(Float)


def default_sqlite_url(data_dir: Path | None = None) -> str:
    """The default database: ``meeple.db`` in ``data_dir`` (``./meeple-data``)."""
    d = Path(data_dir) if data_dir is not None else Path("meeple-data")
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(d / 'meeple.db').resolve()}"


def open_database(url: str, migrate: bool = True) -> Engine:
    """An engine on ``url`` (SQLite in WAL mode), with the migrations applied."""
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
            pool_size=8,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # noqa: ANN001
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            # Checkpoints (which fsync) run in a background thread (see checkpoint), not in the
            # commit of whichever move happens to fill the log.
            cur.execute("PRAGMA wal_autocheckpoint=0")
            # a log reset by a checkpoint is cut back to this size, not kept at its largest
            cur.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            cur.close()

    else:
        engine = create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    if migrate:
        upgrade(engine)
    return engine


def upgrade(engine: Engine) -> None:
    """Apply the Alembic migrations up to the newest (every branch of them). On PostgreSQL
    one process at a time does (the others wait, then find nothing left to do), so that
    several servers can start together on a new database."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "heads")


def checkpoint(engine: Engine, mode: str = "PASSIVE", limit: int = WAL_LIMIT) -> None:
    """Copy SQLite's write-ahead log into the database file (nothing to do elsewhere).

    A passive checkpoint never waits, but while readers keep using the log it can never start
    it again from the beginning, so under steady reads and writes the log only grows. When it
    is larger than ``limit`` the checkpoint waits for the readers of the moment (new ones
    wait a moment for it) and truncates the log."""
    if engine.dialect.name != "sqlite":
        return
    if mode not in ("PASSIVE", "FULL", "RESTART", "TRUNCATE"):
        raise ValueError(f"no checkpoint mode {mode!r}")
    with engine.connect() as conn:  # each answer read at once: no statement stays open
        conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})").all()
        if mode == "PASSIVE" and _wal_size(engine) > limit:
            # wait for readers a moment only: a writer waits while this waits
            conn.exec_driver_sql(f"PRAGMA busy_timeout={TRUNCATE_WAIT_MS}").all()
            try:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").all()
            finally:
                conn.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}").all()


def _wal_size(engine: Engine) -> int:
    database = engine.url.database
    if not database or database == ":memory:":
        return 0
    try:
        return Path(database + "-wal").stat().st_size
    except OSError:
        return 0
