"""A hint is bounded by wall time: its search stops early enough to answer by the caller's
deadline, and where information is hidden it plays again the determinisations it drew."""

from __future__ import annotations

import random

import meeple
from meeple.bots.hint import (
    DETERMINISATIONS,
    HINT_SECONDS,
    HINT_WALL,
    LEAST_SECONDS,
    REASON_SECONDS,
    _view,
    hint,
    think_seconds,
)


def test_the_search_thinks_no_later_than_the_reason_needs_before_the_deadline() -> None:
    now = 1000.0
    assert think_seconds(HINT_SECONDS, None) == HINT_SECONDS
    assert think_seconds(HINT_SECONDS, now + HINT_WALL, now) == HINT_SECONDS
    assert think_seconds(HINT_SECONDS, now + 0.75, now) == 0.75 - REASON_SECONDS
    assert think_seconds(HINT_SECONDS, now - 3.0, now) == LEAST_SECONDS  # late: a little
    assert HINT_SECONDS + REASON_SECONDS <= HINT_WALL


def test_a_hint_asked_too_late_still_gives_a_legal_move_with_a_reason() -> None:
    import time

    state = meeple.load("koplus", 2).new_initial_state()
    rng = random.Random(1)
    while state.current_player == meeple.CHANCE:
        meeple.resolve_chance(state, rng)
    seat = state.current_player
    h = hint(state, seat, deadline=time.time() - 10)
    assert h.action in state.legal_actions(seat) and h.reason


def mops_round(players: int = 3) -> meeple.State:
    """A Mops Royal round where the other players have chosen and seat 0 has not."""
    state = meeple.load("mops_royal", players).new_initial_state()
    rng = random.Random(5)
    while True:
        if state.current_player == meeple.CHANCE:
            meeple.resolve_chance(state, rng)
            continue
        pending = state.pending_players()
        if pending == [0]:
            return state
        p = pending[-1] if pending[-1] != 0 else pending[0]
        state.apply(rng.choice(state.legal_actions(p)), p)


def test_hidden_information_searches_a_fixed_set_of_determinisations() -> None:
    state = mops_round()
    view = _view(state, 0, None)
    rng = random.Random(2)
    seen = [view.sample_state(rng) for _ in range(3 * DETERMINISATIONS)]
    assert len(view.drawn) == DETERMINISATIONS
    drawn = [s.observation(None) for s in view.drawn]
    assert all(s.observation(None) in drawn for s in seen)
    # each is a determinisation of seat 0's information set: what seat 0 sees is the same
    assert all(s.observation(0) == state.observation(0) for s in seen)
    # and a copy: the search may play it on without touching the one drawn
    seen[0].apply(seen[0].legal_actions(0)[0], 0)
    assert view.drawn[0].pending_players() == [0]
