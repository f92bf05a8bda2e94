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
import inspect
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, Protocol, TypeVar

import meeple
from meeple.bots import bot_names, make_bot, view_for
from meeple.engine import Game, MeepleError
from meeple.engine.i18n import words

from . import auth, views
from .domain import (
    CLOCK_PROFILES,
    CREATE_KEY_WINDOW,
    DEFAULT_MOVE_LIMIT,
    LIVE,
    ClockKind,
    Code,
    Departure,
    Move,
    OnTimeout,
    Quotas,
    Refused,
    Seat,
    SeatChoice,
    SeatKind,
    StoredTable,
    TableEvent,
    TableMeta,
    TableStatus,
    UserRecord,
    Visibility,
    result_of,
)
from .live import DEFAULT_BOT, Holder, LiveTable
from .names import seat_names as own_seat_names
from .pool import BotPool, Busy, WorkPool
from .store import Conflict, Store

T = TypeVar("T")

_, _n = words(__file__)

log = logging.getLogger("meeple.server")
TIMEOUT_BOT = "greedy"
"""The bot that takes over a seat whose time ran out, unless the clock names another."""
MAX_TABLE_ID = 16
PROCESS_BOTS = frozenset({"greedy", "mcts"})
"""The bots that think in the bots' process pool (others, added by a program, in a thread)."""
FINISHED_KEPT = 32
"""Finished tables kept loaded after their last viewer left (replays are built once)."""
STORE_ATTEMPTS = 5
"""How often a move is tried again when another process stored a move first."""
STORE_THREADS = 4
"""Worker threads for play's writes and catching up on a store that waits for a database
server (:attr:`Store.offload`)."""
PLAY_ON_BOT = "greedy"
"""The bot that plays on for a person who resigned (or was claimed out) when the others play
on: the seat's pieces stay in the game, its rank is last whatever it scores."""

Tokens = list[dict[str, Any]]
"""Seat tokens handed out: ``[{"seat", "token"}]``."""


Listener = Callable[[LiveTable, str, dict[str, Any]], Awaitable[None] | None]
"""Told of every change to a table: ``listener(table, event, data)`` (see
:meth:`TableService.on_event`)."""


class Fanout(Protocol):
    """Tells other server processes that a table changed."""

    async def publish(self, table_id: str) -> None: ...


def load_game(name: str, players: int | None, options: Mapping[str, Any]) -> Game:
    """A game to seat a table with, or a refusal saying why not."""
    if name not in meeple.games():
        raise Refused(Code.NOT_FOUND, _("no game named {name}; known: {choices}",
                                        name=repr(name), choices=', '.join(meeple.games())))
    try:
        return meeple.load(name, players, **options)
    except MeepleError as e:
        raise Refused(Code.INVALID, str(e)) from None
    except (ValueError, TypeError, OverflowError) as e:  # an option the game could not read
        raise Refused(Code.INVALID, _("{name} cannot be set up with these options: {reason}",
                                      name=name, reason=e)) from None


def check_bot(spec: str | None, game: Game) -> str:
    """A bot spec that can play ``game``, or a refusal saying why not."""
    if not spec:
        raise Refused(Code.INVALID, _("a bot seat needs 'bot'; known: {choices}",
                                      choices=', '.join(bot_names())))
    try:
        make_bot(spec, game, seed=0)
    except MeepleError as e:
        raise Refused(Code.INVALID, str(e)) from None
    except Exception as e:
        raise Refused(Code.INVALID, _("bot {spec} cannot play {name}: {reason}",
                                      spec=repr(spec), name=game.name, reason=e)) from None
    return spec


