"""Game reviews on the server: stored once per table and information set, worked out in the
background in the bots' process pool while the game is played (each position's estimate
after the move that led to it, for every view the game's reviews need in one job, as
background work that gives way to bots' moves and hints), so that a finished game's
review is ready when the game ends: the last estimates are made and the review is put
together at once. A game played before then, or whose estimates fell behind, is worked out
when its review is asked for, position by position, so progress can be shown; work stopped
with its server resumes from the positions already stored.

A review's key is :func:`meeple.bots.review.info_key`: ``"all"`` for a game of perfect
information (one review serves every viewer), else the seat whose information set it uses.

A game that ended before its rules end it (a player resigned, was claimed out or ran out of
time, or everyone left it) is reviewed up to its last move, and the review says how it ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import uuid
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Float, Integer, String, create_engine, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from meeple.bots.review import (
    Review,
    assemble,
    charted,
    check_at,
    estimate_at,
    info_key,
    prefixes,
    same_estimate,
    unseen,
    views,
)
from meeple.engine import i18n
from meeple.engine.i18n import words
from meeple.engine.records import moves_made

from . import bot_worker
from .db import Base
from .domain import Code, Departure, Refused, TableStatus
from .live import LiveTable
from .service import TableService
from .views import player_n, seat_names

_, _n = words(__file__)

log = logging.getLogger("meeple.server.reviews")

STALE_AFTER = 20.0
"""A running review whose row has not moved on for this long (seconds) was left by a server
that stopped: the next request for it resumes it from its stored positions."""
REVIEWS_SAID = 32
"""Finished reviews kept assembled again in another language (the oldest go first)."""
PLAYING, RUNNING = "playing", "running"
"""A review's status while its game is played (its estimates are made as it goes), and
once the game is over while the review is being made."""
MAKING = (PLAYING, RUNNING)


class ReviewRow(Base):
    """One review: its progress, the positions searched so far, and the finished review."""

    __tablename__ = "reviews"
    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(8), primary_key=True)
    status: Mapped[str] = mapped_column(String(8))
    """"playing" (estimates made as the game is played), "running" (the game is over: the
    review is being made), "done" or "failed"."""
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
        # The in-memory database is one connection that every thread shares: two
        # transactions at once on it would end each other's, so they take turns.
        self._turns: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        if engine is None:
            engine = create_engine("sqlite://", poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
            Base.metadata.create_all(engine, tables=[ReviewRow.__table__])  # type: ignore[list-item]
            self._turns = threading.Lock()
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    @contextlib.contextmanager
    def _session(self) -> Iterator[Session]:
        """A session for one short transaction (one at a time on the in-memory database)."""
        with self._turns, self.sessions() as db:
            yield db

    def get(self, table_id: str, key: str) -> ReviewJob | None:
        with self._session() as db:
            row = db.get(ReviewRow, (table_id, key))
            return _job(row) if row is not None else None

    def create(self, table_id: str, key: str, total: int, now: float,
               status: str = RUNNING) -> bool:
        """A new review being made (``status``: :data:`RUNNING`, or :data:`PLAYING` while the
        game is played); ``False`` when one is stored already (by anyone)."""
        with self._session() as db:
            db.add(ReviewRow(table_id=table_id, key=key, status=status, done=0,
                             total=total, parts=[], result=None, error=None, created=now,
                             updated=now))
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                return False
            return True

    def claim(self, table_id: str, key: str, seen: float, now: float) -> bool:
        """Take over a review being made, last updated at ``seen`` (a stopped server's):
        ``True`` for the one caller whose update found it unchanged."""
        with self._session() as db:
            res = db.execute(update(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.key == key,
                ReviewRow.status.in_(MAKING), ReviewRow.updated == seen,
            ).values(status=RUNNING, updated=now))
            db.commit()
            return bool(res.rowcount)  # type: ignore[attr-defined]

    def progress(self, table_id: str, key: str, parts: list[Any], now: float) -> None:
        """Store the positions estimated so far (``None`` for one still to do)."""
        done = sum(1 for p in parts if p is not None)
        with self._session() as db:
            db.execute(update(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.key == key,
            ).values(parts=parts, done=done, total=len(parts), updated=now))
            db.commit()

    def finish(self, table_id: str, key: str, result: dict[str, Any], now: float) -> None:
        """The review is made (its positions stay: a review in another language is put
        together again from them)."""
        with self._session() as db:
            db.execute(update(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.key == key,
            ).values(status="done", result=result, updated=now))
            db.commit()

    def over(self, table_id: str, key: str, now: float) -> None:
        """The game is over: its estimates made as it was played become a review being
        made."""
        with self._session() as db:
            db.execute(update(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.key == key,
                ReviewRow.status == PLAYING,
            ).values(status=RUNNING, updated=now))
            db.commit()

    def drop(self, table_id: str) -> None:
        """Forget a table's reviews (a game called off has none)."""
        with self._session() as db:
            db.query(ReviewRow).filter(ReviewRow.table_id == table_id).delete()
            db.commit()

    def left(self, before: float) -> list[str]:
        """The tables over with a review still being made that nobody has moved on since
        ``before`` (a stopped server's)."""
        with self._session() as db:
            rows = db.query(ReviewRow.table_id).filter(
                ReviewRow.status == RUNNING, ReviewRow.updated < before).distinct()
            return [r[0] for r in rows]

    def fail(self, table_id: str, key: str, error: str, now: float) -> None:
        with self._session() as db:
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


def _moves(lt: LiveTable) -> list[tuple[int, int]]:
    return [(e.player, e.action) for e in lt.log]


_MADE: OrderedDict[tuple[Any, ...], tuple[dict[str, Any], bool]] = OrderedDict()
"""In a bots' process: the views' estimates made by a job that then gave way (kept for when
it runs again), and whether their check is done."""
MADE_KEPT = 64


def estimate_views(key: str, game_cls: type, players: int, options: dict[str, Any],
                   moves: list[tuple[int, int]], before: int, viewers: list[int | None],
                   previous: list[dict[str, Any] | None],
                   iterations: int | None) -> list[dict[str, Any]]:
    """In a bots' process: the review's estimates of the position after ``moves``, one for
    each of ``viewers`` (every view a position needs, in one job). A viewer who learned
    nothing since the position before it (after ``before`` moves, whose estimate for that
    view is ``previous[i]``) keeps that estimate (:func:`meeple.bots.review.unseen`); the
    others are searched (:func:`meeple.bots.review.estimate_at`). Where the move between
    the two positions was the viewer's and the chart puts the search's choice clearly ahead
    of it, the two moves are searched again side by side (:func:`meeple.bots.review.check_at`).
    It gives way (:class:`~meeple.bots.review.Preempted`) as soon as more urgent work waits:
    the views done before it gave way are kept in this process for when the job runs
    again."""
    earlier = (bot_worker.state_for(key, game_cls, players, options, moves[:before])
               if any(p is not None for p in previous) else None)
    state = bot_worker.state_for(key, game_cls, players, options, moves)
    stamp = zlib.crc32(repr(moves).encode())
    out = []
    for viewer, prev in zip(viewers, previous, strict=True):
        made = (key, stamp, len(moves), viewer, iterations)
        found, checked = _MADE.pop(made, (None, False))
        if found is None:
            if prev is not None and earlier is not None and unseen(earlier, state, viewer):
                found = same_estimate(prev)
            else:
                found = estimate_at(state, viewer, len(moves), iterations,
                                    stop=bot_worker.give_way)
            _MADE[made] = (found, False)  # kept should the check below give way
        if not checked and prev is not None and earlier is not None:
            check = check_at(earlier, prev, state, found, viewer, iterations,
                             stop=bot_worker.give_way)
            if check is not None:
                found = {**found, "check": check}
        _MADE[made] = (found, True)
        while len(_MADE) > MADE_KEPT:
            _MADE.popitem(last=False)
        out.append(found)
    return out


class Reviews:
    """The reviews of one app: each table's estimates worked out as its game is played,
    then the review; progress and result for the viewers. Made with the app, it is told of
    every change to a table (:attr:`TableService.on_change`)."""

    def __init__(self, tables: TableService, store: ReviewStore, *,
                 stale_after: float = STALE_AFTER, iterations: int | None = None):
        self.tables = tables
        self.store = store
        self.stale_after = stale_after
        self.iterations = iterations
        """Search iterations per position and view (``None``: the review's own budget per
        game, :func:`meeple.bots.review.iterations_for`)."""
        self.id = uuid.uuid4().hex
        self.tasks: dict[str, asyncio.Task[None]] = {}
        """The work on each table's estimates, by table."""
        self._latest: dict[str, LiveTable] = {}
        """The table each task works on, as last told (a table read again is a new one)."""
        self._again: set[str] = set()
        """Tables changed while their work ran: it looks again when done."""
        self._swept = False
        self.hints = 0
        """Hints being worked out now."""
        self._languages: dict[tuple[str, str, str], Review] = {}
        """Finished reviews assembled again in another language than their stored one."""
        tables.on_change = self.changed

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
    async def answer(self, lt: LiveTable, seat: int | None,
                     job: ReviewJob | None) -> dict[str, Any]:
        """What a viewer is told of a review: progress, then the review (the better moves
        of ``seat`` only)."""
        if job is None:
            return {"table": lt.id, "seat": seat, "status": "none", "done": 0, "total": 0}
        status = RUNNING if job.status == PLAYING else job.status  # over: being made
        out: dict[str, Any] = {"table": lt.id, "seat": seat, "status": status,
                               "done": job.done if job.status != "done" else job.total,
                               "total": job.total}
        if job.status == "failed":
            out["error"] = _("the review could not be made")
        if job.status == "done" and job.result is not None:
            said = await self._said(lt, seat, job)
            out["review"] = {**said.to_json(seat), "ending": ending(lt)}
        return out

    async def _said(self, lt: LiveTable, seat: int | None, job: ReviewJob) -> Review:
        """The finished review in the language in use: as stored when it was assembled in
        it, else assembled again from the stored positions, off the event loop (kept for the
        next reader)."""
        assert job.result is not None
        lang = i18n.language()
        if (job.result.get("lang", i18n.DEFAULT) == lang or len(job.parts) < job.total
                or any(p is None for p in job.parts)):
            return Review.from_stored(job.result)
        key = (lt.id, info_key(lt.game, seat), lang)
        review = self._languages.get(key)
        if review is None:
            review = await self.tables.work.run(self._assemble, lt, seat, list(job.parts),
                                                display_names(lt))
            self._languages[key] = review
            while len(self._languages) > REVIEWS_SAID:
                self._languages.pop(next(iter(self._languages)))
        return review

    async def start(self, lt: LiveTable, seat: int | None) -> dict[str, Any]:
        """Start the review for ``seat``'s information set (once: asking again answers the
        same job); usually it is made already, while the game was played."""
        viewer = self.viewer(lt, seat)
        key = info_key(lt.game, viewer)
        job = await asyncio.to_thread(self.store.get, lt.id, key)
        if job is None:
            total = len(charted(_moves(lt)))
            await asyncio.to_thread(self.store.create, lt.id, key, total, time.time())
            self._launch(lt)
            job = await asyncio.to_thread(self.store.get, lt.id, key)
        elif job.status == "failed":
            raise Refused(Code.CONFLICT, _("the review could not be made"))
        else:
            await self._resume_if_left(lt, job)
        return await self.answer(lt, seat, job)

    async def status(self, lt: LiveTable, seat: int | None) -> dict[str, Any]:
        """The review's progress, or the review once made."""
        viewer = self.viewer(lt, seat)
        key = info_key(lt.game, viewer)
        job = await asyncio.to_thread(self.store.get, lt.id, key)
        if job is not None:
            await self._resume_if_left(lt, job)
        return await self.answer(lt, seat, job)

    async def _resume_if_left(self, lt: LiveTable, job: ReviewJob) -> None:
        """A running review nobody works on (its server stopped): take it over."""
        if job.status not in MAKING or lt.id in self.tasks:
            return
        if time.time() - job.updated < self.stale_after:
            return
        if await asyncio.to_thread(self.store.claim, lt.id, job.key, job.updated, time.time()):
            log.info("review %s/%s resumed at %d of %d", lt.id, job.key, job.done, job.total)
            self._launch(lt)

    # ------------------------------------------------------------------ the work
    def changed(self, lt: LiveTable) -> None:
        """A table changed (a move, its end): work out the estimates it now needs."""
        if not self._swept:
            self._swept = True
            self._spawn("sweep", self._sweep())
        if lt.log and lt.meta.status in (TableStatus.RUNNING, *REVIEWED):
            self._launch(lt)
        elif lt.meta.status == TableStatus.ABORTED:
            self._spawn(f"drop {lt.id}", asyncio.to_thread(self.store.drop, lt.id))

    def _launch(self, lt: LiveTable) -> None:
        """Work out what ``lt`` needs now: in a new task, or when its task is under way, by
        that task once it is done with what it has."""
        self._latest[lt.id] = lt
        task = self.tasks.get(lt.id)
        if task is not None and not task.done():
            self._again.add(lt.id)
        else:
            self._spawn(lt.id, self._run(lt.id))

    def _spawn(self, name: str, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks[name] = task
        task.add_done_callback(lambda t: self.tasks.pop(name, None)
                               if self.tasks.get(name) is t else None)

    async def _sweep(self) -> None:
        """Resume the reviews of games over that a stopped server left unfinished."""
        ids = await asyncio.to_thread(self.store.left, time.time() - self.stale_after)
        for table_id in ids:
            try:
                lt = await self.tables.load(table_id)
            except Exception:  # a table that cannot be read has no review to finish
                log.exception("review of %s could not be resumed", table_id)
                continue
            if lt is not None and lt.meta.status in REVIEWED and lt.id not in self.tasks:
                log.info("review of %s resumed", table_id)
                self._launch(lt)

    async def _run(self, table_id: str) -> None:
        lt = self._latest[table_id]
        try:
            while True:
                self._again.discard(table_id)
                lt = self._latest.get(table_id, lt)  # the table as last told
                await self._work(lt)
                if table_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a review must never take the server down
            log.exception("review of %s failed", table_id)
            for viewer in views(lt.game):
                await asyncio.to_thread(self.store.fail, table_id, info_key(lt.game, viewer),
                                        f"the review could not be made: {e}", time.time())
        finally:
            self._latest.pop(table_id, None)

    async def _work(self, lt: LiveTable) -> None:
        """Estimate every charted position of the table's game so far that is not stored
        yet, for every view, oldest first; once the game is over, put each review
        together."""
        moves = _moves(lt)
        over = lt.meta.status in REVIEWED
        where, sums = charted(moves), prefixes(moves)
        g = lt.game
        todo: dict[str, tuple[int | None, list[Any]]] = {}
        for viewer in views(g):
            key = info_key(g, viewer)
            job = await asyncio.to_thread(self.store.get, lt.id, key)
            if job is None:
                if over:
                    continue  # a view of a game played without estimates: when asked for
                await asyncio.to_thread(self.store.create, lt.id, key, len(where), time.time(),
                                        PLAYING)
                stored: list[Any] = []
            elif job.status not in MAKING:
                continue  # made (or failed) already
            else:
                stored = job.parts
                if over and job.status == PLAYING:
                    await asyncio.to_thread(self.store.over, lt.id, key, time.time())
            parts = [p if k < len(stored) and p is not None and p.get("h") == sums[k] else None
                     for k, p in enumerate(stored[:len(where)] + [None] * len(where))][:len(where)]
            todo[key] = (viewer, parts)
        for k, at in enumerate(where):
            need = [key for key, (_viewer, parts) in todo.items() if parts[k] is None]
            if not need:
                continue
            if len(lt.log) < len(moves):
                self._again.add(lt.id)  # a move was taken back: look again
                return
            # every view of the position in one job; a view the move before told nothing
            # keeps the estimate it had (:func:`meeple.bots.review.unseen`)
            found = await self.tables.bots.background(
                estimate_views, f"{lt.id}/review", type(g), g.num_players, dict(g.options),
                moves[:at], where[k - 1] if k else 0, [todo[key][0] for key in need],
                [todo[key][1][k - 1] if k else None for key in need], self.iterations,
                person=lt.id)
            for key, one in zip(need, found, strict=True):
                parts = todo[key][1]
                parts[k] = {**one, "h": sums[k]}
                await asyncio.to_thread(self.store.progress, lt.id, key, parts, time.time())
        if not over:
            return
        with i18n.speaking(i18n.DEFAULT):
            names = display_names(lt)
        for key, (viewer, parts) in todo.items():
            review = await self.tables.work.run(self._assemble, lt, viewer, parts, names,
                                                i18n.DEFAULT)
            stored_review = {**review.stored(), "lang": i18n.DEFAULT}
            await asyncio.to_thread(self.store.finish, lt.id, key, stored_review, time.time())

    def _assemble(self, lt: LiveTable, viewer: int | None, parts: list[Any],
                  names: list[str], lang: str | None = None) -> Review:
        with i18n.speaking(lang or i18n.language()):
            return assemble(lt.state, viewer, parts, names=names, iterations=self.iterations,
                            ended=ended_early(lt))

    def stop(self) -> None:
        """Cancel this app's work (the positions stored stay for a resume)."""
        for task in list(self.tasks.values()):
            task.cancel()
        self.tasks.clear()
        self._latest.clear()
        self._again.clear()
