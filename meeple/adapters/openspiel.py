"""OpenSpiel adapter: every meeple game as a pyspiel game named ``meeple_<name>``.

>>> from meeple.adapters import openspiel as mos
>>> mos.register_all()                      # doctest: +SKIP
>>> game = pyspiel.load_game("meeple_koplus", {"players": 3})  # doctest: +SKIP

The game's options become pyspiel parameters (plus ``players``, ``horizon`` and
``chance_seed``, below). Chance nodes stay explicit chance nodes. Simultaneous choices are
exposed turn by turn: the pending players choose one after another, and since observations
never show a choice before the reveal, a later chooser does not learn an earlier one's
choice. Returns are meeple's zero-sum returns in [-1, 1].

What a player knows:

- the *observation* (string and tensor) is the game's own: the JSON ``observation(player)``
  and ``observation_tensor(player)``;
- the *information state* adds perfect recall: its string is the observation together with
  the history as that player may know it (``visible_history(player)``: the public moves and
  the player's own choices, with what is still a secret left out); its tensor is the
  observation tensor followed by one entry per action id, 1 where the player has chosen that
  action at some point (the order of those choices is in the string);
- ``resample_from_infostate(player, sampler)`` draws a full state the player cannot tell
  from this one (the engine's ``State.resample``), so OpenSpiel's Python ``ISMCTSBot`` plays
  every game of hidden information (see :func:`ismcts_bot`).

Search: OpenSpiel's plain ``MCTSBot`` searches the exact state it is given, which in a game
of hidden information means the secrets of the other players. :func:`mcts_bot` therefore
*refuses* games of hidden information (:class:`ValueError` pointing to :func:`ismcts_bot`)
and builds the plain MCTS only for games of perfect information. Use OpenSpiel's *Python*
bots; the C++ ``pyspiel.MCTSBot`` and ``pyspiel.ISMCTSBot`` cannot call back into Python
games.

Small set-ups for tabular methods (not standard games): two parameters make a game small
enough for tabular CFR and exploitability. ``horizon`` (0: the whole game) ends the game
after that many choices, with the returns of the ranking at that point (the engine's zero-sum
formula over each seat's ranking key, the score first); ``chance_seed`` (-1: off) settles
every chance outcome from that seed inside the state, so the tree has no chance nodes (the
deal is fixed; what a player cannot see stays hidden from them); with it, ``opening`` (0: none)
starts the game after that many choices made uniformly at random from the same seed, so a
short horizon can reach the part of a game where points are scored. :data:`SMALL` names one
such set-up per game and :func:`load_small` loads it; ``docs/observations.md`` lists them.

Serialisation (``pickle``, ``pyspiel.serialize_game_and_state``) carries the game's name,
players, options and the move history, never the game's tables: a state is rebuilt by
replaying its moves on the (cached) game.
"""

from __future__ import annotations

import base64
import copy
import json
import pickle
import random
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
HORIZON = "horizon"
CHANCE_SEED = "chance_seed"
OPENING = "opening"
_RESEARCH = {HORIZON: 0, CHANCE_SEED: -1, OPENING: 0}
"""The adapter's own parameters for small set-ups, with their "off" values."""

SMALL: dict[str, dict[str, Any]] = {
    "koplus": {"players": 2, HORIZON: 3, CHANCE_SEED: 0},
    "kozo": {"players": 2, "rounds": 1, HORIZON: 2, CHANCE_SEED: 0},
    "mops_royal": {"players": 2, OPENING: 40, HORIZON: 4, CHANCE_SEED: 0},
    "botanik": {"players": 2, HORIZON: 3, CHANCE_SEED: 0},
    "kontor": {"players": 2, "mode": "basic", HORIZON: 3, CHANCE_SEED: 0},
}
"""One small set-up per game for tabular CFR and exploitability (not a standard game: the
deal is fixed by ``chance_seed``, the game may start after an ``opening`` of seeded random
choices, and it stops after ``horizon`` choices)."""


def spiel_name(game: str) -> str:
    """The pyspiel short name of a meeple game."""
    return PREFIX + game


