"""Live tables: the engine state of each running table, the moves that change it, the frames
each connection receives, bots in seats and the clocks.

A table's state is rebuilt from its stored moves and cached here. Every change is committed to
the database before anyone is told; chance is resolved with the server's own secret RNG and
stored as moves of player ``CHANCE``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

import meeple
from meeple.bots import make_bot, view_for
from meeple.engine import CHANCE, SIMULTANEOUS, Game, State

from .db import MoveRow, SeatRow, TableRow, User

log = logging.getLogger("meeple.server")
INLINE_BOTS = frozenset({"random"})
"""Bots that answer at once: they move on the event loop instead of a worker thread, and with
no bot delay they reply in the same transaction as the move they answer."""
INLINE_LIMIT = 64
MOVES = MoveRow.__table__
TABLES = TableRow.__table__
SEATS = SeatRow.__table__
UPDATE_TABLE = (
    TABLES.update()
    .where(TABLES.c.id == bindparam("tid"))
    .values(
        move_count=bindparam("move_count"),
        to_move=bindparam("to_move"),
        status=bindparam("status"),
        finished=bindparam("finished"),
        result=bindparam("result"),
    )
)
UPDATE_SEAT = (
    SEATS.update()
    .where(SEATS.c.table_id == bindparam("tid"), SEATS.c.seat == bindparam("s"))
    .values(clock_remaining=bindparam("clock_remaining"), turn_started=bindparam("turn_started"))
)

BOT_MAX_THINK = 60.0
"""The longest a bot thinks about one move on a table with a per-move clock (seconds)."""

CLOCK_PROFILES: dict[str, dict[str, Any]] = {
    "bullet": {"kind": "fischer", "initial": 60, "increment": 1},
    "blitz": {"kind": "fischer", "initial": 300, "increment": 5},
    "rapid": {"kind": "fischer", "initial": 900, "increment": 10},
    "daily": {"kind": "per_move", "seconds": 86400},
    "weekly": {"kind": "per_move", "seconds": 7 * 86400},
}


class Refused(Exception):
    """An action or request that is not allowed now; ``code`` says which kind."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


FRAME_DUE = "frame-due"
"""Queue marker: the connection should be sent the table's current frame."""


@dataclass
class Entry:
    """One move of the table's log."""

    n: int
    player: int
    action: int
    text: str
    phase: int | None  # the run of simultaneous nodes it was chosen in, else None


@dataclass(eq=False)
class Conn:
    """One WebSocket connection to a table: who it is and which seats it holds."""

    user_id: int | None
    held: set[int]
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    dirty: bool = False  # a fresh frame is due (built when it is sent)
    view_seat: int | None = None


def row_dict(row: Any) -> dict[str, Any]:
    return {c.key: getattr(row, c.key) for c in row.__table__.columns}


def result_of(state: State, forfeit: int | None = None) -> dict[str, Any]:
    """The final result of a table: scores, ranks, winners (and who forfeited, if anyone)."""
    n = state.game.num_players
    if forfeit is None:
        return {
            "scores": list(state.scores()),
            "ranks": state.ranks(),
            "winners": state.winners(),
            "forfeit": None,
        }
    return {
        "scores": list(state.scores()),
        "ranks": [n if p == forfeit else 1 for p in range(n)],
        "winners": [p for p in range(n) if p != forfeit],
        "forfeit": forfeit,
    }


def safe_svg(game: Game, observation: dict[str, Any]) -> str:
    """The game's picture of an observation ('' for a game without one)."""
    try:
        return game.renderer.svg(observation)
    except Exception:  # a picture must never stop play
        log.exception("render.svg failed for %s", game.name)
        return ""