def clock_of(spec: str | Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The stored clock of a table from a profile name or a clock object (``None``: none)."""
    if spec is None:
        return None
    if isinstance(spec, str):
        if spec not in CLOCK_PROFILES:
            raise Refused(Code.INVALID,
                          _("no clock profile {spec}; known: {choices}",
                            spec=repr(spec), choices=', '.join(CLOCK_PROFILES)))
        return {"profile": spec, **CLOCK_PROFILES[spec], "on_timeout": OnTimeout.BOT,
                "bot": TIMEOUT_BOT}
    kind = ClockKind(spec["kind"])
    out: dict[str, Any] = {"profile": None, "kind": kind,
                           "on_timeout": OnTimeout(spec.get("on_timeout", OnTimeout.BOT)),
                           "bot": spec.get("bot") or TIMEOUT_BOT}
    if kind == ClockKind.FISCHER:
        if spec.get("initial") is None:
            raise Refused(Code.INVALID, _("a fischer clock needs 'initial' seconds"))
        out["initial"], out["increment"] = spec["initial"], spec.get("increment", 0)
    else:
        if spec.get("seconds") is None:
            raise Refused(Code.INVALID, _("a per_move clock needs 'seconds'"))
        out["seconds"] = spec["seconds"]
    return out


def check_rated_options(game: Game) -> None:
    """Refuse a rated table unless it is set up with the game's standard options."""
    standard = meeple.load(game.name, game.num_players).options
    if dict(game.options) != dict(standard):
        raise Refused(Code.INVALID, _("a rated table is played with the game's standard "
                                      "options; make a casual table to play with others"))


def check_rated_people(seats: Sequence[Seat]) -> None:
    """Refuse to start a rated table unless at least two different people sit there."""
    people = [s.user_id for s in seats if s.kind == SeatKind.HUMAN and s.user_id is not None]
    if len(people) != len(set(people)):
        raise Refused(Code.CONFLICT, _("at a rated table each person plays one seat"))
    if len(set(people)) < 2:
        raise Refused(Code.CONFLICT, _("a rated table needs at least two different people at "
                                       "it (bots do not count)"))


def check_rated_player(user: UserRecord) -> None:
    """Refuse a guest a seat at a rated table."""
    if user.guest:
        raise Refused(Code.FORBIDDEN, _("rated tables are for registered players: sign up to "
                                        "play rated games"))


def moves_played(lt: LiveTable) -> int:
    """The moves the players of a table have made so far (chance not counted)."""
    return sum(1 for e in lt.log if e.player >= 0)


def valid_id(table_id: str) -> bool:
    """Whether ``table_id`` could be a table's id (letters, digits, '-' and '_')."""
    return 0 < len(table_id) <= MAX_TABLE_ID and all(
        c.isascii() and (c.isalnum() or c in "-_") for c in table_id)


def is_search_bot(spec: str | None) -> bool:
    """Whether a bot spec searches (thinks in the bots' process pool)."""
    return (spec or DEFAULT_BOT).partition(":")[0] == "mcts"


def _quota(reason: str) -> Refused:
    refusal = Refused(Code.QUOTA, reason)
    refusal.retry_after = 60
    return refusal


def alone_with_bots(seats: Sequence[Seat], user_id: int) -> bool:
    """Whether ``user_id`` plays at a table of ``seats`` with none but bots (and their own
    other seats): a game against bots, such as the tutorial's, that waits on them alone."""
    return any(s.kind == SeatKind.HUMAN and s.user_id == user_id for s in seats) and all(
        s.kind == SeatKind.BOT or (s.kind == SeatKind.HUMAN and s.user_id == user_id)
        for s in seats)


def _with_token(seat: Seat) -> tuple[Seat, dict[str, Any]]:
    token = auth.new_token()
    return replace(seat, token_hash=auth.token_hash(token)), {"seat": seat.seat, "token": token}


class TableService:
    """Every live table of this server process over one store, and every change to them."""

    def __init__(self, store: Store, *, bot_delay: float = 0.0,
                 rng: random.Random | None = None, quotas: Quotas | None = None,
                 work: WorkPool | None = None, bots: BotPool | None = None,
                 move_limit: float = DEFAULT_MOVE_LIMIT):
        self.store = store
        self.move_limit = move_limit
        """The time a person has for a move at a table without a clock (seconds)."""
        self.watchers: dict[int, set[asyncio.Queue[int]]] = {}
        """The live turn counts asked for, by user: each queue is told the user's count."""
        self.tables: dict[str, LiveTable] = {}
        self.finished: OrderedDict[str, LiveTable] = OrderedDict()
        self.rng = rng or random.SystemRandom()
        self.bot_delay = bot_delay
        self.quotas = quotas or Quotas()
        self.work = work or WorkPool()
        self.bots = bots or BotPool()
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.fanout: Fanout | None = None  # set when Redis is configured
        self.listeners: list[Listener] = []
        self.on_change: Callable[[LiveTable], None] | None = None
        """Told of every change this process stores (the reviews' estimates follow play)."""
        self._store_threads: ThreadPoolExecutor | None = None

    async def _stored(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, a call of the store: in a worker thread where the store waits for
        a database server (the event loop goes on meanwhile), else at once."""
        if not self.store.offload:
            return fn(*args)
        if self._store_threads is None:
            self._store_threads = ThreadPoolExecutor(STORE_THREADS,
                                                     thread_name_prefix="meeple-store")
        return await asyncio.get_running_loop().run_in_executor(self._store_threads, fn, *args)

    # ------------------------------------------------------------------ events
    def on_event(self, listener: Listener) -> None:
        """Call ``listener(lt, event, data)`` after each change to a table is stored.

        ``event`` is a :class:`~meeple.server.domain.TableEvent` (a ``str``) and ``data``:

        - ``"joined"``, ``"left"``: ``{"seat", "user_id", "name"}`` (a person sat down at or
          left a waiting table);
        - ``"started"``: ``{}`` (play began);
        - ``"resigned"``: ``{"seat", "user_id", "name"}`` (that person gave up);
        - ``"timed_out"``: ``{"seat", "user_id", "name"}`` (their time ran out: a bot took
          the seat, or the seat was claimed or forfeited);
        - ``"claimed"``: ``{"seat", "by"}`` (the user ``by`` claimed the game from the late
          ``seat``);
        - ``"aborted"``: ``{}`` (the table was called off before its first move), or
          ``{"closed": True}`` (an operator closed it);
        - ``"undone"``: ``{"seat"}`` (that seat took back its last move);
        - ``"finished"``: ``{"ranks", "scores", "resigned", "timed_out"}`` (the game is
          over; ``resigned`` and ``timed_out`` list seats, in the order they left);
        - ``"turn"``: ``{"seats", "user_ids"}`` whenever the set of people to move changes
          (the seats held by people that must act now, and their users; both empty once
          the table is over).

        Only the process that stored the change tells its listeners, once per change, in
        this order (a table that ends says ``"finished"`` before its last ``"turn"``). A
        listener that returns an awaitable is awaited before the next one; one that fails is
        logged and never undoes or stops the change."""
        self.listeners.append(listener)

    async def emit(self, lt: LiveTable, event: TableEvent, data: dict[str, Any]) -> None:
        """Tell every listener of ``event`` at ``lt`` (failures are logged, never raised)."""
        for listener in list(self.listeners):
            try:
                out = listener(lt, event, data)
                if inspect.isawaitable(out):
                    await out
            except Exception:
                log.exception("a listener of %s at table %s failed", event, lt.id)

    async def _tell_progress(self, lt: LiveTable) -> None:
        """Say a game's end and a change of the people to move, once each."""
        m = lt.meta
        if m.status == TableStatus.FINISHED and not lt.told_finished:
            lt.told_finished = True
            result = m.result or {}
            await self.emit(lt, TableEvent.FINISHED, {
                "ranks": list(result.get("ranks") or []),
                "scores": list(result.get("scores") or []),
                "resigned": list(result.get("resigned") or []),
                "timed_out": list(result.get("timed_out") or []),
            })
        turn = lt.people_to_move()
        if turn != lt.told_turn:
            users = {u for _, u in turn} | {u for _, u in lt.told_turn}
            lt.told_turn = turn
            await self.emit(lt, TableEvent.TURN, {
                "seats": [s for s, _ in turn], "user_ids": sorted({u for _, u in turn})})
            await self.push_turns(users)

    # ------------------------------------------------------------------ live turn counts
    def turn_count(self, user_id: int) -> int:
        """How many running tables wait for ``user_id`` to act (seats they hold as a person;
        finished, aborted and abandoned tables never count)."""
        return self.store.turn_count(user_id)

    def watch(self, user_id: int) -> asyncio.Queue[int]:
        """A queue told ``user_id``'s turn count whenever it may have changed."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        self.watchers.setdefault(user_id, set()).add(queue)
        return queue

    def unwatch(self, user_id: int, queue: asyncio.Queue[int]) -> None:
        have = self.watchers.get(user_id)
        if have is not None:
            have.discard(queue)
            if not have:
                del self.watchers[user_id]

    async def push_turns(self, user_ids: set[int]) -> None:
        """Tell the watching users among ``user_ids`` their turn count now (read in a worker
        thread; only users watching cost a read)."""
        for uid in sorted(user_ids & set(self.watchers)):
            try:
                count = await asyncio.to_thread(self.turn_count, uid)
            except Exception:
                log.exception("the turn count of user %s could not be read", uid)
                continue
            for queue in list(self.watchers.get(uid, ())):
                queue.put_nowait(count)

    @property
    def shared(self) -> bool:
        """Whether other server processes may write the same tables."""
        return self.fanout is not None

    # ------------------------------------------------------------------ reading
    def _loaded(self, table_id: str) -> LiveTable | None:
        lt = self.tables.get(table_id)
        if lt is None:
            lt = self.finished.pop(table_id, None)
            if lt is not None:
                self.tables[table_id] = lt
        if lt is not None and lt.stale and not lt.lock.locked():
            self._caught_up(lt, self._fetch(lt))  # changed elsewhere while nobody watched here
        return lt

    def _read(self, table_id: str, reader: bool = True) -> LiveTable | None:
        """A table read from storage and replayed (heavy: a worker thread's job); its log in
        the language in use, or (not for a ``reader``) in none until someone reads it."""
        stored = self.store.table(table_id)
        if stored is None:
            return None
        lt = LiveTable(stored, langs=None if reader else set())
        lt.move_limit = self.move_limit
        lt.add_moves(self.store.moves(table_id))
        lt.told_turn = lt.people_to_move()
        return lt

    def get(self, table_id: str, reader: bool = True) -> LiveTable | None:
        """The live table ``table_id`` (loaded from storage here if need be), or ``None``
        (``reader``: for someone who reads it now, see :meth:`_read`)."""
        lt = self._loaded(table_id)
        if lt is not None or not valid_id(table_id):
            return lt
        lt = self._read(table_id, reader)
        if lt is not None:
            self.tables[table_id] = lt
        return lt

    async def load(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id``, read and replayed in the work pool if it is not
        loaded yet (one read however many ask at once), or ``None``."""
        lt = self._loaded(table_id)
        if lt is not None or not valid_id(table_id):
            return lt
        pending = self._loading.get(table_id)
        if pending is None:
            pending = self._loading[table_id] = asyncio.ensure_future(
                self.work.run(self._read, table_id))
            pending.add_done_callback(lambda _f: self._loading.pop(table_id, None))
        lt = await asyncio.shield(pending)
        if lt is None:
            return None
        have = self._loaded(table_id)
        if have is not None:
            return have
        self.tables[table_id] = lt
        if lt.meta.status == TableStatus.RUNNING:
            self.schedule(lt)
        return lt

    def table(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, or a refusal (not found)."""
        lt = self.get(table_id) if valid_id(table_id) else None
        if lt is None:
            raise Refused(Code.NOT_FOUND, _("no such table"))
        return lt

    async def find(self, table_id: str) -> LiveTable:
        """The live table ``table_id`` (loaded off the event loop), or a refusal."""
        lt = await self.load(table_id) if valid_id(table_id) else None
        if lt is None:
            raise Refused(Code.NOT_FOUND, _("no such table"))
        return lt

    def refresh(self, lt: LiveTable) -> None:
        """Catch up with changes another server process stored."""
        self._caught_up(lt, self._fetch(lt))

    async def catch_up(self, lt: LiveTable) -> None:
        """:meth:`refresh`, read off the event loop where the store waits for a database
        server (the table's lock held: nothing else changes it meanwhile)."""
        got = await self._stored(self._read_since, lt.id, lt.meta.undos, lt.state.move_number())
        self._caught_up(lt, got)

    def _fetch(self, lt: LiveTable) -> tuple[StoredTable, bool, list[Move]] | None:
        return self._read_since(lt.id, lt.meta.undos, lt.state.move_number())

    def _read_since(self, table_id: str, undos: int,
                    have: int) -> tuple[StoredTable, bool, list[Move]] | None:
        """The table as stored, whether moves were taken back since ``undos``, and the moves
        to replay (all of them then, else those from ``have`` on); any thread."""
        stored = self.store.table(table_id)
        if stored is None:
            return None
        undone = stored.meta.undos != undos
        return stored, undone, self.store.moves(table_id, 0 if undone else have)

    def _caught_up(self, lt: LiveTable,
                   got: tuple[StoredTable, bool, list[Move]] | None) -> None:
        """Make what :meth:`_read_since` read the table's state (on the event loop)."""
        stale, lt.stale = lt.stale, False
        if got is None:
            return
        stored, undone, moves = got
        lt.set_stored(stored)
        if undone:  # moves were taken back: read them all again
            self._cancel_bots(lt)
            lt.reload(moves)
        else:
            lt.add_moves(moves)
        if stale:  # the processes that stored the changes told their listeners
            lt.told_turn = lt.people_to_move()
            lt.told_finished = lt.meta.status == TableStatus.FINISHED

    # ------------------------------------------------------------------ seating
    def _new_id(self) -> str:
        for _attempt in range(10):
            tid = secrets.token_urlsafe(6)
            if self.store.table_id_free(tid):
                return tid
        return secrets.token_urlsafe(9)

    def _add_table(self, owner: UserRecord, game: Game, seats: list[Seat],
                   visibility: Visibility, clock: dict[str, Any] | None,
                   autostart: bool, rated: bool = False, key: str | None = None) -> str:
        meta = TableMeta(
            id=self._new_id(), game=game.name, players=game.num_players,
            options=dict(game.options), owner_id=owner.id,
            invite_code=secrets.token_urlsafe(9), created=time.time(), visibility=visibility,
            clock=clock, autostart=autostart, rated=rated,
        )
        self.store.add_table(meta, seats, key=key)
        return meta.id

    def _created_with(self, user: UserRecord, key: str | None) -> LiveTable | None:
        """The table ``user`` made with request ``key`` in the last few minutes, if any."""
        if key is None:
            return None
        tid = self.store.keyed_table(user.id, key, time.time() - CREATE_KEY_WINDOW)
        return self.get(tid) if tid is not None else None

    def _again(self, lt: LiveTable, user: UserRecord) -> Tokens:
        """New seat tokens for ``user``'s seats of a table they asked for again."""
        tokens: Tokens = []
        for s in lt.seats:
            if s.kind == SeatKind.HUMAN and s.user_id == user.id:
                row, token = _with_token(s)
                self.store.update_seat(lt.id, row)
                tokens.append(token)
        self.refresh(lt)
        return tokens

    async def create(
        self,
        user: UserRecord,
        game: Game,
        seats: Sequence[tuple[SeatChoice, str | None]] | None = None,
        *,
        visibility: Visibility = Visibility.PUBLIC,
        clock: str | Mapping[str, Any] | None = None,
        start: bool = True,
        names: Sequence[str | None] | None = None,
        rated: bool = False,
        key: str | None = None,
        address: str | None = None,
    ) -> tuple[LiveTable, Tokens]:
        """A new table owned by ``user``; ``seats`` are (choice, bot spec) per player (default:
        the creator, then open seats). Starts at once when ``start`` and every seat is filled.
        ``names``: per seat, the name of a seat of the creator's (hot-seat: each player's
        own); ``None`` there and on other seats (the creator's seats default to their name).

        ``rated``: a rated table (the game's standard options, at least two people at the
        start; no moves taken back). ``key``: the request's own key: asking again with the same
        key within a few minutes answers the first table (with new seat tokens). ``address``:
        where the request came from (guests there share a limit of tables with thinking bots)."""
        again = self._created_with(user, key)
        if again is not None:
            return again, self._again(again, user)
        if rated:
            check_rated_options(game)
            if any(choice == SeatChoice.ME for choice, _bot in seats or [(SeatChoice.ME, None)]):
                check_rated_player(user)
        n = game.num_players
        specs = list(seats) if seats else [(SeatChoice.ME, None)] + [(SeatChoice.OPEN, None)] * (
            n - 1)
        if len(specs) != n:
            raise Refused(Code.INVALID, _("seats lists {n_specs} seats for {n} players",
                                          n_specs=len(specs), n=n))
        if rated and sum(choice == SeatChoice.ME for choice, _bot in specs) > 1:
            raise Refused(Code.CONFLICT, _("at a rated table each person plays one seat"))
        try:
            named = own_seat_names(
                user.name, [choice == SeatChoice.ME for choice, _ in specs], names,
                lambda key: (u := self.store.user_by_key(key)) is not None and not u.guest
                and u.id != user.id)
        except ValueError as e:
            raise Refused(Code.INVALID, str(e)) from None
        except LookupError as e:
            raise Refused(Code.CONFLICT, str(e)) from None
        rows: list[Seat] = []
        tokens: Tokens = []
        for i, (choice, bot) in enumerate(specs):
            if choice == SeatChoice.ME:
                seat, token = _with_token(Seat.person(i, user.id, named[i] or user.name))
                tokens.append(token)
                rows.append(seat)
            elif choice == SeatChoice.BOT:
                rows.append(Seat.robot(i, check_bot(bot, game), taken=[r.name for r in rows]))
            else:
                rows.append(Seat(i))
        stored_clock = clock_of(clock)
        if stored_clock and stored_clock["on_timeout"] == OnTimeout.BOT:
            check_bot(stored_clock["bot"], game)
        self.check_quota(user, rows, address=address)
        if rated and start and all(r.kind != SeatKind.OPEN for r in rows):
            check_rated_people(rows)
        try:
            tid = self._add_table(user, game, rows, visibility, stored_clock, start,
                                  rated=rated, key=key)
        except Conflict:  # the same request, stored first by another process
            again = self._created_with(user, key)
            if again is None:
                raise Refused(Code.CONFLICT, _("this request was already answered")) from None
            return again, self._again(again, user)
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
                raise Refused(Code.CONFLICT, _("the game has already started"))
            if m.visibility == Visibility.PRIVATE and code != m.invite_code and (
                user.id != m.owner_id
            ):
                raise Refused(Code.FORBIDDEN, _("this table is private: join with its invite "
                                                "link"))
            if code is not None and code != m.invite_code:
                raise Refused(Code.FORBIDDEN, _("this invite link is not valid"))
            if m.rated:
                check_rated_player(user)
            open_seats = [s.seat for s in lt.seats if s.kind == SeatKind.OPEN]
            chosen = seat if seat is not None else next(iter(open_seats), None)
            if chosen is None:
                raise Refused(Code.CONFLICT, _("every seat is taken"))
            if chosen >= len(lt.seats):
                raise Refused(Code.INVALID,
                              _("no seat {chosen}; seats are 0..{last}",
                                chosen=chosen, last=len(lt.seats) - 1))
            if chosen not in open_seats:
                raise Refused(Code.CONFLICT, _("seat {chosen} is taken", chosen=chosen))
            if (m.rated or not lt.game.perfect_information) and any(
                s.kind == SeatKind.HUMAN and s.user_id == user.id for s in lt.seats
            ):
                raise Refused(Code.CONFLICT, _("at a rated table each person plays one seat")
                              if m.rated else
                              _("you already sit at this table: in a game of hidden "
                                "information one person plays one seat (a hot-seat table is "
                                "made with several of your seats when it is created)"))
            row, token = _with_token(Seat.person(chosen, user.id, user.name))
            if not self.store.update_seat(lt.id, row, if_open=True):
                raise Refused(Code.CONFLICT, _("seat {chosen} is taken", chosen=chosen))
            self.refresh(lt)
        await self.emit(lt, TableEvent.JOINED,
                        {"seat": chosen, "user_id": user.id, "name": user.name})
        await self._seats_changed(lt)
        return [token]

    async def leave(self, lt: LiveTable, seat: int, user_id: int | None,
                    token: str | None) -> None:
        """Free a seat its holder leaves before the start (the owner may also free a bot
        seat)."""
        async with lt.lock:
            self.refresh(lt)
            if lt.meta.status != TableStatus.WAITING:
                raise Refused(Code.CONFLICT, _("the game has started: seats cannot be left now"))
            if not 0 <= seat < len(lt.seats):
                raise Refused(Code.INVALID, _("no seat {seat}; seats are 0..{last}",
                                              seat=seat, last=len(lt.seats) - 1))
            owner_frees_bot = lt.seats[seat].kind == SeatKind.BOT and (
                user_id is not None and user_id == lt.meta.owner_id)
            if not owner_frees_bot and not lt.holds(seat, user_id, token):
                raise Refused(Code.FORBIDDEN, _("you do not hold seat {seat}", seat=seat))
            old = lt.seats[seat]
            self.store.update_seat(lt.id, old.opened())
            self.refresh(lt)
        if old.kind == SeatKind.HUMAN:
            await self.emit(lt, TableEvent.LEFT,
                            {"seat": seat, "user_id": old.user_id, "name": old.name})
        await self.changed(lt)

    def check_quota(self, user: UserRecord, seats: Sequence[Seat], *,
                    table_id: str | None = None, address: str | None = None) -> None:
        """Refuse (429, or 503 when the bots' pool is full) unless ``user`` may own a table
        with ``seats``: a new one, or their table ``table_id`` with its seats changed to these.
        A table where they sit alone with bots counts toward none of these limits (it waits on
        them alone: it is paused whenever they leave it); a guest asking from ``address`` also
        keeps within the tables with thinking bots that guests there may have, paused or not."""
        q = self.quotas
        owned = self.store.owned_open(user.id)
        owned.pop(table_id or "", None)
        bots = [s.bot for s in seats if s.kind == SeatKind.BOT]
        if not alone_with_bots(seats, user.id):
            mine = [t for t in owned.values() if not alone_with_bots(t, user.id)]
            if table_id is None and len(mine) >= q.tables:
                raise _quota(_(
                    "you have {n_mine} tables with other players (or waiting for them), the "
                    "most one person may have: finish, resign or call off one of them (under "
                    "Your tables in the lobby) to start another; games against bots alone are "
                    "not limited", n_mine=len(mine)))
            have = [s.bot for t in mine for s in t if s.kind == SeatKind.BOT] + bots
            if len(have) > q.bot_seats:
                raise _quota(_("at most {bot_seats} bot seats at your open tables at once",
                               bot_seats=q.bot_seats))
            if sum(map(is_search_bot, have)) > q.search_bots:
                raise _quota(_("at most {search_bots} thinking (mcts) bots at your open tables "
                               "at once", search_bots=q.search_bots))
        if table_id is None and address is not None and user.guest and any(
                map(is_search_bot, bots)):
            self.bots.check_address(sum(
                any(is_search_bot(s.bot) for s in table if s.kind == SeatKind.BOT)
                for table in self.store.owned_open(
                    *self.bots.guests_at(address, user.id)).values()))
        if any(map(is_search_bot, bots)) and self.bots.full:
            raise Busy(_("the bots are busy thinking for other tables; try again shortly"))

    def _owner_before_start(self, lt: LiveTable, user: UserRecord, why: str) -> None:
        """Refuse unless ``user`` owns the table and it has not started (``why``: the
        refusal, said, for someone else)."""
        if user.id != lt.meta.owner_id:
            raise Refused(Code.FORBIDDEN, why)
        if lt.meta.status != TableStatus.WAITING:
            raise Refused(Code.CONFLICT, _("the game has already started"))

    async def set_seat(self, lt: LiveTable, user: UserRecord, seat: int, choice: SeatChoice,
                       bot: str | None = None) -> None:
        """The owner puts a bot in a seat or opens it, before the start."""
        async with lt.lock:
            self.refresh(lt)
            self._owner_before_start(lt, user, _("only the table's owner may change seats"))
            if not 0 <= seat < len(lt.seats):
                raise Refused(Code.INVALID, _("no seat {seat}; seats are 0..{last}",
                                              seat=seat, last=len(lt.seats) - 1))
            old = lt.seats[seat]
            if old.kind == SeatKind.HUMAN and old.user_id != user.id:
                raise Refused(Code.CONFLICT, _("seat {seat} is taken by {name}",
                                               seat=seat, name=old.name))
            if choice == SeatChoice.BOT:
                row = Seat.robot(seat, check_bot(bot, lt.game),
                                 taken=[s.name for s in lt.seats if s.seat != seat])
                self.check_quota(user, [row if s.seat == seat else s for s in lt.seats],
                                 table_id=lt.id)
            elif choice == SeatChoice.OPEN:
                row = old.opened()
            else:
                raise Refused(Code.INVALID, _("a seat can be changed to a bot or opened"))
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
        self._owner_before_start(lt, user, _("only the table's owner may start it"))
        if not lt.full():
            raise Refused(Code.CONFLICT, _("every seat must be taken first"))
        await self._start(lt)

    async def _start(self, lt: LiveTable) -> None:
        """Begin play: resolve the opening chance nodes, start the clocks."""
        async with lt.lock:
            if lt.meta.status != TableStatus.WAITING:
                raise Refused(Code.BAD_REQUEST, _("the table has already started"))
            if lt.meta.rated:
                check_rated_people(lt.seats)
            await self._store_step(lt, [], start=True)
        await self.emit(lt, TableEvent.STARTED, {})
        await self.changed(lt)

    async def rematch(self, lt: LiveTable, user: UserRecord) -> tuple[LiveTable, Tokens]:
        """A new table like a finished one, people re-seated and bots kept; asking again
        answers the same new table."""
        if lt.meta.status != TableStatus.FINISHED:
            raise Refused(Code.CONFLICT, _("a rematch follows a finished game"))
        mine = [s.seat for s in lt.seats if s.user_id == user.id]
        if not mine:
            raise Refused(Code.FORBIDDEN, _("only the players of this table may ask for a "
                                            "rematch"))
        tokens: Tokens = []
        async with lt.lock:
            if self.shared:
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
                        row = Seat.robot(s.seat, s.bot or "", taken=[r.name for r in rows])
                    else:
                        row = Seat(s.seat)
                    rows.append(row)
                self.check_quota(user, rows)
                new_id = self._add_table(user, lt.game, rows, lt.meta.visibility,
                                         lt.meta.clock, autostart=True, rated=lt.meta.rated)
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
    async def _store_step(self, lt: LiveTable, moves: list[tuple[int, int]],
                          start: bool = False) -> None:
        """Work out a step of play, store it, then make it the table's state (the table's
        lock held). The store refuses the step if the table changed since (another process
        stored a change this one has not heard of yet): the table catches up instead."""
        step = lt.prepare(moves, self.rng, start=start,
                          light_bots=self.bots.times if self.bot_delay == 0 else None)
        try:
            await self._stored(self.store.commit, lt.id, step.change)
        except Conflict:
            await self.catch_up(lt)
            raise Refused(Code.STALE, _("another move was stored first")) from None
        lt.apply(step)

    async def act(self, lt: LiveTable, seat: Any, action: Any, move_number: Any,
                  bot: bool = False, by: Holder | None = None) -> int:
        """Play ``action`` for ``seat`` answering ``move_number``; the new move number.

        ``bot`` says whether the table's bot in that seat plays it (else a person does). ``by``
        is who asks (every route passes it): they must hold the seat now, checked under the
        table's lock against its current holder. ``None``: the caller already is the seat's
        authority (the service's own callers)."""
        async with lt.lock:
            if lt.stale:  # changes of other processes are caught up as they are told; a
                await self.catch_up(lt)  # change not told yet makes the store refuse the step
            if not isinstance(seat, int) or isinstance(seat, bool) or not (
                0 <= seat < len(lt.seats)
            ):
                raise Refused(Code.BAD_REQUEST, _("no such seat"))
            if (lt.seats[seat].kind == SeatKind.BOT) != bot:
                raise Refused(
                    Code.FORBIDDEN,
                    "a bot plays this seat now" if not bot else "a person plays this seat now",
                )
            if not bot and by is not None and seat not in lt.held_by(by):
                raise Refused(Code.FORBIDDEN, _("you do not hold seat {seat}", seat=seat))
            for attempt in range(STORE_ATTEMPTS):
                lt.check(seat, action, move_number)
                try:
                    await self._store_step(lt, [(seat, action)])
                    break
                except Refused as e:
                    # another process stored a move first (the table was refreshed): at a
                    # simultaneous node this move may still be legal, so try it again
                    if e.code != Code.STALE or not self.shared or attempt == STORE_ATTEMPTS - 1:
                        raise
            n = lt.state.move_number()
        await self.changed(lt)
        return n

    async def timeout(self, lt: LiveTable) -> None:
        """Apply the table's rule to every seat whose time has run out."""
        async with lt.lock:
            if lt.stale:
                await self.catch_up(lt)
            if lt.meta.status != TableStatus.RUNNING:
                return
            clock = lt.meta.clock or {}
            now = time.time()
            late: list[Seat] = []
            for s in list(lt.seats):
                dl = lt.deadline(s)
                if dl is None or dl > now + 1e-3:
                    continue
                late.append(s)
                forfeit = clock.get("on_timeout", OnTimeout.BOT) == OnTimeout.FORFEIT
                departed = [*lt.meta.departed,
                            {"seat": s.seat, "how": Departure.TIMED_OUT, "last": forfeit,
                             "moves": moves_played(lt)}]
                if forfeit:
                    self.store.depart(lt.id, departed, None, now, result_of(
                        lt.state, forfeit=s.seat, departed=lt.meta.departed))
                else:
                    self.store.depart(lt.id, departed, replace(
                        s, kind=SeatKind.BOT, bot=clock.get("bot") or TIMEOUT_BOT), None, None)
                stored = self.store.table(lt.id)
                if stored is not None:
                    lt.set_stored(stored)
                if lt.meta.status != TableStatus.RUNNING:
                    break
            gone = lt.abandon_time()
            if (lt.meta.status == TableStatus.RUNNING and gone is not None and gone <= now
                    and not lt.connected()):
                self.store.end(lt.id, TableStatus.ABANDONED, now, [TableStatus.RUNNING])
                self.refresh(lt)
        for s in late:
            await self.emit(lt, TableEvent.TIMED_OUT,
                            {"seat": s.seat, "user_id": s.user_id, "name": s.name})
        await self.changed(lt)

    # ------------------------------------------------------------------ a table's life
    def _person_seat(self, lt: LiveTable, by: Holder, seat: int | None) -> int:
        """The seat ``by`` plays as a person: ``seat``, or the one they hold (the one whose
        move it was last when they hold several)."""
        held = sorted(s for s in lt.held_by(by) if lt.seats[s].kind == SeatKind.HUMAN)
        if seat is not None:
            if seat not in held:
                raise Refused(Code.FORBIDDEN, _("you do not hold seat {seat}", seat=seat))
            return seat
        if not held:
            raise Refused(Code.FORBIDDEN, _("you do not play at this table"))
        if len(held) == 1:
            return held[0]
        last = next((e.player for e in reversed(lt.log) if e.player in held), None)
        if last is None:
            raise Refused(Code.INVALID, _("you hold several seats here: say which one"))
        return last

    def _depart(self, lt: LiveTable, seat: int, how: Departure) -> None:
        """Store that ``seat`` leaves the game counted last. The others play on, a bot
        playing the seat, if at least two seats remain with a person among them; else the
        game ends (the players left share the first place)."""
        departed = [*lt.meta.departed,
                    {"seat": seat, "how": how, "last": True, "moves": moves_played(lt)}]
        out = {int(d["seat"]) for d in departed if d.get("last", True)}
        staying = [s for s in lt.seats if s.seat not in out]
        now = time.time()
        if len(staying) >= 2 and any(s.kind == SeatKind.HUMAN for s in staying):
            row = replace(lt.seats[seat], kind=SeatKind.BOT, bot=PLAY_ON_BOT)
            ok = self.store.depart(lt.id, departed, row, None, None)
        else:
            ok = self.store.depart(lt.id, departed, None, now,
                                   result_of(lt.state, departed=departed))
        self.refresh(lt)
        if not ok:
            raise Refused(Code.CONFLICT, _("the game is over already"))

    async def resign(self, lt: LiveTable, by: Holder, seat: int | None = None) -> None:
        """The person in ``seat`` (default: the one ``by`` holds) gives up: counted last."""
        async with lt.lock:
            self.refresh(lt)
            if lt.meta.status != TableStatus.RUNNING:
                raise Refused(Code.CONFLICT, _("only a game being played can be resigned"))
            seat = self._person_seat(lt, by, seat)
            old = lt.seats[seat]
            self._depart(lt, seat, Departure.RESIGNED)
        await self.emit(lt, TableEvent.RESIGNED,
                        {"seat": seat, "user_id": old.user_id, "name": old.name})
        await self.changed(lt)

    async def claim(self, lt: LiveTable, by: Holder, seat: int, to_bot: bool = False) -> None:
        """Another player acts on ``seat`` whose time for a move ran out (a table without a
        clock): claim the game (the late seat counted last) or, ``to_bot``, hand the seat to
        a bot that plays on for it."""
        async with lt.lock:
            self.refresh(lt)
            if lt.meta.status != TableStatus.RUNNING:
                raise Refused(Code.CONFLICT, _("the game is not being played"))
            if not 0 <= seat < len(lt.seats):
                raise Refused(Code.INVALID, _("no seat {seat}; seats are 0..{last}",
                                              seat=seat, last=len(lt.seats) - 1))
            old = lt.seats[seat]
            mine = sorted(s for s in lt.held_by(by) if s != seat
                          and lt.seats[s].kind == SeatKind.HUMAN
                          and lt.seats[s].user_id != old.user_id)
            if not mine:
                raise Refused(Code.FORBIDDEN, _("only another player at this table may claim"))
            if seat not in lt.late(time.time()):
                who = views.shown_name(old, lt.seats) or views.player_n(seat + 1)
                raise Refused(Code.CONFLICT, _("{who} still has time for their move", who=who))
            if to_bot:
                departed = [*lt.meta.departed,
                            {"seat": seat, "how": Departure.TIMED_OUT, "last": False}]
                row = replace(old, kind=SeatKind.BOT, bot=TIMEOUT_BOT)
                if not self.store.depart(lt.id, departed, row, None, None):
                    raise Refused(Code.CONFLICT, _("the game is over already"))
                self.refresh(lt)
            else:
                self._depart(lt, seat, Departure.TIMED_OUT)
            claimer = by.user_id if by.user_id is not None else lt.seats[mine[0]].user_id
        await self.emit(lt, TableEvent.TIMED_OUT,
                        {"seat": seat, "user_id": old.user_id, "name": old.name})
        if not to_bot:
            await self.emit(lt, TableEvent.CLAIMED, {"seat": seat, "by": claimer})
        await self.changed(lt)

    async def abort(self, lt: LiveTable, by: Holder) -> None:
        """Call a table off: its owner before the start, a player before any person moved."""
        async with lt.lock:
            self.refresh(lt)
            m = lt.meta
            if m.status == TableStatus.WAITING:
                if by.user_id is None or by.user_id != m.owner_id:
                    raise Refused(Code.FORBIDDEN, _("only the table's owner may call it off "
                                                    "before the start (you may leave your seat)"))
            elif m.status == TableStatus.RUNNING:
                if not any(lt.seats[s].kind == SeatKind.HUMAN for s in lt.held_by(by)):
                    raise Refused(Code.FORBIDDEN, _("only a player of this table may abort it"))
                if lt.person_moved():
                    raise Refused(Code.CONFLICT, _("a move has been made: the game can be "
                                                   "resigned now, not aborted"))
            else:
                raise Refused(Code.CONFLICT, _("the game is over already"))
            if not self.store.end(lt.id, TableStatus.ABORTED, time.time(), LIVE):
                self.refresh(lt)
                raise Refused(Code.CONFLICT, _("the game is over already"))
            self.refresh(lt)
        await self.emit(lt, TableEvent.ABORTED, {})
        await self.changed(lt)

    async def close(self, lt: LiveTable) -> None:
        """An operator closes a table that is waiting or being played: it ends for everyone,
        without a result (as a table called off)."""
        async with lt.lock:
            self.refresh(lt)
            if lt.meta.status not in LIVE or not self.store.end(
                    lt.id, TableStatus.ABORTED, time.time(), LIVE):
                self.refresh(lt)
                raise Refused(Code.CONFLICT, _("the game is over already"))
            self.refresh(lt)
        await self.emit(lt, TableEvent.ABORTED, {"closed": True})
        await self.changed(lt)

    async def remove_person(self, user_id: int) -> int:
        """Take a person away from every table (their account suspended or deleted): in a
        game being played each seat of theirs resigns (a bot plays on for it, or the game
        ends when no other person is left), at a waiting table their seats open again and a
        table they own is called off. How many tables changed."""
        changed = 0
        for stored, _seats in await asyncio.to_thread(self.store.tables_of, user_id, LIVE):
            lt = await self.find(stored.meta.id)
            events: list[tuple[TableEvent, dict[str, Any]]] = []
            async with lt.lock:
                self.refresh(lt)
                mine = [s for s in lt.seats if s.user_id == user_id
                        and s.kind == SeatKind.HUMAN]
                if lt.meta.status == TableStatus.RUNNING:
                    for old in mine:
                        if lt.meta.status != TableStatus.RUNNING:
                            break
                        self._depart(lt, old.seat, Departure.RESIGNED)
                        events.append((TableEvent.RESIGNED, {
                            "seat": old.seat, "user_id": user_id, "name": old.name}))
                elif lt.meta.status == TableStatus.WAITING:
                    if lt.meta.owner_id == user_id:
                        self.store.end(lt.id, TableStatus.ABORTED, time.time(), LIVE)
                        events.append((TableEvent.ABORTED, {}))
                    else:
                        for old in mine:
                            self.store.update_seat(lt.id, old.opened())
                            events.append((TableEvent.LEFT, {
                                "seat": old.seat, "user_id": user_id, "name": old.name}))
                self.refresh(lt)
            for event, data in events:
                await self.emit(lt, event, data)
            if events:
                changed += 1
                await self.changed(lt)
        return changed

    async def undo(self, lt: LiveTable, by: Holder, seat: int | None = None) -> int:
        """Take back the last move of the person in ``seat`` (default: the one ``by`` holds)
        where the rules of :meth:`LiveTable.undo_refusal` allow it; the new move number."""
        async with lt.lock:
            if self.shared:
                self.refresh(lt)
            seat = self._person_seat(lt, by, seat)
            why = lt.undo_refusal(seat)
            if why is not None:
                raise Refused(Code.CONFLICT, why)
            last = next(e for e in reversed(lt.log) if e.player == seat)
            step = lt.rewind(last.n, time.time())
            try:
                self.store.undo(lt.id, lt.state.move_number(), step.change)
            except Conflict:
                self.refresh(lt)
                raise Refused(Code.STALE, _("another move was stored first")) from None
            self._cancel_bots(lt)
            lt.apply_rewind(step)
            n = lt.state.move_number()
        await self.emit(lt, TableEvent.UNDONE, {"seat": seat})
        await self.changed(lt)
        return n

    def _cancel_bots(self, lt: LiveTable) -> None:
        """Stop bots thinking about a position that was taken back."""
        for task in lt.bot_tasks.values():
            task.cancel()
        lt.bot_tasks.clear()

    # ------------------------------------------------------------------ waking up
    async def changed(self, lt: LiveTable) -> None:
        """Tell every connection, other processes, and wake bots and clocks."""
        lt.broadcast()
        if self.fanout is not None:
            await self.fanout.publish(lt.id)
        await self._tell_progress(lt)
        self.schedule(lt)
        if self.on_change is not None:
            self.on_change(lt)
        self.evict(lt)

    def schedule(self, lt: LiveTable, bots: bool = True) -> None:
        """Start bot moves for pending bot seats (not with ``bots=False``) and the timer for
        the next deadline."""
        if lt.timer is not None:
            lt.timer.cancel()
            lt.timer = None
        if lt.meta.status != TableStatus.RUNNING:
            return
        n = lt.state.move_number()
        for seat in lt.state.pending_players():
            if not bots or lt.seats[seat].kind != SeatKind.BOT:
                continue
            task = lt.bot_tasks.get(seat)
            if task is not None and not task.done():
                continue
            lt.bot_tasks[seat] = asyncio.create_task(self._bot_move(lt, seat, n))
        now = time.time()
        wakeups = lt.wakeups(now)
        if wakeups:
            lt.timer = asyncio.create_task(self._timer(lt, min(wakeups) - now))

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
            n = state.move_number()
            if self.bots.times.light(lt.game.name, spec):
                action = lt.light_move(seat, state, self.rng, self.bots.times)
            elif spec.partition(":")[0] not in PROCESS_BOTS:  # a bot only this process knows
                bot = lt.bot(seat, self.rng)
                view = view_for(state, seat, deadline=lt.bot_deadline())
                action = await asyncio.to_thread(bot.act, view)
            else:  # a thinking bot thinks in another process: no table waits for it
                deadline = lt.bot_deadline()
                seconds = None if deadline is None else max(0.05, deadline - time.monotonic())
                moves = [(e.player, e.action) for e in lt.log]
                action = await self.bots.act(lt.id, lt.game, moves, seat, spec, self.rng,
                                             seconds, person=lt.meta.owner_id)
            lt.bot_tasks.pop(seat, None)
            await self.act(lt, seat, int(action), n, bot=True)
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
            lt = self.get(tid, reader=False)  # its words are worked out once someone reads
            if lt is not None:
                self.schedule(lt)
        return len(ids)

    async def recover_starts(self) -> int:
        """Start the full tables set to start when full that a crash left waiting (their last
        seat was stored, their start was not)."""
        started = 0
        for tid in self.store.waiting_full_ids():
            lt = self.get(tid, reader=False)
            if lt is None or not lt.full() or not lt.meta.autostart:
                continue
            with contextlib.suppress(Refused):
                await self._start(lt)
                started += 1
        return started

    def wake(self, lt: LiveTable) -> None:
        """Someone came to the table in this process: its bots move here if they are to
        move (the process that stored the change they answer may have ended before they
        moved)."""
        if lt.meta.status == TableStatus.RUNNING and not lt.stale:
            self.schedule(lt)

    async def on_remote_change(self, table_id: str) -> None:
        """Another process changed a table: catch up and tell this process's connections
        (and the turn counts watched here).

        A table nobody here is connected to (nor watches the turns of) is only marked
        stale: it catches up when it is next used, instead of reading every change of a
        table served elsewhere. The bots are woken by the process that stored the change
        (see :meth:`changed`), not by every process that has the table loaded, which would
        each think for the same move (the first to store it wins, the others' thinking is
        lost); a connection coming here wakes them (:meth:`wake`)."""
        lt = self.tables.get(table_id)
        if lt is None:
            if self.watchers and valid_id(table_id):
                stored = await asyncio.to_thread(self.store.table, table_id)
                if stored is not None:
                    await self.push_turns({s.user_id for s in stored.seats
                                           if s.user_id is not None})
            return
        if not lt.conns and not any(s.user_id in self.watchers for s in lt.seats):
            lt.stale = True  # the clocks run out where the change was stored
            if lt.timer is not None:
                lt.timer.cancel()
                lt.timer = None
            return
        async with lt.lock:
            before = lt.told_turn
            await self.catch_up(lt)
            lt.told_turn = lt.people_to_move()  # the writing process told its listeners
            lt.told_finished = lt.meta.status == TableStatus.FINISHED
        lt.broadcast()
        self.schedule(lt, bots=False)
        if lt.told_turn != before:
            await self.push_turns({u for _, u in before} | {u for _, u in lt.told_turn})

    async def on_remote_resume(self) -> None:
        """The other processes' changes were not heard for a while (Redis was away): every
        table here catches up as after a change."""
        for table_id in list(self.tables):
            try:
                await self.on_remote_change(table_id)
            except Exception:
                log.exception("table %s did not catch up", table_id)

    def evict(self, lt: LiveTable) -> None:
        """Move a table that is over (finished, aborted, abandoned) and that nobody watches to
        the few kept for replays (older ones are forgotten and read again from storage if
        asked)."""
        if lt.meta.status not in LIVE and not lt.conns and not lt.lock.locked():
            if self.tables.get(lt.id) is lt:
                del self.tables[lt.id]
                self.finished[lt.id] = lt
                while len(self.finished) > FINISHED_KEPT:
                    self.finished.popitem(last=False)

    def stop(self) -> None:
        for lt in self.tables.values():
            lt.stop()
        self.tables.clear()
        self.finished.clear()
        self.work.stop()
        self.bots.stop()
        if self._store_threads is not None:  # the writes under way end first
            self._store_threads.shutdown(wait=True)
            self._store_threads = None
