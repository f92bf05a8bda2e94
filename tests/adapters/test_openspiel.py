"""OpenSpiel's own checks on every meeple game through the pyspiel adapter."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest

import meeple
from meeple.adapters import openspiel as mos

from .games import TINY, configurations, game_names

SIMS = {TINY: 30}


@pytest.mark.parametrize("name,players,options", configurations())
def test_random_sim_test(name, players, options):
    game = mos.load(name, players=players, **options)
    pyspiel.random_sim_test(game, num_sims=SIMS.get(name, 1), serialize=False, verbose=False)


@pytest.mark.parametrize("name,players,options", configurations(first_only=True))
def test_random_sim_test_with_serialisation(name, players, options):
    game = mos.load(name, players=players, **options)
    pyspiel.random_sim_test(game, num_sims=SIMS.get(name, 1), serialize=True, verbose=False)


@pytest.mark.parametrize("name,players,options", configurations(first_only=True))
def test_game_type_and_parameters_match_the_engine(name, players, options):
    game = mos.load(name, players=players, **options)
    mg = meeple.load(name, players=players, **options)
    gt = game.get_type()
    assert gt.short_name == f"meeple_{name}"
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    perfect = pyspiel.GameType.Information.PERFECT_INFORMATION
    assert (gt.information == perfect) == mg.perfect_information
    assert game.num_players() == players
    assert game.num_distinct_actions() == mg.num_distinct_actions
    assert game.observation_tensor_shape() == list(mg.observation_shape)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    params = game.get_parameters()
    assert params["players"] == players
    assert game.meeple_game.options == mg.options
    for key, value in options.items():
        assert params[key] == (str(value).lower() if mg.option(key).default is None else value)
    # the same game by its pyspiel string
    again = pyspiel.load_game(str(game))
    assert again.num_players() == players


@pytest.mark.parametrize("name", game_names())
def test_observations_are_the_engines(name):
    game = mos.load(name)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    steps = 0
    while not state.is_terminal() and steps < 40:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            p = state.current_player()
            inner = state.meeple_state
            assert json.loads(state.observation_string(p)) == json.loads(
                json.dumps(inner.observation(p), default=str)
            )
            assert np.allclose(
                state.observation_tensor(p), np.ravel(inner.observation_tensor(p))
            )
            assert state.legal_actions() == inner.legal_actions(p)
            state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    twin = state.clone()
    assert twin.history() == state.history()
    assert twin.meeple_state is not state.meeple_state


def test_simultaneous_choices_are_sequential_and_hidden():
    game = mos.load(TINY)
    state = game.new_initial_state()
    state.apply_action(2)  # the prize is 3
    assert state.current_player() == 0
    seen_before = state.observation_string(1)
    state.apply_action(2)  # player 0 bids 3: player 1 chooses next without seeing it
    assert state.current_player() == 1
    after = json.loads(state.observation_string(1))
    assert after["hand"] == [1, 2, 3]
    assert json.loads(seen_before)["won"] == after["won"]
    assert "bids" not in after


def _play_python_mcts(name, games, sims):
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random

    game = mos.load(name, players=2)
    rng = np.random.RandomState(7)
    wins = 0
    for g in range(games):
        me = g % 2
        bots = [uniform_random.UniformRandomBot(p, rng) for p in range(2)]
        bots[me] = mcts.MCTSBot(
            game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng
        )
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        wins += state.returns()[me] > 0
    return wins


def test_openspiel_python_mcts_plays_the_tiny_game():
    assert _play_python_mcts(TINY, games=4, sims=30) >= 0


@pytest.mark.skipif("koplus" not in game_names(), reason="KoPlus is not registered")
def test_openspiel_python_mcts_plays_koplus():
    wins = _play_python_mcts("koplus", games=2, sims=20)
    assert 0 <= wins <= 2


def test_bad_parameters_are_refused():
    with pytest.raises(meeple.OptionError):
        mos.load(TINY, rounds=9)
    with pytest.raises(meeple.OptionError):
        mos.load(TINY, players=5)