def _parameters(cls: type[MeepleGame]) -> dict[str, Any]:
    """The pyspiel parameter specification of a meeple game: ``players``, its options and the
    adapter's ``horizon`` and ``chance_seed``.

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
    spec.update(_RESEARCH)
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
        if key in _RESEARCH:
            out[key] = int(value)
            continue
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
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name=f"meeple {cls.title or cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        # meeple games draw and shuffle through chance nodes
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            info.PERFECT_INFORMATION if cls.perfect_information else info.IMPERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(cls.player_counts),
        min_num_players=min(cls.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(cls),
    )


_GAMES: dict[tuple[str, int, str], MeepleGame] = {}
"""Meeple games by (name, players, options): built once, shared by every state."""


def _meeple_game(name: str, players: int, options: dict[str, Any]) -> MeepleGame:
    key = (name, players, json.dumps(options, sort_keys=True, default=str))
    g = _GAMES.get(key)
    if g is None:
        g = _GAMES[key] = meeple.load(name, players=players, **options)
    return g


def _restore_inner(
    name: str, players: int, options: dict[str, Any], horizon: int, chance_seed: int,
    moves: list[tuple[int, int]], opening: int = 0,
) -> _Inner:
    """Rebuild a pickled state: the game from its parameters, the position by its moves."""
    state = _meeple_game(name, players, options).new_initial_state()
    for player, action in moves:
        state.apply(action, player)
    return _Inner(state, horizon, chance_seed, opening)


class _Inner:
    """The meeple state and the adapter's set-up; copied with the game's fast ``clone()`` and
    pickled as its game's parameters and moves."""

    __slots__ = ("state", "horizon", "chance_seed", "opening", "choices")

    def __init__(self, state: MeepleState, horizon: int = 0, chance_seed: int = -1,
                 opening: int = 0):
        self.state = state
        self.horizon = horizon
        self.chance_seed = chance_seed
        self.opening = opening
        self.choices = sum(1 for p, _ in state.history() if p >= 0) - opening
        self.settle_chance()

    def play_opening(self) -> None:
        """From the initial state: make the ``opening`` choices, each uniformly at random from
        the seed and the move number (they are not counted against the horizon)."""
        s = self.state
        while self.choices < 0 and not s.is_terminal():
            rng = random.Random(self.chance_seed * 1_000_003 + s.move_number())
            player = s.pending_players()[0]
            s.apply(rng.choice(s.legal_actions(player)), player)
            self.choices += 1
            self.settle_chance()

    def settle_chance(self) -> None:
        """With a ``chance_seed``: apply every chance outcome now, drawn from the seed and the
        move number (so the same position always gets the same outcome)."""
        if self.chance_seed < 0:
            return
        s = self.state
        while s.current_player == CHANCE:
            rng = random.Random(self.chance_seed * 1_000_003 + s.move_number())
            s.apply(meeple.sample_chance(s, rng))

    @property
    def cut(self) -> bool:
        """Whether the ``horizon`` has ended the game before its own end."""
        return 0 < self.horizon <= self.choices and not self.state.is_terminal()

    def apply(self, action: int, player: int) -> None:
        self.state.apply(action, player)
        if player >= 0:
            self.choices += 1
        self.settle_chance()

    def returns(self) -> list[float]:
        s = self.state
        if not self.cut:
            return [float(r) for r in s.returns()]
        n = s.game.num_players
        keys = [s.ranking_key(p) for p in range(n)]
        return [
            (sum(1 for k in keys if k < keys[p]) - sum(1 for k in keys if k > keys[p])) / (n - 1)
            for p in range(n)
        ]

    def __deepcopy__(self, memo: dict) -> _Inner:
        other = object.__new__(_Inner)
        other.state = self.state.clone()
        other.horizon = self.horizon
        other.chance_seed = self.chance_seed
        other.opening = self.opening
        other.choices = self.choices
        return other

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        g = self.state.game
        return (_restore_inner, (g.name, g.num_players, dict(g.options), self.horizon,
                                 self.chance_seed, self.state.history(), self.opening))


