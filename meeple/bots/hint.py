"""A hint for the player to move: the move a search bot would play, and a one-line reason.

The search sees only what the seat may know (:func:`meeple.bots.base.view_for`): where
information is hidden, its iterations start from determinisations of the seat's own
information set, :data:`DETERMINISATIONS` of them drawn as the search begins and then played
again in turn (drawing one costs many iterations' time in some games: Mops Royal's four
players, Kontor). It is bounded by wall time: it thinks at most :data:`HINT_SECONDS`, and when
the caller says by when the answer is due (``deadline``, a ``time.time()``: a server sets it
when the hint is asked for, so that time spent waiting for a process counts), it stops early
enough to answer by then (:data:`REASON_SECONDS` kept for the reason). The reason comes from
the game's heuristics (``explain(state, player, action) -> str``, in the game's own words); a
game without one gets a reason from the score the move makes. Every word of a hint (the
move's label, the reason) is said in the language in use when the hint is made.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from meeple.engine import Game, State
from meeple.engine.i18n import words
from meeple.engine.plugins import optional

from .base import View, view_for
from .mcts import LEVELS, MCTSBot

_, _n = words(__file__)

HINT_LEVEL = 5
"""The ladder level whose search budget a hint uses (without its deliberate mistakes)."""
HINT_WALL = 2.0
"""A hint answers within this many seconds of being asked, wall time (a caller's
``deadline``)."""
HINT_SECONDS = 1.2
"""The longest a hint's search thinks: the answer, reason included, comes within
:data:`HINT_WALL`."""
REASON_SECONDS = 0.25
"""Kept before a caller's deadline for what follows the search: the reason, the move's
label and the answer's way back."""
LEAST_SECONDS = 0.05
"""The search's time when a deadline has (nearly) passed: a hint still searches a little."""
DETERMINISATIONS = 32
"""Where information is hidden: how many determinisations of the seat's information set a
hint's search draws; its later iterations start from copies of them in turn."""


class _Drawn(View):
    """A seat's view whose determinisations are drawn once: the first
    :data:`DETERMINISATIONS` asked for are drawn afresh, each later one is a copy of one of
    them in turn (a copy costs a fraction of a draw)."""

    drawn: list[State]
    turn: int = 0

    def sample_state(self, rng: random.Random) -> State:
        if self.game.perfect_information:
            return self._state.clone()
        drawn = self.drawn
        if len(drawn) < DETERMINISATIONS:
            state = self._state.resample(self.seat, rng)
            drawn.append(state)
            self.turn = 0
            return state.clone()
        state = drawn[self.turn % len(drawn)]
        self.turn += 1
        return state.clone()


def _view(state: State, seat: int, deadline: float | None) -> _Drawn:
    """``seat``'s view of ``state`` (:func:`meeple.bots.base.view_for`) with drawn
    determinisations, its deadline a ``time.monotonic()`` time."""
    view = view_for(state, seat)
    out = _Drawn(game=view.game, seat=seat, observation=view.observation,
                 legal_actions=view.legal_actions, move_number=view.move_number,
                 _state=state, deadline=deadline)
    out.drawn = []
    out.turn = 0
    return out


def think_seconds(seconds: float, deadline: float | None, now: float | None = None) -> float:
    """How long a hint's search may think: ``seconds`` at most, and where a ``deadline``
    (a ``time.time()``) is given, no later than :data:`REASON_SECONDS` before it (at least
    :data:`LEAST_SECONDS`)."""
    if deadline is None:
        return seconds
    left = deadline - (time.time() if now is None else now) - REASON_SECONDS
    return max(LEAST_SECONDS, min(seconds, left))


