"""The table service: the one writer of tables and seats.

Creating, joining, leaving, changing a seat, starting, rematches, moves and clock timeouts all
happen here, behind a :class:`~meeple.server.store.Store`; the routes only ask. Every change is
stored before anyone is told; chance is resolved with the server's own secret RNG and stored as
moves of player ``CHANCE``. The service also keeps the live tables of this process, wakes their
bots and clocks, and tells other processes through the fan-out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

import meeple
from meeple.bots import bot_names, make_bot, view_for
from meeple.engine import Game, MeepleError

from . import auth
from .domain import (
    CLOCK_PROFILES,
    ClockKind,
    Code,
    OnTimeout,
    Refused,
    Seat,
    SeatChoice,
    SeatKind,
    TableMeta,
    TableStatus,
    UserRecord,
    Visibility,
    result_of,
)
from .live import DEFAULT_BOT, INLINE_BOTS, LiveTable
from .store import Conflict, Store

log = logging.getLogger("meeple.server")
TIMEOUT_BOT = "greedy"
"""The bot that takes over a seat whose time ran out, unless the clock names another."""
MAX_TABLE_ID = 16

Tokens = list[dict[str, Any]]
"""Seat tokens handed out: ``[{"seat", "token"}]``."""


class Fanout(Protocol):
    """Tells other server processes that a table changed."""

    async def publish(self, table_id: str) -> None: ...


def load_game(name: str, players: int | None, options: Mapping[str, Any]) -> Game:
    """A game to seat a table with, or a refusal saying why not."""
    if name not in meeple.games():
        raise Refused(Code.NOT_FOUND, f"no game named {name!r}; known: {', '.join(meeple.games())}")
    try:
        return meeple.load(name, players, **options)
    except MeepleError as e:
        raise Refused(Code.INVALID, str(e)) from None


def check_bot(spec: str | None, game: Game) -> str:
    """A bot spec that can play ``game``, or a refusal saying why not."""
    if not spec:
        raise Refused(Code.INVALID, f"a bot seat needs 'bot'; known: {', '.join(bot_names())}")
    try:
        make_bot(spec, game, seed=0)
    except MeepleError as e:
        raise Refused(Code.INVALID, str(e)) from None
    except Exception as e:
        raise Refused(Code.INVALID, f"bot {spec!r} cannot play {game.name}: {e}") from None
    return spec


def clock_of(spec: str | Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The stored clock of a table from a profile name or a clock object (``None``: none)."""
    if spec is None:
        return None
    if isinstance(spec, str):
        if spec not in CLOCK_PROFILES:
            raise Refused(Code.INVALID,
                          f"no clock profile {spec!r}; known: {', '.join(CLOCK_PROFILES)}")
        return {"profile": spec, **CLOCK_PROFILES[spec], "on_timeout": OnTimeout.BOT,
                "bot": TIMEOUT_BOT}
    kind = ClockKind(spec["kind"])
    out: dict[str, Any] = {"profile": None, "kind": kind,
                           "on_timeout": OnTimeout(spec.get("on_timeout", OnTimeout.BOT)),
                           "bot": spec.get("bot") or TIMEOUT_BOT}
    if kind == ClockKind.FISCHER:
        if spec.get("initial") is None:
            raise Refused(Code.INVALID, "a fischer clock needs 'initial' seconds")
        out["initial"], out["increment"] = spec["initial"], spec.get("increment", 0)
    else:
        if spec.get("seconds") is None:
            raise Refused(Code.INVALID, "a per_move clock needs 'seconds'")
        out["seconds"] = spec["seconds"]
    return out


def _with_token(seat: Seat) -> tuple[Seat, dict[str, Any]]:
    token = auth.new_token()
    return replace(seat, token_hash=auth.token_hash(token)), {"seat": seat.seat, "token": token}


