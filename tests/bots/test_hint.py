"""Hints: the move is legal for the seat to move, the reason is the game's own sentence, and a
hint's search is capped by its time budget in every game (its speed: benchmarks/review.py)."""

from __future__ import annotations

import random
import re

import pytest

import meeple
from meeple.bots.hint import HINT_SECONDS, explain, hint, hint_bot
from meeple.engine.plugins import optional
from meeple.games.koplus.rules import KoPlusState

GAMES = ["botanik", "kontor", "koplus", "kozo", "mops_royal"]
BUDGET = 2.0
"""A hint's search may think at most this long."""


def positions(name: str, count: int, seed: int = 4) -> list[meeple.State]:
    """``count`` positions of a random 2-player game of ``name`` with a player to move."""
    game = meeple.load(name, 2)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out: list[meeple.State] = []
    while not state.is_terminal() and len(out) < count:
        if state.current_player == meeple.CHANCE:
            meeple.resolve_chance(state, rng)
            continue
        if rng.random() < 0.35:
            out.append(state.clone())
        p = state.pending_players()[0]
        state.apply(rng.choice(state.legal_actions(p)), p)
    return out


def plain(text: str) -> bool:
    """A sentence for a person: no ids, reprs, braces or code words."""
    return bool(text) and not re.search(r"[_{}\[\]<>]|None|True|False", text)


@pytest.mark.parametrize("name", GAMES)
def test_hint_is_legal_and_explained(name: str) -> None:
    for state in positions(name, 3):
        seat = state.pending_players()[0]
        h = hint(state, seat, seed=1)
        assert h.action in state.legal_actions(seat)
        assert h.seat == seat
        assert h.move["action"] == h.action
        assert h.label == (state.describe_action(h.action, seat)["label"] or h.text)
        assert plain(h.reason), h.reason
        assert h.iterations > 0 or len(state.legal_actions(seat)) == 1


@pytest.mark.parametrize("name", GAMES)
def test_every_game_gives_its_own_reason(name: str) -> None:
    game = meeple.load(name, 2)
    fn = optional(game.heuristics, "explain")
    assert fn is not None, f"{name} has no explain in its heuristics"
    reasons = set()
    for state in positions(name, 6, seed=11):
        seat = state.pending_players()[0]
        legal = state.legal_actions(seat)
        for a in random.Random(2).sample(legal, min(15, len(legal))):
            text = fn(state, seat, a)
            assert plain(text), text
            assert explain(state, seat, a) == text
            reasons.add(text)
    assert len(reasons) >= 2, f"{name} gives one reason for everything: {reasons}"


def test_koplus_reason_names_points_and_bonus_turn() -> None:
    from meeple.games.koplus.components import BONUS_THRESHOLDS

    seen_bonus = False
    for seed in range(30):
        for state in positions("koplus", 8, seed=seed):
            assert isinstance(state, KoPlusState)
            seat = state.pending_players()[0]
            for a in state.legal_actions(seat):
                if a == state.geo.pass_id:
                    continue
                assert state.psum is not None
                gain = int(state.psum[a])
                text = explain(state, seat, a)
                if gain:
                    assert text.startswith(f"catches {gain} point"), text
                total = state.running[seat] + gain
                bonus = (total in BONUS_THRESHOLDS and state.bonus_left[seat] > 0 and gain > 0)
                assert (f"reaches {total}: a bonus turn" in text) == bonus, text
                seen_bonus |= bonus
        if seen_bonus:
            break
    assert seen_bonus, "no position with a bonus turn was met"


def test_hint_refuses_a_seat_not_to_move() -> None:
    state = positions("koplus", 1)[0]
    other = 1 - state.current_player
    with pytest.raises(ValueError, match="not seat"):
        hint(state, other)


def test_hint_search_is_capped_within_two_seconds() -> None:
    assert HINT_SECONDS < BUDGET
    for name in GAMES:
        state = positions(name, 1)[0]
        assert hint_bot(state, seed=1).seconds <= HINT_SECONDS


def test_koplus_reason_for_a_first_tile_says_so() -> None:
    """Before a player has laid a tile the reason does not speak of their other tiles."""
    state = meeple.load("koplus", 2).new_initial_state()
    assert isinstance(state, KoPlusState)
    rng = random.Random(3)
    while state.current_player == meeple.CHANCE:
        meeple.resolve_chance(state, rng)
    seat = state.current_player
    for a in state.legal_actions(seat):
        if a == state.geo.pass_id:
            continue
        text = explain(state, seat, a)
        assert "your tiles" not in text and "your group" not in text, text
        assert text.endswith("and is your first tile on the board"), text
