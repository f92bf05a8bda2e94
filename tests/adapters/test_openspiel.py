"""OpenSpiel's own checks on every meeple game through the pyspiel adapter."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest

import meeple
from meeple.adapters import openspiel as mos

from .games import TINY, configurations, game_names, hidden_game_names, perfect_game_names

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


def _play(game, bot_for, games, seed=7):
    """Play ``games`` whole games, the bot of ``bot_for(game, rng)`` against random in turn in
    each seat; return the bot's wins."""
    from open_spiel.python.bots import uniform_random

    rng = np.random.RandomState(seed)
    n = game.num_players()
    wins = 0
    for g in range(games):
        me = g % n
        bots = [uniform_random.UniformRandomBot(p, rng) for p in range(n)]
        bots[me] = bot_for(game, rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        assert sum(state.returns()) == pytest.approx(0.0)
        wins += state.returns()[me] > 0
    return wins


@pytest.mark.parametrize("name", perfect_game_names())
def test_openspiel_python_mcts_plays_games_of_perfect_information(name):
    game = mos.load(name, players=2)
    wins = _play(game, lambda g, rng: mos.mcts_bot(g, 2.0, 8, random_state=rng), games=1)
    assert 0 <= wins <= 1


@pytest.mark.parametrize("name", hidden_game_names())
def test_plain_mcts_refuses_hidden_information(name):
    with pytest.raises(ValueError, match="ismcts_bot"):
        mos.mcts_bot(mos.load(name))


@pytest.mark.parametrize("name", hidden_game_names())
def test_openspiel_ismcts_plays_every_game_of_hidden_information(name):
    game = mos.load(name)
    sims = 30 if name == TINY else 6
    wins = _play(game, lambda g, rng: mos.ismcts_bot(g, 2.0, sims, random_state=rng),
                 games=4 if name == TINY else 2)
    assert 0 <= wins <= (4 if name == TINY else 2)


def test_ismcts_beats_random_on_the_tiny_game():
    """Random against random wins about 4 of these 12 games (the rest are lost or tied)."""
    game = mos.load(TINY)
    wins = _play(game, lambda g, rng: mos.ismcts_bot(g, 2.0, 60, random_state=rng), games=12)
    assert wins >= 6


@pytest.mark.parametrize("name", hidden_game_names())
def test_an_ismcts_bot_given_a_random_state_plays_the_same_moves_again(name):
    """Its draws of what it cannot see come from that random state too (with OpenSpiel's own
    unseeded sampler, Kontor's games differ)."""
    game = mos.load(name)

    def moves():
        rng = np.random.RandomState(3)
        bot = mos.ismcts_bot(game, 2.0, 20, random_state=rng)
        state, out, decisions = game.new_initial_state(), [], 0
        while not state.is_terminal() and decisions < 8:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                action = int(rng.choice(actions, p=probs))
            elif state.current_player() == 0:
                action, decisions = bot.step(state), decisions + 1
            else:
                action = int(rng.choice(state.legal_actions()))
            out.append(action)
            state.apply_action(action)
        return out

    assert moves() == moves()


def _walk(game, seed, steps):
    """States along one random game (chance by its probabilities)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            yield state
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", game_names())
def test_information_state_is_what_the_player_knows(name):
    game = mos.load(name)
    assert game.get_type().provides_information_state_string
    assert game.get_type().provides_information_state_tensor
    size = game.information_state_tensor_size()
    assert size == game.observation_tensor_size() + game.num_distinct_actions()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = 0
    for state in _walk(game, 4, 60):
        p = state.current_player()
        inner = state.meeple_state
        info = json.loads(state.information_state_string(p))
        assert info["observation"] == json.loads(json.dumps(inner.observation(p), default=str))
        known = inner.visible_history(p)
        assert info["history"] == [[q, a] for q, a in known]
        tensor = np.asarray(state.information_state_tensor(p))
        assert tensor.shape == (size,)
        assert np.allclose(tensor[: game.observation_tensor_size()],
                           np.ravel(inner.observation_tensor(p)))
        mine = {a for q, a in inner.history() if q == p}
        assert set(np.flatnonzero(tensor[game.observation_tensor_size():])) == mine
        for _ in range(3):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.current_player() == p
            assert other.legal_actions() == state.legal_actions()
            assert other.history() == state.history()
            assert other.meeple_state is not inner
            differs += str(other.meeple_state.observation(1 - p if p < 2 else 0)) != str(
                inner.observation(1 - p if p < 2 else 0))
    if not mos.load(name).meeple_game.perfect_information and name != TINY:
        assert differs > 0, "resampling never drew a different hidden state"


@pytest.mark.parametrize("name", sorted(mos.SMALL))
def test_small_set_up_runs_tabular_cfr_and_exploitability(name):
    from open_spiel.python.algorithms import cfr, exploitability

    if name not in game_names():
        pytest.skip(f"{name} is not registered")
    game = mos.load_small(name)
    again = pyspiel.load_game(str(game))
    assert again.get_parameters()["horizon"] == mos.SMALL[name]["horizon"]
    solver = cfr.CFRSolver(game)
    for _ in range(3):
        solver.evaluate_and_update_policy()
    value = exploitability.exploitability(game, solver.average_policy())
    assert 0.0 <= value <= 2.0


def test_a_copy_of_a_state_does_not_set_the_game_up_again(monkeypatch):
    """OpenSpiel makes a new initial state for every copy of a state, at every node its
    algorithms visit: the set-up (the chance of the fixed deal and, in Mops Royal's small
    set-up, 40 opening moves) is worked out once per game, and a copy only copies it."""
    game = mos.load_small("mops_royal")
    first = game.new_initial_state()
    openings: list[object] = []
    real = mos._Inner.play_opening
    monkeypatch.setattr(mos._Inner, "play_opening",
                        lambda inner: (openings.append(inner), real(inner))[1])
    again = game.new_initial_state()
    copy = first.clone()
    action = first.legal_actions()[0]
    child = first.child(action)
    assert openings == []
    played = first.meeple_state.history()
    assert len(played) > 40
    assert again.meeple_state.history() == copy.meeple_state.history() == played
    assert again.meeple_state is not first.meeple_state is not copy.meeple_state
    assert child.history() == [action] and first.meeple_state.history() == played


def test_cfr_solves_the_tiny_game():
    from open_spiel.python.algorithms import cfr, exploitability

    game = mos.load(TINY, rounds=1)
    solver = cfr.CFRSolver(game)
    first = exploitability.exploitability(game, solver.average_policy())
    for _ in range(50):
        solver.evaluate_and_update_policy()
    last = exploitability.exploitability(game, solver.average_policy())
    assert last < first and last < 0.05


def test_horizon_ends_the_game_with_the_ranking_then():
    game = mos.load("koplus", players=2, horizon=2, chance_seed=5)
    state = game.new_initial_state()
    assert not state.is_chance_node()  # the deal is settled from the seed
    twin = game.new_initial_state()
    assert str(twin) == str(state)
    state.apply_action(state.legal_actions()[0])
    assert not state.is_terminal()
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.legal_actions() == []
    inner = state.meeple_state
    keys = [inner.ranking_key(p) for p in range(2)]
    expected = [0.0, 0.0] if keys[0] == keys[1] else (
        [1.0, -1.0] if keys[0] > keys[1] else [-1.0, 1.0])
    assert state.returns() == expected
    with pytest.raises(meeple.OptionError):
        mos.load("koplus", horizon=-1)
    with pytest.raises(meeple.OptionError):
        mos.load("koplus", opening=3)  # an opening is played from a chance_seed


def test_an_opening_starts_the_game_later_and_the_same_way_each_time():
    import pickle

    game = mos.load("mops_royal", players=2, opening=12, horizon=2, chance_seed=1)
    state = game.new_initial_state()
    inner = state.meeple_state
    assert sum(1 for p, _ in inner.history() if p >= 0) == 12
    assert state.history() == []  # OpenSpiel's tree starts after the opening
    assert str(game.new_initial_state()) == str(state)
    state.apply_action(state.legal_actions()[0])
    assert not state.is_terminal()
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state) and not back.is_terminal()
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    params = pyspiel.load_game(str(game)).get_parameters()
    assert (params["opening"], params["horizon"], params["chance_seed"]) == (12, 2, 1)


@pytest.mark.parametrize("name", game_names())
def test_serialisation_carries_parameters_and_moves_not_tables(name):
    import pickle

    game = mos.load(name)
    state = list(_walk(game, 9, 30))[-1]
    text = pyspiel.serialize_game_and_state(game, state)
    assert len(text) < 20_000
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert state2.meeple_state.history() == state.meeple_state.history()
    blob = pickle.dumps(state)
    assert len(blob) < 20_000
    back = pickle.loads(blob)
    assert str(back) == str(state) and back.legal_actions() == state.legal_actions()


def test_bad_parameters_are_refused():
    with pytest.raises(meeple.OptionError):
        mos.load(TINY, rounds=9)
    with pytest.raises(meeple.OptionError):
        mos.load(TINY, players=5)
