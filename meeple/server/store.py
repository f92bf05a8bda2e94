"""Storage behind the table service: the ``Store`` protocol and its two implementations, the
SQL store (SQLAlchemy on today's schema, SQLite or PostgreSQL) and an in-memory store (tests,
throwaway servers).

Only this module reads and writes the database. Every write of play (``commit``) is one
transaction: the new moves, the table's progress and the seats' clocks together.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any, Protocol, cast

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Connection,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    bindparam,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .db import (
    WAL_LIMIT,
    Base,
    MoveRow,
    SeatRow,
    SessionRow,
    Setting,
    TableRow,
    User,
    checkpoint,
    open_database,
)
from .domain import (
    CREATE_KEY_WINDOW,
    DELETED_NAME,
    Change,
    Move,
    Seat,
    SeatKind,
    StoredTable,
    TableMeta,
    TableStatus,
    UserRecord,
    Visibility,
    deleted_key,
    shown_seat_name,
)

META_FIELDS = frozenset(f.name for f in fields(TableMeta))
LIFE_FIELDS = frozenset({"rated", "departed", "undos"})
"""The table fields kept in ``table_life`` (migration ``0003_table_life``)."""
ROW_FIELDS = META_FIELDS - LIFE_FIELDS
SEAT_HOLDER = ("kind", "user_id", "name", "bot", "token_hash")
"""The seat columns a change of who sits there writes (the clock columns belong to play)."""


Mine = tuple[StoredTable, list[int]]
"""A table and the seats one player holds there."""


class Conflict(Exception):
    """Another writer got there first: the move number is taken, or the seat no longer open."""


class Store(Protocol):
    """Where tables, seats, moves and players are kept."""

    def secret(self) -> str:
        """The cookie signing secret, shared by every process on this storage."""
        ...

    # players
    def add_user(self, name: str, name_key: str, password_hash: str | None,
                 guest: bool) -> UserRecord | None:
        """A new player, or ``None`` if the name is taken."""
        ...

    def user(self, user_id: int) -> UserRecord | None: ...

    def user_by_key(self, name_key: str) -> UserRecord | None: ...

    def set_language(self, user_id: int, lang: str | None) -> None:
        """Keep the language a player chose (``None``: none)."""
        ...

    def rename_user(self, user_id: int, name: str, name_key: str) -> bool:
        """Give a player a new name (also in the seats they hold under their old name, not
        the hot-seat seats they named for others); whether it was free."""
        ...

    def set_operator(self, user_id: int, operator: bool) -> None:
        """Make a person an operator, or no longer one."""
        ...

    def suspend(self, user_id: int, when: float | None) -> None:
        """Suspend an account from ``when`` (``None``: lift the suspension)."""
        ...

    def delete_user(self, user_id: int, when: float) -> None:
        """Delete an account: its name, password and language go (the name becomes
        :func:`~meeple.server.domain.deleted_key`), every seat it held is shown as
        :data:`~meeple.server.domain.DELETED_NAME`; the row stays for the games."""
        ...

    # sessions
    def add_session(self, id_hash: str, user_id: int, now: float) -> None: ...

    def session_user(self, id_hash: str, oldest: float) -> tuple[int, float] | None:
        """The user and last use of a live session created after ``oldest``."""
        ...

    def touch_session(self, id_hash: str, now: float) -> None: ...

    def end_sessions(self, *, id_hash: str | None = None, user_id: int | None = None) -> int:
        """End one session, or every session of a user; how many were ended."""
        ...

    # tables
    def table_id_free(self, table_id: str) -> bool: ...

    def add_table(self, meta: TableMeta, seats: Sequence[Seat], key: str | None = None) -> None:
        """Store a new table with its seats; with a request ``key`` of its owner, only if no
        table of theirs made with that key in the last few minutes exists (else
        :class:`Conflict`)."""
        ...

    def table(self, table_id: str) -> StoredTable | None: ...

    def moves(self, table_id: str, since: int = 0) -> list[Move]:
        """The table's moves numbered ``since`` and later, in order."""
        ...

    def update_table(self, table_id: str, values: Mapping[str, Any]) -> None:
        """Set some fields of a table's meta (names as in :class:`TableMeta`)."""
        ...

    def update_seat(self, table_id: str, seat: Seat, *, if_open: bool = False) -> bool:
        """Store who sits in ``seat`` (its holder columns); with ``if_open`` only if the seat is
        still open. Whether it was written."""
        ...

    def commit(self, table_id: str, change: Change) -> None:
        """Store one step of play in one transaction; :class:`Conflict` if a move number is
        taken already."""
        ...

    def finish(self, table_id: str, finished: float, result: dict[str, Any]) -> bool:
        """End a running table now with ``result`` (a forfeit); whether it was running."""
        ...

    def depart(self, table_id: str, departed: list[dict[str, Any]], seat: Seat | None,
               finished: float | None, result: dict[str, Any] | None) -> bool:
        """In one transaction: store who left a running game (``departed``, the whole list),
        the new holder of ``seat`` (a bot that plays on) and, with ``result``, the end of the
        game. Whether the table was running."""
        ...

    def end(self, table_id: str, status: TableStatus, when: float,
            was: Sequence[TableStatus]) -> bool:
        """End a table without a result (aborted, abandoned) if its status is one of
        ``was``; whether it was."""
        ...

    def undo(self, table_id: str, count: int, change: Change) -> None:
        """Take back the moves numbered ``change.move_count`` and later of a table that has
        ``count`` moves, with the table's progress and clocks, in one transaction (and count
        one more undo); :class:`Conflict` if the table no longer has ``count`` moves."""
        ...

    def keyed_table(self, user_id: int, key: str, since: float) -> str | None:
        """The table ``user_id`` created with request ``key`` after ``since``, if any."""
        ...

    # lists
    def running_ids(self) -> list[str]: ...

    def public_tables(self, status: TableStatus | None, game: str | None,
                      limit: int = 100) -> list[StoredTable]:
        """Public tables, newest first."""
        ...

    def tables_of(self, user_id: int, statuses: Sequence[TableStatus], *,
                  newest: str = "created", limit: int = 1000) -> list[Mine]:
        """The tables where ``user_id`` sits, with its seats, newest first by ``newest``
        (``"created"`` or ``"finished"``)."""
        ...

    def owned_open(self, *user_ids: int) -> dict[str, list[Seat]]:
        """The waiting and running tables the people ``user_ids`` own (for the quotas): each
        table's id with its seats (kind, person and bot spec only)."""
        ...

    def turn_count(self, user_id: int) -> int:
        """How many running tables wait for ``user_id`` to act in a seat they hold as a
        person."""
        ...

    def waiting_full_ids(self) -> list[str]:
        """Waiting tables set to start when full whose seats are all taken (a start that a
        crash interrupted)."""
        ...

    # upkeep
    def checkpoint(self, mode: str = "PASSIVE") -> None: ...

    def close(self) -> None: ...

    @property
    def background_checkpoints(self) -> bool:
        """Whether ``checkpoint`` should run every few seconds."""
        ...

    @property
    def offload(self) -> bool:
        """Whether play's writes and catching up should run in worker threads, off the event
        loop: they wait for a database server (PostgreSQL's commit waits for its log to reach
        the disk). SQLite's (no wait: its log is synced at checkpoints, in the background)
        and the memory store's are quicker done in place."""
        ...


