"""The bots' words said in the language in use: level names, a hint's reason, a review's
sentences."""

from __future__ import annotations

import pytest

import meeple
from meeple.bots import bot_choices
from meeple.bots.hint import explain
from meeple.bots.levels import bot_name
from meeple.bots.review import Point, Review, _chose, _turning, review_lines
from meeple.engine.i18n import speaking

from ..engine.tinygame import register_tiny


@pytest.fixture(autouse=True)
def _registered():
    register_tiny()
    yield
    meeple.engine.registry._GAMES.pop("sealed_bids", None)


def test_the_bot_levels_are_named_in_dutch_and_in_english() -> None:
    assert [c["name"] for c in bot_choices()] == ["Beginner", "Casual", "Thoughtful", "Expert"]
    with speaking("nl"):
        assert [c["name"] for c in bot_choices()] == [
            "Beginner", "Amateur", "Bedachtzaam", "Expert"]
        assert bot_choices()[0]["description"] == "Speelt willekeurig een toegestane zet."
        assert bot_name("greedy") == "Amateur"
        assert bot_name("mcts:5") == "Bedachtzaam"  # an old spec, named after its step
    with speaking("de"):
        assert bot_name("mcts:expert") == "Experte"
    assert bot_name("greedy") == "Casual"


def test_a_hint_reason_in_dutch() -> None:
    """A game without its own reasons gets one from the score the move makes."""
    state = meeple.load("sealed_bids").new_initial_state()
    state.apply(2)  # the prize 3
    state.apply(2, 1)  # seat 1 bids 3
    # seat 0 bids 3 too: a tie, nobody scores
    with speaking("nl"):
        assert explain(state, 0, 2) == "houdt je positie het sterkst voor de komende zetten"
    assert explain(state, 0, 2) == "keeps your position strongest for the moves to come"
    state.apply(2, 0)
    state.apply(0)  # the prize 1
    state.apply(0, 1)  # seat 1 bids 1: seat 0's 2 takes the prize
    with speaking("nl"):
        assert explain(state, 0, 1) == "levert 1 punt op"
    with speaking("es"):
        assert explain(state, 0, 1) == "consigue 1 punto"


def test_a_review_sentence_in_dutch() -> None:
    points = [Point(0, None, None, [0.5, 0.5]), Point(1, 0, "bid 3", [0.8, 0.2])]
    with speaking("nl"):
        [t] = _turning(points, ["Ann", "Bob"], lambda k: "biedt 3.")
        assert t.words == "Zet 1: Ann biedt 3; de eigen winkans stijgt van 50% naar 80%."
        [t] = _turning(points, ["Ann", "Bob"])
        assert t.words == "Zet 1: Ann koos: bid 3, en de eigen winkans stijgt van 50% naar 80%."
        assert _chose("Ann", "Leg een U") == "Ann koos: Leg een U"
        r = Review("sealed_bids", 2, None, "all", points, [t], [], 10)
        lines = review_lines(r, 0, ["Ann", "Bob"])
        assert lines[0] == "Winkans na elke zet:"
        assert "Keerpunten:" in lines and "  " + t.words in lines
        assert lines[-1] == "De bot vond geen duidelijk betere zet dan jouw keuzes."
    [t] = _turning(points, ["Ann", "Bob"])
    assert t.words == "Move 1: Ann chose to bid 3, and their chance to win rises from 50% to 80%."
    with speaking("de"):
        [t] = _turning(points, ["Ann", "Bob"], lambda k: "bietet 3.")
        assert t.words == "Zug 1: Ann bietet 3; die eigene Siegchance steigt von 50 % auf 80 %."