class MeepleSpielGame(pyspiel.Game):
    """A meeple game seen by OpenSpiel. Subclassed once per registered meeple game."""

    meeple_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        cls = game_class(self.meeple_name)
        players = int(params.pop("players", cls.default_players()))
        self.horizon = int(params.pop(HORIZON, 0))
        self.chance_seed = int(params.pop(CHANCE_SEED, -1))
        self.opening = int(params.pop(OPENING, 0))
        if self.horizon < 0:
            raise meeple.OptionError(f"horizon must be 0 (the whole game) or more, got "
                                     f"{self.horizon}")
        if self.opening < 0 or (self.opening and self.chance_seed < 0):
            raise meeple.OptionError("an opening is a number of choices, made from the "
                                     "chance_seed: give both")
        options = _to_meeple_options(cls, params)
        self.meeple_game: MeepleGame = _meeple_game(self.meeple_name, players, options)
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
        full.update({"players": players, HORIZON: self.horizon, CHANCE_SEED: self.chance_seed,
                     OPENING: self.opening})
        super().__init__(game_type(self.meeple_name), info, full)
        self._start: _Inner | None = None

    def new_initial_state(self) -> MeepleSpielState:
        return MeepleSpielState(self)

    def start(self) -> _Inner:
        """The initial position, its chance settled and its opening played, worked out once:
        OpenSpiel makes a new initial state for every copy of a state, so each is a copy."""
        if self._start is None:
            inner = _Inner(self.meeple_game.new_initial_state(), self.horizon, self.chance_seed,
                           self.opening)
            inner.play_opening()
            self._start = inner
        return copy.deepcopy(self._start)

    def make_py_observer(self, iig_obs_type=None, params=None) -> MeepleObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return MeepleObserver(self.meeple_game, perfect_recall=recall)


class MeepleSpielState(pyspiel.State):
    """A meeple state seen by OpenSpiel; ``meeple_state`` is the engine's own."""

    def __init__(self, game: MeepleSpielGame, state: MeepleState | None = None):
        super().__init__(game)
        self._inner = game.start() if state is None else _Inner(state, game.horizon,
                                                                 game.chance_seed)

    @property
    def meeple_state(self) -> MeepleState:
        return self._inner.state

    def current_player(self) -> int:
        if self._inner.cut:
            return int(pyspiel.PlayerId.TERMINAL)
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
        self._inner.apply(int(action), s.pending_players()[0] if cp == SIMULTANEOUS else cp)

    def _action_to_string(self, player: int, action: int) -> str:
        p = CHANCE if player == int(pyspiel.PlayerId.CHANCE) else player
        return self._inner.state.action_to_string(int(action), p)

    def is_terminal(self) -> bool:
        return self._inner.cut or self._inner.state.is_terminal()

    def returns(self) -> list[float]:
        return self._inner.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> MeepleSpielState:
        """A state with the same information state for ``player_id``: what that player cannot
        see is drawn afresh (the engine's ``State.resample``), seeded from
        ``probability_sampler()`` (a number in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler``).
        """
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        drawn = self._inner.state.resample(int(player_id), rng)
        return _wrap(self.get_game(), self, drawn)

    def __str__(self) -> str:
        s = self._inner.state
        return json.dumps(s.observation(None), sort_keys=True, default=str)


_EMPTY_DICT = base64.b64encode(pickle.dumps({})).decode()


def _wrap(game: MeepleSpielGame, like: MeepleSpielState, state: MeepleState) -> MeepleSpielState:
    """A pyspiel state holding ``state`` with the pyspiel history of ``like`` (the moves
    OpenSpiel has seen), without replaying them."""
    moves = ",".join(f"{m.player}:{m.action}" for m in like.full_history())
    text = f"history={moves}\nmove_number={like.move_number()}\n__dict__={_EMPTY_DICT}"
    out = game.deserialize_state(text)
    inner = _Inner.__new__(_Inner)
    inner.state = state
    inner.horizon = like._inner.horizon
    inner.chance_seed = like._inner.chance_seed
    inner.opening = like._inner.opening
    inner.choices = like._inner.choices
    out._inner = inner
    return out


