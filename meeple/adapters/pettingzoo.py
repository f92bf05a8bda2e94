"""PettingZoo adapter: an AEC and a parallel environment for every meeple game.

>>> from meeple.adapters.pettingzoo import env, parallel_env
>>> e = env("koplus", players=2)            # doctest: +SKIP
>>> e.reset(seed=1)                          # doctest: +SKIP
>>> p = parallel_env("mops_royal")           # doctest: +SKIP
>>> observations, infos = p.reset(seed=1)    # doctest: +SKIP

Agents are ``player_0 .. player_{n-1}``. Each observation is a dict with ``observation`` (the
game's observation tensor for that agent, inside the bounds of the game's named planes:
``meeple.engine.planes``) and ``action_mask`` (1 for each legal action). Chance nodes are
resolved inside the environment with its RNG, seeded by ``reset(seed=...)``. Rewards are the
game's zero-sum returns, given once at the end. ``state()`` is the global view for
centralised critics: every agent's observation tensor, one after another.

- The AEC environment (:func:`env`, :func:`raw_env`) asks the pending players one after
  another; at a simultaneous step nobody sees another's choice before the reveal.
- The parallel environment (:func:`parallel_env`) takes one action from every agent to act
  now: all the pending players at a simultaneous step (Mops Royal's rounds, Kontor's card
  choice), the one player to move elsewhere. An agent with nothing to choose has an all-zero
  action mask and its action is ignored; an illegal action of an agent to act raises
  :class:`meeple.IllegalAction`.

``render()`` follows PettingZoo's modes: ``"ansi"`` returns the game's text picture of the
public view as plain text, ``"human"`` prints it and returns ``None``.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from rich.text import Text

import meeple
from meeple.engine import SIMULTANEOUS
from meeple.engine import Game as MeepleGame
from meeple.engine import State as MeepleState
from meeple.engine.planes import bounds

RENDER_MODES = ["ansi", "human"]


def text_picture(state: MeepleState) -> str:
    """The game's text picture of the public view, as plain text (no colour markup)."""
    return Text.from_markup(state.game.renderer.text(state.observation(None))).plain


def show(state: MeepleState | None, render_mode: str | None) -> str | None:
    """``render()`` of the peers: ``"ansi"`` returns the plain picture, ``"human"`` prints it
    and returns ``None``, no mode warns and returns ``None``."""
    if render_mode is None:
        gymnasium.logger.warn("render() was called without a render_mode")
        return None
    if state is None:
        return None
    text = text_picture(state)
    if render_mode == "human":
        print(text)
        return None
    return text


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES}, got {render_mode!r}")


def observation_space(game: MeepleGame) -> spaces.Dict:
    """One agent's observation space: the tensor within its planes' bounds, and the mask."""
    low, high = bounds(game)
    shape = tuple(game.observation_shape)
    return spaces.Dict(
        {
            "observation": spaces.Box(low.reshape(shape), high.reshape(shape), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.num_distinct_actions,), dtype=np.int8),
        }
    )


def observe(state: MeepleState, player: int) -> dict[str, np.ndarray]:
    """``player``'s observation: the tensor and the mask of the actions legal for them now."""
    game = state.game
    mask = np.zeros(game.num_distinct_actions, dtype=np.int8)
    if not state.is_terminal() and player in state.pending_players():
        mask[state.legal_actions(player)] = 1
    obs = np.asarray(state.observation_tensor(player), dtype=np.float32).reshape(
        game.observation_shape
    )
    return {"observation": obs, "action_mask": mask}


