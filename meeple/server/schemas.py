"""The request and response bodies of the web API (pydantic), so that ``/api/docs`` documents
every route. The shapes are described in ``docs/api.md``.

Answers that leave a field out (a table summary's ``invite`` for anyone but the owner, the
``connected``/``mine`` marks of list entries) are sent with ``response_model_exclude_unset``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from meeple.engine.i18n import words

from .domain import ClockKind, OnTimeout, SeatChoice, SeatKind, TableStatus, Visibility

_, _n = words(__file__)


class Strict(BaseModel):
    """A request body: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------------- requests
class Credentials(Strict):
    name: str = Field(max_length=64)
    password: str = Field(max_length=400)


class GuestBody(Strict):
    name: str = Field(max_length=64)


class LegendItem(BaseModel):
    """One symbol of a board's picture: a small SVG of it and what it means."""

    icon: str
    meaning: str


class Legend(BaseModel):
    """The symbols a game's board pictures draw, and what each means."""

    game: str
    items: list[LegendItem]


class GuestName(BaseModel):
    """The name a guest would get: ``numbered`` where another guest holds the one asked for."""

    name: str
    numbered: bool


class SeatSpec(Strict):
    kind: SeatChoice = SeatChoice.OPEN
    bot: str | None = Field(default=None, max_length=40)
    name: str | None = Field(default=None, max_length=64)
    """A ``"me"`` seat's player (hot-seat: each their own name); checked like a user name."""


class ClockSpec(Strict):
    kind: ClockKind
    initial: float | None = Field(default=None, gt=0, le=30 * 86400)
    increment: float = Field(default=0, ge=0, le=86400)
    seconds: float | None = Field(default=None, gt=0, le=60 * 86400)
    on_timeout: OnTimeout = OnTimeout.BOT
    bot: str = Field(default="greedy", max_length=40)


class NewTable(Strict):
    game: str = Field(max_length=40)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = Field(default=None, max_length=16)
    visibility: Visibility = Visibility.PUBLIC
    clock: str | ClockSpec | None = None
    start: bool = True
    rated: bool = False
    """A rated table: the game's standard options, at least two people, no moves taken back."""
    request_id: str | None = Field(default=None, min_length=1, max_length=100)
    """The request's own key (or the ``Idempotency-Key`` header): the same key again within
    a few minutes answers the first table."""


class JoinBody(Strict):
    seat: int | None = Field(default=None, ge=0, le=15)
    code: str | None = Field(default=None, max_length=100)


class LeaveBody(Strict):
    seat: int = Field(ge=0, le=15)
    token: str | None = Field(default=None, max_length=100)


class SeatChange(Strict):
    kind: SeatChoice
    bot: str | None = Field(default=None, max_length=40)

    @field_validator("kind")
    @classmethod
    def _bot_or_open(cls, kind: SeatChoice) -> SeatChoice:
        if kind == SeatChoice.ME:
            raise ValueError(_("a seat can be changed to a bot or opened"))
        return kind


class SeatBody(Strict):
    """Which held seat resigns or takes back its move (default: the one the caller holds)."""

    seat: int | None = Field(default=None, ge=0, le=15)
    token: str | None = Field(default=None, max_length=100)


class ClaimBody(Strict):
    """The late ``seat`` whose game is claimed, or (``to_bot``) handed to a bot."""

    seat: int = Field(ge=0, le=15)
    to_bot: bool = False
    token: str | None = Field(default=None, max_length=100)


class ActBody(Strict):
    seat: int
    action: int
    move_number: int
    token: str | None = Field(default=None, max_length=100)


# ---------------------------------------------------------------------- answers
class Ok(BaseModel):
    ok: bool


class LanguageChoice(BaseModel):
    """A person's choice of language."""

    lang: Literal["en", "de", "es", "nl"]


class Me(BaseModel):
    name: str | None
    guest: bool | None
    lang: str = "en"
    """The language of this browser: the player's chosen one, else the browser's."""
    operator: bool = False
    """Whether the person is an operator (moderates); said of operators only."""


class SeatColour(BaseModel):
    """A seat's colour, the same as on the board: ``name`` its English id, ``label`` its name
    in the reader's language."""

    name: str
    label: str | None = None
    fill: str
    symbol: str
    ink: str


class SeatSummary(BaseModel):
    seat: int
    kind: SeatKind
    name: str | None
    colour: SeatColour | None
    bot: str | None
    bot_name: str | None = None
    """The bot level's name a player sees (``None`` for a person or an unknown bot)."""
    connected: bool | None = None
    mine: bool | None = None


