"""Game records: a whole game as JSON, and replaying one to the exact same state."""

from __future__ import annotations

from typing import Any

from .core import RECORD_FORMAT, Game, State
from .errors import IllegalAction, NotationError, RecordError
from .registry import load

__all__ = ["RECORD_FORMAT", "make_record", "replay"]


def make_record(game: Game, state: State, **extra: Any) -> dict[str, Any]:
    """The record of ``state`` (the same as ``game.record(state, **extra)``)."""
    return game.record(state, **extra)


def replay(record: dict[str, Any], upto: int | None = None) -> State:
    """Rebuild the state a record describes (or the state after its first ``upto`` moves).

    A record of another game version, or one whose moves do not apply, raises
    :class:`RecordError` saying what is wrong.
    """
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    for key in ("game", "version", "players", "options", "moves"):
        if key not in record:
            raise RecordError(f"record has no {key!r}")
    try:
        game = load(record["game"], record["players"], **record["options"])
    except Exception as e:
        raise RecordError(f"record cannot be loaded: {e}") from None
    if str(record["version"]) != game.version:
        raise RecordError(
            f"record is from {game.name} version {record['version']}, "
            f"but this meeple plays version {game.version}; it cannot be replayed exactly"
        )
    state = game.new_initial_state()
    moves = record["moves"]
    if upto is not None:
        moves = moves[:upto]
    for i, move in enumerate(moves):
        try:
            player, text = int(move[0]), str(move[1])
            state.apply(state.string_to_action(text, player), player)
        except (IllegalAction, NotationError, ValueError, TypeError, IndexError) as e:
            raise RecordError(f"move {i + 1} ({move!r}) does not apply: {e}") from None
    return state