class TableService:
    """Every live table of this server process over one store, and every change to them."""

    def __init__(self, store: Store, *, bot_delay: float = 0.0,
                 rng: random.Random | None = None):
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self.rng = rng or random.SystemRandom()
        self.bot_delay = bot_delay
        self.fanout: Fanout | None = None  # set when Redis is configured

    @property
    def shared(self) -> bool:
        """Whether other server processes may write the same tables."""
        return self.fanout is not None

    # ------------------------------------------------------------------ reading
    def get(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id`` (loaded from storage if need be), or ``None``."""
        lt = self.tables.get(table_id)
        if lt is not None:
            return lt
        if len(table_id) > MAX_TABLE_ID:
            return None
        stored = self.store.table(table_id)
        if stored is None:
            return None
        lt = LiveTable(stored)
        lt.add_moves(self.store.moves(table_id))
        self.tables[table_id] = lt
        return lt

    def table(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, or a refusal (not found)."""
        if len(table_id) > MAX_TABLE_ID:
            raise Refused(Code.NOT_FOUND, "no such table")
        lt = self.get(table_id)
        if lt is None:
            raise Refused(Code.NOT_FOUND, f"no table {table_id!r}")
        return lt

    def refresh(self, lt: LiveTable) -> None:
        """Catch up with changes another server process stored."""
        stored = self.store.table(lt.id)
        if stored is None:
            return
        lt.set_stored(stored)
        lt.add_moves(self.store.moves(lt.id, lt.state.move_number()))

    # ------------------------------------------------------------------ seating
    def _new_id(self) -> str:
        for _ in range(10):
            tid = secrets.token_urlsafe(6)
            if self.store.table_id_free(tid):
                return tid
        return secrets.token_urlsafe(9)

    def _add_table(self, owner: UserRecord, game: Game, seats: list[Seat],
                   visibility: Visibility, clock: dict[str, Any] | None,
                   autostart: bool) -> str:
        meta = TableMeta(
            id=self._new_id(), game=game.name, players=game.num_players,
            options=dict(game.options), owner_id=owner.id,
            invite_code=secrets.token_urlsafe(9), created=time.time(), visibility=visibility,
            clock=clock, autostart=autostart,
        )
        self.store.add_table(meta, seats)
        return meta.id

    async def create(
        self,
        user: UserRecord,
        game: Game,
        seats: Sequence[tuple[SeatChoice, str | None]] | None = None,
        *,
        visibility: Visibility = Visibility.PUBLIC,
        clock: str | Mapping[str, Any] | None = None,
        start: bool = True,
    ) -> tuple[LiveTable, Tokens]:
        """A new table owned by ``user``; ``seats`` are (choice, bot spec) per player (default:
        the creator, then open seats). Starts at once when ``start`` and every seat is filled."""
        n = game.num_players
        specs = list(seats) if seats else [(SeatChoice.ME, None)] + [(SeatChoice.OPEN, None)] * (
            n - 1)
        if len(specs) != n:
            raise Refused(Code.INVALID, f"seats lists {len(specs)} seats for {n} players")
        rows: list[Seat] = []
        tokens: Tokens = []
        for i, (choice, bot) in enumerate(specs):
            if choice == SeatChoice.ME:
                seat, token = _with_token(Seat.person(i, user.id, user.name))
                tokens.append(token)
                rows.append(seat)
            elif choice == SeatChoice.BOT:
                rows.append(Seat.robot(i, check_bot(bot, game)))
            else:
                rows.append(Seat(i))
        stored_clock = clock_of(clock)
        if stored_clock and stored_clock["on_timeout"] == OnTimeout.BOT:
            check_bot(stored_clock["bot"], game)
        tid = self._add_table(user, game, rows, visibility, stored_clock, start)
        lt = self.table(tid)
        if start and lt.full():
            await self._start(lt)
        return lt, tokens

    async def join(self, lt: LiveTable, user: UserRecord, seat: int | None = None,
                   code: str | None = None) -> Tokens:
        """Sit ``user`` at ``seat`` (default: the first open one) of a waiting table."""
        async with lt.lock:
            self.refresh(lt)
            m = lt.meta
            if m.status != TableStatus.WAITING:
                raise Refused(Code.CONFLICT, "the game has already started")
            if m.visibility == Visibility.PRIVATE and code != m.invite_code and (
                user.id != m.owner_id
            ):
                raise Refused(Code.FORBIDDEN, "this table is private: join with its invite link")
            if code is not None and code != m.invite_code:
                raise Refused(Code.FORBIDDEN, "this invite link is not valid")
            open_seats = [s.seat for s in lt.seats if s.kind == SeatKind.OPEN]
            chosen = seat if seat is not None else next(iter(open_seats), None)
            if chosen is None:
                raise Refused(Code.CONFLICT, "every seat is taken")
            if chosen >= len(lt.seats):
                raise Refused(Code.INVALID,
                              f"no seat {chosen}; seats are 0..{len(lt.seats) - 1}")
            if chosen not in open_seats:
                raise Refused(Code.CONFLICT, f"seat {chosen} is taken")
            row, token = _with_token(Seat.person(chosen, user.id, user.name))
            if not self.store.update_seat(lt.id, row, if_open=True):
                raise Refused(Code.CONFLICT, f"seat {chosen} is taken")
            self.refresh(lt)
        await self._seats_changed(lt)
        return [token]

    async def leave(self, lt: LiveTable, seat: int, user_id: int | None,
                    token: str | None) -> None:
        """Free a seat its holder leaves before the start."""
        async with lt.lock:
            self.refresh(lt)
            if lt.meta.status != TableStatus.WAITING:
                raise Refused(Code.CONFLICT, "the game has started: seats cannot be left now")
            if not lt.holds(seat, user_id, token):
                raise Refused(Code.FORBIDDEN, f"you do not hold seat {seat}")
            self.store.update_seat(lt.id, lt.seats[seat].opened())
            self.refresh(lt)
        await self.changed(lt)

    def _owner_before_start(self, lt: LiveTable, user: UserRecord, what: str) -> None:
        """Refuse unless ``user`` owns the table and it has not started (``what``: the deed)."""
        if user.id != lt.meta.owner_id:
            raise Refused(Code.FORBIDDEN, f"only the table's owner may {what}")
        if lt.meta.status != TableStatus.WAITING:
            raise Refused(Code.CONFLICT, "the game has already started")

    async def set_seat(self, lt: LiveTable, user: UserRecord, seat: int, choice: SeatChoice,
                       bot: str | None = None) -> None:
        """The owner puts a bot in a seat or opens it, before the start."""
        async with lt.lock:
            self.refresh(lt)
            self._owner_before_start(lt, user, "change seats")
            if not 0 <= seat < len(lt.seats):
                raise Refused(Code.INVALID, f"no seat {seat}; seats are 0..{len(lt.seats) - 1}")
            old = lt.seats[seat]
            if old.kind == SeatKind.HUMAN and old.user_id != user.id:
                raise Refused(Code.CONFLICT, f"seat {seat} is taken by {old.name}")
            if choice == SeatChoice.BOT:
                row = Seat.robot(seat, check_bot(bot, lt.game))
            elif choice == SeatChoice.OPEN:
                row = old.opened()
            else:
                raise Refused(Code.INVALID, "a seat can be changed to a bot or opened")
            self.store.update_seat(lt.id, row)
            self.refresh(lt)
        await self._seats_changed(lt)

    async def _seats_changed(self, lt: LiveTable) -> None:
        """After a seat changed hands: start a table that autostarts once full, else tell
        everyone."""
        if lt.meta.autostart and lt.full():
            with contextlib.suppress(Refused):
                await self._start(lt)
                return
        await self.changed(lt)

    async def start(self, lt: LiveTable, user: UserRecord) -> None:
        """The owner starts a table whose seats are all taken."""
        async with lt.lock:
            self.refresh(lt)
        self._owner_before_start(lt, user, "start it")
        if not lt.full():
            raise Refused(Code.CONFLICT, "every seat must be taken first")
        await self._start(lt)

    async def _start(self, lt: LiveTable) -> None:
        """Begin play: resolve the opening chance nodes, start the clocks."""
        async with lt.lock:
            if lt.meta.status != TableStatus.WAITING:
                raise Refused(Code.BAD_REQUEST, "the table has already started")
            self._store_step(lt, [], start=True)
        await self.changed(lt)

    async def rematch(self, lt: LiveTable, user: UserRecord) -> tuple[LiveTable, Tokens]:
        """A new table like a finished one, people re-seated and bots kept; asking again
        answers the same new table."""
        if lt.meta.status != TableStatus.FINISHED:
            raise Refused(Code.CONFLICT, "a rematch follows a finished game")
        mine = [s.seat for s in lt.seats if s.user_id == user.id]
        if not mine:
            raise Refused(Code.FORBIDDEN, "only the players of this table may ask for a rematch")
        tokens: Tokens = []
        async with lt.lock:
            self.refresh(lt)
            new_id = lt.meta.rematch_id
            created = new_id is None
            if new_id is None:
                rows: list[Seat] = []
                for s in lt.seats:  # people sit again (also where a bot took over on time)
                    if s.user_id is not None:
                        row = Seat.person(s.seat, s.user_id, s.name or user.name)
                        if s.user_id == user.id:
                            row, token = _with_token(row)
                            tokens.append(token)
                    elif s.kind == SeatKind.BOT:
                        row = Seat.robot(s.seat, s.bot or "", s.name)
                    else:
                        row = Seat(s.seat)
                    rows.append(row)
                new_id = self._add_table(user, lt.game, rows, lt.meta.visibility,
                                         lt.meta.clock, autostart=True)
                self.store.update_table(lt.id, {"rematch_id": new_id})
                self.refresh(lt)
        new = self.table(new_id)
        if created:
            await self.changed(lt)
            if new.full():
                with contextlib.suppress(Refused):
                    await self._start(new)
        else:
            async with new.lock:
                self.refresh(new)
                for seat in mine:
                    row, token = _with_token(new.seats[seat])
                    self.store.update_seat(new.id, row)
                    tokens.append(token)
                self.refresh(new)
        return new, tokens

    # ------------------------------------------------------------------ play
    def _store_step(self, lt: LiveTable, moves: list[tuple[int, int]],
                    start: bool = False) -> None:
        """Work out a step of play, store it, then make it the table's state."""
        step = lt.prepare(moves, self.rng, inline_bots=self.bot_delay == 0, start=start)
        try:
            self.store.commit(lt.id, step.change)
        except Conflict:
            self.refresh(lt)
            raise Refused(Code.STALE, "another move was stored first") from None
        lt.apply(step)

    async def act(self, lt: LiveTable, seat: Any, action: Any, move_number: Any,
                  bot: bool = False) -> int:
        """Play ``action`` for ``seat`` answering ``move_number``; the new move number.

        ``bot`` says whether the table's bot in that seat plays it (else a person does)."""
        async with lt.lock:
            if self.shared:
                self.refresh(lt)
            if not isinstance(seat, int) or isinstance(seat, bool) or not (
                0 <= seat < len(lt.seats)
            ):
                raise Refused(Code.BAD_REQUEST, "no such seat")
            if (lt.seats[seat].kind == SeatKind.BOT) != bot:
                raise Refused(
                    Code.FORBIDDEN,
                    "a bot plays this seat now" if not bot else "a person plays this seat now",
                )
            lt.check(seat, action, move_number)
            self._store_step(lt, [(seat, action)])
            n = lt.state.move_number()
        await self.changed(lt)
        return n

    async def timeout(self, lt: LiveTable) -> None:
        """Apply the table's rule to every seat whose time has run out."""
        async with lt.lock:
            if lt.meta.status != TableStatus.RUNNING:
                return
            clock = lt.meta.clock or {}
            now = time.time()
            for s in list(lt.seats):
                dl = lt.deadline(s)
                if dl is None or dl > now + 1e-3:
                    continue
                if clock.get("on_timeout", OnTimeout.BOT) == OnTimeout.FORFEIT:
                    self.store.finish(lt.id, now, result_of(lt.state, forfeit=s.seat))
                else:
                    self.store.update_seat(lt.id, replace(
                        s, kind=SeatKind.BOT, bot=clock.get("bot") or TIMEOUT_BOT))
                stored = self.store.table(lt.id)
                if stored is not None:
                    lt.set_stored(stored)
                if lt.meta.status != TableStatus.RUNNING:
                    break
        await self.changed(lt)

    # ------------------------------------------------------------------ waking up
    async def changed(self, lt: LiveTable) -> None:
        """Tell every connection, other processes, and wake bots and clocks."""
        lt.broadcast()
        if self.fanout is not None:
            await self.fanout.publish(lt.id)
        self.schedule(lt)
        self.evict(lt)

    def schedule(self, lt: LiveTable) -> None:
        """Start bot moves for pending bot seats and the timer for the next deadline."""
        if lt.timer is not None:
            lt.timer.cancel()
            lt.timer = None
        if lt.meta.status != TableStatus.RUNNING:
            return
        n = lt.state.move_number()
        for seat in lt.state.pending_players():
            if lt.seats[seat].kind != SeatKind.BOT:
                continue
            task = lt.bot_tasks.get(seat)
            if task is not None and not task.done():
                continue
            lt.bot_tasks[seat] = asyncio.create_task(self._bot_move(lt, seat, n))
        deadlines = [d for d in (lt.deadline(s) for s in lt.seats) if d is not None]
        if deadlines:
            lt.timer = asyncio.create_task(self._timer(lt, min(deadlines) - time.time()))

    async def _timer(self, lt: LiveTable, delay: float) -> None:
        await asyncio.sleep(max(0.0, delay))
        lt.timer = None
        await self.timeout(lt)

    async def _bot_move(self, lt: LiveTable, seat: int, n: int) -> None:
        try:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            state = lt.state
            if seat not in state.pending_players():
                return
            spec = lt.seats[seat].bot or DEFAULT_BOT
            bot = lt.bot(seat, self.rng)
            view = view_for(state, seat, deadline=lt.bot_deadline())
            if spec in INLINE_BOTS:
                action = bot.act(view)
            else:  # a thinking bot must not hold up other tables
                action = await asyncio.to_thread(bot.act, view)
            lt.bot_tasks.pop(seat, None)
            await self.act(lt, seat, int(action), view.move_number, bot=True)
        except Refused as e:
            log.debug("bot move refused at %s seat %s: %s", lt.id, seat, e.reason)
            lt.bot_tasks.pop(seat, None)
            self.schedule(lt)
        except Exception:
            log.exception("bot in seat %s of table %s failed", seat, lt.id)
            lt.bot_tasks.pop(seat, None)

    def resume(self) -> int:
        """Load every running table (after a restart) and wake its bots and clocks."""
        ids = self.store.running_ids()
        for tid in ids:
            lt = self.get(tid)
            if lt is not None:
                self.schedule(lt)
        return len(ids)

    async def on_remote_change(self, table_id: str) -> None:
        """Another process changed a table: catch up and tell this process's connections."""
        lt = self.tables.get(table_id)
        if lt is None:
            return
        async with lt.lock:
            self.refresh(lt)
        lt.broadcast()
        self.schedule(lt)

    def evict(self, lt: LiveTable) -> None:
        """Forget a finished table nobody watches (it is read again from storage if asked)."""
        if lt.meta.status == TableStatus.FINISHED and not lt.conns and not lt.lock.locked():
            if self.tables.get(lt.id) is lt:
                del self.tables[lt.id]

    def stop(self) -> None:
        for lt in self.tables.values():
            lt.stop()
        self.tables.clear()
