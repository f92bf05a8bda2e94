"""Game reviews on the server: stored once per finished table and information set, worked out
in the background in the bots' process pool, piece by piece, so progress can be shown and a
job stopped with its server resumes from the pieces already stored.

A review's key is :func:`meeple.bots.review.info_key`: ``"all"`` for a game of perfect
information (one review serves every viewer), else the seat whose information set it uses.

A game that ended before its rules end it (a player resigned, was claimed out or ran out of
time, or everyone left it) is reviewed up to its last move, and the review says how it ended.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Float, Integer, String, create_engine, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from meeple.bots.review import Review, assemble, estimate_part, info_key, positions
from meeple.engine import i18n
from meeple.engine.i18n import words
from meeple.engine.records import moves_made

from .db import Base
from .domain import Code, Departure, Refused, TableStatus
from .live import LiveTable
from .service import TableService
from .views import player_n, seat_names

_, _n = words(__file__)

log = logging.getLogger("meeple.server.reviews")

PART = 8
"""Positions searched per job sent to the process pool (progress moves on after each)."""
STALE_AFTER = 45.0
"""A running review whose row has not moved on for this long (seconds) was left by a server
that stopped: the next request for it resumes it from its stored positions."""
REVIEWS_SAID = 32
"""Finished reviews kept assembled again in another language (the oldest go first)."""


class ReviewRow(Base):
    """One review: its progress, the positions searched so far, and the finished review."""

    __tablename__ = "reviews"
    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(8), primary_key=True)
    status: Mapped[str] = mapped_column(String(8))  # "running", "done" or "failed"
    done: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    parts: Mapped[list[Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class ReviewJob:
    """A stored review as read: status, progress, the positions so far, the result."""

    table_id: str
    key: str
    status: str
    done: int
    total: int
    parts: list[Any]
    result: dict[str, Any] | None
    error: str | None
    updated: float


def _job(r: ReviewRow) -> ReviewJob:
    return ReviewJob(r.table_id, r.key, r.status, r.done, r.total, list(r.parts or []),
                     r.result, r.error, r.updated)


class ReviewStore:
    """The reviews, on the tables' SQL engine (or an in-memory SQLite database for a server
    whose tables live in memory); each call is one short transaction."""

    def __init__(self, engine: Engine | None = None):
        if engine is None:
            engine = create_engine("sqlite://", poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
            Base.metadata.create_all(engine, tables=[ReviewRow.__table__])  # type: ignore[list-item]
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def get(self, table_id: str, key: str) -> ReviewJob | None:
        with self.sessions() as db:
            row = db.get(ReviewRow, (table_id, key))
            return _job(row) if row is not None else None

    def create(self, table_id: str, key: str, total: int, now: float) -> bool:
        """A new running review; ``False`` when one is stored already (by anyone)."""
        with self.sessions() as db:
            db.add(ReviewRow(table_id=table_id, key=key, status="running", done=0,
                             total=total, parts=[], result=None, error=None, created=now,
                             updated=now))
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                return False
            return True

    def claim(self, table_id: str, key: str, seen: float, now: float) -> bool:
        """Take over a running review last updated at ``seen`` (a stopped server's): ``True``
        for the one caller whose update found it unchanged."""
        with self.sessions() as db:
            res = db.execute(update(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.key == key,
                ReviewRow.status == "running", ReviewRow.updated == seen,
            ).values(updated=now))
            db.commit()
            return bool(res.rowcount)  # type: ignore[attr-defined]

    def progress(self, table_id: str, key: str, parts: list[Any], now: float) -> None:
        with self.sessions() as db:
            db.execute(update(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.key == key,
            ).values(parts=parts, done=len(parts), updated=now))
            db.commit()

    def finish(self, table_id: str, key: str, result: dict[str, Any], now: float) -> None:
        with self.sessions() as db:
            db.execute(update(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.key == key,
            ).values(status="done", result=result, parts=[], updated=now))
            db.commit()

    def fail(self, table_id: str, key: str, error: str, now: float) -> None:
        with self.sessions() as db:
            db.execute(update(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.key == key,
            ).values(status="failed", error=error[:200], updated=now))
            db.commit()


def display_names(lt: LiveTable) -> list[str]:
    """Each seat's name as the pages show it: the holder's name, "Player N" for an open seat,
    and where one name holds several seats, which player each is."""
    base = [n or player_n(s + 1) for s, n in enumerate(seat_names(lt.seats))]
    # TRANSLATORS: a name that holds several seats, with the seat's number: "Ann (player 2)"
    return [_("{name} (player {number})", name=n, number=str(s + 1)) if base.count(n) > 1
            else n for s, n in enumerate(base)]


REVIEWED = (TableStatus.FINISHED, TableStatus.ABANDONED)
"""The tables that have a review: games over, whether played to their end or not."""


def ended_early(lt: LiveTable) -> bool:
    """Whether a table's game ended before its rules end it (its last position is not the
    game's end)."""
    return not lt.state.is_terminal()


def ending(lt: LiveTable) -> str:
    """How a reviewed game ended, in words."""
    moves = moves_made([(e.player,) for e in lt.log])
    if lt.meta.status == TableStatus.ABANDONED:
        return _n("Everyone left the game after {n} move.",
                  "Everyone left the game after {n} moves.", moves)
    names = display_names(lt)
    for d in reversed(lt.meta.departed):
        if not d.get("last", True):
            continue
        name = names[int(d["seat"])]
        if d.get("how") == Departure.RESIGNED:
            return _n("{name} resigned after {n} move.", "{name} resigned after {n} moves.",
                      moves, name=name)
        return _n("{name} ran out of time after {n} move.",
                  "{name} ran out of time after {n} moves.", moves, name=name)
    return _("The game was played to its end.")


def _charted(lt: LiveTable) -> int:
    return len(positions(lt.state)[0])


class Reviews:
    """The reviews of one app: start, progress, result; jobs run in the background."""

    def __init__(self, tables: TableService, store: ReviewStore, *, part: int = PART,
                 stale_after: float = STALE_AFTER, iterations: int | None = None):
        self.tables = tables
        self.store = store
        self.part = part
        self.stale_after = stale_after
        self.iterations = iterations
        """Search iterations per position (``None``: the review's own budget per game)."""
        self.id = uuid.uuid4().hex
        self.tasks: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._slot: asyncio.Semaphore | None = None
        self.hints = 0
        """Hints being worked out now."""
        self._languages: dict[tuple[str, str, str], Review] = {}
        """Finished reviews assembled again in another language than their stored one."""

    # ------------------------------------------------------------------ who may ask
    @staticmethod
    def viewer(lt: LiveTable, seat: int | None) -> int | None:
        """The information set asked for, checked: a finished table, a seat of it, and a
        seat where the game hides information."""
        if lt.meta.status not in REVIEWED or not lt.log:
            raise Refused(Code.CONFLICT, _("a review is made once the game is over"))
        n = lt.game.num_players
        if seat is not None and not 0 <= seat < n:
            raise Refused(Code.INVALID, _("seat must be 0..{value}", value=n - 1))
        if seat is None and not lt.game.perfect_information:
            raise Refused(Code.INVALID, _("{title} hides information: say whose view the "
                                          "review is for with seat=N", title=lt.game.title))
        return seat

    # ------------------------------------------------------------------ answers
    def answer(self, lt: LiveTable, seat: int | None, job: ReviewJob | None) -> dict[str, Any]:
        """What a viewer is told of a review: progress, then the review (the better moves
        of ``seat`` only)."""
        if job is None:
            return {"table": lt.id, "seat": seat, "status": "none", "done": 0, "total": 0}
        out: dict[str, Any] = {"table": lt.id, "seat": seat, "status": job.status,
                               "done": job.done if job.status != "done" else job.total,
                               "total": job.total}
        if job.status == "failed":
            out["error"] = _("the review could not be made")
        if job.status == "done" and job.result is not None:
            out["review"] = {**self._said(lt, seat, job).to_json(seat), "ending": ending(lt)}
        return out

    def _said(self, lt: LiveTable, seat: int | None, job: ReviewJob) -> Review:
        """The finished review in the language in use: as stored when it was assembled in
        it, else assembled again from the stored positions (kept for the next reader)."""
        assert job.result is not None
        lang = i18n.language()
        if job.result.get("lang", i18n.DEFAULT) == lang or len(job.parts) < job.total:
            return Review.from_stored(job.result)
        key = (lt.id, info_key(lt.game, seat), lang)
        review = self._languages.get(key)
        if review is None:
            review = self._assemble(lt, seat, list(job.parts), display_names(lt))
            self._languages[key] = review
            while len(self._languages) > REVIEWS_SAID:
                self._languages.pop(next(iter(self._languages)))
        return review

    async def start(self, lt: LiveTable, seat: int | None) -> dict[str, Any]:
        """Start the review for ``seat``'s information set (once: asking again answers the
        same job)."""
        viewer = self.viewer(lt, seat)
        key = info_key(lt.game, viewer)
        job = await asyncio.to_thread(self.store.get, lt.id, key)
        if job is None:
            total = await self.tables.work.run(_charted, lt)
            if await asyncio.to_thread(self.store.create, lt.id, key, total, time.time()):
                self._launch(lt, key, viewer)
            job = await asyncio.to_thread(self.store.get, lt.id, key)
        elif job.status == "failed":
            raise Refused(Code.CONFLICT, _("the review could not be made"))
        else:
            await self._resume_if_left(lt, key, viewer, job)
        return self.answer(lt, seat, job)

    async def status(self, lt: LiveTable, seat: int | None) -> dict[str, Any]:
        """The review's progress, or the review once made."""
        viewer = self.viewer(lt, seat)
        key = info_key(lt.game, viewer)
        job = await asyncio.to_thread(self.store.get, lt.id, key)
        if job is not None:
            await self._resume_if_left(lt, key, viewer, job)
        return self.answer(lt, seat, job)

    async def _resume_if_left(self, lt: LiveTable, key: str, viewer: int | None,
                              job: ReviewJob) -> None:
        """A running review nobody works on (its server stopped): take it over."""
        if job.status != "running" or (lt.id, key) in self.tasks:
            return
        if time.time() - job.updated < self.stale_after:
            return
        if await asyncio.to_thread(self.store.claim, lt.id, key, job.updated, time.time()):
            log.info("review %s/%s resumed at %d of %d", lt.id, key, job.done, job.total)
            self._launch(lt, key, viewer)

    # ------------------------------------------------------------------ the work
    def _launch(self, lt: LiveTable, key: str, viewer: int | None) -> None:
        task = asyncio.get_running_loop().create_task(self._run(lt, key, viewer))
        self.tasks[(lt.id, key)] = task
        task.add_done_callback(lambda _t: self.tasks.pop((lt.id, key), None))

    async def _run(self, lt: LiveTable, key: str, viewer: int | None) -> None:
        try:
            await self._work(lt, key, viewer)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a review must never take the server down
            log.exception("review %s/%s failed", lt.id, key)
            await asyncio.to_thread(self.store.fail, lt.id, key,
                                    f"the review could not be made: {e}", time.time())

    async def _work(self, lt: LiveTable, key: str, viewer: int | None) -> None:
        job = await asyncio.to_thread(self.store.get, lt.id, key)
        if job is None or job.status != "running":
            return
        parts = list(job.parts)
        g = lt.game
        moves = [(e.player, e.action) for e in lt.log]
        if self._slot is None:
            self._slot = asyncio.Semaphore(1)  # one piece at a time: the bots come first
        while len(parts) < job.total:
            start = len(parts)
            async with self._slot:
                found: list[Any] = await self.tables.bots.run(
                    estimate_part, type(g), g.num_players, dict(g.options), moves, viewer,
                    start, start + self.part, self.iterations, ended_early(lt))
            parts += found
            await asyncio.to_thread(self.store.progress, lt.id, key, parts, time.time())
        names = display_names(lt)
        review = await self.tables.work.run(self._assemble, lt, viewer, parts, names)
        stored = {**review.stored(), "lang": i18n.language()}  # the words' language
        await asyncio.to_thread(self.store.finish, lt.id, key, stored, time.time())

    def _assemble(self, lt: LiveTable, viewer: int | None, parts: list[Any],
                  names: list[str]) -> Review:
        return assemble(lt.state, viewer, parts, names=names, iterations=self.iterations,
                        ended=ended_early(lt))

    def stop(self) -> None:
        """Cancel this app's jobs (their stored positions stay for a resume)."""
        for task in list(self.tasks.values()):
            task.cancel()
        self.tasks.clear()
