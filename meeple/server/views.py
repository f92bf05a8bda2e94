"""What people see of a table: the one table summary builder, the players with their seat
colours, the move log a viewer may know, and the one frame builder (live play and replays)."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any, cast

import orjson

import meeple
from meeple.bots import bot_name
from meeple.engine import CHANCE, Game, MeepleError, State, game_class, i18n
from meeple.engine.i18n import N_
from meeple.engine.lessons import ask_now
from meeple.engine.look import Colour
from meeple.engine.records import move_numbers

from .domain import (
    DELETED_NAME,
    Message,
    Seat,
    SeatKind,
    StoredTable,
    TableStatus,
    bot_seat_name,
)

log = logging.getLogger("meeple.server")
_, _n = i18n.words(__file__)
# TRANSLATORS: the move log's text for a chance event the viewer may not see
CHANCE_TEXT = N_("chance")
# TRANSLATORS: the move log's text for another player's secret choice
HIDDEN_TEXT = N_("(hidden)")


def to_json(value: Any) -> str:
    """``value`` as compact JSON text, the way frames go out: by orjson (a frame's picture is
    most of its bytes, and orjson writes it several times faster), or by the standard library
    for what orjson does not take (integers beyond 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _hidden(player: int) -> str:
    return _(CHANCE_TEXT) if player == CHANCE else _(HIDDEN_TEXT)


class Entry:
    """One move of a table's log: its number, the player, the action id and its notation;
    in each language worked out so far (``said``), its sentence, the sentence for those who
    may not know it yet, and, on the last chance event of the set-up, the one line that
    stands for the whole set-up.

    :attr:`sentence`, :attr:`unseen` and :attr:`setup` are those of the language in use
    ('' where it was not worked out). ``sentence``, ``unseen`` and ``setup`` given here are
    the language in use's."""

    __slots__ = ("n", "player", "action", "text", "said")

    def __init__(self, n: int, player: int, action: int, text: str, sentence: str = "",
                 unseen: str = "", setup: str = "", *,
                 said: dict[str, tuple[str, str, str]] | None = None) -> None:
        self.n, self.player, self.action, self.text = n, player, action, text
        self.said: dict[str, tuple[str, str, str]] = dict(said or {})
        if sentence or unseen or setup:
            self.said[i18n.language()] = (sentence, unseen, setup)

    def _words(self) -> tuple[str, str, str]:
        return self.said.get(i18n.language(), ("", "", ""))

    @property
    def sentence(self) -> str:
        return self._words()[0]

    @property
    def unseen(self) -> str:
        return self._words()[1]

    @property
    def setup(self) -> str:
        return self._words()[2]

    def __repr__(self) -> str:
        return f"Entry({self.n}, {self.player}, {self.action}, {self.text!r})"


def say_entry(state: State, entry: Entry, log: Sequence[Entry],
              langs: Iterable[str]) -> None:
    """Work out ``entry``'s words in each of ``langs`` it lacks, from ``state`` before the
    move (``log``: the entries before it); the set-up line needs the state after the move,
    so this applies the move to ``state``."""
    missing = [lang for lang in langs if lang not in entry.said]
    said = {}
    for lang in missing:
        with i18n.speaking(lang):
            said[lang] = sentences(state, entry.player, entry.action, entry.text)
    state.apply(entry.action, entry.player)
    for lang in missing:
        with i18n.speaking(lang):
            entry.said[lang] = (*said[lang], setup_line(state, entry.player, log))


def _said(say: Callable[[], str], fallback: str) -> str:
    try:
        return say()
    except Exception:  # a sentence must never stop play
        log.exception("a move's sentence failed")
        return fallback


def sentences(state: State, player: int, action: int, text: str) -> tuple[str, str]:
    """A move's sentence and the one for those who may not know it yet, from ``state``
    before the move (the notation if the game cannot say it, or if the move is not legal:
    it is then refused)."""
    if not state.is_legal(action, player):
        return text, _hidden(player)
    return (_said(lambda: state.describe(player, action), text),
            _said(lambda: state.describe_unseen(player), _hidden(player)))


def setup_line(state: State, player: int, log: Sequence[Entry]) -> str:
    """The set-up's line when the move just applied to ``state`` ended it (the chance events
    before the first player's move, two or more; ``log`` the entries before this one), else
    ''. A set-up of one event keeps that event's own sentence."""
    if player != CHANCE or state.current_player == CHANCE or not log \
            or any(e.player != CHANCE for e in log):
        return ""
    return _said(state.describe_setup, _("The game is set up."))


PLAYER_N = re.compile(r"Player ([1-9][0-9]?)")
"""The stored name of a hot-seat player's extra seat ("Player 2"), shown in each language."""


def player_n(number: int) -> str:
    """The name of a seat without one: "Player 2" in the language in use."""
    return _("Player {number}", number=str(number))


def shown_name(seat: Seat, seats: Sequence[Seat] = ()) -> str | None:
    """The name ``seat`` is shown with in the language in use: a bot seat named after its
    level (stored in English, "Casual bot 2") says it in the language, so does "Player N" of
    a hot-seat player's extra seat; any other name (a person's seat a bot plays on, a
    person's own name) is shown as stored; a deleted account's seat says "deleted player"."""
    name = seat.name
    if name == DELETED_NAME and seat.user_id is not None:
        return deleted_player()
    if seat.kind == SeatKind.BOT:
        with i18n.speaking(i18n.DEFAULT):
            english = bot_seat_name(seat.bot)
        if not name or name == english:
            return bot_seat_name(seat.bot)
        numbered = re.fullmatch(re.escape(english) + r" ([0-9]{1,3})", name)
        if numbered:
            return _("{name} {number}", name=bot_seat_name(seat.bot), number=numbered.group(1))
        return name
    m = PLAYER_N.fullmatch(name) if name else None
    if m and (not seats or any(s.user_id == seat.user_id and s.seat != seat.seat
                               for s in seats)):  # a person's extra seat, not their name
        return player_n(int(m.group(1)))
    return name


def deleted_player() -> str:
    """What a deleted account is shown as, in the language in use."""
    # TRANSLATORS: shown in place of the name of a person who deleted their account
    return _("deleted player")


def seat_names(seats: Sequence[Seat]) -> list[str | None]:
    """The names the pictures show: the holder's, a bot's level name, ``None`` when open."""
    return [None if s.kind == SeatKind.OPEN else shown_name(s, seats) for s in seats]


def safe_svg(game: Game, observation: dict[str, Any], names: Sequence[str | None]) -> str:
    """The game's picture of an observation ('' for a game without one)."""
    try:  # an open seat's name is None: the picture says "Player N" (``look.seat_name``)
        return game.renderer.svg(observation, cast(Sequence[str], names))
    except Exception:  # a picture must never stop play
        log.exception("render.svg failed for %s", game.name)
        return ""


@lru_cache(maxsize=256)
def _colours(game: str, players: int, options: str) -> tuple[Colour, ...] | None:
    try:
        return meeple.load(game, players, **json.loads(options)).seat_colours()
    except Exception:  # a game no longer installed, or options it no longer takes
        return None


def colours_of(game: str, players: int, options: dict[str, Any]) -> tuple[Colour, ...] | None:
    """The seat colours of a table (``None`` for a game no longer installed)."""
    return _colours(game, players, json.dumps(options, sort_keys=True))


def _colour(colours: Sequence[Colour] | None, seat: int) -> dict[str, str] | None:
    if colours is None or not 0 <= seat < len(colours):
        return None
    return colours[seat].to_json()


def players_json(seats: Sequence[Seat], colours: Sequence[Colour] | None,
                 connected: set[int]) -> list[dict[str, Any]]:
    """The players of a frame: name, seat colour, kind, bot level and presence."""
    return [
        {
            "seat": s.seat,
            "name": shown_name(s, seats),
            "colour": _colour(colours, s.seat),
            "kind": s.kind,
            "level": s.bot if s.kind == SeatKind.BOT else None,
            "bot_name": bot_name(s.bot) if s.kind == SeatKind.BOT else None,
            "connected": s.kind == SeatKind.BOT or s.seat in connected,
        }
        for s in seats
    ]


def table_summary(
    table: StoredTable,
    *,
    viewer: int | None = None,
    connected: set[int] | None = None,
) -> dict[str, Any]:
    """A table as the lobby and the table page see it.

    ``connected`` (the seats with a live connection) is given for a table loaded in this
    process; lists read from storage leave it out and then carry the stored fields only (no
    ``connected``, ``mine`` or ``invite``)."""
    m = table.meta
    try:
        title = game_class(m.game).title
    except MeepleError:  # a game no longer installed
        title = m.game
    colours = colours_of(m.game, m.players, m.options)
    seats = []
    for s in table.seats:
        item: dict[str, Any] = {"seat": s.seat, "kind": s.kind,
                                "name": shown_name(s, table.seats),
                                "colour": _colour(colours, s.seat), "bot": s.bot,
                                "bot_name": bot_name(s.bot) if s.kind == SeatKind.BOT else None}
        if connected is not None:
            item["connected"] = s.kind == SeatKind.BOT or s.seat in connected
            item["mine"] = viewer is not None and s.user_id == viewer
        seats.append(item)
    out: dict[str, Any] = {
        "id": m.id,
        "game": m.game,
        "title": title,
        "players": m.players,
        "options": m.options,
        "status": m.status,
        "visibility": m.visibility,
        "owner": deleted_player() if table.owner == DELETED_NAME else table.owner,
        "seats": seats,
        "clock": m.clock,
        "move_number": m.move_count,
        "to_move": m.to_move if m.status == TableStatus.RUNNING else [],
        "created": m.created,
        "started": m.started,
        "finished": m.finished,
        "result": m.result,
        "rematch": m.rematch_id,
        "start_when_full": m.autostart,
        "rated": m.rated,
    }
    if connected is not None and viewer is not None and viewer == m.owner_id:
        out["invite"] = f"/invite/{m.id}/{m.invite_code}"
    return out


def _entry_json(e: Entry, visible: bool) -> dict[str, Any]:
    if visible:
        return {"n": e.n, "player": e.player, "text": e.text, "sentence": e.sentence or e.text}
    text = _hidden(e.player)
    return {"n": e.n, "player": e.player, "text": text, "sentence": e.unseen or text}


def log_json(state: State, log: Sequence[Entry], viewer: int | None,
             show_all: bool) -> list[dict[str, Any]]:
    """The move log as ``viewer`` may know it now (``state.visible_history``): each move's
    notation (``text``) and its ``sentence``; a hidden chance outcome's text reads "chance",
    another player's secret choice "(hidden)", and their sentences say only what everyone
    knows. The set-up's chance events are one line (``moves`` says how many it stands for).
    ``number``: a move's number as players count them (:func:`move_numbers`; 0 for chance).
    ``show_all`` (a finished table) shows every move."""
    if show_all:
        shown = [True] * len(log)
    else:
        shown = [a is not None for _, a in state.visible_history(viewer)]
        if len(shown) != len(log):
            raise ValueError("the log and the state's history differ in length")
    out = []
    numbers = move_numbers([(e.player,) for e in log])
    start = 0
    for i, e in enumerate(log):  # the set-up line ends the leading run of chance events
        if e.player != CHANCE or e.setup:
            start = i + 1 if e.setup else 0
            break
    if start:
        e = log[start - 1]
        texts = [x.text for x, seen in zip(log[:start], shown, strict=False) if seen]
        out.append({"n": 0, "player": CHANCE, "text": "; ".join(texts) or _(CHANCE_TEXT),
                    "sentence": e.setup, "moves": start})
    for i in range(start, len(log)):
        out.append({**_entry_json(log[i], shown[i]), "number": numbers[i]})
    return out


def frame(
    *,
    table_id: str,
    game: Game,
    state: State,
    log: Sequence[Entry],
    seat: int | None,
    status: TableStatus,
    result: dict[str, Any] | None,
    names: Sequence[str | None],
) -> dict[str, Any]:
    """The view of ``state`` from ``seat``: observation, picture, legal actions, log, who is
    to move. Live frames and replays are both built here."""
    obs = state.observation(seat)
    running = status == TableStatus.RUNNING
    acts: list[dict[str, Any]] = []
    if seat is not None and running:
        acts = [state.describe_action(a, seat) for a in state.legal_actions(seat)]
    return {
        "type": Message.FRAME,
        "table": table_id,
        "game": game.name,
        "move_number": state.move_number(),
        "seat": seat,
        "observation": obs,
        "svg": safe_svg(game, obs, names),
        "actions": acts,
        "aid": ask_now(game, obs),
        "log": log_json(state, log, seat, show_all=status == TableStatus.FINISHED),
        "to_move": state.pending_players() if running else [],
        "status": status,
        "result": result,
    }
