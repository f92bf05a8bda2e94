"""Gymnasium's env checker and single-agent play against fixed bots on every meeple game."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import meeple
from meeple.adapters.gymnasium import MeepleEnv

from .games import TINY, configurations

pytestmark = pytest.mark.filterwarnings("error")


@pytest.mark.parametrize("name,players,options", configurations(first_only=True))
def test_check_env(name, players, options):
    import gymnasium

    from meeple.adapters.gymnasium import register_envs

    register_envs()  # made through gymnasium.make, so the checker tries every render mode
    env = gymnasium.make(f"meeple/{name}-v0", players=players, opponents="random", **options)
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("name,players,options", configurations())
def test_observations_stay_inside_the_bounded_space(name, players, options):
    env = MeepleEnv(name, players=players, opponents="random", **options)
    box = env.observation_space["observation"]
    assert np.all(np.isfinite(box.low)) and np.all(np.isfinite(box.high))
    assert box.low.min() >= 0.0
    if name != TINY:  # most planes of a game are flags and fractions in [0, 1]
        assert np.mean(box.high == 1.0) > 0.5
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    done = False
    while not done:
        assert env.observation_space.contains(obs), name
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.observation_space.contains(obs)


def test_an_ended_episode_stays_ended():
    env = MeepleEnv(TINY, opponents="random")
    obs, _ = env.reset(seed=4)
    done = False
    while not done:
        obs, reward, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert not obs["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    obs, _ = env.reset(seed=4)
    _, reward, done, _, info = env.step(99)  # an illegal action loses the episode...
    assert done and reward == -1.0 and "illegal_action" in info
    assert not env.game_state.is_terminal()
    with pytest.raises(RuntimeError, match="reset"):  # ...and it is over for good
        env.step(int(np.flatnonzero(env.action_masks())[0]) if env.action_masks().any() else 0)
    obs, _ = env.reset(seed=5)
    assert obs["action_mask"].any()


def test_render_modes(capsys):
    env = MeepleEnv(TINY, opponents="random", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and text and "[bold" not in text and "[/" not in text
    human = MeepleEnv(TINY, opponents="random", render_mode="human")
    human.reset(seed=1)
    assert capsys.readouterr().out.strip()  # human mode draws on reset...
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text.strip()  # ...and render prints, plainly
    quiet = MeepleEnv(TINY, opponents="random")
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


@pytest.mark.parametrize("name,players,options", configurations(first_only=True))
def test_episode_against_greedy(name, players, options):
    env = MeepleEnv(name, players=players, opponents="greedy", seat=None, **options)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    done, reward, steps = False, 0.0, 0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size and np.array_equal(legal, np.flatnonzero(env.action_masks()))
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        steps += 1
    assert env.game_state.is_terminal()
    assert reward == env.game_state.returns()[info["seat"]]


def test_illegal_action_changes_nothing():
    env = MeepleEnv(TINY, opponents="random")
    obs, _ = env.reset(seed=1)
    illegal = [a for a in range(3) if not obs["action_mask"][a]]
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # bid one card: it is gone after
    obs, _ = env.reset(seed=1)
    before = env.game_state.history()
    bad = 99 if not illegal else illegal[0]
    obs2, reward, done, _, info = env.step(bad)
    assert done and reward == -1.0 and "illegal_action" in info
    assert env.game_state.history() == before
    strict = MeepleEnv(TINY, opponents="random", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(meeple.IllegalAction):
        strict.step(99)


def test_bad_settings_are_refused():
    with pytest.raises(meeple.OptionError, match="no bot named"):
        MeepleEnv(TINY, opponents="nobody")
    with pytest.raises(meeple.OptionError, match="seat"):
        MeepleEnv(TINY, seat=2)
    with pytest.raises(meeple.OptionError, match="opponent"):
        MeepleEnv(TINY, opponents=["random", "random"])


def test_registered_with_gymnasium():
    import gymnasium

    from meeple.adapters.gymnasium import register_envs

    ids = register_envs()
    assert ids == [f"meeple/{n}-v0" for n in meeple.games()]
    if ids:
        env = gymnasium.make(ids[0], opponents="greedy")
        obs, _ = env.reset(seed=2)
        assert obs["action_mask"].any()
        env.close()
