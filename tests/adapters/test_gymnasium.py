"""Gymnasium's env checker and single-agent play against fixed bots on every meeple game."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import meeple
from meeple.adapters.gymnasium import MeepleEnv

from .games import TINY, configurations

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("name,players,options", configurations(first_only=True))
def test_check_env(name, players, options):
    check_env(MeepleEnv(name, players=players, opponents="random", **options))


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
    assert env.state.is_terminal()
    assert reward == env.state.returns()[info["seat"]]
    assert isinstance(env.render(), str)


def test_illegal_action_changes_nothing():
    env = MeepleEnv(TINY, opponents="random")
    obs, _ = env.reset(seed=1)
    illegal = [a for a in range(3) if not obs["action_mask"][a]]
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # bid one card: it is gone after
    obs, _ = env.reset(seed=1)
    before = env.state.history()
    bad = 99 if not illegal else illegal[0]
    obs2, reward, done, _, info = env.step(bad)
    assert done and reward == -1.0 and "illegal_action" in info
    assert env.state.history() == before
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
