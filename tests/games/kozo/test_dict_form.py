"""The dict form of Kozo actions (rules.md 2.7): worked examples, round trips, malformed dicts."""

from __future__ import annotations

import json
import random
import re

import pytest

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS
from meeple.games.kozo import Kozo
from meeple.games.kozo.components import NUM_ACTIONS

from .test_examples import Z5, play


def place(p, o, dx, dy):
    return {"type": "place", "piece": p, "orient": o, "offset": [dx, dy]}


def balance(x, y):
    return {"type": "balance", "column": [x, y]}


def text_to_dict(text: str) -> dict:
    """The dict form of a text move, read independently of the rules code."""
    m = re.fullmatch(r"P(\d+)\.(\d+)@(\d),(\d)", text)
    if m:
        return place(*(int(g) for g in m.groups()))
    m = re.fullmatch(r"B@(\d),(\d)", text)
    if m:
        return balance(int(m.group(1)), int(m.group(2)))
    raise AssertionError(text)


def new_state(players=2, **options):
    return meeple.load("kozo", players=players, **options).new_initial_state()


# ------------------------------------------------------------------------------ worked examples
@pytest.mark.parametrize("move,ident", [
    (place(7, 23, 1, 0), 1504),  # the table's example: ((7-1)*24 + 23)*9 + 0*3 + 1
    (place(12, 5, 0, 0), 2421),  # Z1
    (place(1, 0, 2, 1), 5),
    (balance(2, 1), 2596),
    (balance(0, 0), 2592),
    (balance(2, 2), 2599),
    (place(5, 2, 0, 0), 882),  # Z2
    (place(2, 2, 0, 1), 237),
    (place(2, 1, 1, 0), 226),
    (place(4, 2, 0, 0), 666),
    (place(5, 0, 0, 0), 864),
    (place(5, 0, 1, 0), 865),
    ({"type": "size", "size": 2}, 2600),  # Z7
    ({"type": "size", "size": 3}, 2601),
    ({"type": "size", "size": 4}, 2602),
    ({"type": "size", "size": 5}, 2603),
    ({"type": "piece", "piece": 1}, 2604),
    ({"type": "piece", "piece": 4}, 2607),
    ({"type": "piece", "piece": 12}, 2615),
])
def test_worked_example_dicts_map_to_their_ids(move, ident):
    s = new_state()
    assert s.dict_to_action(move, 0) == ident
    assert s.action_to_dict(ident, 0) == move
    assert s.describe_action(ident, 0)["move"] == move


def test_z5_game_played_from_dicts():
    """Z5 played through the dict form gives the same game as the text form."""
    s = new_state(3)
    for poly, bal in Z5:
        for text in (poly, bal):
            if text is None:
                continue
            move = text_to_dict(text)
            a = s.dict_to_action(move)
            assert a == s.string_to_action(text)
            assert s.action_to_dict(a) == move
            s.apply(a)
    assert s.is_terminal() and s.scores() == [23.0, 23.0, 21.0] and s.winners() == [1]


def test_z3_legal_balance_dicts():
    s = play(new_state(), "P12.5@0,0")
    assert [s.action_to_dict(a) for a in s.legal_actions()] == [
        balance(0, 0), balance(1, 0), balance(2, 0), balance(0, 1), balance(0, 2)]


def test_z6_tremor_outcomes():
    s = play(new_state(tremor=0.1), "P12.5@0,0")
    assert s.current_player == CHANCE
    steps = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
    for k, (i, j) in enumerate(steps):
        move = {"type": "tremor", "step": [i, j]}
        assert s.dict_to_action(move, CHANCE) == k
        assert s.action_to_dict(k, CHANCE) == move
        assert s.describe_action(k, CHANCE)["move"] == move
    assert s.dict_to_action({"type": "tremor", "step": [-1, 1]}) == 2  # text 'tremor -1,1'


def test_z7_draws_and_choices():
    s = new_state(random_size=True, opponent_choice=True)
    assert s.current_player == CHANCE
    assert [s.action_to_dict(a, CHANCE) for a, _ in s.chance_outcomes()] == [
        {"type": "draw", "size": v} for v in (2, 3, 4, 5)]
    assert s.dict_to_action({"type": "draw", "size": 4}) == 2
    s.apply(2)
    assert s.current_player == 1
    assert s.action_to_dict(2607) == {"type": "piece", "piece": 4}
    s.apply(s.dict_to_action({"type": "piece", "piece": 9}))
    s.apply(s.dict_to_action(place(9, 2, 0, 1)))
    s.apply(s.dict_to_action(balance(0, 2)))
    assert s.current_player == CHANCE
    t = new_state(opponent_choice=True)
    assert [t.action_to_dict(a) for a in t.legal_actions()] == [
        {"type": "size", "size": v} for v in (2, 3, 4, 5)]


# ------------------------------------------------------------------------------ round trips
def round_trip(state, player) -> int:
    legal = state.legal_actions(player)
    for a in legal:
        move = state.action_to_dict(a, player)
        assert json.loads(json.dumps(move)) == move
        assert state.dict_to_action(json.loads(json.dumps(move)), player) == a, move
        assert move["type"] in ("place", "balance", "size", "piece", "tremor", "draw")
        if player == CHANCE:  # chance dicts are named after the text's first word
            assert move["type"] == state.action_to_string(a, player).split()[0]
    return len(legal)


@pytest.mark.parametrize("players,options", Kozo.configurations(),
                         ids=lambda v: json.dumps(v, sort_keys=True))
