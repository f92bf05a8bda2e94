"""meeple: play and study KoPlus, Kozo, Mops Royal, Botanik and Kontor.

>>> import meeple
>>> game = meeple.load("koplus", players=2)
>>> state = meeple.play_out(game.new_initial_state(), rng=7)
>>> state.is_terminal()
True
"""

from .engine import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    IllegalAction,
    MeepleError,
    NotationError,
    Option,
    OptionError,
    RecordError,
    State,
    games,
    load,
    observation_planes,
    play_out,
    replay,
    resolve_chance,
    sample_chance,
)

__version__ = "0.1.0"

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
    "RecordError",
    "State",
    "games",
    "load",
    "observation_planes",
    "play_out",
    "replay",
    "resolve_chance",
    "sample_chance",
]