def information_state_string(state: MeepleState, player: int) -> str:
    """What ``player`` knows at ``state``: the observation and the history as they may know
    it, as JSON."""
    known = [[p, a] for p, a in state.visible_history(player)]
    return json.dumps({"observation": state.observation(player), "history": known},
                      sort_keys=True, default=str)


class MeepleObserver:
    """OpenSpiel observer: the game's observation tensor and its JSON observation as text;
    with ``perfect_recall``, the information state (the observation plus what the player has
    seen and chosen so far)."""

    def __init__(self, game: MeepleGame, perfect_recall: bool = False):
        shape = tuple(game.observation_shape)
        self.perfect_recall = perfect_recall
        self.size = int(np.prod(shape))
        extra = game.num_distinct_actions if perfect_recall else 0
        self.tensor = np.zeros(self.size + extra, np.float32)
        if perfect_recall:
            self.dict = {"observation": self.tensor[: self.size].reshape(shape),
                         "own_choices": self.tensor[self.size:]}
        else:
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        s = state.meeple_state
        self.tensor[: self.size] = np.asarray(
            s.observation_tensor(player), dtype=np.float32
        ).reshape(-1)
        if self.perfect_recall:
            own = self.tensor[self.size:]
            own[:] = 0.0
            chosen = [a for p, a in s.history() if p == player]
            if chosen:
                own[chosen] = 1.0

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        s = state.meeple_state
        if self.perfect_recall:
            return information_state_string(s, player)
        return json.dumps(s.observation(player), sort_keys=True, default=str)


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
    """``pyspiel.load_game`` for a meeple game, registering it first if needed. ``options``
    are the game's options and the adapter's ``horizon`` and ``chance_seed``."""
    if name not in _CLASSES:
        register(name)
    params = _to_spiel_params(game_class(name), options)
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(spiel_name(name), params)


def load_small(name: str) -> MeepleSpielGame:
    """The small set-up :data:`SMALL` of a game, for tabular methods (not a standard game)."""
    if name not in SMALL:
        raise meeple.OptionError(f"no small set-up for {name!r}; there is one for: "
                                 f"{', '.join(SMALL)}")
    params = dict(SMALL[name])
    return load(name, players=params.pop("players"), **params)


def mcts_bot(game: pyspiel.Game, uct_c: float = 2.0, max_simulations: int = 100,
             evaluator=None, random_state=None, **kwargs: Any):
    """OpenSpiel's Python ``MCTSBot`` for a game of perfect information.

    Refuses a game of hidden information with :class:`ValueError`: the plain MCTS would
    search the true state, secrets included; use :func:`ismcts_bot`, which searches the
    player's information set."""
    from open_spiel.python.algorithms import mcts

    if game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        raise ValueError(
            f"{game.get_type().short_name} hides information: plain MCTS would search the "
            "other players' secrets; use ismcts_bot (information-set MCTS) instead"
        )
    rng = random_state if random_state is not None else np.random.RandomState()
    if evaluator is None:
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
    return mcts.MCTSBot(game, uct_c, max_simulations, evaluator, random_state=rng, **kwargs)


def ismcts_bot(game: pyspiel.Game, uct_c: float = 2.0, max_simulations: int = 100,
               evaluator=None, random_state=None, **kwargs: Any):
    """OpenSpiel's Python ``ISMCTSBot``: each simulation starts from a state drawn from the
    player's information set (``resample_from_infostate``), never from the true state."""
    from open_spiel.python.algorithms import ismcts, mcts

    rng = random_state if random_state is not None else np.random.RandomState()
    if evaluator is None:
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c, max_simulations, random_state=rng, **kwargs)
    # OpenSpiel's default resampler draws from an unseeded sampler: draw from ``rng`` instead,
    # so that a bot given a random state plays the same game again.
    bot.set_resampler(lambda state, seat: state.resample_from_infostate(seat, rng.random_sample))
    return bot


__all__ = [
    "SMALL",
    "MeepleObserver",
    "MeepleSpielGame",
    "MeepleSpielState",
    "game_type",
    "information_state_string",
    "ismcts_bot",
    "load",
    "load_small",
    "mcts_bot",
    "register",
    "register_all",
    "spiel_name",
]
