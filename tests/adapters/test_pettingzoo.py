"""PettingZoo's own test suites on every meeple game through the AEC and parallel adapters."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.test.state_test import test_parallel_env as parallel_state_test
from pettingzoo.test.state_test import test_state_space as state_space_test

from meeple.adapters.pettingzoo import env, parallel_env, raw_env

from .games import TINY, configurations, game_names

pytestmark = [
    pytest.mark.filterwarnings("error"),
    # PettingZoo's own advice for masked actions is a dict observation, which its api_test
    # then flags (not a Box, not an array), as it does for its own
    # board games outside its list; every other warning fails the test.
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


def cycles(name):
    return 200 if name == TINY else 60


@pytest.mark.parametrize("name,players,options", configurations())
def test_api_test(name, players, options):
    api_test(env(name, players=players, **options), num_cycles=cycles(name))


@pytest.mark.parametrize("name,players,options", configurations())
def test_parallel_api_test(name, players, options):
    parallel_api_test(parallel_env(name, players=players, **options), num_cycles=cycles(name))


@pytest.mark.parametrize("name,players,options", configurations())
def test_seed_test(name, players, options):
    seed_test(lambda: env(name, players=players, **options), num_cycles=cycles(name))


@pytest.mark.parametrize("name", game_names())
def test_render_test(name, capsys):
    render_test(lambda render_mode=None: env(name, render_mode=render_mode))
    printed = capsys.readouterr().out
    assert printed and "[bold" not in printed and "[/" not in printed


@pytest.mark.parametrize("name", game_names())
def test_state_is_the_global_view(name):
    e = env(name)
    e.reset(seed=3)
    state = e.unwrapped.state()
    n = len(e.possible_agents)
    assert state.shape == e.unwrapped.state_space.shape
    assert state.shape[0] == n * e.observation_space("player_0")["observation"].shape[0]
    assert e.unwrapped.state_space.contains(state)
    state_space_test(e)  # PettingZoo's own checks (its play loop ignores action masks)
    rng = np.random.default_rng(3)
    for _agent in e.agent_iter(max_iter=40):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert e.unwrapped.state_space.contains(e.unwrapped.state())
    p = parallel_env(name)
    parallel_state_test(p, seed=3)
    assert np.array_equal(p.state(), state)


@pytest.mark.parametrize("name,players,options", configurations(first_only=True))
def test_a_whole_game_ends_with_zero_sum_rewards(name, players, options):
    e = raw_env(name, players=players, **options)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, _ = e.last()
        assert e.observation_space(agent)["observation"].contains(obs["observation"])
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        e.step(int(rng.choice(legal)))
    assert e.game_state.is_terminal()
    assert sum(totals.values()) == pytest.approx(0.0)
    assert all(-1.0 <= v <= 1.0 for v in totals.values())
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None  # no render mode: a warning, no picture
    ansi = raw_env(name, players=players, render_mode="ansi", **options)
    ansi.reset(seed=5)
    text = ansi.render()
    assert isinstance(text, str) and text and "[bold" not in text


@pytest.mark.parametrize("name,players,options", configurations(first_only=True))
def test_parallel_game_takes_every_pending_choice_at_once(name, players, options):
    import meeple

    p = parallel_env(name, players=players, **options)
    obs, infos = p.reset(seed=8)
    rng = np.random.default_rng(8)
    together = 0
    while p.agents:
        movers = [a for a in p.agents if infos[a]["to_act"]]
        assert movers and all(obs[a]["action_mask"].any() == (a in movers) for a in p.agents)
        together += len(movers) > 1
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if a in movers
                   else 0 for a in p.agents}
        obs, rewards, terms, truncs, infos = p.step(actions)
    assert p.game_state.is_terminal()
    assert sum(rewards.values()) == pytest.approx(0.0)
    assert all(terms.values())
    simultaneous = p.game.name in ("mops_royal", "kontor", TINY)
    assert (together > 0) == simultaneous
    with pytest.raises(RuntimeError):
        p.step({})
    q = parallel_env(name, players=players, **options)
    obs, infos = q.reset(seed=8)
    mover = next(a for a in q.agents if infos[a]["to_act"])
    unmasked = np.flatnonzero(obs[mover]["action_mask"] == 0)
    illegal = int(unmasked[0]) if unmasked.size else q.game.num_distinct_actions
    with pytest.raises(meeple.IllegalAction):
        q.step(dict.fromkeys(q.agents, illegal))
    with pytest.raises(ValueError, match="must choose"):
        q.step({})


def test_bad_render_mode_is_refused():
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(TINY, render_mode="rgb_array")
    with pytest.raises(ValueError, match="render_mode"):
        parallel_env(TINY, render_mode="rgb_array")


def test_no_render_mode_warns():
    e = raw_env(TINY)
    e.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None