# ---------------------------------------------------------------------- SQL
MOVES = cast(Table, MoveRow.__table__)
TABLES = cast(Table, TableRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
SESSIONS = cast(Table, SessionRow.__table__)
UPDATE_TABLE = (
    TABLES.update()
    .where(TABLES.c.id == bindparam("tid"))
    .values(
        move_count=bindparam("move_count"),
        to_move=bindparam("to_move"),
        status=bindparam("status"),
        started=bindparam("started"),
        finished=bindparam("finished"),
        result=bindparam("result"),
    )
)
UPDATE_TABLE_CHECKED = UPDATE_TABLE.where(TABLES.c.move_count == bindparam("before"),
                                          TABLES.c.status == bindparam("was"))
"""``UPDATE_TABLE`` only where the table is as the step found it (``Change.before``)."""
SQLITE_PROGRESS = ("UPDATE tables SET move_count = ?, to_move = ?, status = ?, started = ?, "
                   "finished = ?, result = ? WHERE id = ?")
SQLITE_MOVE = ("INSERT INTO moves (table_id, n, player, action, notation, created) "
               "VALUES (?, ?, ?, ?, ?, ?)")
SQLITE_CLOCK = ("UPDATE seats SET clock_remaining = ?, turn_started = ? "
                "WHERE table_id = ? AND seat = ?")
"""``commit``'s statements as SQLite's own driver runs them (the same rows as through
SQLAlchemy, a third of the time: every move of a server on SQLite is written on its event
loop)."""
UPDATE_SEAT_CLOCK = (
    SEATS.update()
    .where(SEATS.c.table_id == bindparam("tid"), SEATS.c.seat == bindparam("s"))
    .values(clock_remaining=bindparam("clock_remaining"), turn_started=bindparam("turn_started"))
)


LIFE = Table(
    "table_life", Base.metadata,
    Column("table_id", String(16), ForeignKey("tables.id"), primary_key=True),
    Column("rated", Boolean, nullable=False),
    Column("departed", JSON, nullable=False),
    Column("undos", Integer, nullable=False),
)
"""A table's life (migration ``0003_table_life``): rated, who left the game, moves undone."""
KEYS = Table(
    "create_keys", Base.metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("key", String(100), primary_key=True),
    Column("table_id", String(16), ForeignKey("tables.id"), nullable=False),
    Column("created", Float, nullable=False),
)
"""The request keys of new tables (creating again with one answers the first table)."""


def _set_life(conn: Connection | Session, table_id: str, values: Mapping[str, Any]) -> None:
    """Write some of a table's life fields (the row is made if the table has none yet)."""
    res = conn.execute(LIFE.update().where(LIFE.c.table_id == table_id).values(dict(values)))
    if getattr(res, "rowcount", 0) == 0:
        row = {"table_id": table_id, "rated": False, "departed": [], "undos": 0, **values}
        conn.execute(LIFE.insert().values(row))


def _plain(value: Any) -> Any:
    """Enum members as their plain stored values (every database driver takes those)."""
    return value.value if isinstance(value, (TableStatus, SeatKind, Visibility)) else value


def _meta(row: TableRow, life: Any = None) -> TableMeta:
    return TableMeta(
        rated=bool(life.rated) if life is not None else False,
        departed=list(life.departed or []) if life is not None else [],
        undos=int(life.undos) if life is not None else 0,
        id=row.id, game=row.game, players=row.players, options=row.options,
        owner_id=row.owner_id, invite_code=row.invite_code, created=row.created,
        status=TableStatus(row.status), visibility=Visibility(row.visibility),
        clock=row.clock, started=row.started, finished=row.finished,
        move_count=row.move_count, to_move=list(row.to_move or []), result=row.result,
        rematch_id=row.rematch_id, autostart=bool(row.autostart),
    )


def _seat(row: SeatRow) -> Seat:
    seat = Seat(
        seat=row.seat, kind=SeatKind(row.kind), user_id=row.user_id, name=row.name,
        bot=row.bot, token_hash=row.token_hash, clock_remaining=row.clock_remaining,
        turn_started=row.turn_started,
    )
    seat.name = shown_seat_name(seat)
    return seat


def _owner_name(owner: User | UserRecord | None) -> str | None:
    """A table's owner's name as stored with it (a deleted account's: "deleted player")."""
    if owner is None:
        return None
    return DELETED_NAME if owner.deleted is not None else owner.name


def _user(row: User) -> UserRecord:
    return UserRecord(id=row.id, name=row.name, name_key=row.name_key,
                      password_hash=row.password_hash, guest=row.guest, created=row.created,
                      lang=row.lang, operator=bool(row.operator), suspended=row.suspended,
                      deleted=row.deleted)


class SqlStore:
    """The tables in a SQL database (SQLite in WAL mode or PostgreSQL), migrations applied."""

    def __init__(self, url: str, wal_limit: int = WAL_LIMIT):
        self.engine: Engine = open_database(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.wal_limit = wal_limit
        """SQLite: the write-ahead log is truncated once a checkpoint finds it larger."""

    @property
    def background_checkpoints(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @property
    def offload(self) -> bool:
        return self.engine.dialect.name != "sqlite"

    def secret(self) -> str:
        with self.sessions() as db:
            row = db.get(Setting, "session_secret")
            if row is not None:
                return row.value
            db.add(Setting(key="session_secret", value=secrets.token_urlsafe(48)))
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
            stored = db.get(Setting, "session_secret")
            assert stored is not None
            return stored.value

    # players
    def add_user(self, name: str, name_key: str, password_hash: str | None,
                 guest: bool) -> UserRecord | None:
        with self.sessions() as db:
            row = User(name=name, name_key=name_key, password_hash=password_hash, guest=guest,
                       created=time.time())
            db.add(row)
            try:
                db.commit()
            except IntegrityError:
                return None
            return _user(row)

    def user(self, user_id: int) -> UserRecord | None:
        with self.sessions() as db:
            row = db.get(User, user_id)
            return _user(row) if row is not None else None

    def user_by_key(self, name_key: str) -> UserRecord | None:
        with self.sessions() as db:
            row = db.scalar(select(User).where(User.name_key == name_key))
            return _user(row) if row is not None else None

    def set_language(self, user_id: int, lang: str | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(User).where(User.id == user_id).values(lang=lang))

    def rename_user(self, user_id: int, name: str, name_key: str) -> bool:
        try:
            with self.engine.begin() as conn:
                old = conn.execute(select(User.name).where(User.id == user_id)).scalar()
                conn.execute(update(User).where(User.id == user_id)
                             .values(name=name, name_key=name_key))
                conn.execute(update(SeatRow).where(SeatRow.user_id == user_id,
                                                   SeatRow.name == old).values(name=name))
        except IntegrityError:
            return False
        return True

    def set_operator(self, user_id: int, operator: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(User).where(User.id == user_id).values(operator=operator))

    def suspend(self, user_id: int, when: float | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(User).where(User.id == user_id).values(suspended=when))

    def delete_user(self, user_id: int, when: float) -> None:
        key = deleted_key(user_id)
        with self.engine.begin() as conn:
            conn.execute(update(User).where(User.id == user_id).values(
                name=key, name_key=key, password_hash=None, lang=None, operator=False,
                deleted=when))
            conn.execute(update(SeatRow).where(SeatRow.user_id == user_id)
                         .values(name=DELETED_NAME))

    # sessions
    def add_session(self, id_hash: str, user_id: int, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(SESSIONS.insert().values(id_hash=id_hash, user_id=user_id,
                                                  created=now, last_seen=now, revoked=False))

    def session_user(self, id_hash: str, oldest: float) -> tuple[int, float] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(SESSIONS.c.user_id, SESSIONS.c.last_seen).where(
                SESSIONS.c.id_hash == id_hash, SESSIONS.c.revoked.is_(False),
                SESSIONS.c.created > oldest)).first()
        return (int(row[0]), float(row[1])) if row is not None else None

    def touch_session(self, id_hash: str, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(SESSIONS.update().where(SESSIONS.c.id_hash == id_hash)
                         .values(last_seen=now))

    def end_sessions(self, *, id_hash: str | None = None, user_id: int | None = None) -> int:
        q = SESSIONS.update().where(SESSIONS.c.revoked.is_(False))
        if id_hash is not None:
            q = q.where(SESSIONS.c.id_hash == id_hash)
        elif user_id is not None:
            q = q.where(SESSIONS.c.user_id == user_id)
        else:
            return 0
        with self.engine.begin() as conn:
            return conn.execute(q.values(revoked=True)).rowcount

    # tables
    def table_id_free(self, table_id: str) -> bool:
        with self.sessions() as db:
            return db.get(TableRow, table_id) is None

    def add_table(self, meta: TableMeta, seats: Sequence[Seat], key: str | None = None) -> None:
        with self.sessions() as db:
            db.add(TableRow(**{k: _plain(getattr(meta, k)) for k in ROW_FIELDS}))
            db.flush()
            for s in seats:
                db.add(SeatRow(table_id=meta.id, **{k: _plain(v) for k, v in vars(s).items()}))
            db.execute(LIFE.insert().values(table_id=meta.id, rated=meta.rated,
                                            departed=list(meta.departed), undos=meta.undos))
            try:
                if key is not None and meta.owner_id is not None:
                    db.execute(KEYS.delete().where(
                        KEYS.c.user_id == meta.owner_id, KEYS.c.key == key,
                        KEYS.c.created < meta.created - CREATE_KEY_WINDOW))
                    db.execute(KEYS.insert().values(user_id=meta.owner_id, key=key,
                                                    table_id=meta.id, created=meta.created))
                db.commit()
            except IntegrityError:
                db.rollback()
                raise Conflict("a table was made with this request key already") from None

    def keyed_table(self, user_id: int, key: str, since: float) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(KEYS.c.table_id).where(
                KEYS.c.user_id == user_id, KEYS.c.key == key, KEYS.c.created >= since)).first()
        return str(found[0]) if found is not None else None

    def _stored(self, db: Session, row: TableRow) -> StoredTable:
        seats = db.scalars(
            select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)
        ).all()
        owner = db.get(User, row.owner_id) if row.owner_id is not None else None
        life = db.execute(select(LIFE).where(LIFE.c.table_id == row.id)).first()
        return StoredTable(_meta(row, life), [_seat(s) for s in seats], _owner_name(owner))

    def table(self, table_id: str) -> StoredTable | None:
        with self.sessions() as db:
            row = db.get(TableRow, table_id)
            return self._stored(db, row) if row is not None else None

    def moves(self, table_id: str, since: int = 0) -> list[Move]:
        with self.sessions() as db:
            rows = db.scalars(
                select(MoveRow)
                .where(MoveRow.table_id == table_id, MoveRow.n >= since)
                .order_by(MoveRow.n)
            ).all()
            return [Move(m.n, m.player, m.action, m.notation, m.created) for m in rows]

    def update_table(self, table_id: str, values: Mapping[str, Any]) -> None:
        unknown = set(values) - META_FIELDS
        if unknown:
            raise ValueError(f"no table fields {sorted(unknown)}")
        row = {k: _plain(v) for k, v in values.items() if k not in LIFE_FIELDS}
        life = {k: v for k, v in values.items() if k in LIFE_FIELDS}
        with self.engine.begin() as conn:
            if row:
                conn.execute(TABLES.update().where(TABLES.c.id == table_id).values(row))
            if life:
                _set_life(conn, table_id, life)

    def update_seat(self, table_id: str, seat: Seat, *, if_open: bool = False) -> bool:
        q = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat.seat)
        if if_open:
            q = q.where(SeatRow.kind == SeatKind.OPEN.value)
        with self.engine.begin() as conn:
            res = conn.execute(q.values({k: _plain(getattr(seat, k)) for k in SEAT_HOLDER}))
            return res.rowcount == 1

    def commit(self, table_id: str, change: Change) -> None:
        if self.engine.dialect.name == "sqlite":
            self._commit_sqlite(table_id, change)
            return
        progress = {
            "tid": table_id, "move_count": change.move_count,
            "to_move": change.to_move, "status": change.status.value,
            "started": change.started, "finished": change.finished,
            "result": change.result,
        }
        try:
            with self.engine.begin() as conn:  # Core, fixed statements: one short transaction
                if change.before is not None:  # first: another writer of the table waits here
                    res = conn.execute(UPDATE_TABLE_CHECKED, {
                        **progress, "before": change.before,
                        "was": (change.was or change.status).value})
                    if res.rowcount != 1:
                        raise Conflict("the table changed since the step was worked out")
                if change.moves:
                    conn.execute(
                        MOVES.insert(),
                        [{"table_id": table_id, "n": m.n, "player": m.player,
                          "action": m.action, "notation": m.notation[:200],
                          "created": m.created} for m in change.moves],
                    )
                if change.before is None:
                    conn.execute(UPDATE_TABLE, progress)
                if change.clocks:
                    conn.execute(UPDATE_SEAT_CLOCK, [
                        {"tid": table_id, "s": seat, "clock_remaining": rem,
                         "turn_started": started}
                        for seat, (rem, started) in change.clocks.items()
                    ])
        except IntegrityError:
            raise Conflict("another move was stored first") from None

    def _commit_sqlite(self, table_id: str, change: Change) -> None:
        """:meth:`commit` through the driver: one transaction, the table's row first (checked
        as ``Change.before`` says), then the moves and the seats' clocks."""
        raw = self.engine.raw_connection()
        try:
            cur = raw.cursor()
            try:
                progress = (change.move_count, json.dumps(change.to_move), change.status.value,
                            change.started, change.finished, json.dumps(change.result), table_id)
                if change.before is not None:
                    cur.execute(SQLITE_PROGRESS + " AND move_count = ? AND status = ?", (
                        *progress, change.before, (change.was or change.status).value))
                else:
                    cur.execute(SQLITE_PROGRESS, progress)
                if cur.rowcount != 1 and change.before is not None:
                    raise Conflict("the table changed since the step was worked out")
                if change.moves:
                    cur.executemany(SQLITE_MOVE, [
                        (table_id, m.n, m.player, m.action, m.notation[:200], m.created)
                        for m in change.moves])
                if change.clocks:
                    cur.executemany(SQLITE_CLOCK, [
                        (rem, started, table_id, seat)
                        for seat, (rem, started) in change.clocks.items()])
            finally:
                cur.close()
            raw.commit()
        except sqlite3.IntegrityError:
            raw.rollback()
            raise Conflict("another move was stored first") from None
        except BaseException:
            raw.rollback()
            raise
        finally:
            raw.close()  # back to the pool

    def finish(self, table_id: str, finished: float, result: dict[str, Any]) -> bool:
        with self.engine.begin() as conn:
            res = conn.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == TableStatus.RUNNING.value)
                .values(status=TableStatus.FINISHED.value, finished=finished, result=result,
                        to_move=[])
            )
            return res.rowcount == 1

    def depart(self, table_id: str, departed: list[dict[str, Any]], seat: Seat | None,
               finished: float | None, result: dict[str, Any] | None) -> bool:
        running = TableStatus.RUNNING.value
        values: dict[str, Any] = {"status": running}
        if result is not None:
            values = {"status": TableStatus.FINISHED.value, "finished": finished,
                      "result": result, "to_move": []}
        with self.engine.begin() as conn:
            res = conn.execute(TABLES.update().where(TABLES.c.id == table_id,
                                                     TABLES.c.status == running).values(values))
            if res.rowcount != 1:
                return False
            _set_life(conn, table_id, {"departed": departed})
            if seat is not None:
                conn.execute(update(SeatRow).where(
                    SeatRow.table_id == table_id, SeatRow.seat == seat.seat,
                ).values({k: _plain(getattr(seat, k)) for k in SEAT_HOLDER}))
        return True

    def end(self, table_id: str, status: TableStatus, when: float,
            was: Sequence[TableStatus]) -> bool:
        with self.engine.begin() as conn:
            res = conn.execute(TABLES.update().where(
                TABLES.c.id == table_id, TABLES.c.status.in_([s.value for s in was]),
            ).values(status=status.value, finished=when, to_move=[]))
            return res.rowcount == 1

    def undo(self, table_id: str, count: int, change: Change) -> None:
        with self.engine.begin() as conn:
            res = conn.execute(TABLES.update().where(
                TABLES.c.id == table_id, TABLES.c.move_count == count,
                TABLES.c.status == TableStatus.RUNNING.value,
            ).values(move_count=change.move_count, to_move=change.to_move))
            if res.rowcount != 1:
                raise Conflict("another move was stored first")
            conn.execute(MOVES.delete().where(MOVES.c.table_id == table_id,
                                              MOVES.c.n >= change.move_count))
            undos = conn.execute(select(LIFE.c.undos).where(LIFE.c.table_id == table_id)).first()
            _set_life(conn, table_id, {"undos": (int(undos[0]) if undos else 0) + 1})
            if change.clocks:
                conn.execute(UPDATE_SEAT_CLOCK, [
                    {"tid": table_id, "s": seat, "clock_remaining": rem, "turn_started": started}
                    for seat, (rem, started) in change.clocks.items()
                ])

    # lists
    def running_ids(self) -> list[str]:
        with self.sessions() as db:
            return list(db.scalars(
                select(TableRow.id).where(TableRow.status == TableStatus.RUNNING.value)
            ).all())

    def public_tables(self, status: TableStatus | None, game: str | None,
                      limit: int = 100) -> list[StoredTable]:
        with self.sessions() as db:
            q = select(TableRow).where(TableRow.visibility == Visibility.PUBLIC.value)
            if status:
                q = q.where(TableRow.status == status.value)
            if game:
                q = q.where(TableRow.game == game)
            rows = db.scalars(q.order_by(TableRow.created.desc()).limit(limit)).all()
            return [self._stored(db, r) for r in rows]

    def tables_of(self, user_id: int, statuses: Sequence[TableStatus], *,
                  newest: str = "created", limit: int = 1000) -> list[Mine]:
        with self.sessions() as db:
            mine: dict[str, list[int]] = {}
            for s in db.scalars(select(SeatRow).where(SeatRow.user_id == user_id)).all():
                mine.setdefault(s.table_id, []).append(s.seat)
            if not mine:
                return []
            order = TableRow.finished if newest == "finished" else TableRow.created
            rows = db.scalars(
                select(TableRow)
                .where(TableRow.id.in_(list(mine)),
                       TableRow.status.in_([s.value for s in statuses]))
                .order_by(order.desc())
                .limit(limit)
            ).all()
            return [(self._stored(db, r), sorted(mine[r.id])) for r in rows]

    def turn_count(self, user_id: int) -> int:
        with self.engine.connect() as conn:  # one query, however many tables they have
            rows = conn.execute(
                select(SEATS.c.table_id, SEATS.c.seat, TABLES.c.to_move)
                .join(TABLES, TABLES.c.id == SEATS.c.table_id)
                .where(SEATS.c.user_id == user_id, SEATS.c.kind == SeatKind.HUMAN.value,
                       TABLES.c.status == TableStatus.RUNNING.value)
            ).all()
        return len({tid for tid, seat, to_move in rows if seat in (to_move or [])})

    def owned_open(self, *user_ids: int) -> dict[str, list[Seat]]:
        with self.engine.connect() as conn:  # one query, however many tables they have
            rows = conn.execute(
                select(TABLES.c.id, SEATS.c.seat, SEATS.c.kind, SEATS.c.user_id, SEATS.c.bot)
                .join(SEATS, SEATS.c.table_id == TABLES.c.id, isouter=True)
                .where(TABLES.c.owner_id.in_(user_ids),
                       TABLES.c.status.in_([TableStatus.WAITING.value,
                                            TableStatus.RUNNING.value]))
            ).all()
        out: dict[str, list[Seat]] = {}
        for tid, seat, kind, uid, bot in rows:
            seats = out.setdefault(tid, [])
            if kind is not None:
                seats.append(Seat(seat, SeatKind(kind), user_id=uid, bot=bot))
        return out

    def waiting_full_ids(self) -> list[str]:
        with self.sessions() as db:
            waiting = list(db.scalars(select(TableRow.id).where(
                TableRow.status == TableStatus.WAITING.value, TableRow.autostart.is_(True),
            )).all())
            if not waiting:
                return []
            open_ = set(db.scalars(select(SeatRow.table_id).where(
                SeatRow.table_id.in_(waiting), SeatRow.kind == SeatKind.OPEN.value)).all())
            return [t for t in waiting if t not in open_]

    # upkeep
    def checkpoint(self, mode: str = "PASSIVE") -> None:
        checkpoint(self.engine, mode, self.wal_limit)

    def close(self) -> None:
        self.engine.dispose()


