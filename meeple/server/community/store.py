"""The community's storage: chat lines, mutes, ratings, follows, invitations and turn-mail
settings, on the same SQLAlchemy engine as the tables (or an in-memory SQLite database for a
server whose tables live in memory)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from sqlalchemy import Table, create_engine, delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased, sessionmaker
from sqlalchemy.pool import StaticPool

from ..db import Base
from .models import (
    ChatRow,
    FollowRow,
    InvitationRow,
    MuteRow,
    NotifyRow,
    RatingHistoryRow,
    RatingRow,
    ReportRow,
)

MODELS = (ChatRow, MuteRow, RatingRow, RatingHistoryRow, FollowRow, InvitationRow, NotifyRow,
          ReportRow)


@dataclass(frozen=True)
class ChatLine:
    """One stored chat line."""

    id: int
    room: str
    user_id: int | None
    name: str
    text: str
    kind: str
    spectator: bool
    created: float


@dataclass(frozen=True)
class Report:
    """A report to the operators: of a chat line (``line_id``, with its room and text as they
    were) or of a player (``user_id``), and why."""

    id: int
    reporter_id: int
    user_id: int | None
    line_id: int | None
    room: str | None
    text: str | None
    reason: str
    created: float
    closed: float | None


def _report(r: ReportRow) -> Report:
    return Report(r.id, r.reporter_id, r.user_id, r.line_id, r.room, r.text, r.reason,
                  r.created, r.closed)


@dataclass(frozen=True)
class Rating:
    """A person's rating in one game."""

    user_id: int
    game: str
    mu: float
    sigma: float
    played: int
    won: int


@dataclass(frozen=True)
class RatedResult:
    """One person's outcome of a rated table: their place and their new rating."""

    user_id: int
    rank: int
    mu: float
    sigma: float


@dataclass(frozen=True)
class HistoryPoint:
    """A person's rating after one rated table."""

    game: str
    table_id: str
    rank: int
    mu: float
    sigma: float
    created: float


@dataclass(frozen=True)
class Invitation:
    id: int
    from_id: int
    to_id: int
    table_id: str
    created: float


@dataclass(frozen=True)
class NotifySettings:
    user_id: int
    email: str | None
    turn_mail: bool
    last_mailed: float | None
    subscription: int = 0
    """How many times turn e-mails were turned on."""


def _notify(r: NotifyRow) -> NotifySettings:
    return NotifySettings(r.user_id, r.email, r.turn_mail, r.last_mailed, r.subscription or 0)


def _line(r: ChatRow) -> ChatLine:
    return ChatLine(r.id, r.room, r.user_id, r.name, r.text, r.kind, r.spectator, r.created)


