"""What a game may provide besides its rules, as typed protocols.

A game declares these when it registers (``register(TheGame, renderer=render, ...)``); the
registry checks each against its protocol and sets it on the Game class, so bots, the server,
the terminal and the adapters ask the game (``game.renderer``, ``game.heuristics``,
``game.motion``) and never look a module up by its file name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .core import State
    from .lessons import Aid, Lesson


@runtime_checkable
class Renderer(Protocol):
    """Pictures of an observation: they draw only what the observation holds.

    ``names`` are the players' display names by seat (default: "Player 1", ...)."""

    def svg(self, observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
        """The board as a standalone SVG document."""
        ...

    def text(self, observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
        """The board for a terminal, as rich markup."""
        ...


@runtime_checkable
class Heuristics(Protocol):
    """What the greedy bot values; the search bots use the optional parts where present.

    Optional members (read with :func:`optional`): ``evaluate(state, player)`` in
    [-1, 1], ``rollout_action(state, player, rng)``, ``shortlist(state, player, legal)``,
    ``quiet(state)`` and ``SEARCH`` (level settings); ``meeple/bots/mcts.py`` says how each is
    used. ``explain(state, player, action) -> str`` says in the game's own words why a move is
    good (the hint's reason, ``meeple/bots/hint.py``)."""

    def action_value(self, state: State, player: int, action: int) -> float:
        """How good ``action`` looks for ``player`` now (larger is better)."""
        ...


@runtime_checkable
class Motion(Protocol):
    """A physical simulation of the position (Kozo's tower) for the 3D view."""

    def motion(self, scene: Any) -> dict[str, Any]:
        """Frames of the pieces' motion for one checked scene, as JSON."""
        ...


@runtime_checkable
class Lessons(Protocol):
    """How a person learns the game (``engine/lessons.py``): the guided first game, the player
    aid, and what the current step of a turn asks."""

    LESSON: Lesson
    """The named positions, the tutorial's steps and the closing game."""
    AID: Aid
    """The scoring table and the steps of a turn, shown beside the board."""

    def ask(self, observation: dict[str, Any]) -> str:
        """One sentence: what the current step of the game asks of the observation's viewer."""
        ...


OPTIONAL_HEURISTICS = ("evaluate", "rollout_action", "shortlist", "quiet", "SEARCH",
                       "explain")
"""The optional members of :class:`Heuristics`."""


def optional(heuristics: Heuristics | None, name: str) -> Any:
    """An optional member of a game's heuristics (``None`` where it has none)."""
    if name not in OPTIONAL_HEURISTICS:
        raise AttributeError(f"{name!r} is not an optional heuristics member")
    return getattr(heuristics, name, None) if heuristics is not None else None