# ---------------------------------------------------------------------- memory
class MemoryStore:
    """Everything in this process's memory: the same behaviour as the SQL store, no database."""

    background_checkpoints = False
    offload = False

    def __init__(self) -> None:
        self._secret = secrets.token_urlsafe(48)
        self._users: dict[int, UserRecord] = {}
        self._tables: dict[str, TableMeta] = {}
        self._seats: dict[str, list[Seat]] = {}
        self._moves: dict[str, list[Move]] = {}
        self._sessions: dict[str, list[Any]] = {}  # id hash -> [user, created, seen, ended]
        self._keys: dict[tuple[int, str], tuple[str, float]] = {}  # -> (table, created)

    def secret(self) -> str:
        return self._secret

    def add_user(self, name: str, name_key: str, password_hash: str | None,
                 guest: bool) -> UserRecord | None:
        if any(u.name == name or u.name_key == name_key for u in self._users.values()):
            return None
        user = UserRecord(len(self._users) + 1, name, name_key, password_hash, guest,
                          time.time())
        self._users[user.id] = user
        return user

    def user(self, user_id: int) -> UserRecord | None:
        return self._users.get(user_id)

    def user_by_key(self, name_key: str) -> UserRecord | None:
        return next((u for u in self._users.values() if u.name_key == name_key), None)

    def set_language(self, user_id: int, lang: str | None) -> None:
        if user_id in self._users:
            self._users[user_id] = replace(self._users[user_id], lang=lang)

    def rename_user(self, user_id: int, name: str, name_key: str) -> bool:
        if any(u.id != user_id and (u.name == name or u.name_key == name_key)
               for u in self._users.values()) or user_id not in self._users:
            return False
        old = self._users[user_id].name
        self._users[user_id] = replace(self._users[user_id], name=name, name_key=name_key)
        for seats in self._seats.values():
            for i, seat in enumerate(seats):
                if seat.user_id == user_id and seat.name == old:
                    seats[i] = replace(seat, name=name)
        return True

    def set_operator(self, user_id: int, operator: bool) -> None:
        if user_id in self._users:
            self._users[user_id] = replace(self._users[user_id], operator=operator)

    def suspend(self, user_id: int, when: float | None) -> None:
        if user_id in self._users:
            self._users[user_id] = replace(self._users[user_id], suspended=when)

    def delete_user(self, user_id: int, when: float) -> None:
        if user_id not in self._users:
            return
        key = deleted_key(user_id)
        self._users[user_id] = replace(self._users[user_id], name=key, name_key=key,
                                       password_hash=None, lang=None, operator=False,
                                       deleted=when)
        for seats in self._seats.values():
            for i, seat in enumerate(seats):
                if seat.user_id == user_id:
                    seats[i] = replace(seat, name=DELETED_NAME)

    def add_session(self, id_hash: str, user_id: int, now: float) -> None:
        self._sessions[id_hash] = [user_id, now, now, False]

    def session_user(self, id_hash: str, oldest: float) -> tuple[int, float] | None:
        row = self._sessions.get(id_hash)
        if row is None or row[3] or row[1] <= oldest:
            return None
        return int(row[0]), float(row[2])

    def touch_session(self, id_hash: str, now: float) -> None:
        if id_hash in self._sessions:
            self._sessions[id_hash][2] = now

    def end_sessions(self, *, id_hash: str | None = None, user_id: int | None = None) -> int:
        ended = 0
        for h, row in self._sessions.items():
            if not row[3] and (h == id_hash if id_hash is not None else
                               user_id is not None and row[0] == user_id):
                row[3] = True
                ended += 1
        return ended

    def table_id_free(self, table_id: str) -> bool:
        return table_id not in self._tables

    def add_table(self, meta: TableMeta, seats: Sequence[Seat], key: str | None = None) -> None:
        if meta.id in self._tables:
            raise Conflict(f"table {meta.id} exists")
        if key is not None and meta.owner_id is not None:
            have = self._keys.get((meta.owner_id, key))
            if have is not None and have[1] >= meta.created - CREATE_KEY_WINDOW:
                raise Conflict("a table was made with this request key already")
            self._keys[(meta.owner_id, key)] = (meta.id, meta.created)
        self._tables[meta.id] = replace(meta, options=dict(meta.options),
                                        to_move=list(meta.to_move),
                                        departed=[dict(d) for d in meta.departed])
        self._seats[meta.id] = [replace(s) for s in seats]
        self._moves[meta.id] = []

    def table(self, table_id: str) -> StoredTable | None:
        meta = self._tables.get(table_id)
        if meta is None:
            return None
        owner = self._users.get(meta.owner_id) if meta.owner_id is not None else None
        return StoredTable(replace(meta, to_move=list(meta.to_move),
                                   departed=[dict(d) for d in meta.departed]),
                           [replace(s) for s in self._seats[table_id]],
                           _owner_name(owner))

    def moves(self, table_id: str, since: int = 0) -> list[Move]:
        return self._moves.get(table_id, [])[since:]

    def update_table(self, table_id: str, values: Mapping[str, Any]) -> None:
        unknown = set(values) - META_FIELDS
        if unknown:
            raise ValueError(f"no table fields {sorted(unknown)}")
        meta = self._tables.get(table_id)
        if meta is not None:
            self._tables[table_id] = replace(meta, **values)

    def update_seat(self, table_id: str, seat: Seat, *, if_open: bool = False) -> bool:
        seats = self._seats.get(table_id, [])
        if not 0 <= seat.seat < len(seats):
            return False
        old = seats[seat.seat]
        if if_open and old.kind != SeatKind.OPEN:
            return False
        seats[seat.seat] = replace(old, **{k: getattr(seat, k) for k in SEAT_HOLDER})
        return True

    def commit(self, table_id: str, change: Change) -> None:
        log = self._moves[table_id]
        if change.moves and change.moves[0].n != len(log):
            raise Conflict("another move was stored first")
        have = self._tables[table_id]
        if change.before is not None and (
                have.move_count != change.before or have.status != (change.was or change.status)):
            raise Conflict("the table changed since the step was worked out")
        log.extend(replace(m, notation=m.notation[:200]) for m in change.moves)
        self._tables[table_id] = replace(
            self._tables[table_id], move_count=change.move_count, to_move=list(change.to_move),
            status=change.status, started=change.started, finished=change.finished,
            result=change.result,
        )
        seats = self._seats[table_id]
        for seat, (rem, started) in change.clocks.items():
            seats[seat] = replace(seats[seat], clock_remaining=rem, turn_started=started)

    def finish(self, table_id: str, finished: float, result: dict[str, Any]) -> bool:
        meta = self._tables.get(table_id)
        if meta is None or meta.status != TableStatus.RUNNING:
            return False
        self._tables[table_id] = replace(meta, status=TableStatus.FINISHED, finished=finished,
                                         result=result, to_move=[])
        return True

    def depart(self, table_id: str, departed: list[dict[str, Any]], seat: Seat | None,
               finished: float | None, result: dict[str, Any] | None) -> bool:
        meta = self._tables.get(table_id)
        if meta is None or meta.status != TableStatus.RUNNING:
            return False
        meta = replace(meta, departed=[dict(d) for d in departed])
        if result is not None:
            meta = replace(meta, status=TableStatus.FINISHED, finished=finished,
                           result=result, to_move=[])
        self._tables[table_id] = meta
        if seat is not None:
            self.update_seat(table_id, seat)
        return True

    def end(self, table_id: str, status: TableStatus, when: float,
            was: Sequence[TableStatus]) -> bool:
        meta = self._tables.get(table_id)
        if meta is None or meta.status not in was:
            return False
        self._tables[table_id] = replace(meta, status=status, finished=when, to_move=[])
        return True

    def undo(self, table_id: str, count: int, change: Change) -> None:
        meta = self._tables.get(table_id)
        if meta is None or meta.move_count != count or meta.status != TableStatus.RUNNING:
            raise Conflict("another move was stored first")
        del self._moves[table_id][change.move_count:]
        self._tables[table_id] = replace(meta, move_count=change.move_count,
                                         to_move=list(change.to_move), undos=meta.undos + 1)
        seats = self._seats[table_id]
        for seat, (rem, started) in change.clocks.items():
            seats[seat] = replace(seats[seat], clock_remaining=rem, turn_started=started)

    def keyed_table(self, user_id: int, key: str, since: float) -> str | None:
        have = self._keys.get((user_id, key))
        return have[0] if have is not None and have[1] >= since else None

    def running_ids(self) -> list[str]:
        return [t for t, m in self._tables.items() if m.status == TableStatus.RUNNING]

    def _newest(self, ids: Any, key: str) -> list[str]:
        return sorted(ids, key=lambda t: getattr(self._tables[t], key) or 0.0, reverse=True)

    def public_tables(self, status: TableStatus | None, game: str | None,
                      limit: int = 100) -> list[StoredTable]:
        ids = [t for t, m in self._tables.items() if m.visibility == Visibility.PUBLIC
               and (status is None or m.status == status) and (not game or m.game == game)]
        return [t for t in (self.table(i) for i in self._newest(ids, "created")[:limit]) if t]

    def tables_of(self, user_id: int, statuses: Sequence[TableStatus], *,
                  newest: str = "created", limit: int = 1000) -> list[Mine]:
        mine = {t: [s.seat for s in seats if s.user_id == user_id]
                for t, seats in self._seats.items()}
        ids = [t for t, seats in mine.items() if seats and self._tables[t].status in statuses]
        out = []
        for t in self._newest(ids, newest)[:limit]:
            stored = self.table(t)
            if stored is not None:
                out.append((stored, mine[t]))
        return out

    def turn_count(self, user_id: int) -> int:
        return sum(1 for t, m in self._tables.items() if m.status == TableStatus.RUNNING
                   and any(s.user_id == user_id and s.kind == SeatKind.HUMAN
                           and s.seat in m.to_move for s in self._seats[t]))

    def owned_open(self, *user_ids: int) -> dict[str, list[Seat]]:
        return {t: list(self._seats[t])
                for t, m in self._tables.items() if m.owner_id in user_ids
                and m.status in (TableStatus.WAITING, TableStatus.RUNNING)}

    def waiting_full_ids(self) -> list[str]:
        return [t for t, m in self._tables.items()
                if m.status == TableStatus.WAITING and m.autostart
                and all(s.kind != SeatKind.OPEN for s in self._seats[t])]

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        return None

    def close(self) -> None:
        return None
