"""meeple: play and study KoPlus, Kozo, Mops Royal, Botanik and Kontor.

>>> import meeple
>>> game = meeple.load("koplus", players=2)
>>> state = meeple.play_out(game.new_initial_state(), rng=7)
>>> state.is_terminal()
True

Several modules are compiled to C extensions when meeple is installed (see ``_build.py``);
:func:`compiled` says whether they are the ones in use. ``MEEPLE_PURE_PYTHON=1`` (or an
install without a C compiler) runs the same source as plain Python, with the same results.
"""

from . import _build

_build.choose()  # before any compiled module is imported

from .engine import (  # noqa: E402
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


def compiled() -> bool:
    """Whether the engine, the games' rules and the search bot's tree run as the compiled
    extensions (``False``: the pure-Python source; ``_build.REASON`` says why)."""
    from .engine import core

    return _build.REASON is None and not core.__file__.endswith(".py")

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
    "compiled",
    "games",
    "load",
    "observation_planes",
    "play_out",
    "replay",
    "resolve_chance",
    "sample_chance",
]