class _Common:
    """What both environments share: the game, agents, spaces, the global state, rendering."""

    metadata: dict[str, Any]
    game: MeepleGame
    game_state: MeepleState | None
    render_mode: str | None

    def _set_up(self, game: str, players: int | None, render_mode: str | None,
                options: dict[str, Any]) -> None:
        check_render_mode(render_mode)
        self.game = meeple.load(game, players=players, **options)
        self.metadata = {**self.metadata, "name": f"meeple_{game}_v0"}
        self.render_mode = render_mode
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space(self.game)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.game.num_distinct_actions) for a in self.possible_agents
        }
        low, high = bounds(self.game)
        self.state_space = spaces.Box(np.tile(low, n), np.tile(high, n), dtype=np.float32)
        self._rng = random.Random()
        self.game_state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def _s(self) -> MeepleState:
        """The game in play (after ``reset``)."""
        if self.game_state is None:
            raise RuntimeError("call reset() first")
        return self.game_state

    def _new_game(self, seed: int | None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self.game.new_initial_state()
        meeple.resolve_chance(self.game_state, self._rng)

    def state(self) -> np.ndarray:
        """The global view: every agent's observation tensor, seat by seat."""
        s = self._s
        return np.concatenate(
            [np.ravel(s.observation_tensor(p)) for p in range(self.game.num_players)]
        ).astype(np.float32)

    def render(self) -> str | None:
        return show(self.game_state, self.render_mode)

    def close(self) -> None:
        pass


class MeepleAECEnv(_Common, AECEnv):
    """One meeple game as a PettingZoo AEC environment (turn by turn, masks in observations)."""

    metadata: dict[str, Any] = {
        "render_modes": RENDER_MODES, "name": "meeple_v0", "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ):
        AECEnv.__init__(self)
        self._set_up(game, players, render_mode, options)

    def _actor(self) -> int:
        s = self._s
        cp = s.current_player
        return s.pending_players()[0] if cp == SIMULTANEOUS else cp

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._new_game(seed)
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
        return observe(self._s, self._index[agent])

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
        meeple.resolve_chance(self._s, self._rng)
        self._finish_if_over()
        if not self._s.is_terminal():
            self.agent_selection = self.possible_agents[self._actor()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class MeepleParallelEnv(_Common, ParallelEnv):
    """One meeple game as a PettingZoo parallel environment: every agent to act now acts in
    one step (all the pending players of a simultaneous step together)."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "name": "meeple_v0"}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ):
        self._set_up(game, players, render_mode, options)
        self.agents: list[str] = []

    def _all(self) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        s = self._s
        obs = {a: observe(s, self._index[a]) for a in self.agents}
        infos = {a: {"to_act": self._index[a] in s.pending_players()} for a in self.agents}
        return obs, infos

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        return self._all()

    def step(self, actions: dict[str, Any]):
        s = self._s
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        movers = list(s.pending_players())
        missing = [self.possible_agents[p] for p in movers
                   if self.possible_agents[p] not in actions]
        if missing:
            raise ValueError(f"{', '.join(missing)} must choose an action now")
        for p in movers:
            if s.is_terminal() or p not in s.pending_players():
                continue
            s.apply(int(actions[self.possible_agents[p]]), p)
            meeple.resolve_chance(s, self._rng)
        live = list(self.agents)
        over = s.is_terminal()
        rewards = dict.fromkeys(live, 0.0)
        if over:
            for a, r in zip(self.possible_agents, s.returns(), strict=True):
                if a in rewards:
                    rewards[a] = float(r)
        obs, infos = self._all()
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, False)
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos


def raw_env(game: str, players: int | None = None, **kwargs: Any) -> MeepleAECEnv:
    """The AEC environment without PettingZoo's checking wrappers."""
    return MeepleAECEnv(game, players=players, **kwargs)


def env(game: str, players: int | None = None, **kwargs: Any) -> AECEnv:
    """The AEC environment wrapped in PettingZoo's order-enforcing checks."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, players=players, **kwargs))


def parallel_env(game: str, players: int | None = None, **kwargs: Any) -> MeepleParallelEnv:
    """The parallel environment: each step, every agent to act gives its action."""
    return MeepleParallelEnv(game, players=players, **kwargs)


__all__ = [
    "MeepleAECEnv",
    "MeepleParallelEnv",
    "env",
    "observation_space",
    "observe",
    "parallel_env",
    "raw_env",
    "show",
    "text_picture",
]