class CommunityStore:
    """Reads and writes of the community's tables (each call one short transaction)."""

    def __init__(self, engine: Engine | None = None):
        if engine is None:  # the tables live in memory: so does the community
            engine = create_engine("sqlite://", poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
            Base.metadata.create_all(engine, tables=[Table(m.__tablename__, Base.metadata)
                                                     for m in MODELS])
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # ------------------------------------------------------------------ chat
    def add_chat(self, room: str, user_id: int | None, name: str, text: str, kind: str,
                 spectator: bool = False) -> ChatLine:
        with self.sessions() as db:
            row = ChatRow(room=room, user_id=user_id, name=name, text=text, kind=kind,
                          spectator=spectator, created=time.time())
            db.add(row)
            db.commit()
            return _line(row)

    def chat(self, room: str, limit: int = 100) -> list[ChatLine]:
        """The newest ``limit`` lines of a room, oldest first."""
        with self.sessions() as db:
            rows = db.scalars(select(ChatRow).where(ChatRow.room == room)
                              .order_by(ChatRow.id.desc()).limit(limit)).all()
            return [_line(r) for r in reversed(rows)]

    def rename_speaker(self, user_id: int, name: str) -> None:
        """Show a person's lines under their new name (a guest whose name was registered
        by someone else: their lines go with them, not with the name)."""
        with self.sessions() as db:
            db.execute(update(ChatRow).where(ChatRow.user_id == user_id, ChatRow.kind == "say")
                       .values(name=name))
            db.commit()

    def chat_line(self, line_id: int) -> ChatLine | None:
        with self.sessions() as db:
            row = db.get(ChatRow, line_id)
            return _line(row) if row is not None else None

    def delete_chat(self, line_id: int) -> ChatLine | None:
        """Delete one chat line (an operator's decision); the line it was, if there was one."""
        with self.sessions() as db:
            row = db.get(ChatRow, line_id)
            if row is None:
                return None
            line = _line(row)
            db.delete(row)
            db.commit()
            return line

    def lines_by(self, user_id: int, limit: int = 10_000) -> list[ChatLine]:
        """The lines a person said, oldest first."""
        with self.sessions() as db:
            rows = db.scalars(select(ChatRow).where(ChatRow.user_id == user_id,
                                                    ChatRow.kind == "say")
                              .order_by(ChatRow.id).limit(limit)).all()
            return [_line(r) for r in rows]

    def rename_system_name(self, rooms: list[str], old: str, new: str) -> None:
        """Say ``new`` where the system lines of ``rooms`` named ``old`` (an account deleted:
        "Ann sat down." becomes "deleted player sat down.")."""
        if not rooms or not old:
            return
        with self.sessions() as db:
            for row in db.scalars(select(ChatRow).where(ChatRow.room.in_(rooms),
                                                        ChatRow.kind == "system")):
                try:
                    data = json.loads(row.text)
                except ValueError:
                    continue
                if not isinstance(data, dict):
                    continue
                changed = False
                if data.get("name") == old:
                    data["name"], changed = new, True
                if isinstance(data.get("ratings"), list):
                    for pair in data["ratings"]:
                        if isinstance(pair, list) and pair and pair[0] == old:
                            pair[0], changed = new, True
                if changed:
                    row.text = json.dumps(data, separators=(",", ":"))
            db.commit()

    def mutes(self, user_id: int) -> set[int]:
        """The people ``user_id`` muted or blocked."""
        with self.sessions() as db:
            return set(db.scalars(select(MuteRow.muted_id).where(MuteRow.user_id == user_id)))

    def blocks(self, user_id: int) -> set[int]:
        """The people ``user_id`` blocked."""
        with self.sessions() as db:
            return set(db.scalars(select(MuteRow.muted_id).where(
                MuteRow.user_id == user_id, MuteRow.block.is_(True))))

    def blocked_with(self, user_id: int) -> set[int]:
        """The people kept apart from ``user_id``: those they blocked and those who blocked
        them."""
        with self.sessions() as db:
            mine = db.scalars(select(MuteRow.muted_id).where(
                MuteRow.user_id == user_id, MuteRow.block.is_(True)))
            theirs = db.scalars(select(MuteRow.user_id).where(
                MuteRow.muted_id == user_id, MuteRow.block.is_(True)))
            return set(mine) | set(theirs)

    def mute(self, user_id: int, muted_id: int, block: bool = False) -> None:
        """Mute a person (or block them: ``block``; a block stays a block when muted)."""
        with self.sessions() as db:
            row = db.get(MuteRow, (user_id, muted_id))
            if row is None:
                db.add(MuteRow(user_id=user_id, muted_id=muted_id, created=time.time(),
                               block=block))
            elif block:
                row.block = True
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                if block:
                    self.mute(user_id, muted_id, block)

    def unmute(self, user_id: int, muted_id: int, block: bool = False) -> None:
        """Lift a mute (``block``: a block; lifting a mute leaves a block as it is)."""
        with self.sessions() as db:
            db.execute(delete(MuteRow).where(MuteRow.user_id == user_id,
                                             MuteRow.muted_id == muted_id,
                                             MuteRow.block.is_(block)))
            db.commit()

    # ------------------------------------------------------------------ reports
    def add_report(self, reporter_id: int, reason: str, *, user_id: int | None = None,
                   line: ChatLine | None = None) -> Report:
        with self.sessions() as db:
            row = ReportRow(reporter_id=reporter_id,
                            user_id=line.user_id if line is not None else user_id,
                            line_id=line.id if line is not None else None,
                            room=line.room if line is not None else None,
                            text=line.text if line is not None else None,
                            reason=reason, created=time.time(), closed=None)
            db.add(row)
            db.commit()
            return _report(row)

    def reports(self, *, open_only: bool = True, reporter_id: int | None = None,
                limit: int = 200) -> list[Report]:
        """Reports, oldest first: the open ones, or those ``reporter_id`` made."""
        with self.sessions() as db:
            q = select(ReportRow)
            if open_only:
                q = q.where(ReportRow.closed.is_(None))
            if reporter_id is not None:
                q = q.where(ReportRow.reporter_id == reporter_id)
            return [_report(r) for r in db.scalars(q.order_by(ReportRow.id).limit(limit))]

    def close_report(self, report_id: int) -> bool:
        """Close an open report; whether it was open."""
        with self.sessions() as db:
            done = db.execute(update(ReportRow).where(
                ReportRow.id == report_id, ReportRow.closed.is_(None)).values(
                closed=time.time()))
            db.commit()
            return bool(done.rowcount)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ a deleted account
    def forget(self, user_id: int, name: str) -> None:
        """What a deleted account leaves behind of its own: its mutes and blocks, follows,
        the invitations to it and its turn-mail address go; its lines stay, said by
        "deleted player" (``name``), like its games. What others keep (their mutes of it,
        their reports) stays."""
        with self.sessions() as db:
            db.execute(delete(MuteRow).where(MuteRow.user_id == user_id))
            db.execute(delete(FollowRow).where(FollowRow.user_id == user_id))
            db.execute(delete(InvitationRow).where(InvitationRow.to_id == user_id))
            db.execute(delete(NotifyRow).where(NotifyRow.user_id == user_id))
            db.execute(update(ChatRow).where(ChatRow.user_id == user_id, ChatRow.kind == "say")
                       .values(name=name))
            db.commit()

    # ------------------------------------------------------------------ ratings
    def rating(self, user_id: int, game: str) -> Rating | None:
        with self.sessions() as db:
            r = db.get(RatingRow, (user_id, game))
            return None if r is None else Rating(r.user_id, r.game, r.mu, r.sigma, r.played,
                                                 r.won)

    def ratings_of(self, user_id: int) -> list[Rating]:
        with self.sessions() as db:
            rows = db.scalars(select(RatingRow).where(RatingRow.user_id == user_id)
                              .order_by(RatingRow.game)).all()
            return [Rating(r.user_id, r.game, r.mu, r.sigma, r.played, r.won) for r in rows]

    def record_rated(self, table_id: str, game: str, results: list[RatedResult]) -> bool:
        """Store the new ratings after a rated table in one transaction; ``False`` (nothing
        written) if this table was rated already."""
        now = time.time()
        with self.sessions() as db, db.no_autoflush:
            for res in results:
                db.add(RatingHistoryRow(user_id=res.user_id, game=game, table_id=table_id,
                                        rank=res.rank, mu=res.mu, sigma=res.sigma,
                                        created=now))
                row = db.get(RatingRow, (res.user_id, game))
                if row is None:
                    row = RatingRow(user_id=res.user_id, game=game, mu=res.mu, sigma=res.sigma,
                                    played=0, won=0, updated=now)
                    db.add(row)
                row.mu, row.sigma, row.updated = res.mu, res.sigma, now
                row.played = (row.played or 0) + 1
                row.won = (row.won or 0) + (1 if res.rank == 1 else 0)
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                return False
        return True

    def leaderboard(self, game: str, limit: int = 50) -> list[Rating]:
        """The rated people of a game, best conservative rating (mu - 3 sigma) first."""
        with self.sessions() as db:
            rows = db.scalars(select(RatingRow).where(RatingRow.game == game)
                              .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(),
                                        RatingRow.user_id).limit(limit)).all()
            return [Rating(r.user_id, r.game, r.mu, r.sigma, r.played, r.won) for r in rows]

    def history(self, user_id: int, limit: int = 500) -> list[HistoryPoint]:
        """A person's ratings after each rated table, oldest first."""
        with self.sessions() as db:
            rows = db.scalars(select(RatingHistoryRow)
                              .where(RatingHistoryRow.user_id == user_id)
                              .order_by(RatingHistoryRow.id.desc()).limit(limit)).all()
            return [HistoryPoint(r.game, r.table_id, r.rank, r.mu, r.sigma, r.created)
                    for r in reversed(rows)]

    def pair_games(self, user_id: int, other_id: int, game: str, since: float) -> int:
        """How many tables of ``game`` rated both people since ``since``."""
        mine, theirs = aliased(RatingHistoryRow), aliased(RatingHistoryRow)
        with self.sessions() as db:
            return db.scalar(
                select(func.count(mine.table_id.distinct()))
                .join(theirs, theirs.table_id == mine.table_id)
                .where(mine.user_id == user_id, theirs.user_id == other_id, mine.game == game,
                       mine.created >= since)) or 0

    def rated_tables(self, table_ids: list[str]) -> set[str]:
        """Which of these tables changed ratings."""
        if not table_ids:
            return set()
        with self.sessions() as db:
            return set(db.scalars(select(RatingHistoryRow.table_id).distinct()
                                  .where(RatingHistoryRow.table_id.in_(table_ids))))

    # ------------------------------------------------------------------ people
    def follow(self, user_id: int, followed_id: int) -> None:
        with self.sessions() as db:
            if db.get(FollowRow, (user_id, followed_id)) is None:
                db.add(FollowRow(user_id=user_id, followed_id=followed_id, created=time.time()))
                try:
                    db.commit()
                except IntegrityError:
                    db.rollback()

    def unfollow(self, user_id: int, followed_id: int) -> None:
        with self.sessions() as db:
            db.execute(delete(FollowRow).where(FollowRow.user_id == user_id,
                                               FollowRow.followed_id == followed_id))
            db.commit()

    def following(self, user_id: int) -> list[int]:
        with self.sessions() as db:
            return list(db.scalars(select(FollowRow.followed_id)
                                   .where(FollowRow.user_id == user_id)
                                   .order_by(FollowRow.created)))

    def followers(self, user_id: int) -> int:
        with self.sessions() as db:
            return db.scalar(select(func.count()).select_from(FollowRow)
                             .where(FollowRow.followed_id == user_id)) or 0

    def invite(self, from_id: int, to_id: int, table_id: str) -> Invitation:
        """Invite ``to_id`` to a table (asking again keeps the one invitation)."""
        with self.sessions() as db:
            row = db.scalars(select(InvitationRow).where(
                InvitationRow.from_id == from_id, InvitationRow.to_id == to_id,
                InvitationRow.table_id == table_id)).first()
            if row is not None:
                return Invitation(row.id, row.from_id, row.to_id, row.table_id, row.created)
            row = InvitationRow(from_id=from_id, to_id=to_id, table_id=table_id,
                                created=time.time())
            db.add(row)
            db.commit()
            return Invitation(row.id, row.from_id, row.to_id, row.table_id, row.created)

    def invitations(self, to_id: int, limit: int = 20) -> list[Invitation]:
        """The newest invitations to a person, newest first."""
        with self.sessions() as db:
            rows = db.scalars(select(InvitationRow).where(InvitationRow.to_id == to_id)
                              .order_by(InvitationRow.id.desc()).limit(limit)).all()
            return [Invitation(r.id, r.from_id, r.to_id, r.table_id, r.created) for r in rows]

    # ------------------------------------------------------------------ turn mail
    def notify(self, user_id: int) -> NotifySettings:
        with self.sessions() as db:
            r = db.get(NotifyRow, user_id)
            if r is None:
                return NotifySettings(user_id, None, False, None)
            return _notify(r)

    def set_notify(self, user_id: int, *, email: str | None = None,
                   turn_mail: bool | None = None, last_mailed: float | None = None,
                   clear_email: bool = False) -> NotifySettings:
        """Change a person's turn-mail settings; turning turn e-mails on starts a new
        subscription (the links of the old ones no longer unsubscribe)."""
        with self.sessions() as db:
            r = db.get(NotifyRow, user_id)
            if r is None:
                r = NotifyRow(user_id=user_id, email=None, turn_mail=False, last_mailed=None,
                              subscription=0)
                db.add(r)
            if email is not None or clear_email:
                r.email = email
            if turn_mail is not None:
                if turn_mail and not r.turn_mail:
                    r.subscription = (r.subscription or 0) + 1
                r.turn_mail = turn_mail
            if last_mailed is not None:
                r.last_mailed = last_mailed
            db.commit()
            return _notify(r)

    def unsubscribe(self, user_id: int, subscription: int) -> bool:
        """End turn e-mails of ``subscription`` (once): ``False`` when they are off already
        or were turned on again since."""
        with self.sessions() as db:
            done = db.execute(update(NotifyRow).where(
                NotifyRow.user_id == user_id, NotifyRow.subscription == subscription,
                NotifyRow.turn_mail.is_(True)).values(turn_mail=False))
            db.commit()
            return bool(done.rowcount)  # type: ignore[attr-defined]