class LiveTable:
    """A table loaded in this process."""

    def __init__(self, hub: Hub, table_id: str):
        self.hub = hub
        self.id = table_id
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.meta: dict[str, Any] = {}
        self.seats: list[dict[str, Any]] = []
        self.owner_name: str | None = None
        self.game: Game | None = None
        self.state: State | None = None
        self.log: list[Entry] = []
        self.phase = 0
        self.pending_since: dict[int, int] = {}
        self.bots: dict[int, Any] = {}
        self.bot_tasks: dict[int, asyncio.Task] = {}
        self.timer: asyncio.Task | None = None
        self.version = 0
        self._texts: dict[Any, str] = {}
        """Encoded frame parts of the current version: each seat's view, and "players"."""

    # ------------------------------------------------------------------ loading
    def load(self, db: Session) -> None:
        """Read the table, its seats and its moves, and replay them."""
        row = db.get(TableRow, self.id)
        if row is None:
            raise KeyError(self.id)
        self._load_meta(db, row)
        if self.game is None:
            self.game = meeple.load(row.game, row.players, **row.options)
            self.state = self.game.new_initial_state()
            self.log, self.phase, self.pending_since = [], 0, {}
            self._mark_pending(self.state, set())
        self._load_moves(db)

    def _load_meta(self, db: Session, row: TableRow) -> None:
        self.meta = row_dict(row)
        seats = db.scalars(
            select(SeatRow).where(SeatRow.table_id == self.id).order_by(SeatRow.seat)
        ).all()
        self.seats = [row_dict(s) for s in seats]
        owner = db.get(User, row.owner_id) if row.owner_id is not None else None
        self.owner_name = owner.name if owner else None
        self.version += 1
        self._texts = {}

    def _load_moves(self, db: Session) -> bool:
        assert self.state is not None
        have = self.state.move_number()
        rows = db.scalars(
            select(MoveRow)
            .where(MoveRow.table_id == self.id, MoveRow.n >= have)
            .order_by(MoveRow.n)
        ).all()
        if not rows:
            return False
        state = self.state.clone()
        for m in rows:
            self._advance(state, m.player, m.action, m.notation)
        self.state = state
        self.version += 1
        self._texts = {}
        return True

    def refresh(self) -> None:
        """Catch up with changes another server process stored."""
        with self.hub.db() as db:
            row = db.get(TableRow, self.id)
            if row is None:
                return
            self._load_meta(db, row)
            self._load_moves(db)

    # ------------------------------------------------------------------ moves
    def _advance(self, state: State, player: int, action: int, text: str) -> None:
        """Apply one move to ``state`` and keep the log, phases and pending marks up to date."""
        n = state.move_number()
        before = set(state.pending_players())
        sim = state.current_player == SIMULTANEOUS
        phase = self.phase if sim else None
        state.apply(action, player)
        self.log.append(Entry(n, player, action, text, phase))
        if state.current_player != SIMULTANEOUS:
            # the simultaneous choices so far are revealed once play moves on
            self.phase += 1
        self._mark_pending(state, before - {player})

    def _mark_pending(self, state: State, still: set[int]) -> None:
        n = state.move_number()
        for p in state.pending_players():
            if p not in still:
                self.pending_since[p] = n
        for p in list(self.pending_since):
            if p not in state.pending_players():
                del self.pending_since[p]

    def _check(self, seat: int, action: Any, move_number: Any) -> None:
        if self.meta["status"] != "running":
            raise Refused("finished" if self.meta["status"] == "finished" else "bad_request",
                          f"the table is {self.meta['status']}")
        state = self.state
        assert state is not None
        if isinstance(action, bool) or not isinstance(action, int):
            raise Refused("bad_request", "action must be an integer id")
        if isinstance(move_number, bool) or not isinstance(move_number, int):
            raise Refused("bad_request", "move_number must be an integer")
        if seat not in state.pending_players():
            if move_number < state.move_number():
                raise Refused("stale", f"move {move_number} was already answered")
            raise Refused("illegal", f"seat {seat} has nothing to choose now")
        since = self.pending_since.get(seat, state.move_number())
        if move_number < since:
            raise Refused(
                "stale",
                f"move {move_number} was already answered; the table is at move "
                f"{state.move_number()}",
            )
        if move_number > state.move_number():
            raise Refused("stale", f"there is no move {move_number} yet")
        if not state.is_legal(action, seat):
            raise Refused("illegal", state._why_illegal(action, seat))

    def _commit(self, moves: list[tuple[int, int]], extra: dict[str, Any] | None = None) -> None:
        """Apply ``moves`` and then every chance node with the server's RNG, store them all in
        one transaction, then make them the table's state. Raises :class:`Refused` (stale) if
        another process took the move number first."""
        assert self.state is not None
        saved = (list(self.log), self.phase, dict(self.pending_since))
        state = self.state.clone()
        new: list[Entry] = []
        start = len(self.log)
        try:
            for player, action in moves:
                text = state.action_to_string(action, player)
                self._advance(state, player, action, text)
            self._resolve_chance(state)
            movers = [p for p, _ in moves]
            if self.hub.bot_delay == 0:
                movers += self._inline_bots(state)
            new = self.log[start:]
            now = time.time()
            seat_updates = self._clock_after(state, movers, now)
            values: dict[str, Any] = {
                "tid": self.id,
                "move_count": state.move_number(),
                "to_move": state.pending_players(),
                "status": self.meta["status"],
                "finished": self.meta["finished"],
                "result": self.meta["result"],
            }
            if state.is_terminal():
                values.update(status="finished", finished=now, result=result_of(state))
            with self.hub.engine.begin() as conn:  # Core, fixed statements: one short transaction
                if new:
                    conn.execute(
                        MOVES.insert(),
                        [
                            {"table_id": self.id, "n": e.n, "player": e.player,
                             "action": e.action, "notation": e.text[:200], "created": now}
                            for e in new
                        ],
                    )
                conn.execute(UPDATE_TABLE, values)
                if extra:
                    conn.execute(TABLES.update().where(TABLES.c.id == self.id).values(**extra))
                if seat_updates:
                    conn.execute(
                        UPDATE_SEAT,
                        [{"tid": self.id, "s": seat, **upd} for seat, upd in seat_updates.items()],
                    )
        except IntegrityError:
            self.log, self.phase, self.pending_since = saved
            self.refresh()
            raise Refused("stale", "another move was stored first") from None
        except BaseException:
            self.log, self.phase, self.pending_since = saved
            raise
        self.state = state
        values.pop("tid")
        self.meta.update(values)
        if extra:
            self.meta.update(extra)
        for seat, upd in seat_updates.items():
            self.seats[seat].update(upd)
        self.version += 1
        self._texts = {}

    def _resolve_chance(self, state: State) -> None:
        while state.current_player == CHANCE:
            a = meeple.sample_chance(state, self.hub.rng)
            self._advance(state, CHANCE, a, state.action_to_string(a, CHANCE))

    def _inline_bots(self, state: State) -> list[int]:
        """Let bots that answer at once reply in the same transaction (no bot delay)."""
        movers: list[int] = []
        for _ in range(INLINE_LIMIT):
            pending = state.pending_players()
            if not pending or self.meta["status"] != "running":
                break
            seat = pending[0]
            s = self.seats[seat]
            if s["kind"] != "bot" or (s["bot"] or "random") not in INLINE_BOTS:
                break
            a = int(self._bot(seat, state.game).act(view_for(state, seat)))
            self._advance(state, seat, a, state.action_to_string(a, seat))
            self._resolve_chance(state)
            movers.append(seat)
        return movers

    def _bot(self, seat: int, game: Game) -> Any:
        spec = self.seats[seat]["bot"] or "random"
        bot = self.bots.get(seat)
        if bot is None or getattr(bot, "_spec", None) != spec:
            bot = make_bot(spec, game, seed=self.hub.rng.getrandbits(62))
            bot._spec = spec
            self.bots[seat] = bot
        return bot

    # ------------------------------------------------------------------ clocks
    def _clock_after(self, state: State, movers: list[int], now: float) -> dict[int, dict]:
        """Seat clock columns to store after a change: the movers' banks and who runs now."""
        clock = self.meta.get("clock")
        if not clock:
            return {}
        out: dict[int, dict] = {}
        pending = set(state.pending_players()) if not state.is_terminal() else set()
        for s in self.seats:
            seat = s["seat"]
            rem, started = s["clock_remaining"], s["turn_started"]
            if seat in movers and started is not None and clock["kind"] == "fischer":
                rem = max(0.0, rem - (now - started)) + clock.get("increment", 0)
            if seat in pending:
                if started is None or seat in movers:
                    started = now
            else:
                started = None
            if (rem, started) != (s["clock_remaining"], s["turn_started"]):
                out[seat] = {"clock_remaining": rem, "turn_started": started}
        return out

    def _bot_deadline(self) -> float | None:
        """When a bot on a clocked table must have chosen (a ``time.monotonic()`` time): the
        table's time control holds for bots too. A Fischer clock allows a bot a fortieth of
        the initial time plus the increment per move; a per-move clock, its seconds (at most
        a minute: a bot never keeps people waiting for days)."""
        clock = self.meta.get("clock")
        if not clock:
            return None
        if clock["kind"] == "fischer":
            budget = clock["initial"] / 40 + clock.get("increment", 0)
        else:
            budget = min(float(clock["seconds"]), BOT_MAX_THINK)
        return time.monotonic() + max(0.05, budget)

    def _deadline(self, seat: dict[str, Any]) -> float | None:
        clock = self.meta.get("clock")
        if not clock or seat["turn_started"] is None or seat["kind"] != "human":
            return None
        if clock["kind"] == "fischer":
            return seat["turn_started"] + (seat["clock_remaining"] or 0.0)
        return seat["turn_started"] + clock["seconds"]

    def clocks_json(self) -> dict[str, Any] | None:
        clock = self.meta.get("clock")
        if not clock:
            return None
        now = time.time()
        remaining, running = [], []
        for s in self.seats:
            dl = self._deadline(s)
            if dl is not None:
                running.append(s["seat"])
                remaining.append(max(0.0, dl - now))
            elif clock["kind"] == "fischer":
                remaining.append(s["clock_remaining"])
            else:
                remaining.append(float(clock["seconds"]))
        return {**clock, "remaining": remaining, "running": running, "now": now}

    async def _timer(self, delay: float) -> None:
        await asyncio.sleep(max(0.0, delay))
        self.timer = None
        await self.timeout()

    async def timeout(self) -> None:
        """Apply the table's rule to every seat whose time has run out."""
        async with self.lock:
            if self.meta["status"] != "running":
                return
            clock = self.meta["clock"] or {}
            now = time.time()
            for s in self.seats:
                dl = self._deadline(s)
                if dl is None or dl > now + 1e-3:
                    continue
                with self.hub.db() as db:
                    if clock.get("on_timeout", "bot") == "forfeit":
                        assert self.state is not None
                        res = result_of(self.state, forfeit=s["seat"])
                        db.execute(
                            update(TableRow)
                            .where(TableRow.id == self.id, TableRow.status == "running")
                            .values(status="finished", finished=now, result=res, to_move=[])
                        )
                    else:
                        db.execute(
                            update(SeatRow)
                            .where(SeatRow.table_id == self.id, SeatRow.seat == s["seat"])
                            .values(kind="bot", bot=clock.get("bot", "greedy"))
                        )
                    db.commit()
                    self._load_meta(db, db.get(TableRow, self.id))
                if self.meta["status"] != "running":
                    break
        await self.changed()

    # ------------------------------------------------------------------ acting
    async def act(self, seat: int, action: Any, move_number: Any, bot: bool = False) -> int:
        """Play ``action`` for ``seat`` answering ``move_number``; the new move number.

        ``bot`` says whether the table's bot in that seat plays it (else a person does)."""
        async with self.lock:
            if self.hub.shared:
                self.refresh()
            if not isinstance(seat, int) or isinstance(seat, bool) or not (
                0 <= seat < len(self.seats)
            ):
                raise Refused("bad_request", "no such seat")
            if (self.seats[seat]["kind"] == "bot") != bot:
                raise Refused(
                    "forbidden",
                    "a bot plays this seat now" if not bot else "a person plays this seat now",
                )
            self._check(seat, action, move_number)
            self._commit([(seat, action)])
            n = self.state.move_number()  # type: ignore[union-attr]
        await self.changed()
        return n

    async def start(self) -> None:
        """Begin play: resolve the opening chance nodes, start the clocks."""
        async with self.lock:
            if self.meta["status"] != "waiting":
                raise Refused("bad_request", "the table has already started")
            now = time.time()
            clock = self.meta.get("clock")
            with self.hub.db() as db:
                for s in self.seats:
                    s["clock_remaining"] = (
                        float(clock["initial"]) if clock and clock["kind"] == "fischer" else None
                    )
                    s["turn_started"] = None
                    db.execute(
                        update(SeatRow)
                        .where(SeatRow.table_id == self.id, SeatRow.seat == s["seat"])
                        .values(clock_remaining=s["clock_remaining"], turn_started=None)
                    )
                db.commit()
            self.meta["status"] = "running"
            try:
                self._commit([], extra={"status": "running", "started": now})
            except BaseException:
                self.meta["status"] = "waiting"
                raise
        await self.changed()

    async def changed(self) -> None:
        """Tell every connection, other processes, and wake bots and clocks."""
        self.broadcast()
        await self.hub.publish(self.id)
        self.schedule()
        self.hub.evict(self)

    def schedule(self) -> None:
        """Start bot moves for pending bot seats and the timer for the next deadline."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.meta.get("status") != "running" or self.state is None:
            return
        n = self.state.move_number()
        for seat in self.state.pending_players():
            s = self.seats[seat]
            if s["kind"] != "bot":
                continue
            task = self.bot_tasks.get(seat)
            if task is not None and not task.done():
                continue
            self.bot_tasks[seat] = asyncio.create_task(self._bot_move(seat, n))
        deadlines = [d for d in (self._deadline(s) for s in self.seats) if d is not None]
        if deadlines:
            self.timer = asyncio.create_task(self._timer(min(deadlines) - time.time()))

    async def _bot_move(self, seat: int, n: int) -> None:
        try:
            if self.hub.bot_delay:
                await asyncio.sleep(self.hub.bot_delay)
            state = self.state
            if state is None or seat not in state.pending_players():
                return
            spec = self.seats[seat]["bot"] or "random"
            bot = self._bot(seat, state.game)
            view = view_for(state, seat, deadline=self._bot_deadline())
            if spec in INLINE_BOTS:
                action = bot.act(view)
            else:  # a thinking bot must not hold up other tables
                action = await asyncio.to_thread(bot.act, view)
            self.bot_tasks.pop(seat, None)
            await self.act(seat, int(action), view.move_number, bot=True)
        except Refused as e:
            log.debug("bot move refused at %s seat %s: %s", self.id, seat, e.reason)
            self.bot_tasks.pop(seat, None)
            self.schedule()
        except Exception:
            log.exception("bot in seat %s of table %s failed", seat, self.id)
            self.bot_tasks.pop(seat, None)

    def stop(self) -> None:
        for t in list(self.bot_tasks.values()):
            t.cancel()
        if self.timer is not None:
            self.timer.cancel()
        for c in self.conns:
            c.queue.put_nowait(None)

    # ------------------------------------------------------------------ frames
    def connected(self) -> set[int]:
        out: set[int] = set()
        for c in self.conns:
            out |= c.held
        return out

    def players_json(self) -> list[dict[str, Any]]:
        conn = self.connected()
        return [
            {
                "seat": s["seat"],
                "name": s["name"],
                "kind": s["kind"],
                "level": s["bot"] if s["kind"] == "bot" else None,
                "connected": s["kind"] == "bot" or s["seat"] in conn,
            }
            for s in self.seats
        ]

    def log_for(self, seat: int | None, upto: int | None = None) -> list[dict[str, Any]]:
        """The move log as ``seat`` may see it."""
        state = self.state
        assert state is not None and self.game is not None
        entries = self.log if upto is None else self.log[:upto]
        hidden_info = not self.game.perfect_information and upto is None
        over = self.meta.get("status") == "finished" or state.is_terminal()
        open_phase = self.phase if state.current_player == SIMULTANEOUS else None
        out = []
        for e in entries:
            text = e.text
            if hidden_info and not over:
                if e.player == CHANCE:
                    text = "chance"
                elif e.phase is not None and e.phase == open_phase and e.player != seat:
                    text = "(hidden)"
            out.append({"n": e.n, "player": e.player, "text": text})
        return out

    def base_frame(self, seat: int | None) -> dict[str, Any]:
        """The parts of a frame that depend only on the seat viewed.

        Only their JSON text is kept (in ``frame_text``): a frame's many small dicts would
        otherwise live until the next move, reach the oldest garbage-collector generation and
        make its full collections (which stop the server) frequent and long."""
        state = self.state
        assert state is not None and self.game is not None
        obs = state.observation(seat)
        acts: list[dict[str, Any]] = []
        if seat is not None and self.meta["status"] == "running":
            acts = [state.describe_action(a, seat) for a in state.legal_actions(seat)]
        frame = {
            "type": "frame",
            "table": self.id,
            "game": self.game.name,
            "move_number": state.move_number(),
            "seat": seat,
            "observation": obs,
            "svg": safe_svg(self.game, obs),
            "actions": acts,
            "log": self.log_for(seat),
            "to_move": state.pending_players() if self.meta["status"] == "running" else [],
            "status": self.meta["status"],
            "result": self.meta.get("result"),
        }
        return frame

    def choose_view(self, conn: Conn) -> int | None:
        if not conn.held:
            return None
        pending = set(self.state.pending_players()) if self.state is not None else set()
        if self.meta["status"] == "running":
            if conn.view_seat in conn.held and conn.view_seat in pending:
                return conn.view_seat
            mine = sorted(conn.held & pending)
            if mine:
                return mine[0]
        if conn.view_seat in conn.held:
            return conn.view_seat
        return min(conn.held)

    def frame_text(self, conn: Conn) -> str:
        """The JSON frame for one connection: the cached view of its seat plus who it is."""
        conn.view_seat = self.choose_view(conn)
        seat = conn.view_seat
        base = self._texts.get(seat)
        if base is None:
            base = self._texts[seat] = json.dumps(
                self.base_frame(seat), separators=(",", ":")
            )[:-1]
        players = self._texts.get("players")
        if players is None:
            players = self._texts["players"] = json.dumps(
                self.players_json(), separators=(",", ":")
            )
        tail = json.dumps(
            {"seats": sorted(conn.held), "clocks": self.clocks_json()}, separators=(",", ":")
        )
        return f'{base},"players":{players},{tail[1:]}'

    def broadcast(self) -> None:
        """Mark every connection as due a fresh frame; its writer builds the frame when it
        sends, so several quick changes cost one frame."""
        self._texts.pop("players", None)  # who is connected may have changed
        for c in list(self.conns):
            if not c.dirty:
                c.dirty = True
                c.queue.put_nowait(FRAME_DUE)


class Hub:
    """Every live table of this server process, the database and the fan-out."""

    def __init__(self, sessions: sessionmaker, bot_delay: float = 0.0):
        self.db = sessions
        self.engine = sessions.kw["bind"]
        self.tables: dict[str, LiveTable] = {}
        self.rng = random.SystemRandom()
        self.bot_delay = bot_delay
        self.fanout: Any = None  # set by the app when Redis is configured

    @property
    def shared(self) -> bool:
        """Whether other server processes may write the same tables."""
        return self.fanout is not None

    def get(self, table_id: str) -> LiveTable | None:
        lt = self.tables.get(table_id)
        if lt is not None:
            return lt
        lt = LiveTable(self, table_id)
        try:
            with self.db() as db:
                lt.load(db)
        except KeyError:
            return None
        self.tables[table_id] = lt
        return lt

    def resume(self) -> int:
        """Load every running table (after a restart) and wake its bots and clocks."""
        with self.db() as db:
            ids = db.scalars(select(TableRow.id).where(TableRow.status == "running")).all()
        for tid in ids:
            lt = self.get(tid)
            if lt is not None:
                lt.schedule()
        return len(ids)

    async def publish(self, table_id: str) -> None:
        if self.fanout is not None:
            await self.fanout.publish(table_id)

    async def on_remote_change(self, table_id: str) -> None:
        """Another process changed a table: catch up and tell this process's connections."""
        lt = self.tables.get(table_id)
        if lt is None:
            return
        async with lt.lock:
            lt.refresh()
        lt.broadcast()
        lt.schedule()

    def evict(self, lt: LiveTable) -> None:
        """Forget a finished table nobody watches (it is read again from storage if asked)."""
        if lt.meta.get("status") == "finished" and not lt.conns and not lt.lock.locked():
            if self.tables.get(lt.id) is lt:
                del self.tables[lt.id]

    def stop(self) -> None:
        for lt in self.tables.values():
            lt.stop()
