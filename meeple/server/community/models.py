"""The community's tables (chat, mutes and blocks, reports, ratings and their history,
follows, invitations, turn-mail settings), on the server's one declarative base so the
migrations cover them."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class ChatRow(Base):
    """One chat line: said by a person, or a system line (joined, left, resigned...)."""

    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room: Mapped[str] = mapped_column(String(40), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    name: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(String(2000))
    kind: Mapped[str] = mapped_column(String(8))
    spectator: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float)


class MuteRow(Base):
    """A person one user does not want to read any more; a block (``block``) also keeps the
    two apart: no chat either way, no invitations, no table shared."""

    __tablename__ = "chat_mutes"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    muted_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    created: Mapped[float] = mapped_column(Float)
    block: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ReportRow(Base):
    """A person's report to the operators of a chat line (its text kept as it was) or of a
    player, open until an operator closes it."""

    __tablename__ = "reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    line_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    room: Mapped[str | None] = mapped_column(String(40), nullable=True)
    text: Mapped[str | None] = mapped_column(String(2000), nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    created: Mapped[float] = mapped_column(Float)
    closed: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)


class RatingRow(Base):
    """A person's rating in one game (openskill mu and sigma) and their rated games."""

    __tablename__ = "ratings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """A person's rating after one rated table (one row per person and table)."""

    __tablename__ = "rating_history"
    __table_args__ = (UniqueConstraint("user_id", "table_id", name="uq_rating_history_table"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    table_id: Mapped[str] = mapped_column(String(16), index=True)
    rank: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created: Mapped[float] = mapped_column(Float)


class FollowRow(Base):
    """One person following another."""

    __tablename__ = "follows"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    created: Mapped[float] = mapped_column(Float)


class InvitationRow(Base):
    """An invitation from one person to another to sit at a table."""

    __tablename__ = "invitations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    to_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    table_id: Mapped[str] = mapped_column(String(16))
    created: Mapped[float] = mapped_column(Float)


class NotifyRow(Base):
    """How a person wants to hear of their turn by e-mail, and when they were last mailed."""

    __tablename__ = "notify_settings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    turn_mail: Mapped[bool] = mapped_column(Boolean, default=False)
    last_mailed: Mapped[float | None] = mapped_column(Float, nullable=True)
    subscription: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many times turn e-mails were turned on (an unsubscribe link ends one of them)."""
