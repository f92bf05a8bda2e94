"""Live tables: the engine state of each table loaded in this process, the steps of play that
change it (worked out here, stored by the table service), the frames each connection receives
and the clocks.

A table's state is rebuilt from its stored moves and cached here. Nothing here writes to
storage: :meth:`LiveTable.prepare` works out a step of play without changing the table, the
service stores it, then :meth:`LiveTable.apply` makes it the table's state.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import meeple
from meeple.bots import make_bot, view_for
from meeple.engine import CHANCE, Game, State, i18n
from meeple.engine.records import moves_made

from . import auth, views
from .domain import (
    ABANDON_FACTOR,
    DEFAULT_MOVE_LIMIT,
    Change,
    ClockKind,
    Code,
    Message,
    Move,
    Refused,
    Seat,
    SeatKind,
    StoredTable,
    TableMeta,
    TableStatus,
    Visibility,
    result_of,
    status_sentence,
)
from .pool import ThinkTimes
from .views import Entry

_, _n = i18n.words(__file__)

INLINE_LIMIT = 64
BOT_MAX_THINK = 60.0
"""The longest a bot thinks about one move on a table with a per-move clock (seconds)."""
DEFAULT_BOT = "random"

SNAPSHOT_EVERY = 16
"""Replays keep the state after every this many moves."""
REPLAYS_KEPT = 64
PLAYERS_KEPT = 8
"""Encoded players kept per table (by language, seats and who is connected)."""
"""Replay answers kept per finished table."""

FRAME_DUE = "frame-due"
"""Queue marker: the connection should be sent the table's current frame."""
ENDED = "session-ended"
"""Queue marker: the session the connection was opened under ended (it closes)."""


@dataclass(eq=False)
class Holder:
    """Who asks for a seat: a signed-in user and the hashes of the seat tokens presented.

    Which seats that is, is worked out again for every message and every frame from the
    seats as they are now (:meth:`LiveTable.held_by`): a seat its holder left, or that a bot
    or another person took, is no longer held."""

    user_id: int | None = None
    token_hashes: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, user_id: int | None, tokens: list[str] | None = None) -> Holder:
        return cls(user_id, [auth.token_hash(t) for t in tokens or [] if t])


@dataclass(eq=False)
class Conn(Holder):
    """One WebSocket connection to a table: who it is, and the seats it was last told it
    holds (``held``)."""

    held: set[int] = field(default_factory=set)
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    dirty: bool = False  # a fresh frame is due (built when it is sent)
    view_seat: int | None = None
    told: bool = False  # whether a frame was sent (so a change of seats is news)
    only: int | None = None  # show this seat only (a one-off frame of one seat)
    code: str | None = None  # the invite code it presented (private tables)
    ended: bool = False  # its session ended: it holds nothing and closes
    lang: str = field(default_factory=i18n.language)
    """The language it reads (by default the one in use where it was made)."""


@dataclass
class Step:
    """A step of play worked out but not yet stored: the state after it, the log and pending
    marks that go with it, and the change to store."""

    state: State
    log: list[Entry]
    pending_since: dict[int, int]
    change: Change


