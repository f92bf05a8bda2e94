"""The server's own words: table status, seat kinds, clocks and refusals as enums, and the
records (table meta, seats, moves, players) the table service and the stores exchange.

The enums are ``StrEnum``: their values are what the database stores and the JSON carries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from meeple.bots import bot_name
from meeple.engine import State, i18n
from meeple.engine.i18n import N_

_, _n = i18n.words(__file__)


class TableStatus(StrEnum):
    """Where a table is in its life."""

    WAITING = "waiting"
    RUNNING = "running"
    FINISHED = "finished"
    ABORTED = "aborted"
    """Called off before the first move of a person: no result."""
    ABANDONED = "abandoned"
    """Nobody moved for twice the time limit and nobody was there: no result."""


LIVE = (TableStatus.WAITING, TableStatus.RUNNING)
"""The statuses of a table that is still waiting or being played."""


class Departure(StrEnum):
    """How a player left a running game."""

    RESIGNED = "resigned"
    TIMED_OUT = "timed_out"


class TableEvent(StrEnum):
    """What happened at a table, as the table service tells its listeners (after storing it)."""

    JOINED = "joined"
    LEFT = "left"
    STARTED = "started"
    RESIGNED = "resigned"
    TIMED_OUT = "timed_out"
    CLAIMED = "claimed"
    ABORTED = "aborted"
    UNDONE = "undone"
    FINISHED = "finished"
    TURN = "turn"


class SeatKind(StrEnum):
    """Who sits in a seat."""

    OPEN = "open"
    HUMAN = "human"
    BOT = "bot"


class SeatChoice(StrEnum):
    """What a seat of a new table (or a seat changed by the owner) becomes: the creator sits
    there, a bot, or open for anyone."""

    ME = "me"
    BOT = "bot"
    OPEN = "open"


class Visibility(StrEnum):
    """Whether the lobby lists a table (private tables are joined by invite link)."""

    PUBLIC = "public"
    PRIVATE = "private"


class ClockKind(StrEnum):
    """A time control: a bank of seconds per seat (Fischer) or a limit per decision."""

    FISCHER = "fischer"
    PER_MOVE = "per_move"


class OnTimeout(StrEnum):
    """What happens to a seat whose time runs out."""

    BOT = "bot"
    FORFEIT = "forfeit"


class Message(StrEnum):
    """The ``type`` of a WebSocket message (and of a replay answer)."""

    FRAME = "frame"
    REPLAY = "replay"
    ERROR = "error"
    PONG = "pong"
    PING = "ping"
    ACT = "act"
    VIEW = "view"
    HELLO = "hello"
    SEATS = "seats"
    TURNS = "turns"


class Code(StrEnum):
    """Why something was refused (the WebSocket ``error`` codes and the REST refusals)."""

    STALE = "stale"
    ILLEGAL = "illegal"
    FORBIDDEN = "forbidden"
    BAD_REQUEST = "bad_request"
    FINISHED = "finished"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    INVALID = "invalid"
    UNAUTHORIZED = "unauthorized"
    BUSY = "busy"
    QUOTA = "quota"


HTTP_STATUS: dict[Code, int] = {
    Code.FORBIDDEN: 403,
    Code.NOT_FOUND: 404,
    Code.INVALID: 422,
    Code.UNAUTHORIZED: 401,
    Code.BUSY: 503,
    Code.QUOTA: 429,
}
"""The HTTP status of a refusal outside play (anything else answers 409)."""


class Refused(Exception):
    """A request that is not allowed now and changed nothing; ``code`` says which kind."""

    retry_after: int | None = None
    """Seconds after which asking again may succeed (busy and quota refusals)."""

    def __init__(self, code: Code, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 409)


STATUS_SENTENCES: dict[TableStatus, str] = {
    TableStatus.WAITING: N_("the table is waiting for players"),
    TableStatus.RUNNING: N_("the game is being played"),
    TableStatus.FINISHED: N_("the game is over"),
    TableStatus.ABORTED: N_("the game was called off"),
    TableStatus.ABANDONED: N_("the game was abandoned"),
}


def status_sentence(status: TableStatus | str) -> str:
    """Where a table is in its life, said as a sentence in the language in use."""
    text = STATUS_SENTENCES.get(TableStatus(status)) if status in set(TableStatus) else None
    return _(text) if text else str(status)


DEFAULT_MOVE_LIMIT = 3 * 86400.0
"""The time a person has for a move at a table without a clock (seconds): after it the others
may claim the game or hand the seat to a bot."""
ABANDON_FACTOR = 2
"""A table without a clock where nobody moved for this many time limits, with nobody there,
is abandoned."""
CREATE_KEY_WINDOW = 600.0
"""How long a request key makes creating a table again answer the first table (seconds)."""

CLOCK_PROFILES: dict[str, dict[str, Any]] = {
    "bullet": {"kind": ClockKind.FISCHER, "initial": 60, "increment": 1},
    "blitz": {"kind": ClockKind.FISCHER, "initial": 300, "increment": 5},
    "rapid": {"kind": ClockKind.FISCHER, "initial": 900, "increment": 10},
    "daily": {"kind": ClockKind.PER_MOVE, "seconds": 86400},
    "weekly": {"kind": ClockKind.PER_MOVE, "seconds": 7 * 86400},
}
"""The named time controls."""


@dataclass(frozen=True)
class Quotas:
    """What one player may have at once: tables they own that are waiting or running, bot
    seats at those tables, and of those bots the ones that search (``mcts``)."""

    tables: int = 10
    bot_seats: int = 16
    search_bots: int = 4


@dataclass
class Seat:
    """One seat of a table: open, a person (user and hashed seat token) or a bot."""

    seat: int
    kind: SeatKind = SeatKind.OPEN
    user_id: int | None = None
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    clock_remaining: float | None = None
    turn_started: float | None = None

    @classmethod
    def person(cls, seat: int, user_id: int, name: str) -> Seat:
        return cls(seat, SeatKind.HUMAN, user_id=user_id, name=name)

    @classmethod
    def robot(cls, seat: int, spec: str, name: str | None = None,
              taken: Sequence[str | None] = ()) -> Seat:
        """A bot seat; its name is its level as players know it (see :func:`bot_seat_name`)
        unless ``name`` is given."""
        if name is None:
            with i18n.speaking(i18n.DEFAULT):  # stored in English, said in each language
                name = bot_seat_name(spec, taken)
        return cls(seat, SeatKind.BOT, name=name, bot=spec)

    def opened(self) -> Seat:
        """The same seat, open again."""
        return Seat(self.seat, clock_remaining=self.clock_remaining,
                    turn_started=self.turn_started)


def bot_seat_name(spec: str | None, taken: Sequence[str | None] = ()) -> str:
    """The name of a bot seat in the language in use: its level as players know it ("Casual
    bot"), numbered where another seat of the table (``taken``) already carries that name
    ("Casual bot 2"). Stored seats keep the English name; the pages say it again in the
    viewer's language."""
    level = bot_name(spec)
    # TRANSLATORS: a bot seat's name, {level} is the bot's level ("Casual")
    base = _("{level} bot", level=level) if level else _("Bot")
    used = {t.casefold() for t in taken if t}
    name, n = base, 1
    while name.casefold() in used:
        n += 1
        # TRANSLATORS: the second bot of one level at a table: "Casual bot 2"
        name = _("{name} {number}", name=base, number=str(n))
    return name


def shown_seat_name(seat: Seat) -> str | None:
    """The name a stored seat is shown with: a bot seat named in the old way after its spec
    ("Bot (greedy)") carries its level's name instead."""
    if seat.kind == SeatKind.BOT and seat.name == f"Bot ({seat.bot})":
        with i18n.speaking(i18n.DEFAULT):
            return bot_seat_name(seat.bot)
    return seat.name


@dataclass
class TableMeta:
    """A table's stored facts: game, options, owner, clock, status, result."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    owner_id: int | None
    invite_code: str
    created: float
    status: TableStatus = TableStatus.WAITING
    visibility: Visibility = Visibility.PUBLIC
    clock: dict[str, Any] | None = None
    started: float | None = None
    finished: float | None = None
    move_count: int = 0
    to_move: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None
    rematch_id: str | None = None
    autostart: bool = False
    rated: bool = False
    departed: list[dict[str, Any]] = field(default_factory=list)
    """The players who left the running game, in order: ``{"seat", "how", "last"}`` (``how`` a
    :class:`Departure`; ``last``: counted last, else a bot plays on for them)."""
    undos: int = 0
    """How many moves were taken back (another process that sees it change reads the moves
    again)."""


@dataclass
class StoredTable:
    """A table as storage holds it: its meta, its seats in order and its owner's name."""

    meta: TableMeta
    seats: list[Seat]
    owner: str | None


@dataclass(frozen=True)
class Move:
    """One accepted move: its number in the table, the player (-1: chance), id and notation."""

    n: int
    player: int
    action: int
    notation: str
    created: float = 0.0


@dataclass
class Change:
    """What one step of play stores in one transaction: the new moves, the table's new
    progress and the seats' clock columns that changed (seat -> (remaining, turn started))."""

    moves: list[Move]
    move_count: int
    to_move: list[int]
    status: TableStatus
    started: float | None
    finished: float | None
    result: dict[str, Any] | None
    clocks: dict[int, tuple[float | None, float | None]] = field(default_factory=dict)
    before: int | None = None
    """The table's move count the step was worked out from (``None``: not checked). The
    step is stored only if the table still has that many moves and the status ``was``:
    a change another process stored meanwhile (a move, a take-back, a resignation) makes
    it a :class:`~meeple.server.store.Conflict` instead of being overwritten."""
    was: TableStatus | None = None


@dataclass(frozen=True)
class UserRecord:
    """A player: registered (with a password hash) or a guest (a name only)."""

    id: int
    name: str
    name_key: str
    password_hash: str | None
    guest: bool
    created: float
    lang: str | None = None
    """The language the player chose ("de"; ``None``: none chosen)."""
    operator: bool = False
    """Whether the person moderates (suspends accounts, deletes chat lines, closes tables)."""
    suspended: float | None = None
    """When an operator suspended the account (``None``: it is not)."""
    deleted: float | None = None
    """When the person deleted their account (``None``: it stands)."""

    @property
    def barred(self) -> bool:
        """Whether the account may not sign in or act (suspended or deleted)."""
        return self.suspended is not None or self.deleted is not None


DELETED_NAME = "deleted player"
"""What a deleted account's seats are stored under (in English, like bot seats' names; the
pages say it in the reader's language): nobody may take this name."""


def deleted_key(user_id: int) -> str:
    """The name (and name key) a deleted account keeps in storage: unique, and no name a
    person can choose (names hold no brackets at their start)."""
    return f"(deleted {user_id})"


def result_of(state: State, forfeit: int | None = None,
              departed: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The final result of a table: scores, ranks, winners, who forfeited, resigned or ran out
    of time.

    The players counted last (``departed`` entries with ``last``, then ``forfeit``) take the
    last places in the order they left: the first to leave is last of all. The others are
    ranked among themselves by the game when it was played to its end, else they share the
    first place."""
    n = state.game.num_players
    out = [int(d["seat"]) for d in departed if d.get("last", True)]
    if forfeit is not None and forfeit not in out:
        out.append(forfeit)
    resigned = [int(d["seat"]) for d in departed if d.get("how") == Departure.RESIGNED]
    timed_out = [int(d["seat"]) for d in departed if d.get("how") == Departure.TIMED_OUT]
    if forfeit is not None and forfeit not in timed_out:
        timed_out.append(forfeit)
    try:
        scores = list(state.scores())
    except NotImplementedError:
        scores = [0.0] * n
    if not out:
        return {"scores": scores, "ranks": state.ranks(), "winners": state.winners(),
                "forfeit": None, "resigned": resigned, "timed_out": timed_out}
    staying = [p for p in range(n) if p not in out]
    ranks = [1] * n
    if state.is_terminal():
        keys = {p: state.ranking_key(p) for p in staying}
        for p in staying:
            ranks[p] = 1 + sum(1 for q in staying if keys[q] > keys[p])
    for i, p in enumerate(out):
        ranks[p] = n - i
    return {"scores": scores, "ranks": ranks,
            "winners": [p for p in staying if ranks[p] == 1], "forfeit": forfeit,
            "resigned": resigned, "timed_out": timed_out}
