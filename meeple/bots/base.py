"""The Bot protocol: what a bot is given (its seat's view) and what it returns (an action id)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from meeple.engine import Game, State
from meeple.engine.core import Policy


@dataclass
class View:
    """What one seat may know at a decision: its observation and its legal actions.

    ``sample_state(rng)`` gives a full state consistent with the observation (for games of
    perfect information, a copy of the real one; otherwise a resampled determinisation in
    which everything this seat cannot see is drawn afresh). Bots must not look elsewhere.

    ``deadline`` (optional) is a ``time.monotonic()`` time by which the move must be chosen,
    set by a caller with a time control; bots that think longer stop searching by then.
    """

    game: Game
    seat: int
    observation: dict[str, Any]
    legal_actions: list[int]
    move_number: int
    _state: State = field(repr=False)
    deadline: float | None = None

    def sample_state(self, rng: random.Random) -> State:
        """A full state consistent with this seat's observation."""
        if self.game.perfect_information:
            return self._state.clone()
        return self._state.resample(self.seat, rng)

    def action_to_string(self, action: int) -> str:
        return self._state.action_to_string(action, self.seat)

    def describe_action(self, action: int) -> dict[str, Any]:
        return self._state.describe_action(action, self.seat)


def view_for(state: State, seat: int, deadline: float | None = None) -> View:
    """The view of ``state`` that ``seat`` is entitled to (``deadline``: see :class:`View`)."""
    return View(
        game=state.game,
        seat=seat,
        observation=state.observation(seat),
        legal_actions=state.legal_actions(seat),
        move_number=state.move_number(),
        _state=state,
        deadline=deadline,
    )


@runtime_checkable
class Bot(Protocol):
    """A player program. ``act`` returns one of ``view.legal_actions``.

    Time control: a bot that searches has a ``time_limit`` attribute (seconds per move, or
    ``None``) which a server may set to its table's time control, and respects
    ``view.deadline`` when one is given. ``name`` is the spec the bot was made from; what a
    player reads for it is the ladder's name of that spec (:func:`meeple.bots.levels.bot_name`).
    """

    name: str

    def act(self, view: View) -> int: ...


def seats_policy(bots: Sequence[Bot]) -> Policy:
    """A policy for the play loop (``meeple.play_out``) where seat ``p`` is played by
    ``bots[p]``, each from its own seat's view."""

    def policy(state: State, player: int, rng: random.Random) -> int:
        return bots[player].act(view_for(state, player))

    return policy