class TableSummary(BaseModel):
    """A table as the lobby and the table page see it."""

    id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    status: TableStatus
    visibility: Visibility
    owner: str | None
    seats: list[SeatSummary]
    clock: dict[str, Any] | None
    move_number: int
    to_move: list[int]
    created: float
    started: float | None
    finished: float | None
    result: dict[str, Any] | None
    rematch: str | None
    start_when_full: bool
    invite: str | None = None
    rated: bool | None = None
    my_seats: list[int] | None = None
    seat: int | None = None
    rank: int | None = None


class SeatToken(BaseModel):
    seat: int
    token: str


class TableAnswer(BaseModel):
    table: TableSummary
    tokens: list[SeatToken] | None = None


class TableList(BaseModel):
    tables: list[TableSummary]


class Profile(BaseModel):
    name: str
    guest: bool
    created: float
    games: list[TableSummary]


class GameInfo(BaseModel):
    """A game's description (``Game.describe()``) with its rules page and configurations."""

    model_config = ConfigDict(extra="allow")
    name: str
    title: str
    players: list[int]
    perfect_information: bool
    options: list[dict[str, Any]]
    presets: list[dict[str, Any]] = Field(default_factory=list)
    """Named set-ups in plain words, the everyday one first: ``{"name", "description",
    "options", "players"}``."""
    rules: str
    configurations: list[list[Any]]


class GameList(BaseModel):
    games: list[GameInfo]


class RulesPage(BaseModel):
    name: str
    title: str
    howto: str = ""
    """The one-page "How to play" (Markdown, pictures as URLs), shown before the reference."""
    markdown: str


class BotChoice(BaseModel):
    """One step of the bot ladder: the spec a seat takes, its name and line for players, and
    its place (1 is the weakest)."""

    spec: str
    name: str
    description: str
    step: int


class BotList(BaseModel):
    bots: list[BotChoice]
    """Weakest first."""


class ClockProfiles(BaseModel):
    profiles: dict[str, dict[str, Any]]


class Acted(BaseModel):
    ok: bool
    move_number: int


class LogEntry(BaseModel):
    n: int
    player: int
    text: str
    sentence: str
    moves: int = 1
    number: int = 0
    """The move's number as players count them (0: a chance step or the set-up, no move)."""


class Player(BaseModel):
    seat: int
    name: str | None
    colour: SeatColour | None
    kind: SeatKind
    level: str | None
    bot_name: str | None = None
    """The bot level's name a player sees (``None`` for a person or an unknown bot)."""
    connected: bool


class View(BaseModel):
    """What a frame and a replay step both hold: one seat's view of a table after a move."""

    type: str
    table: str
    game: str
    move_number: int
    seat: int | None
    observation: dict[str, Any]
    svg: str
    actions: list[dict[str, Any]]
    log: list[LogEntry]
    players: list[Player]
    to_move: list[int]
    status: TableStatus
    result: dict[str, Any] | None
    aid: str | None = None
    """What the current step of the game asks, in one sentence (the player aid)."""


class Life(BaseModel):
    """What the frame's seats may do about the game now (a table's life)."""

    rated: bool
    resign: list[int]
    abort: bool
    undo: list[int]
    late: list[int]
    claim: bool
    limit: float | None
    departed: list[dict[str, Any]]


class Frame(View):
    """What a connection sees of a table (also ``GET /api/tables/{id}/frame``)."""

    seats: list[int]
    clocks: dict[str, Any] | None
    life: Life | None = None


class Replay(View):
    """A finished table after its first ``move_number`` steps: after its move ``number``
    (as the log numbers them) of ``moves``."""

    total: int
    number: int
    moves: int
    final_result: dict[str, Any] | None


class Motion(BaseModel):
    """The simulated motion of a stability check, in cube edges."""

    model_config = ConfigDict(extra="allow")
    dt: float
    bodies: list[dict[str, Any]]
    moved: Any = None
    fallen: Any = None


# ---------------------------------------------------------------------- hints and reviews
class HintAnswer(BaseModel):
    """The move a search bot would play for a seat now, and why (``GET .../hint``)."""

    seat: int
    action: int
    text: str
    label: str
    reason: str
    move: dict[str, Any]
    iterations: int
    seconds: float
    move_number: int


class ReviewAnswer(BaseModel):
    """A review's progress, then the review (``POST``/``GET .../review``): ``status`` is
    ``none``, ``running`` (``done`` of ``total`` positions), ``done`` (with ``review``: the
    chart's points, the turning points and the viewer's better moves) or ``failed``."""

    table: str
    seat: int | None
    status: str
    done: int
    total: int
    error: str | None = None
    review: dict[str, Any] | None = None
