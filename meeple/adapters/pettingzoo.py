"""PettingZoo adapter: an AEC environment for every meeple game.

>>> from meeple.adapters.pettingzoo import env
>>> e = env("koplus", players=2)            # doctest: +SKIP
>>> e.reset(seed=1)                          # doctest: +SKIP

Agents are ``player_0 .. player_{n-1}``. Each observation is a dict with ``observation`` (the
game's observation tensor for that agent) and ``action_mask`` (1 for each legal action).
Chance nodes are resolved inside the environment with its RNG, seeded by ``reset(seed=...)``.
Simultaneous choices are asked one pending player after another; nobody sees another's choice
before the reveal. Rewards are the game's zero-sum returns, given once at the end.
``render()`` returns the game's text picture of the public view.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import meeple
from meeple.engine import SIMULTANEOUS
from meeple.engine import State as MeepleState


def text_picture(state: MeepleState) -> str:
    """The game's text picture of the public view."""
    return state.game.renderer.text(state.observation(None))


class MeepleAECEnv(AECEnv):
    """One meeple game as a PettingZoo AEC environment (turn by turn, masks in observations)."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"], "name": "meeple_v0", "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.game = meeple.load(game, players=players, **options)
        self.metadata = {**self.metadata, "name": f"meeple_{game}_v0"}
        self.render_mode = render_mode
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        num_actions = self.game.num_distinct_actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    -np.inf, np.inf, shape=tuple(self.game.observation_shape), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: MeepleState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the game --------------------------------------------------------------------------
    @property
    def _s(self) -> MeepleState:
        """The game in play (after ``reset``)."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def _resolve_chance(self) -> None:
        meeple.resolve_chance(self._s, self._rng)

    def _actor(self) -> int:
        s = self._s
        cp = s.current_player
        return s.pending_players()[0] if cp == SIMULTANEOUS else cp

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._finish_if_over()
        if not self._s.is_terminal():
            self.agent_selection = self.possible_agents[self._actor()]
        else:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._index[agent]
        s = self._s
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if not s.is_terminal():
            legal = s.legal_actions(p) if p in s.pending_players() else []
            mask[legal] = 1
        obs = np.asarray(s.observation_tensor(p), dtype=np.float32).reshape(
            self.game.observation_shape
        )
        return {"observation": obs, "action_mask": mask}

    def _finish_if_over(self) -> None:
        if self._s.is_terminal():
            for a, r in zip(self.possible_agents, self._s.returns(), strict=True):
                self.rewards[a] = float(r)
                self.terminations[a] = True

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action")
        self._cumulative_rewards[agent] = 0.0
        self._s.apply(int(action), self._index[agent])
        self._resolve_chance()
        self._finish_if_over()
        if not self._s.is_terminal():
            self.agent_selection = self.possible_agents[self._actor()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.state is None:
            return None
        text = text_picture(self.state)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self) -> None:
        pass


def raw_env(game: str, players: int | None = None, **kwargs: Any) -> MeepleAECEnv:
    """The environment without PettingZoo's checking wrappers."""
    return MeepleAECEnv(game, players=players, **kwargs)


def env(game: str, players: int | None = None, **kwargs: Any) -> AECEnv:
    """The environment wrapped in PettingZoo's order-enforcing checks."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, players=players, **kwargs))


__all__ = ["MeepleAECEnv", "env", "raw_env", "text_picture"]
