"""Kontor's pictures and bots: SVG ids match the actions' targets, the greedy bot plays well."""

from __future__ import annotations

import math
import random

import pytest

import meeple
from meeple.bots import make_bot, view_for
from meeple.engine import CHANCE, SIMULTANEOUS, sample_chance
from meeple.games.kontor import heuristics, render
from meeple.games.kontor.components import CARD_ID

from .helpers import fresh

CONFIGS = meeple.engine.game_class("kontor").configurations()


@pytest.mark.parametrize("players,options", CONFIGS[:4])
def test_every_action_target_is_an_element_of_the_svg(players, options):
    game = meeple.load("kontor", players=players, **options)
    rng = random.Random(7)
    s = game.new_initial_state()
    seen_kinds = set()
    while not s.is_terminal() and len(seen_kinds) < 4:
        cp = s.current_player
        if cp == CHANCE:
            s.apply(sample_chance(s, rng))
            continue
        p = s.pending_players()[0] if cp == SIMULTANEOUS else cp
        svg = render.svg(s.observation(p))
        assert svg.startswith("<svg") and "viewBox" in svg and "href=" not in svg
        for a in s.legal_actions(p):
            d = s.describe_action(a, p)
            assert d["label"]
            if d["target"] is not None:
                assert f'id="{d["target"]}"' in svg
                assert all(f'id="{c}"' in svg for c in d["cells"])
            seen_kinds.add(d["kind"])
        text = render.text(s.observation(p))
        assert "your hand" in text
        s.apply(rng.choice(s.legal_actions(p)), p)
    assert {"choose", "place"} <= seen_kinds


def match(game, bots, seed):
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        cp = s.current_player
        if cp == CHANCE:
            s.apply(sample_chance(s, rng))
            continue
        p = s.pending_players()[0] if cp == SIMULTANEOUS else cp
        s.apply(bots[p].act(view_for(s, p)), p)
    return s


def test_greedy_beats_random():
    game = meeple.load("kontor", players=2, mode="advanced")
    wins = 0
    for k in range(4):
        seat = k % 2
        bots = [make_bot("greedy" if p == seat else "random", game, seed=k) for p in range(2)]
        s = match(game, bots, k)
        wins += s.returns()[seat] > 0
        assert -1 <= heuristics.evaluate(s, seat) <= 1
    assert wins >= 3


def test_evaluate_is_bounded_during_play():
    game = meeple.load("kontor", players=3, mode="expansion")
    s = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(120):
        if s.is_terminal():
            break
        cp = s.current_player
        p = s.pending_players()[0] if cp == SIMULTANEOUS else cp
        s.apply(rng.choice(s.legal_actions(p)), p)
        for q in range(3):
            assert -1 <= heuristics.evaluate(s, q) <= 1


def test_evaluate_favours_the_holder_of_the_tie_breaking_card():
    s = fresh()
    high, low = CARD_ID["black-44"], CARD_ID["red-1"]
    s.hands = [[high], [low]]
    holding = heuristics.evaluate(s, 0)
    s.hands = [[low], [high]]
    assert heuristics.evaluate(s, 0) < holding
    s.hands = [[CARD_ID["water-45"]], [CARD_ID["water-46"]]]  # no harbour card: no one leads
    assert heuristics.evaluate(s, 0) == pytest.approx(math.tanh(heuristics._raw(s, 0) / 4))
