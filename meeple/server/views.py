"""What people see of a table: the one table summary builder, the players with their seat
colours, the move log a viewer may know, and the one frame builder (live play and replays)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

import meeple
from meeple.bots import bot_name
from meeple.engine import CHANCE, Game, MeepleError, State, game_class
from meeple.engine.lessons import ask_now
from meeple.engine.look import Colour

from .domain import Message, Seat, SeatKind, StoredTable, TableStatus

log = logging.getLogger("meeple.server")
CHANCE_TEXT = "chance"
HIDDEN_TEXT = "(hidden)"


@dataclass(frozen=True)
class Entry:
    """One move of a table's log: its number, the player, the action id and its notation;
    its sentence, the sentence for those who may not know it yet, and, on the last chance
    event of the set-up, the one line that stands for the whole set-up."""

    n: int
    player: int
    action: int
    text: str
    sentence: str = ""
    unseen: str = ""
    setup: str = ""


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
        return text, CHANCE_TEXT if player == CHANCE else HIDDEN_TEXT
    return (_said(lambda: state.describe(player, action), text),
            _said(lambda: state.describe_unseen(player),
                  CHANCE_TEXT if player == CHANCE else HIDDEN_TEXT))


def setup_line(state: State, player: int, log: Sequence[Entry]) -> str:
    """The set-up's line when the move just applied to ``state`` ended it (the chance events
    before the first player's move, two or more; ``log`` the entries before this one), else
    ''. A set-up of one event keeps that event's own sentence."""
    if player != CHANCE or state.current_player == CHANCE or not log \
            or any(e.player != CHANCE for e in log):
        return ""
    return _said(state.describe_setup, "The game is set up.")


def seat_names(seats: Sequence[Seat]) -> list[str | None]:
    """The names the pictures show: the holder's, a bot's level name, ``None`` when open."""
    return [None if s.kind == SeatKind.OPEN else s.name for s in seats]


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
            "name": s.name,
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
        item: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name,
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
        "owner": table.owner,
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
    text = CHANCE_TEXT if e.player == CHANCE else HIDDEN_TEXT
    return {"n": e.n, "player": e.player, "text": text, "sentence": e.unseen or text}


def log_json(state: State, log: Sequence[Entry], viewer: int | None,
             show_all: bool) -> list[dict[str, Any]]:
    """The move log as ``viewer`` may know it now (``state.visible_history``): each move's
    notation (``text``) and its ``sentence``; a hidden chance outcome's text reads "chance",
    another player's secret choice "(hidden)", and their sentences say only what everyone
    knows. The set-up's chance events are one line (``moves`` says how many it stands for).
    ``show_all`` (a finished table) shows every move."""
    if show_all:
        shown = [True] * len(log)
    else:
        shown = [a is not None for _, a in state.visible_history(viewer)]
        if len(shown) != len(log):
            raise ValueError("the log and the state's history differ in length")
    out = []
    start = 0
    for i, e in enumerate(log):  # the set-up line ends the leading run of chance events
        if e.player != CHANCE or e.setup:
            start = i + 1 if e.setup else 0
            break
    if start:
        e = log[start - 1]
        texts = [x.text for x, seen in zip(log[:start], shown, strict=False) if seen]
        out.append({"n": 0, "player": CHANCE, "text": "; ".join(texts) or CHANCE_TEXT,
                    "sentence": e.setup, "moves": start})
    for i in range(start, len(log)):
        out.append(_entry_json(log[i], shown[i]))
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
