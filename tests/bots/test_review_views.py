"""A view that learned nothing keeps its estimate: where another player's choice is still a
secret to the viewer (a round everyone plays at once), the viewer's information set is the
one before it, and the review does not search it again."""

from __future__ import annotations

import random

import meeple
from meeple.bots import make_bot, seats_policy
from meeple.bots.review import positions, same_estimate, unseen


def finished(name: str, players: int, seed: int = 2) -> meeple.State:
    game = meeple.load(name, players)
    state = game.new_initial_state()
    meeple.play_out(state, random.Random(seed),
                    seats_policy([make_bot("random", game, seed=seed + p)
                                  for p in range(players)]))
    return state


def test_a_secret_choice_of_another_player_tells_the_viewer_nothing() -> None:
    final = finished("mops_royal", 3)
    history = final.history()
    where, states = positions(final)
    kept = 0
    for k in range(1, len(states)):
        step = history[where[k - 1]:where[k]]
        mover = step[0][0]
        for viewer in range(3):
            same = unseen(states[k - 1], states[k], viewer)
            if mover == viewer or any(p == meeple.CHANCE for p, _a in step):
                # one's own move, a reveal or a draw: something was learned
                assert not same, (k, viewer)
            elif same:
                kept += 1
                # what the viewer sees is what it saw
                assert (states[k].visible_history(viewer)[:where[k - 1]]
                        == states[k - 1].visible_history(viewer))
                assert all(a is None for _p, a in states[k].visible_history(viewer)[where[k - 1]:])
    assert kept, "some choices in a round were secret to the other players"


def test_where_information_is_perfect_every_position_is_searched() -> None:
    final = finished("koplus", 2)
    _where, states = positions(final)
    assert not any(unseen(a, b, v) for a, b in zip(states, states[1:], strict=False)
                   for v in (None, 0, 1))


def test_a_kept_estimate_has_the_same_figures() -> None:
    found = {"mover": 1, "chances": [0.4, 0.6], "best": 7, "noise": [0.02, 0.02], "h": 5}
    same = same_estimate(found)
    assert same["same"] and "h" not in same
    assert {k: v for k, v in same.items() if k != "same"} == {
        k: v for k, v in found.items() if k != "h"}
