"""Gymnasium adapter: one seat of a meeple game against fixed bots, as a single-agent env.

>>> from meeple.adapters.gymnasium import MeepleEnv
>>> env = MeepleEnv("koplus", players=2, opponents=["greedy"])   # doctest: +SKIP
>>> obs, info = env.reset(seed=0)                                  # doctest: +SKIP
>>> obs["action_mask"]  # 1 for each legal action                  # doctest: +SKIP

``register_envs()`` registers ``meeple/<game>-v0`` so ``gymnasium.make("meeple/koplus-v0",
opponents="mcts:2")`` works too.

Observations are dicts with ``observation`` (the game's tensor for the learner's seat) and
``action_mask``; ``action_masks()`` gives the mask too (for masked policy learners). The other
seats are played by ``meeple.bots.make_bot`` specs (``"random"``, ``"greedy"``, ``"mcts:2"``);
chance is resolved with the env's RNG. The reward is the learner's zero-sum return at the end.

The observation space bounds each tensor entry by its game's named planes
(``meeple.engine.planes``: [0, 1] for most, a plane's own range where it counts things).

An illegal action changes nothing in the game. With ``illegal_action="lose"`` (the default, so
that learners sampling unmasked actions keep going) the episode ends with reward -1 and
``info["illegal_action"]`` saying why; with ``illegal_action="raise"`` it raises
:class:`meeple.IllegalAction`. Once an episode has ended (the game is over, or an illegal
action lost it), ``step`` raises :class:`RuntimeError` until the next ``reset``.

``render()`` follows Gymnasium's modes: ``"ansi"`` returns the game's text picture of the
public view as plain text, ``"human"`` prints it (after ``reset`` and every ``step`` too) and
returns ``None``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import meeple
from meeple.bots import make_bot, view_for
from meeple.engine import CHANCE, SIMULTANEOUS, IllegalAction, OptionError
from meeple.engine import State as MeepleState
from meeple.engine.core import sample_chance

from .pettingzoo import RENDER_MODES, check_render_mode, observation_space, observe, show


class MeepleEnv(gymnasium.Env):
    """The learner plays ``seat`` (``None``: a random seat each episode) against bots."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        game: str = "koplus",
        players: int | None = None,
        opponents: Sequence[str] | str = "random",
        seat: int | None = 0,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        **options: Any,
    ):
        check_render_mode(render_mode)
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.game = meeple.load(game, players=players, **options)
        n = self.game.num_players
        if seat is not None and not 0 <= seat < n:
            raise OptionError(f"seat must be in 0..{n - 1} for {n} players, got {seat}")
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise OptionError(f"{n} players need {n - 1} opponent bots, got {len(specs)}")
        for spec in specs:  # fail now, with the bot's own message, on an unknown spec
            make_bot(spec, self.game, seed=0)
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self._rng = random.Random()
        self.game_state: MeepleState | None = None
        self._over = False
        self.seat = 0 if seat is None else seat
        self.bots: dict[int, Any] = {}

    # -- helpers ---------------------------------------------------------------------------
    @property
    def _s(self) -> MeepleState:
        """The game in play (after ``reset``)."""
        if self.game_state is None:
            raise RuntimeError("call reset() before step()")
        return self.game_state

    def _obs(self) -> dict[str, np.ndarray]:
        obs = observe(self._s, self.seat)
        if self._over:
            obs["action_mask"][:] = 0
        return obs

    def action_masks(self) -> np.ndarray:
        """1 for each action the learner may take now."""
        return self._obs()["action_mask"].astype(bool)

    def _advance(self) -> None:
        """Resolve chance and let the bots act until it is the learner's turn or the end."""
        s = self._s
        while not s.is_terminal():
            cp = s.current_player
            if cp == CHANCE:
                s.apply(sample_chance(s, self._rng))
                continue
            pending = s.pending_players() if cp == SIMULTANEOUS else [cp]
            others = [p for p in pending if p != self.seat]
            if not others:
                return
            p = others[0]
            s.apply(self.bots[p].act(view_for(s, p)), p)

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "move_number": self._s.move_number()}

    # -- the Gymnasium API -----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.game.num_players
        self.seat = self.fixed_seat if self.fixed_seat is not None else self._rng.randrange(n)
        others = [p for p in range(n) if p != self.seat]
        self.bots = {
            p: make_bot(spec, self.game, seed=self._rng.randrange(2**31))
            for p, spec in zip(others, self.opponent_specs, strict=True)
        }
        self.game_state = self.game.new_initial_state()
        self._over = False
        self._advance()
        self._over = self.game_state.is_terminal()
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: int):
        state = self._s
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            state.apply(int(action), self.seat)
        except IllegalAction as e:
            if self.illegal_action == "raise":
                raise
            self._over = True
            info = self._info()
            info["illegal_action"] = str(e)
            return self._obs(), -1.0, True, False, info
        self._advance()
        terminated = self._over = state.is_terminal()
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, False, self._info()

    def render(self) -> str | None:
        return show(self.game_state, self.render_mode)


def register_envs() -> list[str]:
    """Register ``meeple/<game>-v0`` with Gymnasium for every game, for ``gymnasium.make``."""
    from meeple.engine.registry import games

    ids = []
    for name in games():
        env_id = f"meeple/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=MeepleEnv, kwargs={"game": name})
        ids.append(env_id)
    return ids


__all__ = ["MeepleEnv", "register_envs"]