@dataclass(frozen=True)
class Hint:
    """The suggested move for ``seat``: its id, notation, label and the reason for it."""

    seat: int
    action: int
    text: str
    label: str
    reason: str
    move: dict[str, Any]
    """The move as the UI shows and previews it (``State.describe_action``)."""
    iterations: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The hint as JSON (the server's answer and the terminal's ``--json``)."""
        return {"seat": self.seat, "action": self.action, "text": self.text,
                "label": self.label, "reason": self.reason, "move": self.move,
                "iterations": self.iterations, "seconds": round(self.seconds, 3)}


def hint_bot(state: State, seed: int = 0, seconds: float = HINT_SECONDS) -> MCTSBot:
    """The search bot that gives hints in ``state``'s game: level :data:`HINT_LEVEL`'s
    budget, no mistakes, at most ``seconds`` of thinking."""
    level = LEVELS[HINT_LEVEL]
    return MCTSBot(state.game, seed=seed, level=HINT_LEVEL, mistakes=0.0,
                   seconds=min(seconds, level.seconds))


def explain(state: State, player: int, action: int) -> str:
    """Why ``action`` is good for ``player`` now, in one plain sentence: the game's own
    ``explain`` where it has one, else what the move does to the scores."""
    fn = optional(state.game.heuristics, "explain")
    if fn is not None:
        text = str(fn(state, player, action)).strip()
        if text:
            return text
    after = state.clone()
    after.apply(action, player)
    gain = after.scores()[player] - state.scores()[player]
    if gain:
        n = abs(gain)
        whole = float(n).is_integer()
        if gain > 0:
            if whole:
                return _n("scores {n} point", "scores {n} points", int(n))
            return _("scores {points} points", points=round(float(n), 2))
        if whole:
            return _n("costs {n} point now, for more later", "costs {n} points now, for more later",
                      int(n))
        return _("costs {points} points now, for more later", points=round(float(n), 2))
    return _("keeps your position strongest for the moves to come")


def hint(state: State, seat: int, *, seed: int = 0, seconds: float = HINT_SECONDS,
         deadline: float | None = None) -> Hint:
    """The move ``seat`` would be advised to play in ``state`` and why.

    ``seat`` must be one of the players to move; the search reads only that seat's view.
    ``deadline``: when the answer is due (a ``time.time()``); the search thinks
    :func:`think_seconds`."""
    if state.is_terminal():
        raise ValueError(_("the game is over: there is nothing to hint"))
    if seat not in state.pending_players():
        raise ValueError(_("it is not seat {seat}'s turn", seat=str(seat)))
    start = time.perf_counter()
    think = think_seconds(seconds, deadline)
    view = _view(state, seat, time.monotonic() + think)
    bot = hint_bot(state, seed=seed, seconds=think)
    action = int(bot.act(view))
    # the reason is judged on the seat's own view: a determinisation where information is
    # hidden, so it never rests on what the seat cannot see
    sample = view.sample_state(random.Random(seed))
    reason = explain(sample, seat, action)
    d = state.describe_action(action, seat)
    return Hint(seat=seat, action=action, text=d["text"], label=d.get("label") or d["text"],
                reason=reason, move=d, iterations=bot.last_iterations,
                seconds=time.perf_counter() - start)




def hint_part(game: str | type[Game], players: int, options: dict[str, Any],
              moves: list[tuple[int, int]], seat: int, seed: int = 0,
              deadline: float | None = None) -> dict[str, Any]:
    """:func:`hint` from a game (its name or class), options and moves, as JSON (what a
    worker process is sent and answers). ``deadline``: when the answer is due (a
    ``time.time()``; a server gives ``time.time() + HINT_WALL`` as the hint is asked for)."""
    from meeple.engine import load

    g = load(game, players, **options) if isinstance(game, str) else game(players, **options)
    state = g.new_initial_state()
    for p, a in moves:
        state.apply(a, p)
    return hint(state, seat, seed=seed, deadline=deadline).to_json()


def ready() -> bool:
    """Nothing, in a worker process: asked for when a Hint button appears, so that the bots'
    processes are running before the first hint is (starting them takes seconds)."""
    return True


__all__ = ["DETERMINISATIONS", "HINT_LEVEL", "HINT_SECONDS", "HINT_WALL", "Hint", "explain",
           "hint", "hint_bot", "hint_part", "ready", "think_seconds"]
