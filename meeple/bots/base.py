"""The Bot protocol: what a bot is given (its seat's view) and what it returns (an action id)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from meeple.engine import Game, State


@dataclass
class View:
    """What one seat may know at a decision: its observation and its legal actions.

    ``sample_state(rng)`` gives a full state consistent with the observation (for games of
    perfect information, a copy of the real one; otherwise a resampled determinisation in
    which everything this seat cannot see is drawn afresh). Bots must not look elsewhere.
    """

    game: Game
    seat: int
    observation: dict[str, Any]
    legal_actions: list[int]
    move_number: int
    _state: State = field(repr=False)

    def sample_state(self, rng: random.Random) -> State:
        """A full state consistent with this seat's observation."""
        if self.game.perfect_information:
            return self._state.clone()
        return self._state.resample(self.seat, rng)

    def action_to_string(self, action: int) -> str:
        return self._state.action_to_string(action, self.seat)

    def describe_action(self, action: int) -> dict[str, Any]:
        return self._state.describe_action(action, self.seat)


def view_for(state: State, seat: int) -> View:
    """The view of ``state`` that ``seat`` is entitled to."""
    return View(
        game=state.game,
        seat=seat,
        observation=state.observation(seat),
        legal_actions=state.legal_actions(seat),
        move_number=state.move_number(),
        _state=state,
    )


@runtime_checkable
class Bot(Protocol):
    """A player program. ``act`` returns one of ``view.legal_actions``."""

    name: str

    def act(self, view: View) -> int: ...
