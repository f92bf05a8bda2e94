"""The engine contract, checked on every registered game and every configuration it declares.

Random play from many seeds: every listed action applies; actions not listed are refused with
the state unchanged; observations are JSON; tensors keep their shape; clone, record and replay
reproduce the state exactly; the game ends within ``max_game_length``.
"""

from __future__ import annotations

import json
import random
import zlib

import numpy as np
import pytest

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS

CONFIGS = [
    pytest.param(name, players, options, id=f"{name}-{players}p-" + "-".join(
        f"{k}={v}" for k, v in options.items()) if options else f"{name}-{players}p")
    for name in meeple.games()
    for players, options in meeple.engine.game_class(name).configurations()
]


def snapshot(state):
    n = state.game.num_players
    return json.dumps(
        [state.history(), state.current_player, state.observation(None)]
        + [state.observation(p) for p in range(n)],
        sort_keys=True,
        default=str,
    )


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_random_play_keeps_the_contract(name, players, options):
    game = meeple.load(name, players=players, **options)
    rng = random.Random(zlib.crc32(f"{name}/{players}/{options}".encode()))
    for _ in range(2):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            assert steps <= game.max_game_length
            cp = state.current_player
            actors = state.pending_players() if cp == SIMULTANEOUS else [cp]
            actor = rng.choice(actors)
            legal = state.legal_actions(actor)
            assert legal, f"no legal action for {actor} at a non-terminal state"
            assert legal == sorted(set(legal))
            if cp == CHANCE:
                outcomes = state.chance_outcomes()
                assert sorted(a for a, _ in outcomes) == legal
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert all(0 <= a < game.max_chance_outcomes for a in legal)
            elif steps % 3 == 0 or len(legal) == 1:  # the full checks on every third decision
                assert all(0 <= a < game.num_distinct_actions for a in legal)
                obs = state.observation(actor)
                json.dumps(obs)
                t = state.observation_tensor(actor)
                assert isinstance(t, np.ndarray) and t.shape == game.observation_shape
                # an illegal action is refused, and nothing changes
                illegal = [a for a in rng.sample(range(game.num_distinct_actions),
                                                 min(20, game.num_distinct_actions))
                           if a not in legal]
                before = snapshot(state)
                for a in illegal[:5]:
                    with pytest.raises(meeple.IllegalAction):
                        state.apply(a, actor)
                assert snapshot(state) == before
                # notation round-trips, and descriptions are JSON
                for a in rng.sample(legal, min(5, len(legal))):
                    text = state.action_to_string(a, actor)
                    assert state.string_to_action(text, actor) == a
                    move = json.loads(json.dumps(state.action_to_dict(a, actor)))
                    assert state.dict_to_action(move, actor) == a
                    json.dumps(state.describe_action(a, actor))
                with pytest.raises(meeple.NotationError):
                    state.string_to_action("%% not a move %%", actor)
            action = rng.choice(legal)
            if steps % 7 == 3:  # a clone evolves independently
                twin = state.clone()
                twin.apply(action, actor)
                assert state.move_number() == twin.move_number() - 1
            state.apply(action, actor)
            steps += 1
        assert state.legal_actions() == []
        r = state.returns()
        assert len(r) == players and sum(r) == pytest.approx(0.0)
        assert state.winners()
        record = game.record(state)
        json.dumps(record)
        again = meeple.replay(json.loads(json.dumps(record)))
        assert snapshot(again) == snapshot(state)
        assert again.scores() == state.scores()
        svg = game.renderer.svg(state.observation(0))
        assert svg.lstrip().startswith("<svg")
        assert isinstance(game.renderer.text(state.observation(None)), str)
