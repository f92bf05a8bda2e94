"""OpenSpiel adapter: every meeple game as a pyspiel game named ``meeple_<name>``.

>>> from meeple.adapters import openspiel as mos
>>> mos.register_all()                      # doctest: +SKIP
>>> game = pyspiel.load_game("meeple_koplus", {"players": 3})  # doctest: +SKIP

The game's options become pyspiel parameters (plus ``players``). Chance nodes stay explicit
chance nodes. Simultaneous choices are exposed turn by turn: the pending players choose one
after another, and since observations never show a choice before the reveal, a later chooser
does not learn an earlier one's choice. Returns are meeple's zero-sum returns in [-1, 1].

Observations come from the game itself: the tensor from ``observation_tensor(player)`` and
the string from the JSON ``observation(player)``. Use OpenSpiel's *Python* MCTS
(``open_spiel.python.algorithms.mcts``); the C++ ``pyspiel.MCTSBot`` cannot call back into
Python games.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS, TERMINAL
from meeple.engine import Game as MeepleGame
from meeple.engine import State as MeepleState
from meeple.engine.registry import game_class, games

PREFIX = "meeple_"
_PARAM_TYPES = (bool, int, float, str)
_UNSET = ""


def spiel_name(game: str) -> str:
    """The pyspiel short name of a meeple game."""
    return PREFIX + game


def _parameters(cls: type[MeepleGame]) -> dict[str, Any]:
    """The pyspiel parameter specification of a meeple game: ``players`` and its options.

    An option whose default is ``None`` (the game chooses, e.g. by mode) becomes a text
    parameter whose default ``""`` means "the game's default"; other text is read with the
    option's own parser (``"true"``, ``"3"``...).
    """
    spec: dict[str, Any] = {"players": cls.default_players()}
    for option in cls.option_schema:
        if option.default is None:
            spec[option.name] = _UNSET
        elif option.type in _PARAM_TYPES and isinstance(option.default, option.type):
            spec[option.name] = option.default
    return spec


def _to_meeple_options(cls: type[MeepleGame], params: dict[str, Any]) -> dict[str, Any]:
    """Game options from pyspiel parameters (text parameters read by the option's parser)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        try:
            option = cls.option(key)
        except meeple.OptionError:
            out[key] = value  # the game names the unknown option in its error
            continue
        if option.default is None and isinstance(value, str) and option.type is not str:
            if value != _UNSET:
                out[key] = option.parse(value, cls.name)
        elif option.default is None and value == _UNSET:
            continue
        else:
            out[key] = value
    return out


def _to_spiel_params(cls: type[MeepleGame], options: dict[str, Any]) -> dict[str, Any]:
    """pyspiel parameters for game options (text for options whose default is ``None``)."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        try:
            option = cls.option(key)
        except meeple.OptionError:
            out[key] = value
            continue
        if option.default is None and value is not None and not isinstance(value, str):
            out[key] = str(value).lower() if isinstance(value, bool) else str(value)
        elif option.default is None and value is None:
            continue
        else:
            out[key] = value
    return out


def game_type(name: str) -> pyspiel.GameType:
    """The pyspiel ``GameType`` of a meeple game."""
    cls = game_class(name)
    info = pyspiel.GameType.Information
    has_chance = True  # meeple games draw and shuffle through chance nodes
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name=f"meeple {cls.title or cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if has_chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            info.PERFECT_INFORMATION if cls.perfect_information else info.IMPERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(cls.player_counts),
        min_num_players=min(cls.player_counts),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(cls),
    )


class _Inner:
    """Holds the meeple state; copies it with the game's own fast ``clone()``."""

    __slots__ = ("state",)

    def __init__(self, state: MeepleState):
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Inner:
        return _Inner(self.state.clone())


class MeepleSpielGame(pyspiel.Game):
    """A meeple game seen by OpenSpiel. Subclassed once per registered meeple game."""

    meeple_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        cls = game_class(self.meeple_name)
        players = int(params.pop("players", cls.default_players()))
        options = _to_meeple_options(cls, params)
        self.meeple_game: MeepleGame = meeple.load(self.meeple_name, players=players, **options)
        g = self.meeple_game
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions,
            max_chance_outcomes=g.max_chance_outcomes,
            num_players=g.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=g.max_game_length,
        )
        full = dict(_parameters(type(g)))
        full.update(params)
        full["players"] = players
        super().__init__(game_type(self.meeple_name), info, full)

    def new_initial_state(self) -> MeepleSpielState:
        return MeepleSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> MeepleObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("meeple games provide observations, not information states")
        return MeepleObserver(self.meeple_game)


class MeepleSpielState(pyspiel.State):
    """A meeple state seen by OpenSpiel; ``meeple_state`` is the engine's own."""

    def __init__(self, game: MeepleSpielGame, state: MeepleState | None = None):
        super().__init__(game)
        self._inner = _Inner(state if state is not None else game.meeple_game.new_initial_state())

    @property
    def meeple_state(self) -> MeepleState:
        return self._inner.state

    def current_player(self) -> int:
        s = self._inner.state
        cp = s.current_player
        if cp >= 0:
            return cp
        if cp == SIMULTANEOUS:
            return s.pending_players()[0]
        if cp == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if cp == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        raise ValueError(f"unknown player id {cp}")

    def _legal_actions(self, player: int) -> list[int]:
        return self._inner.state.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._inner.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        s = self._inner.state
        cp = s.current_player
        if cp == SIMULTANEOUS:
            s.apply(int(action), s.pending_players()[0])
        else:
            s.apply(int(action), cp)

    def _action_to_string(self, player: int, action: int) -> str:
        p = CHANCE if player == int(pyspiel.PlayerId.CHANCE) else player
        return self._inner.state.action_to_string(int(action), p)

    def is_terminal(self) -> bool:
        return self._inner.state.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self._inner.state.returns()]

    def __str__(self) -> str:
        s = self._inner.state
        return json.dumps(s.observation(None), sort_keys=True, default=str)


class MeepleObserver:
    """OpenSpiel observer: the game's observation tensor and its JSON observation as text."""

    def __init__(self, game: MeepleGame):
        shape = tuple(game.observation_shape)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        self.tensor[:] = np.asarray(
            state.meeple_state.observation_tensor(player), dtype=np.float32
        ).reshape(-1)

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        return json.dumps(state.meeple_state.observation(player), sort_keys=True, default=str)


_CLASSES: dict[str, type[MeepleSpielGame]] = {}


def register(name: str) -> type[MeepleSpielGame]:
    """Register the meeple game ``name`` with pyspiel as ``meeple_<name>``."""
    cls = type(f"MeepleSpielGame_{name}", (MeepleSpielGame,), {"meeple_name": name})
    pyspiel.register_game(game_type(name), cls)
    _CLASSES[name] = cls
    return cls


def register_all() -> list[str]:
    """Register every meeple game with pyspiel; return the pyspiel names."""
    return [spiel_name(n) for n in games() if register(n)]


def load(name: str, players: int | None = None, **options: Any) -> MeepleSpielGame:
    """``pyspiel.load_game`` for a meeple game, registering it first if needed."""
    if name not in _CLASSES:
        register(name)
    params = _to_spiel_params(game_class(name), options)
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(spiel_name(name), params)


__all__ = [
    "MeepleObserver",
    "MeepleSpielGame",
    "MeepleSpielState",
    "game_type",
    "load",
    "register",
    "register_all",
    "spiel_name",
]
