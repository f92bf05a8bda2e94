"""Game records: a whole game as JSON, and replaying one to the exact same state.

A record (format 1) is a JSON object:

| key | type | meaning |
| --- | --- | --- |
| ``format`` | int | the record format, 1 |
| ``game`` | str | the game's name (``meeple.games()``) |
| ``version`` | str | the game's rules version the moves were played with |
| ``players`` | int | the number of players |
| ``options`` | object | the game's options (names as in its option schema) |
| ``moves`` | list | ``[player, notation]`` pairs, player ``-1`` for chance outcomes |
| ``terminal`` | bool | optional: whether the game was over |
| ``scores``, ``returns`` | list of numbers | optional: one per player |
| ``winners`` | list of ints | optional: the winning seats |
| ``meta`` | object | optional: anything else (``seats``: one name, bot or null per seat, ...) |
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .core import RECORD_FORMAT, Game, State
from .errors import IllegalAction, NotationError, RecordError
from .i18n import words
from .registry import load

_, _n = words(__file__)

__all__ = ["RECORD_FORMAT", "check_record", "make_record", "move_numbers", "moves_made",
           "position_of", "replay"]


def move_numbers(history: Sequence[Sequence[Any]]) -> list[int]:
    """The number a player sees for each step of ``history`` (``(player, ...)`` pairs: a
    state's history, a table's log or a record's moves), the one numbering of the log, the
    replay, the review and records: the players' moves are numbered 1, 2, ... in order; a
    chance step (the set-up's included) is not a move and gets 0."""
    out, n = [], 0
    for step in history:
        if step[0] >= 0:
            n += 1
            out.append(n)
        else:
            out.append(0)
    return out


def moves_made(history: Sequence[Sequence[Any]]) -> int:
    """How many moves the players made in ``history`` (the number of its last move)."""
    return sum(1 for step in history if step[0] >= 0)


def position_of(history: Sequence[Sequence[Any]], number: int) -> int:
    """How many steps of ``history`` lie before the position after its move ``number`` (0:
    the start), the chance steps that follow that move resolved: the steps before the next
    move, or all of them."""
    made = 0
    for j, step in enumerate(history):
        if step[0] >= 0:
            if made == number:
                return j
            made += 1
    return len(history)


def make_record(game: Game, state: State, **extra: Any) -> dict[str, Any]:
    """The record of ``state`` (the same as ``game.record(state, **extra)``)."""
    return game.record(state, **extra)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return _is_int(value) or (isinstance(value, float) and math.isfinite(value))


def _numbers(record: dict[str, Any], key: str, players: int, ints: bool = False) -> None:
    value = record.get(key)
    if value is None:
        return
    ok = _is_int if ints else _is_number
    if not isinstance(value, list) or not all(ok(v) for v in value):
        if ints:
            raise RecordError(_("the record's {key} must be a list of whole numbers, got {value}",
                                key=repr(key), value=_shown(value)))
        raise RecordError(_("the record's {key} must be a list of numbers, got {value}",
                            key=repr(key), value=_shown(value)))
    if not ints and len(value) != players:
        raise RecordError(_n("the record's {key} has {entries} entries for {n} player",
                             "the record's {key} has {entries} entries for {n} players", players,
                             key=repr(key), entries=str(len(value))))


def _shown(value: object) -> str:
    """A value as given, cut to 80 characters."""
    return f"{value!r:.80}"


def check_record(record: object) -> dict[str, Any]:
    """Check that ``record`` has the shape of a record of this format (the table above) and
    return it; :class:`RecordError` names the first thing that is wrong."""
    if not isinstance(record, dict):
        raise RecordError(_("a record is a JSON object, got {type}",
                            type=type(record).__name__))
    fmt = record.get("format", RECORD_FORMAT)
    if not _is_int(fmt) or fmt != RECORD_FORMAT:
        raise RecordError(_("record format {format} is not one this meeple reads (it reads "
                            "format {reads})", format=repr(fmt), reads=str(RECORD_FORMAT)))
    for key in ("game", "version", "players", "options", "moves"):
        if key not in record:
            raise RecordError(_("the record has no {key}", key=repr(key)))
    if not isinstance(record["game"], str):
        raise RecordError(_("the record's 'game' must be a name, got {value}",
                            value=_shown(record["game"])))
    if not isinstance(record["version"], str | int) or isinstance(record["version"], bool):
        raise RecordError(_("the record's 'version' must be text, got {value}",
                            value=_shown(record["version"])))
    players = record["players"]
    if not _is_int(players) or not 1 <= players <= 64:
        raise RecordError(_("the record's 'players' must be a player count, got {value}",
                            value=_shown(players)))
    options = record["options"]
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise RecordError(_("the record's 'options' must be an object, got {value}",
                            value=_shown(options)))
    moves = record["moves"]
    if not isinstance(moves, list):
        raise RecordError(_("the record's 'moves' must be a list, got {type}",
                            type=type(moves).__name__))
    for i, move in enumerate(moves):
        if (not isinstance(move, list) or len(move) != 2 or not _is_int(move[0])
                or not isinstance(move[1], str)):
            raise RecordError(_("move {number} must be [player, notation], like [0, \"...\"], "
                                "got {value}", number=str(i + 1), value=_shown(move)))
    if "terminal" in record and not isinstance(record["terminal"], bool):
        raise RecordError(_("the record's 'terminal' must be true or false"))
    _numbers(record, "scores", players)
    _numbers(record, "returns", players)
    _numbers(record, "winners", players, ints=True)
    meta = record.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError(_("the record's 'meta' must be an object, got {value}",
                            value=_shown(meta)))
    seats = meta.get("seats")
    if seats is not None and (not isinstance(seats, list) or len(seats) != players
                              or not all(x is None or isinstance(x, str) for x in seats)):
        raise RecordError(_n("the record's meta 'seats' must be {n} name, got {value}",
                             "the record's meta 'seats' must be {n} names, got {value}", players,
                             value=_shown(seats)))
    return record


def replay(record: dict[str, Any], upto: int | None = None) -> State:
    """Rebuild the state a record describes (or the state after its first ``upto`` moves).

    A record of another format or game version, of the wrong shape (:func:`check_record`), or
    one whose moves do not apply, raises :class:`RecordError` saying what is wrong.
    """
    check_record(record)
    try:
        game = load(record["game"], record["players"], **record["options"])
    except Exception as e:
        raise RecordError(_("record cannot be loaded: {reason}", reason=str(e))) from None
    if str(record["version"]) != game.version:
        raise RecordError(_("record is from {game} version {version}, but this meeple plays "
                            "version {plays}; it cannot be replayed exactly", game=game.name,
                            version=str(record["version"]), plays=game.version))
    state = game.new_initial_state()
    moves = record["moves"]
    if upto is not None:
        moves = moves[:upto]
    for i, move in enumerate(moves):
        try:
            player, text = move
            state.apply(state.string_to_action(text, player), player)
        except (IllegalAction, NotationError, ValueError) as e:
            raise RecordError(_("move {number} ({move}) does not apply: {reason}",
                                number=str(i + 1), move=repr(move), reason=str(e))) from None
    return state