class LiveTable:
    """A table loaded in this process."""

    def __init__(self, stored: StoredTable, langs: set[str] | None = None):
        self.id = stored.meta.id
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.meta: TableMeta = stored.meta
        self.seats: list[Seat] = stored.seats
        self.owner_name: str | None = stored.owner
        self.game: Game = meeple.load(self.meta.game, self.meta.players, **self.meta.options)
        self.state: State = self.game.new_initial_state()
        self.log: list[Entry] = []
        self.pending_since: dict[int, int] = {}
        _mark_pending(self.state, set(), self.pending_since)
        self.bots: dict[int, tuple[str, Any]] = {}
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        self.timer: asyncio.Task[None] | None = None
        self.stale = False
        """Whether another process changed the table since this one last read it (it is
        read again before it is next used; see ``TableService.on_remote_change``)."""
        self.version = 0
        self.langs: set[str] = {i18n.language()} if langs is None else set(langs)
        """The languages the log's sentences are worked out in as moves come (those its
        readers asked for; another is worked out when first asked, see
        :meth:`ensure_language`)."""
        self._texts: dict[tuple[str, int | None], str] = {}
        """Encoded frame parts of the current version: each (language, seat)'s view."""
        self._players: dict[str, str] = {}
        """The encoded players of the current version, by language."""
        self._players_kept: dict[tuple[Any, ...], str] = {}
        """The encoded players by language, seats and seats connected, across versions (they
        rarely change from one move to the next; naming them in a language is not cheap)."""
        self._spectators: dict[tuple[str, tuple[int, ...]], str] = {}
        """The whole frame of the current version for spectators, by language and late seats
        (tables without a clock): one text for all of them, however many are waiting to be
        sent it."""
        self._snapshots: dict[int, State] = {}
        self.last_moved: float | None = None
        """When the last move read or stored was made (``None``: none yet)."""
        self.move_limit = DEFAULT_MOVE_LIMIT
        """The time a person has for a move when the table has no clock (seconds)."""
        self._undo: dict[tuple[int, str], str | None] = {}
        self._moved: bool | None = None  # whether a person has moved (kept per version)
        """Why each seat may not take back its last move now (``None``: it may)."""
        self.told_finished = self.meta.status == TableStatus.FINISHED
        """Whether the listeners were told (or need not be told) that the game is over."""
        self.told_turn: tuple[tuple[int, int], ...] = ()
        """The people to move the listeners were last told of (set once moves are read)."""
        self._replays: dict[tuple[int, int | None, str], dict[str, Any]] = {}
        self._cache = threading.Lock()
        """Guards the snapshots and the replays kept, which replays in worker threads read
        and add to while the event loop may start again from scratch (``_snapshots`` is
        never changed in place: a new dict replaces it)."""

    # ------------------------------------------------------------------ loading
    @property
    def stored(self) -> StoredTable:
        """The table as storage holds it (as far as this process knows)."""
        return StoredTable(self.meta, self.seats, self.owner_name)

    def set_stored(self, stored: StoredTable) -> None:
        """Take the table's meta and seats as read from storage."""
        self.meta, self.seats, self.owner_name = stored.meta, stored.seats, stored.owner
        self._touch()

    def add_moves(self, moves: list[Move]) -> bool:
        """Replay moves read from storage (those this table has not seen yet)."""
        have = self.state.move_number()
        moves = [m for m in moves if m.n >= have]
        if not moves:
            return False
        state = self.state.clone()
        langs = self.speakers()
        for m in moves:
            _advance(state, m.player, m.action, m.notation, self.log, self.pending_since,
                     langs)
        self.state = state
        self.last_moved = max(m.created for m in moves) or self.last_moved
        self._touch()
        return True

    def reload(self, moves: list[Move]) -> None:
        """Replay the table again from the start (moves were taken back elsewhere)."""
        self.state = self.game.new_initial_state()
        self.log, self.pending_since = [], {}
        _mark_pending(self.state, set(), self.pending_since)
        with self._cache:
            self._snapshots = {}
        self.add_moves(moves)
        self._touch()

    def _touch(self) -> None:
        self.version += 1
        self._texts = {}
        self._players = {}
        self._spectators = {}
        self._undo = {}
        self._moved = None

    # ------------------------------------------------------------------ languages
    def speakers(self) -> set[str]:
        """The languages the log is kept in as moves come: those asked for so far and
        those of the connections."""
        return self.langs | {c.lang for c in self.conns}

    def ensure_language(self, lang: str) -> None:
        """Work out the log's sentences in ``lang`` where they are missing (replaying the
        moves from the nearest kept state before the first missing one), and keep them in
        ``lang`` from now on."""
        if lang not in self.langs:  # a new set: the event loop may be reading the old one
            self.langs = self.langs | {lang}
        log = self.log
        first = next((i for i, e in enumerate(log) if lang not in e.said), None)
        if first is None:
            return
        state = self.state_after(first)
        for i in range(first, len(log)):
            views.say_entry(state, log[i], log[:i], (lang,))

    # ------------------------------------------------------------------ who holds what
    def holds(self, seat: int, user_id: int | None, token: str | None) -> bool:
        """Whether a person (by session or seat token) holds ``seat`` now."""
        return seat in self.held_by(Holder.of(user_id, [token] if token else []))

    def held_by(self, who: Holder) -> set[int]:
        """The seats ``who`` holds now, by session or seat token: one person's only (the
        signed-in user's if they sit here, else the person of the first of its tokens that
        holds a seat), so that tokens of several people's seats never add up to several
        people's hands or moves. A hot-seat table's seats of one person are all held; at a
        rated table one seat at most."""
        found = [s for s in self.seats if s.kind == SeatKind.HUMAN and (
            (who.user_id is not None and s.user_id == who.user_id)
            or (s.token_hash is not None and s.token_hash in who.token_hashes))]
        if len(found) > 1:
            mine = [s for s in found if who.user_id is not None and s.user_id == who.user_id]
            if not mine:
                order = {h: i for i, h in enumerate(who.token_hashes)}
                first = min(found, key=lambda s: order.get(s.token_hash or "", len(order)))
                mine = [s for s in found if s is first or (
                    first.user_id is not None and s.user_id == first.user_id)]
            found = mine[:1] if self.meta.rated else mine
        return {s.seat for s in found}

    def may_see(self, who: Holder, code: str | None = None) -> bool:
        """Whether ``who`` may see this table at all: anyone for a public table; for a private
        one only its owner, the people who sit (or sat) there, a holder of one of its seat
        tokens, and whoever has its invite code."""
        if self.meta.visibility != Visibility.PRIVATE:
            return True
        if who.user_id is not None and (who.user_id == self.meta.owner_id or any(
                s.user_id == who.user_id for s in self.seats)):
            return True
        if self.held_by(who):
            return True
        return bool(code) and secrets.compare_digest(str(code), self.meta.invite_code)

    def bad_tokens(self, who: Holder) -> int:
        """How many of ``who``'s tokens hold no seat here."""
        hashes = {s.token_hash for s in self.seats if s.kind == SeatKind.HUMAN}
        return sum(h not in hashes for h in who.token_hashes)

    def people_to_move(self) -> tuple[tuple[int, int], ...]:
        """The (seat, user id) of each person who must act now (none unless running)."""
        if self.meta.status != TableStatus.RUNNING:
            return ()
        return tuple((s, self.seats[s].user_id or 0) for s in sorted(self.meta.to_move)
                     if self.seats[s].kind == SeatKind.HUMAN and self.seats[s].user_id)

    def full(self) -> bool:
        return all(s.kind != SeatKind.OPEN for s in self.seats)

    # ------------------------------------------------------------------ play
    def check(self, seat: int, action: Any, move_number: Any) -> None:
        """Refuse unless ``seat`` may play ``action`` answering ``move_number`` now."""
        status = self.meta.status
        if status != TableStatus.RUNNING:
            raise Refused(Code.FINISHED if status == TableStatus.FINISHED else Code.BAD_REQUEST,
                          status_sentence(status))
        state = self.state
        if isinstance(action, bool) or not isinstance(action, int):
            raise Refused(Code.BAD_REQUEST, _("action must be an integer id"))
        if isinstance(move_number, bool) or not isinstance(move_number, int):
            raise Refused(Code.BAD_REQUEST, _("move_number must be an integer"))
        if seat not in state.pending_players():
            if move_number < state.move_number():
                raise Refused(Code.STALE, _("move {move_number} was already answered",
                                            move_number=move_number))
            raise Refused(Code.ILLEGAL, _("seat {seat} has nothing to choose now", seat=seat))
        since = self.pending_since.get(seat, state.move_number())
        if move_number < since:
            raise Refused(
                Code.STALE,
                _("move {move_number} was already answered; the table is at move {value}",
                  move_number=move_number, value=state.move_number()),
            )
        if move_number > state.move_number():
            raise Refused(Code.STALE, _("there is no move {move_number} yet",
                                        move_number=move_number))
        if not state.is_legal(action, seat):
            raise Refused(Code.ILLEGAL, state._why_illegal(action, seat))

    def prepare(self, moves: list[tuple[int, int]], rng: random.Random, *,
                light_bots: ThinkTimes | None, start: bool = False) -> Step:
        """Work out ``moves``, then every chance node with ``rng`` (and, with ``light_bots``,
        the replies of the bots it knows to answer at once), without changing the table.
        ``start``: the step that begins play (clocks set to their initial banks)."""
        state = self.state.clone()
        log = list(self.log)
        pending = dict(self.pending_since)
        first = len(log)
        langs = self.speakers()
        for player, action in moves:
            _advance(state, player, action, state.action_to_string(action, player), log,
                     pending, langs)
        _resolve_chance(state, rng, log, pending, langs)
        movers = [p for p, _ in moves]
        if light_bots is not None and (start or self.meta.status == TableStatus.RUNNING):
            movers += self._light_replies(state, rng, log, pending, langs, light_bots)
        now = time.time()
        m = self.meta
        status = TableStatus.RUNNING if start else m.status
        finished, result = m.finished, m.result
        if state.is_terminal():
            status, finished, result = TableStatus.FINISHED, now, result_of(
                state, departed=m.departed)
        change = Change(
            moves=[Move(e.n, e.player, e.action, e.text, now) for e in log[first:]],
            move_count=state.move_number(),
            to_move=state.pending_players(),
            status=status,
            started=now if start else m.started,
            finished=finished,
            result=result,
            clocks=self._clocks_after(state, movers, now, start),
            before=self.state.move_number(), was=m.status,
        )
        return Step(state, log, pending, change)

    def apply(self, step: Step) -> None:
        """Make a stored step the table's state."""
        c = step.change
        self.state, self.log, self.pending_since = step.state, step.log, step.pending_since
        if c.moves:
            self.last_moved = c.moves[-1].created
        m = self.meta
        m.move_count, m.to_move, m.status = c.move_count, c.to_move, c.status
        m.started, m.finished, m.result = c.started, c.finished, c.result
        for seat, (rem, started) in c.clocks.items():
            self.seats[seat].clock_remaining = rem
            self.seats[seat].turn_started = started
        self._touch()

    def rewind(self, n: int, now: float) -> Step:
        """The step that takes back every move from move ``n`` on (not stored yet)."""
        state = self.game.new_initial_state()
        log: list[Entry] = []
        pending: dict[int, int] = {}
        _mark_pending(state, set(), pending)
        for e in self.log[:n]:  # the moves kept keep their words
            before = set(state.pending_players())
            state.apply(e.action, e.player)
            log.append(Entry(e.n, e.player, e.action, e.text, said=e.said))
            _mark_pending(state, before - {e.player}, pending)
        m = self.meta
        change = Change(moves=[], move_count=state.move_number(),
                        to_move=state.pending_players(), status=TableStatus.RUNNING,
                        started=m.started, finished=None, result=None,
                        clocks=self._clocks_after(state, [], now, False))
        return Step(state, log, pending, change)

    def apply_rewind(self, step: Step) -> None:
        """Make a stored take-back the table's state."""
        n = step.change.move_count
        with self._cache:
            self._snapshots = {k: v for k, v in self._snapshots.items() if k <= n}
        self.meta.undos += 1
        self.apply(step)

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last move now, in words (``None``: it may).

        Only at a casual table being played, only a person's own last move, while nobody
        has played since, no chance event followed it and it revealed nothing hidden to
        them (in a game of hidden information: no entry of the history they could not see
        before is visible to them after it)."""
        key = (seat, i18n.language())
        if key in self._undo:
            return self._undo[key]
        why = self._undo_refusal(seat)
        self._undo[key] = why
        return why

    def _undo_refusal(self, seat: int) -> str | None:
        m = self.meta
        if m.rated:
            return _("moves are not taken back at rated tables")
        if m.status != TableStatus.RUNNING:
            return _("the game is not being played")
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != SeatKind.HUMAN:
            return _("only a person's own move can be taken back")
        last = next((e for e in reversed(self.log) if e.player != CHANCE), None)
        if last is None or last.player != seat:
            return _("only your own last move can be taken back, while nobody has played "
                     "since")
        if self.log[-1].player == CHANCE:
            return _("chance has played since your move, so it cannot be taken back")
        if not self.game.perfect_information:
            before = self.state_after(last.n).visible_history(seat)
            after = self.state.visible_history(seat)
            if any(b[1] is None and a[1] is not None for b, a in zip(before, after, strict=False)):
                return _("your move showed you something hidden, so it cannot be taken "
                         "back")
        return None

    def person_moved(self) -> bool:
        """Whether a person (a seat a person holds or held) has made a move."""
        if self._moved is None:
            self._moved = any(e.player >= 0 and self.seats[e.player].user_id is not None
                              for e in self.log if e.player < len(self.seats))
        return self._moved

    def _light_replies(self, state: State, rng: random.Random, log: list[Entry],
                     pending: dict[int, int], langs: set[str], times: ThinkTimes) -> list[int]:
        """Let bots that answer at once reply in the same step."""
        movers: list[int] = []
        for _step in range(INLINE_LIMIT):
            to_move = state.pending_players()
            if not to_move:
                break
            seat = to_move[0]
            s = self.seats[seat]
            if s.kind != SeatKind.BOT or not times.light(self.game.name, s.bot or DEFAULT_BOT):
                break
            a = self.light_move(seat, state, rng, times)
            _advance(state, seat, a, state.action_to_string(a, seat), log, pending, langs)
            _resolve_chance(state, rng, log, pending, langs)
            movers.append(seat)
        return movers

    def light_move(self, seat: int, state: State, rng: random.Random,
                   times: ThinkTimes) -> int:
        """The move of the light bot in ``seat`` (:class:`ThinkTimes`), played here and
        timed (a bot that turns out slower goes back to the pool)."""
        spec = self.seats[seat].bot or DEFAULT_BOT
        start = time.thread_time()
        action = int(self.bot(seat, rng).act(view_for(state, seat)))
        times.note(self.game.name, spec, time.thread_time() - start)
        return action

    def bot(self, seat: int, rng: random.Random) -> Any:
        """The bot playing ``seat`` (made once per spec)."""
        spec = self.seats[seat].bot or DEFAULT_BOT
        have = self.bots.get(seat)
        if have is None or have[0] != spec:
            have = self.bots[seat] = (spec, make_bot(spec, self.game, seed=rng.getrandbits(62)))
        return have[1]

    # ------------------------------------------------------------------ clocks
    def _clocks_after(self, state: State, movers: list[int], now: float,
                      start: bool) -> dict[int, tuple[float | None, float | None]]:
        """Seat clock columns to store after a step: the movers' banks and who runs now (at
        the start, every seat's initial bank)."""
        clock = self.meta.clock or {}
        out: dict[int, tuple[float | None, float | None]] = {}
        fischer = clock.get("kind") == ClockKind.FISCHER  # no clock: the time limit's start
        pending = set(state.pending_players()) if not state.is_terminal() else set()
        for s in self.seats:
            rem, started = s.clock_remaining, s.turn_started
            if start:
                rem, started = (float(clock["initial"]) if fischer else None), None
            if s.seat in movers and started is not None and fischer and rem is not None:
                rem = max(0.0, rem - (now - started)) + clock.get("increment", 0)
            if s.seat in pending:
                if started is None or s.seat in movers:
                    started = now
            else:
                started = None
            if start or (rem, started) != (s.clock_remaining, s.turn_started):
                out[s.seat] = (rem, started)
        return out

    def bot_deadline(self) -> float | None:
        """When a bot on a clocked table must have chosen (a ``time.monotonic()`` time): the
        table's time control holds for bots too. A Fischer clock allows a bot a fortieth of
        the initial time plus the increment per move; a per-move clock, its seconds (at most
        a minute: a bot never keeps people waiting for days)."""
        clock = self.meta.clock
        if not clock:
            return None
        if clock["kind"] == ClockKind.FISCHER:
            budget = clock["initial"] / 40 + clock.get("increment", 0)
        else:
            budget = min(float(clock["seconds"]), BOT_MAX_THINK)
        return time.monotonic() + max(0.05, budget)

    def deadline(self, seat: Seat) -> float | None:
        """When a person's time in ``seat`` runs out (``None``: no clock runs for it)."""
        clock = self.meta.clock
        if not clock or seat.turn_started is None or seat.kind != SeatKind.HUMAN:
            return None
        if clock["kind"] == ClockKind.FISCHER:
            return seat.turn_started + (seat.clock_remaining or 0.0)
        return seat.turn_started + clock["seconds"]

    def limit_deadline(self, seat: Seat) -> float | None:
        """When a person's time for their move runs out at a table without a clock (after it
        the others may claim the game or hand the seat to a bot); ``None``: not their move."""
        m = self.meta
        if (m.clock or m.status != TableStatus.RUNNING or seat.kind != SeatKind.HUMAN
                or seat.seat not in m.to_move):
            return None
        # a table stored before turns were timed without a clock: from its last move
        return (seat.turn_started or self.last_moved or m.started or m.created) + self.move_limit

    def late(self, now: float) -> list[int]:
        """The seats whose time for their move has run out (tables without a clock)."""
        out = []
        for s in self.seats:
            dl = self.limit_deadline(s)
            if dl is not None and dl <= now:
                out.append(s.seat)
        return out

    def abandon_time(self) -> float | None:
        """When a table without a clock counts as abandoned if nobody is there: no move for
        ``ABANDON_FACTOR`` time limits (``None``: no person is to move)."""
        starts = [dl - self.move_limit for dl in (self.limit_deadline(s) for s in self.seats)
                  if dl is not None]
        return max(starts) + ABANDON_FACTOR * self.move_limit if starts else None

    def wakeups(self, now: float) -> list[float]:
        """The coming times something happens by itself: a clock runs out, a time limit
        ends (the claim is offered), the table would be abandoned."""
        out = [d for d in (self.deadline(s) for s in self.seats) if d is not None]
        out += [d for d in (self.limit_deadline(s) for s in self.seats)
                if d is not None and d > now]
        gone = self.abandon_time()
        if gone is not None:
            out.append(max(gone, now + min(self.move_limit, 3600.0)) if gone <= now else gone)
        return out

    def life_json(self, held: set[int]) -> dict[str, Any]:
        """What the people of ``held`` seats may do about the game now: resign, abort, take
        back their move, claim the game of a late seat (and the facts these depend on)."""
        m = self.meta
        running = m.status == TableStatus.RUNNING
        people = sorted(s for s in held if self.seats[s].kind == SeatKind.HUMAN)
        late = self.late(time.time()) if running else []
        return {
            "rated": m.rated,
            "resign": people if running else [],
            "abort": running and bool(people) and not self.person_moved(),
            "undo": [s for s in people if running and self.undo_refusal(s) is None],
            "late": late,
            "claim": any(s not in late and self.seats[s].user_id != self.seats[x].user_id
                         for s in people for x in late),
            "limit": None if m.clock else self.move_limit,
            "departed": m.departed,
        }

    def clocks_json(self) -> dict[str, Any] | None:
        clock = self.meta.clock
        if not clock:
            return None
        now = time.time()
        remaining: list[float | None] = []
        running: list[int] = []
        for s in self.seats:
            dl = self.deadline(s)
            if dl is not None:
                running.append(s.seat)
                remaining.append(max(0.0, dl - now))
            elif clock["kind"] == ClockKind.FISCHER:
                remaining.append(s.clock_remaining)
            else:
                remaining.append(float(clock["seconds"]))
        return {**clock, "remaining": remaining, "running": running, "now": now}

    # ------------------------------------------------------------------ frames
    def connected(self) -> set[int]:
        out: set[int] = set()
        for c in self.conns:
            out |= self.held_by(c)
        return out

    def summary(self, viewer: int | None) -> dict[str, Any]:
        """The table summary for ``viewer`` (a user id)."""
        return views.table_summary(self.stored, viewer=viewer, connected=self.connected())

    def players_json(self) -> list[dict[str, Any]]:
        return views.players_json(self.seats, self.game.seat_colours(), self.connected())

    def base_frame(self, seat: int | None) -> dict[str, Any]:
        """The parts of a frame that depend only on the seat viewed.

        Only their JSON text is kept (in ``frame_text``): a frame's many small dicts would
        otherwise live until the next move, reach the oldest garbage-collector generation and
        make its full collections (which stop the server) frequent and long. Said in the
        language in use."""
        self.ensure_language(i18n.language())
        return views.frame(
            table_id=self.id, game=self.game, state=self.state, log=self.log, seat=seat,
            status=self.meta.status, result=self.meta.result,
            names=views.seat_names(self.seats),
        )

    def state_after(self, n: int) -> State:
        """The table's state after its first ``n`` moves (a copy), replayed from the nearest
        kept snapshot; snapshots every ``SNAPSHOT_EVERY`` moves are kept on the way, so
        stepping through a replay costs a few moves per step, not the whole game."""
        log = self.log
        if n == len(log) and self.meta.status == TableStatus.FINISHED:
            return self.state.clone()
        snapshots = self._snapshots
        base = max((k for k in snapshots if k <= n), default=0)
        state = snapshots[base].clone() if base else self.game.new_initial_state()
        new: dict[int, State] = {}
        for e in log[base:n]:
            state.apply(e.action, e.player)
            k = e.n + 1
            if k % SNAPSHOT_EVERY == 0 and k not in snapshots:
                new[k] = state.clone()
        if new:
            with self._cache:
                if self.log is log:  # not started again from scratch meanwhile
                    self._snapshots = {**self._snapshots, **new}
        return state

    def kept_replay(self, n: int, seat: int | None) -> dict[str, Any] | None:
        """The replay of :meth:`replay` in the language in use if it is kept, else
        ``None``."""
        with self._cache:
            return self._replays.get((n, seat, i18n.language()))

    def replay(self, n: int, seat: int | None) -> dict[str, Any]:
        """A finished table after its first ``n`` moves as ``seat`` sees it (kept: a finished
        table does not change). Safe in several worker threads at once."""
        have = self.kept_replay(n, seat)
        if have is not None:
            return have
        out = self._replay(n, seat)
        key = (n, seat, i18n.language())
        with self._cache:
            self._replays[key] = out
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.pop(next(iter(self._replays)))
        return out

    def _replay(self, n: int, seat: int | None) -> dict[str, Any]:
        self.ensure_language(i18n.language())
        state = self.state_after(n)
        total = len(self.log)
        out = views.frame(
            table_id=self.id, game=self.game, state=state, log=self.log[:n], seat=seat,
            status=TableStatus.FINISHED, result=self.meta.result if n == total else None,
            names=views.seat_names(self.seats),
        )
        steps = [(e.player,) for e in self.log]
        return {**out, "type": Message.REPLAY, "total": total, "players": self.players_json(),
                "number": moves_made(steps[:n]), "moves": moves_made(steps),
                "final_result": self.meta.result}

    def choose_view(self, conn: Conn) -> int | None:
        if not conn.held:
            return None
        pending = set(self.state.pending_players())
        if self.meta.status == TableStatus.RUNNING:
            if conn.view_seat in conn.held and conn.view_seat in pending:
                return conn.view_seat
            mine = sorted(conn.held & pending)
            if mine:
                return mine[0]
        if conn.view_seat in conn.held:
            return conn.view_seat
        return min(conn.held)

    def frame_text(self, conn: Conn) -> str:
        """The JSON frame for one connection in its language: the cached view of its seat
        plus who it is (its seats worked out again now)."""
        with i18n.speaking(conn.lang):
            return self._frame_text(conn)

    def _frame_text(self, conn: Conn) -> str:
        lang = i18n.language()
        conn.held = self.held_by(conn)
        if conn.only is not None:
            conn.held &= {conn.only}
        conn.view_seat = self.choose_view(conn)
        seat = conn.view_seat
        if seat is None and conn.only is None and not self.meta.clock:
            key = (lang, tuple(self.late(time.time())))
            text = self._spectators.get(key)
            if text is None:
                text = self._spectators[key] = self._built(lang, conn)
            return text
        return self._built(lang, conn)

    def _built(self, lang: str, conn: Conn) -> str:
        """The frame of ``conn`` (its seats and view worked out) from the cached parts."""
        seat = conn.view_seat
        base = self._texts.get((lang, seat))
        if base is None:
            base = self._texts[lang, seat] = views.to_json(self.base_frame(seat))[:-1]
        players = self._players.get(lang)
        if players is None:
            connected = self.connected()
            key = (lang, frozenset(connected), tuple(
                (s.seat, s.kind, s.name, s.bot, s.user_id) for s in self.seats))
            players = self._players_kept.get(key)
            if players is None:
                if len(self._players_kept) >= PLAYERS_KEPT:
                    self._players_kept.clear()
                players = self._players_kept[key] = views.to_json(views.players_json(
                    self.seats, self.game.seat_colours(), connected))
            self._players[lang] = players
        tail = views.to_json({"seats": sorted(conn.held), "clocks": self.clocks_json(),
                              "life": self.life_json(conn.held)})
        return f'{base},"players":{players},{tail[1:]}'

    def broadcast(self) -> None:
        """Mark every connection as due a fresh frame; its writer builds the frame when it
        sends, so several quick changes cost one frame."""
        self._players, self._spectators = {}, {}  # who is connected may have changed
        for c in list(self.conns):
            if not c.dirty:
                c.dirty = True
                c.queue.put_nowait(FRAME_DUE)

    def stop(self) -> None:
        for t in list(self.bot_tasks.values()):
            t.cancel()
        if self.timer is not None:
            self.timer.cancel()
        for c in self.conns:
            c.queue.put_nowait(None)


def _advance(state: State, player: int, action: int, text: str, log: list[Entry],
             pending: dict[int, int], langs: set[str] | None = None) -> None:
    """Apply one move to ``state`` and keep the log (its sentences in ``langs``, by default
    the language in use) and the pending marks up to date."""
    if langs is None:
        langs = {i18n.language()}
    before = set(state.pending_players())
    entry = Entry(state.move_number(), player, action, text)
    views.say_entry(state, entry, log, langs)
    log.append(entry)
    _mark_pending(state, before - {player}, pending)


def _mark_pending(state: State, still: set[int], pending: dict[int, int]) -> None:
    """Note since when each pending player has been pending (``still``: those who already
    were before the move and did not make it)."""
    n = state.move_number()
    now = state.pending_players()
    for p in now:
        if p not in still:
            pending[p] = n
    for p in list(pending):
        if p not in now:
            del pending[p]


def _resolve_chance(state: State, rng: random.Random, log: list[Entry],
                    pending: dict[int, int], langs: set[str]) -> None:
    while state.current_player == CHANCE:
        a = meeple.sample_chance(state, rng)
        _advance(state, CHANCE, a, state.action_to_string(a, CHANCE), log, pending, langs)
