"""The game-agnostic kernel: base classes, player ids, errors, options, registry, records."""

from .core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    State,
    play_out,
    resolve_chance,
    sample_chance,
)
from .errors import IllegalAction, MeepleError, NotationError, OptionError, RecordError
from .options import Option, OptionSchema
from .planes import observation_planes
from .records import make_record, replay
from .registry import game_class, games, load, register

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Game",
    "IllegalAction",
    "MeepleError",
    "NotationError",
    "Option",
    "OptionError",
    "OptionSchema",
    "RecordError",
    "State",
    "game_class",
    "games",
    "load",
    "make_record",
    "observation_planes",
    "play_out",
    "register",
    "replay",
    "resolve_chance",
    "sample_chance",
]