def test_round_trip_over_random_games(players, options):
    game = meeple.load("kozo", players=players, **options)
    games = 1 if options.get("stability") == "mujoco" or options.get("tremor") else 2
    checked = 0  # over every game: on average more actions than a round's first move has
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            cp = state.current_player
            if cp == CHANCE:
                checked += round_trip(state, CHANCE)
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                assert cp != SIMULTANEOUS  # Kozo's turns are sequential
                checked += round_trip(state, cp)
                state.apply(rng.choice(state.legal_actions()))
    assert checked > 236 * games


def test_round_trip_over_every_id():
    """Every id whose text form reads back also reads back from its dict form."""
    s = new_state()
    for a in range(NUM_ACTIONS):
        move = s.action_to_dict(a, 0)
        try:
            expected = s.string_to_action(s.action_to_string(a, 0), 0)
        except meeple.NotationError:  # an orientation index the piece does not have
            with pytest.raises(meeple.NotationError, match=re.escape('"orient": o')):
                s.dict_to_action(move, 0)
            continue
        assert s.dict_to_action(move, 0) == expected == a


# ------------------------------------------------------------------------------ malformed dicts
PLACE_FORM = '{"type": "place", "piece": p, "orient": o, "offset": [dx, dy]}'
BALANCE_FORM = '{"type": "balance", "column": [x, y]}'
SIZE_FORM = '{"type": "size", "size": s}'
PIECE_FORM = '{"type": "piece", "piece": p}'
TREMOR_FORM = '{"type": "tremor", "step": [i, j]}'
DRAW_FORM = '{"type": "draw", "size": s}'


@pytest.mark.parametrize("move,form", [
    ({}, PLACE_FORM),
    ({"piece": 7, "orient": 23, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "Place"}, BALANCE_FORM),
    ({"type": 3}, SIZE_FORM),
    ({"type": "pass"}, PIECE_FORM),
    ({"type": "tremor", "step": [0, 0]}, PLACE_FORM),  # a chance outcome, not a player's action
    ({"type": "draw", "size": 4}, PLACE_FORM),
    ({"type": "place"}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": 23}, PLACE_FORM),
    ({"type": "place", "piece": "7", "orient": 23, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 7.0, "orient": 23, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": True, "orient": 0, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": None, "orient": 0, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 0, "orient": 0, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 13, "orient": 0, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": -1, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": 24, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 1, "orient": 3, "offset": [1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": 23, "offset": "1,0"}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": 23, "offset": [1]}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": 23, "offset": [1, 0, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": 23, "offset": [1, 3]}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": 23, "offset": [-1, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": 23, "offset": [1.0, 0]}, PLACE_FORM),
    ({"type": "place", "piece": 7, "orient": 23, "offset": {"x": 1, "y": 0}}, PLACE_FORM),
    ({"type": "balance"}, BALANCE_FORM),
    ({"type": "balance", "column": [1, 1]}, BALANCE_FORM),  # the chimney
    ({"type": "balance", "column": [3, 0]}, BALANCE_FORM),
    ({"type": "balance", "column": [0, -1]}, BALANCE_FORM),
    ({"type": "balance", "column": [0, False]}, BALANCE_FORM),
    ({"type": "balance", "column": "B@0,0"}, BALANCE_FORM),
    ({"type": "size"}, SIZE_FORM),
    ({"type": "size", "size": 1}, SIZE_FORM),
    ({"type": "size", "size": 6}, SIZE_FORM),
    ({"type": "size", "size": "4"}, SIZE_FORM),
    ({"type": "piece"}, PIECE_FORM),
    ({"type": "piece", "piece": 0}, PIECE_FORM),
    ({"type": "piece", "piece": 13}, PIECE_FORM),
    ({"type": "piece", "piece": "P7"}, PIECE_FORM),
])
def test_malformed_player_dicts(move, form):
    s = new_state()
    with pytest.raises(meeple.NotationError, match=re.escape(form)):
        s.dict_to_action(move, 0)


@pytest.mark.parametrize("move", [None, "P7.23@1,0", 1504, [1504], ["place", 7, 23, [1, 0]]])
def test_non_dicts(move):
    with pytest.raises(meeple.NotationError, match="JSON object"):
        new_state().dict_to_action(move, 0)


@pytest.mark.parametrize("move,form", [
    ({}, TREMOR_FORM),
    ({"type": "tremor"}, TREMOR_FORM),
    ({"type": "tremor", "step": [2, 0]}, TREMOR_FORM),
    ({"type": "tremor", "step": [0, -2]}, TREMOR_FORM),
    ({"type": "tremor", "step": [0]}, TREMOR_FORM),
    ({"type": "tremor", "step": "0,0"}, TREMOR_FORM),
    ({"type": "tremor", "step": [0.1, 0]}, TREMOR_FORM),
    ({"type": "draw", "size": 4}, TREMOR_FORM),  # a draw is no tremor outcome
    ({"type": "place", "piece": 7, "orient": 23, "offset": [1, 0]}, TREMOR_FORM),
])
def test_malformed_tremor_dicts(move, form):
    s = play(new_state(tremor=0.1), "P12.5@0,0")
    assert s.current_player == CHANCE
    with pytest.raises(meeple.NotationError, match=re.escape(form)):
        s.dict_to_action(move, CHANCE)


@pytest.mark.parametrize("move,form", [
    ({"type": "draw"}, DRAW_FORM),
    ({"type": "draw", "size": 1}, DRAW_FORM),
    ({"type": "draw", "size": 6}, DRAW_FORM),
    ({"type": "draw", "size": [4]}, DRAW_FORM),
    ({"type": "tremor", "step": [0, 0]}, DRAW_FORM),  # a tremor is no draw outcome
    ({"type": "size", "size": 4}, DRAW_FORM),
])
def test_malformed_draw_dicts(move, form):
    s = new_state(random_size=True)
    assert s.current_player == CHANCE
    with pytest.raises(meeple.NotationError, match=re.escape(form)):
        s.dict_to_action(move, CHANCE)
