"""The review numbers moves as the log does (:func:`meeple.engine.records.move_numbers`):
the set-up and chance steps are no moves, so a turning point's or a better move's number is
the number the log shows for that move, and the chart runs from 0 (the start, after the
set-up) to the log's count of moves, in every game."""

from __future__ import annotations

import random

import pytest

import meeple
from meeple.bots import make_bot, seats_policy
from meeple.bots.review import review
from meeple.engine.records import move_numbers, moves_made, position_of

SHORT = {"kozo": {"rounds": 1}, "kontor": {"max_rounds": 4}}
"""Options for a short game."""


def short_game(name: str, seed: int) -> meeple.State:
    """A seeded game between two random bots, played to its end."""
    game = meeple.load(name, 2, **SHORT.get(name, {}))
    state = game.new_initial_state()
    bots = [make_bot("random", game, seed=seed), make_bot("random", game, seed=seed + 1)]
    meeple.play_out(state, random.Random(seed), seats_policy(bots))
    return state


def test_move_numbers_skip_chance() -> None:
    steps = [(-1, 0), (-1, 1), (0, 5), (1, 2), (-1, 3), (0, 1)]
    assert move_numbers(steps) == [0, 0, 1, 2, 0, 3]
    assert moves_made(steps) == 3
    # the position after a move is past the chance steps that follow it
    assert [position_of(steps, k) for k in range(4)] == [2, 3, 5, 6]


@pytest.mark.parametrize("name", ["botanik", "kontor", "koplus", "kozo", "mops_royal"])
def test_the_review_names_each_move_by_its_number_in_the_log(name: str) -> None:
    final = short_game(name, 11)
    history = final.history()
    numbers = move_numbers(history)
    mover = {n: p for n, (p, _a) in zip(numbers, history, strict=True) if n}
    total = moves_made(history)
    viewer = None if final.game.perfect_information else 0
    r = review(final, viewer, iterations=4)
    # a point after every move the log numbers, from the start to its last move
    assert [p.move for p in r.points] == list(range(total + 1))
    assert all(p.player == mover[p.move] for p in r.points[1:])
    for t in r.turning:
        assert t.words.startswith(f"Move {t.move}: ") and mover[t.move] == t.player
    for b in r.better:
        assert b.words.startswith(f"Move {b.number}: ") and mover[b.number] == b.player
        assert b.move < b.number  # shown on the board it was played on
        assert b.to_json()["number"] == b.number
