"""PettingZoo's API and seed tests on every meeple game through the AEC adapter."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from meeple.adapters.pettingzoo import env, raw_env

from .games import TINY, configurations

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def cycles(name):
    return 200 if name == TINY else 60


@pytest.mark.parametrize("name,players,options", configurations())
def test_api_test(name, players, options):
    api_test(env(name, players=players, **options), num_cycles=cycles(name))


@pytest.mark.parametrize("name,players,options", configurations())
def test_seed_test(name, players, options):
    seed_test(lambda: env(name, players=players, **options), num_cycles=cycles(name))


@pytest.mark.parametrize("name,players,options", configurations(first_only=True))
def test_a_whole_game_ends_with_zero_sum_rewards(name, players, options):
    e = raw_env(name, players=players, **options)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        e.step(int(rng.choice(legal)))
    assert e.state.is_terminal()
    assert sum(totals.values()) == pytest.approx(0.0)
    assert all(-1.0 <= v <= 1.0 for v in totals.values())
    assert isinstance(e.render(), str)


def test_bad_render_mode_is_refused():
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(TINY, render_mode="rgb_array")
