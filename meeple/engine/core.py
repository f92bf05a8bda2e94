"""The engine contract: the :class:`Game` and :class:`State` base classes every game subclasses.

A game subclasses both. The base classes do the parts that are the same for every game:
option validation, checking actions before they are applied (the state is never changed by an
illegal action), the history, rankings and returns, records. A game supplies the rules through a
small set of underscore hooks (``_legal_actions``, ``_apply``, ...), documented below.
"""

from __future__ import annotations

import inspect
import random
from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

import numpy as np

if TYPE_CHECKING:  # mypy reads the shadow's typed names
    from meeple.engine import _cython_shadow as cython
else:
    try:
        import cython
    except ImportError:  # the pure-Python build without Cython installed
        from meeple.engine import _cython_shadow as cython

from . import i18n
from .errors import IllegalAction, NotationError, OptionError
from .i18n import N_
from .look import PALETTE, Colour, seat_names
from .options import Option, OptionSchema, Preset, bind
from .plugins import Heuristics, Lessons, Motion, Renderer
from .scores import score_lines, score_table_text

_, _n = i18n.words(__file__)

STANDARD = N_("Standard")
STANDARD_TEXT = N_("The game as printed, with every option at its default.")

RECORD_FORMAT = 1
"""The version of the record format written by :meth:`Game.record`."""

CHANCE = -1
"""``current_player`` at a chance node: resolve it with one of ``chance_outcomes()``."""
SIMULTANEOUS = -2
"""``current_player`` where several players choose at once: see ``pending_players()``."""
TERMINAL = -4
"""``current_player`` once the game is over."""


class Game:
    """A game with fixed player count and options: the factory of its states.

    Subclasses set the class attributes below and ``state_class``; the instance knows its
    ``num_players`` and resolved ``options``.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    version: ClassVar[str] = "1"
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    option_schema: ClassVar[OptionSchema] = OptionSchema()
    perfect_information: ClassVar[bool] = True
    pitch: ClassVar[str] = ""
    """What the game is about in one line, in the players' words (shown in the lobby); marked
    with ``N_``, said by :meth:`describe` and :meth:`said_pitch`."""
    minutes: ClassVar[tuple[int, int] | None] = None
    """How long a game typically takes, as ``(low, high)`` minutes; ``None`` where unknown."""
    state_class: ClassVar[type[State]]

    # What the game provides besides its rules, declared by ``register`` (plugins.py).
    renderer: ClassVar[Renderer]
    """Pictures of an observation: ``svg`` and ``text``."""
    heuristics: ClassVar[Heuristics | None] = None
    """What the greedy and search bots value, where the game has it."""
    motion: ClassVar[Motion | None] = None
    """A physical simulation for the 3D view, where the game has one."""
    lessons: ClassVar[Lessons | None] = None
    """What teaches the game: how to play, the player aid and the guided first game."""
    views: ClassVar[tuple[str, ...]] = ("board",)
    """The views a client shows: ``"board"`` (the SVG picture) and, for Kozo, ``"tower-3d"``."""
    colours: ClassVar[tuple[Colour, ...]] = PALETTE
    """The players' colours by seat: the shared palette unless the game's pieces have their
    own colours."""

    def __init__(self, players: int | None = None, **options: Any):
        if players is None:
            players = self.default_players()
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(_("players for {game} must be a whole number; allowed: {allowed}",
                                game=self.name, allowed=self._counts_text()))
        self.options: dict[str, Any] = self.option_schema.resolve(self.name, options)
        allowed = self.allowed_player_counts(self.options)
        if players not in allowed:
            raise OptionError(_("{game} cannot be played by {count} players with these "
                                "options; allowed: {allowed}", game=self.name,
                                count=str(players), allowed=", ".join(map(str, allowed))))
        self.num_players: int = players
        self._setup()

    # -- hooks for subclasses -------------------------------------------------------------
    @classmethod
    def configurations(cls) -> list[tuple[int, dict[str, Any]]]:
        """Representative ``(players, options)`` set-ups: every player count and mode, and the
        variants worth testing. Generic tests, benchmarks and adapters iterate over these."""
        return [(n, {}) for n in cls.player_counts]

    @classmethod
    def default_players(cls) -> int:
        return cls.player_counts[0]

    def allowed_player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        """Player counts allowed with these options (a game may narrow them, e.g. by mode)."""
        return self.player_counts

    def _setup(self) -> None:
        """Precompute tables that depend on players and options (masks, sizes)."""

    # -- sizes, used by adapters ----------------------------------------------------------
    @property
    def num_distinct_actions(self) -> int:
        raise NotImplementedError

    @property
    def max_chance_outcomes(self) -> int:
        return 0

    @property
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (chance included) in one game."""
        raise NotImplementedError

    @property
    def observation_shape(self) -> tuple[int, ...]:
        raise NotImplementedError

    def planes(self) -> list[dict[str, Any]]:
        """The layout of ``observation_tensor``, in order: each part's ``name``, ``shape``,
        value range (``low``, ``high``) and ``meaning`` (see ``planes.py``)."""
        raise NotImplementedError(f"{self.name} does not describe its observation planes")

    # -- states ---------------------------------------------------------------------------
    def new_initial_state(self) -> State:
        return self.state_class(self)

    def seat_colours(self) -> tuple[Colour, ...]:
        """The colour of each seat at this table."""
        return self.colours[: self.num_players]

    def record(self, state: State, **extra: Any) -> dict[str, Any]:
        """The whole game so far as JSON: enough to replay it exactly (``meeple.replay``).

        Each move is ``[player, notation]`` (player ``-1`` for chance outcomes). ``extra`` (seat
        names, dates, ...) is stored under ``"meta"``.
        """
        replay_state = self.new_initial_state()
        moves: list[list[Any]] = []
        for player, action in state.history():
            moves.append([player, replay_state.action_to_string(action, player)])
            replay_state.apply(action, player)
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.name,
            "version": self.version,
            "players": self.num_players,
            "options": dict(self.options),
            "moves": moves,
            "terminal": state.is_terminal(),
            "scores": list(state.scores()),
        }
        if state.is_terminal():
            record["returns"] = state.returns()
            record["winners"] = state.winners()
        if extra:
            record["meta"] = extra
        return record

    # -- description ----------------------------------------------------------------------
    @classmethod
    def _counts_text(cls) -> str:
        return ", ".join(map(str, cls.player_counts))

    @classmethod
    def rules_markdown(cls, lang: str | None = None) -> str:
        """The player's rulebook (``rulebook.md`` in the game's package, ``rulebook.de.md`` in
        German; ``lang`` defaults to the language in use). Its pictures are named
        ``![caption](picture:name)``, as on the how-to-play page. The full specification, for
        developers, is ``docs/rules/<game>.md``."""
        return i18n.page(cls.__module__.rsplit(".", 1)[0], "rulebook.md", lang)

    @classmethod
    def words(cls) -> i18n.Words:
        """The game's catalog: for the texts it declares as data (marked with ``N_``) and
        others say, e.g. ``game.words().say(option.label)``.

        What the engine says through it, in the language in use: :meth:`describe` (the
        pitch, the option labels, help and value words, the presets' names and
        descriptions), :class:`~meeple.engine.options.Option` ``title``/``words()``, the
        lessons' steps, closing and aid (``meeple/engine/lessons.py``)."""
        return i18n.words_of(inspect.getfile(cls))

    @classmethod
    def bind_words(cls) -> None:
        """Let the game's declared data say itself through :meth:`words`: its options (the
        registry calls this when the game registers)."""
        bind(cls.option_schema, cls.words())

    @classmethod
    def said_pitch(cls) -> str:
        """The pitch in the language in use."""
        return cls.words().say(cls.pitch) if cls.pitch else ""

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """Name, title, player counts, pitch, typical minutes, option schema: for the lobby and
        ``meeple games``; the pitch, option words and presets said in the language in use
        (call it inside the reader's language)."""
        cls.bind_words()
        catalog = cls.words()
        return {
            "name": cls.name,
            "title": cls.title,
            "version": cls.version,
            "players": list(cls.player_counts),
            "perfect_information": cls.perfect_information,
            "pitch": cls.said_pitch(),
            "minutes": list(cls.minutes) if cls.minutes is not None else None,
            "options": [o.to_json() for o in cls.option_schema],
            "presets": [p.to_json(lambda text: _said_by(catalog, text)) for p in cls.presets()],
            "views": list(cls.views),
            "colours": [c.to_json() for c in cls.colours],
        }

    @classmethod
    def presets(cls) -> tuple[Preset, ...]:
        """The set-ups a player picks from first, in plain words ("Standard", "Short game",
        ...); the first is the everyday game. Names and descriptions are marked with ``N_``
        and said by :meth:`describe`."""
        return (Preset(STANDARD, STANDARD_TEXT),)

    @classmethod
    def option(cls, name: str) -> Option:
        for o in cls.option_schema:
            if o.name == name:
                return o
        raise OptionError(_("unknown option {option} for {game}", option=repr(name),
                            game=cls.name))

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"meeple.load({self.name!r}, players={self.num_players}{opts})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and other.num_players == self.num_players
            and other.options == self.options
        )

    def __hash__(self) -> int:
        return hash((self.name, self.num_players, tuple(sorted(self.options.items()))))


@cython.cclass
class State:
    """One position of a game. Subclasses implement the hooks; callers use the public methods.

    Hooks a game implements:

    - ``current_player`` (property): 0..n-1, ``CHANCE``, ``SIMULTANEOUS`` or ``TERMINAL``
    - ``_legal_actions(player)``: sorted legal ids for ``player`` (a chance node: outcome ids)
    - ``_chance_outcomes()``: ``[(outcome, probability), ...]`` at chance nodes
    - ``_apply(action, player)``: change the state; called only with a legal action
    - ``_action_to_string(action, player)`` and optionally ``_string_to_action(text, player)``
    - ``_illegal_reason(action, player)``: why an action is not legal (optional, for messages)
    - ``describe_action``, ``observation``, ``observation_tensor``, ``scores``, ``ranking_key``
    - ``_pending_players()`` at simultaneous nodes
    - ``_copy_from(other)`` or ``clone``: a fast copy

    Compiled, this is an extension type (its fields are declared in ``core.pxd``), and a
    game's state class may be one too; a state pickles (and deep-copies) as its class and
    every field: the ``__slots__`` of each class and any instance ``__dict__``.
    """

    __slots__ = ("game", "_history", "_legal_cache")

    def __init__(self, game: Game):
        self.game = game
        self._history: list[tuple[int, int]] = []
        self._legal_cache: dict[int, list[int]] = {}

    # ------------------------------------------------------------------ turn structure
    @property
    def current_player(self) -> int:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player == SIMULTANEOUS

    def pending_players(self) -> list[int]:
        """Players who may act now: several at a simultaneous node, else the current player."""
        cp = self.current_player
        if cp >= 0:
            return [cp]
        if cp == SIMULTANEOUS:
            return self._pending_players()
        return []

    def _pending_players(self) -> list[int]:
        raise NotImplementedError

    # ------------------------------------------------------------------ actions
    def _resolve_player(self, player: int | None) -> int:
        return self._resolve_player_at(player, self.current_player)

    def _resolve_player_at(self, player: int | None, cp: int) -> int:
        """The acting player for ``player`` when ``cp`` is to act (``None``: the one to act,
        or the only one pending at a simultaneous node)."""
        if player is None:
            if cp == SIMULTANEOUS:
                pending = self._pending_players()
                if len(pending) == 1:
                    return pending[0]
                raise ValueError(_("several players choose at once here: say which player "
                                   "acts"))
            return cp
        return player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal action ids for ``player`` (default: the one to act; chance: outcomes).

        A fresh list each call: the caller may change it. The list is computed once per
        position and player (the cache is emptied by every applied action)."""
        cp = self.current_player
        if (player is None or player == cp) and cp >= CHANCE:  # a player or chance to act
            cached = self._legal_cache.get(cp)
            if cached is None:
                cached = self._legal_cache[cp] = self._legal_actions(cp)
            return cached.copy()
        p = self._resolve_player_at(player, cp)
        if cp == TERMINAL:
            return []
        if cp == SIMULTANEOUS:
            if p not in self._pending_players():
                return []
        elif p != cp:
            return []
        cached = self._legal_cache.get(p)
        if cached is None:
            cached = self._legal_cache[p] = self._legal_actions(p)
        return list(cached)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability), ...]`` at a chance node, else ``[]``."""
        if self.current_player != CHANCE:
            return []
        return self._chance_outcomes()

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def _draw_chance(self, rng: random.Random) -> int:
        """One outcome of this chance node, drawn with its probabilities: what
        :func:`sample_chance` returns (``rng.random()`` against the running sum of
        ``chance_outcomes()``). A game may find the same outcome for the same draw without
        listing the outcomes (:func:`equal_chance_index`)."""
        return _scan_chance(self, rng)

    def _legal_actions(self, player: int) -> list[int]:
        if player == CHANCE:
            return sorted([a for a, _ in self._chance_outcomes()])
        raise NotImplementedError

    def is_legal(self, action: int, player: int | None = None) -> bool:
        cp = self.current_player
        p = self._resolve_player_at(player, cp)
        if cp == TERMINAL:
            return False
        cached = self._legal_cache.get(p)
        if cached is None:
            cached = self.legal_actions(p)
        return action in cached

    def check(self, action: int, player: int | None = None) -> int:
        """Return the acting player if ``action`` is legal for them now, else raise
        :class:`IllegalAction` naming the action and the reason."""
        cp = self.current_player
        if type(action) is int and (player is None or player == cp) and cp >= CHANCE:
            cached = self._legal_cache.get(cp)  # the common case: the one to act
            if cached is None:
                if self.is_legal(action, cp):
                    return cp
            elif action in cached:
                return cp
        return self._check_at(action, player, cp)

    def _check_at(self, action: int, player: int | None, cp: int) -> int:
        """:meth:`check` with ``cp`` the player to act (read once by the caller)."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalAction(action, player,
                                _("an action is an int id; use string_to_action"))
        action = int(action)
        if cp == TERMINAL:
            raise IllegalAction(action, player, _("the game is over"))
        if player is None:
            p = self._resolve_player_at(None, cp)
        else:
            p = player
            if cp == SIMULTANEOUS:
                if p not in self._pending_players():
                    raise IllegalAction(action, p, _("player {player} has nothing to choose now",
                                                     player=str(p)))
            elif p != cp:
                if cp == CHANCE:
                    raise IllegalAction(action, p, _("it is chance's turn, not player {player}'s",
                                                     player=str(p)))
                raise IllegalAction(action, p, _("it is player {current}'s turn, not player "
                                                 "{player}'s", current=str(cp), player=str(p)))
        cached = self._legal_cache.get(p)
        if cached is not None and action in cached:
            return p
        if cached is not None or not self.is_legal(action, p):
            raise IllegalAction(action, p, self._why_illegal(action, p), self._safe_text(action, p))
        return p

    def apply(self, action: int, player: int | None = None) -> None:
        """Apply ``action`` for ``player`` (default: the one to act).

        Raises :class:`IllegalAction` naming the action and the reason; the state is then
        unchanged.
        """
        cp = self.current_player
        if type(action) is int and (player is None or player == cp) and cp >= CHANCE:
            # the common case (the one to act, an int id), as ``check`` does it, inlined
            cached = self._legal_cache.get(cp)
            if cached is None:
                p = cp if self.is_legal(action, cp) else self._check_at(action, cp, cp)
            else:
                p = cp if action in cached else self._check_at(action, cp, cp)  # raises
        else:
            p = self._check_at(action, player, cp)
            action = int(action)
        self._play(action, p)

    def _play(self, action: int, player: int) -> None:
        """Apply a legal ``action`` for ``player`` (the caller has checked it), record it and
        empty the legal-action cache: :meth:`apply` after its check, and the play loop."""
        self._apply(action, player)
        self._history.append((player, action))
        if self._legal_cache:
            self._legal_cache = {}

    def _legal_now(self, player: int) -> list[int]:
        """The legal actions of ``player`` (chance's outcome ids, a seat's actions) when it is
        the one to act: the cached list itself, for a caller that only reads it."""
        cached = self._legal_cache.get(player)
        if cached is None:
            cached = self._legal_cache[player] = self._legal_actions(player)
        return cached

    def _why_illegal(self, action: int, player: int) -> str:
        if not 0 <= action < self._action_space(player):
            return _("no such action id (ids are 0..{last})",
                     last=str(self._action_space(player) - 1))
        reason = self._illegal_reason(action, player)
        if reason:
            return reason
        n = len(self.legal_actions(player))
        return _n("not among the {n} legal action now", "not among the {n} legal actions now", n)

    def _action_space(self, player: int) -> int:
        if player == CHANCE:
            return max(self.game.max_chance_outcomes, 1)
        return self.game.num_distinct_actions

    def _illegal_reason(self, action: int, player: int) -> str | None:
        return None

    def _safe_text(self, action: int, player: int) -> str:
        try:
            return _("{move} (id {id})", move=self._action_to_string(action, player),
                     id=str(action))
        except Exception:  # an out-of-range id has no notation
            return _("id {id}", id=str(action))

    def _apply(self, action: int, player: int) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ notation
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """The action in the game's notation (``docs/rules/<game>.md``)."""
        p = self._resolve_player(player) if player is None else player
        return self._action_to_string(int(action), p)

    def _action_to_string(self, action: int, player: int) -> str:
        raise NotImplementedError

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Read notation; raises :class:`NotationError` on text that names no action."""
        p = self._resolve_player(player) if player is None else player
        if not isinstance(text, str) or not text.strip():
            raise NotationError(_("empty move: type an action in the game's notation"))
        return self._string_to_action(text.strip(), p)

    def _string_to_action(self, text: str, player: int) -> int:
        # Default: match against the notation of the legal actions (games may parse properly).
        for a in self.legal_actions(player):
            if self._action_to_string(a, player) == text:
                return a
        raise NotationError(_("{move} is not a legal move now", move=repr(text)))

    def action_to_dict(self, action: int, player: int | None = None) -> dict[str, Any]:
        """The action in the dict form of ``docs/rules/<game>.md`` (JSON, like the text)."""
        p = self._resolve_player(player) if player is None else player
        return self._action_to_dict(int(action), p)

    def _action_to_dict(self, action: int, player: int) -> dict[str, Any]:
        raise NotImplementedError

    def dict_to_action(self, move: dict[str, Any], player: int | None = None) -> int:
        """Read the dict form; raises :class:`NotationError` on a dict that names no action."""
        p = self._resolve_player(player) if player is None else player
        if not isinstance(move, dict):
            raise NotationError(_("an action in dict form is a JSON object, got {move}",
                                  move=repr(move)))
        return self._dict_to_action(move, p)

    def _dict_to_action(self, move: dict[str, Any], player: int) -> int:
        raise NotImplementedError

    def describe_action(self, action: int, player: int | None = None) -> dict[str, Any]:
        """JSON the UI needs to show and preview an action.

        Keys: ``action`` (id), ``text`` (notation), ``move`` (dict form), ``label`` (a
        sentence), ``kind`` (e.g. ``"place"``, ``"pass"``), ``target`` (id of the SVG element
        the player points at, or ``None`` for an action shown as a button), ``cells`` (ids of
        SVG elements to highlight as a preview), plus anything game-specific from
        ``_describe_action``. Actions with the same ``target`` are the orientations a player
        cycles through with R/F.
        """
        p = self._resolve_player(player) if player is None else player
        out: dict[str, Any] = {
            "action": int(action),
            "text": self._action_to_string(int(action), p),
            "move": self._action_to_dict(int(action), p),
            "label": "",
            "kind": None,
            "target": None,
            "cells": [],
        }
        out.update(self._describe_action(int(action), p))
        return out

    def _describe_action(self, action: int, player: int) -> dict[str, Any]:
        return {}

    # ------------------------------------------------------------------ the move log in words
    def describe(self, player: int, action: int) -> str:
        """What ``action`` by ``player`` does, as one sentence of the move log, called on the
        state *before* it. A player's sentence has no subject (the log puts the player's name
        first: "places a U on row 6 and catches 5 aliens."); chance (``player`` ``CHANCE``)
        gets a whole sentence ("The draw pile gives a red pipe tile."). It may say only what
        everyone who may see this entry of the history knows. Default: the notation."""
        return self.action_to_string(action, player)

    def position_after(self, player: int, action: int) -> Self:
        """A copy of this state with ``action`` applied for ``player``: what a sentence reads
        to say what the move did. The legal actions already worked out here are not worked
        out again."""
        other = cast(Self, self.clone())
        other._legal_cache = dict(self._legal_cache)
        other.apply(action, player)
        return other

    def describe_unseen(self, player: int) -> str:
        """The log's sentence for a move a viewer may not know yet (see
        :meth:`visible_history`), called on the state before it: what everyone knows of it,
        without the move itself ("chooses a card in secret."; for chance "A card is drawn
        face down.")."""
        if player >= 0:
            return _("makes a secret choice.")
        return _("Something is drawn in secret.")

    def describe_setup(self) -> str:
        """One sentence for the chance events that set the game up, called on the state just
        after them (the first player is to act): what everyone knows of the set-up ("The
        harbour cards are shuffled and 6 are laid out."). The log shows it in place of those
        events."""
        return _("The game is set up.")

    # ------------------------------------------------------------------ views
    def observation(self, player: int | None = None) -> dict[str, Any]:
        """JSON view for ``player`` (``None``: the public view for spectators).

        Common keys (``game``, ``viewer``, ``players``, ``current_player``, ``pending``,
        ``move_number``, ``scores``, ``terminal``, ``winners``, ``ranks``) come first; the
        game adds its own from ``_observation``, which must hold only what ``player`` may see.
        """
        terminal = self.is_terminal()
        out: dict[str, Any] = {
            "game": self.game.name,
            "viewer": player,
            "players": self.game.num_players,
            "current_player": self.current_player,
            "pending": self.pending_players(),
            "move_number": len(self._history),
            "scores": list(self.scores()),
            "terminal": terminal,
            "winners": self.winners() if terminal else [],
            "ranks": self.ranks() if terminal else None,
        }
        out.update(self._observation(player))
        return out

    def _observation(self, player: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def observation_tensor(self, player: int) -> np.ndarray:
        """A fixed-shape float32 array (``game.observation_shape``) of what ``player`` sees."""
        raise NotImplementedError

    # ------------------------------------------------------------------ results
    def scores(self) -> list[float]:
        """Points so far (final scores once the game is over)."""
        raise NotImplementedError

    def ranking_key(self, player: int) -> tuple:
        """Larger is better; equal keys share a rank. Default: score only."""
        return (self.scores()[player],)

    def ranks(self) -> list[int]:
        """Rank of each player, 1 = best; equal ranking keys share a rank."""
        keys = [self.ranking_key(p) for p in range(self.game.num_players)]
        return [1 + sum(1 for k in keys if k > keys[p]) for p in range(len(keys))]

    def winners(self) -> list[int]:
        """Players of rank 1 once the game is over (several on a shared rank); else ``[]``."""
        if not self.is_terminal():
            return []
        return [p for p, r in enumerate(self.ranks()) if r == 1]

    def returns(self) -> list[float]:
        """Zero-sum results in [-1, 1]: (players beaten − players ahead) / (n − 1).

        Two players: winner 1, loser −1, a tie 0. All zeros before the end.
        """
        n = self.game.num_players
        if not self.is_terminal():
            return [0.0] * n
        keys = [self.ranking_key(p) for p in range(n)]
        return [
            (sum(1 for k in keys if k < keys[p]) - sum(1 for k in keys if k > keys[p])) / (n - 1)
            for p in range(n)
        ]

    # ------------------------------------------------------------------ copies & history
    def history(self) -> list[tuple[int, int]]:
        """Every ``(player, action)`` applied so far; chance outcomes have player ``CHANCE``."""
        return list(self._history)

    def visible_history(self, viewer: int | None) -> list[tuple[int, int | None]]:
        """The history as ``viewer`` (``None``: a spectator) may know it now: each entry
        ``(player, action)``, with ``action`` ``None`` where it is still a secret to them.

        Everything is visible in games of perfect information and once the game is over;
        otherwise :meth:`_hidden_entries` says what is not. The server, the terminal and the
        replays all show the log through this."""
        history = self._history
        if self.game.perfect_information or self.is_terminal():
            return list(history)
        hidden = self._hidden_entries(viewer)
        return [(p, None if i in hidden else a) for i, (p, a) in enumerate(history)]

    def _hidden_entries(self, viewer: int | None) -> set[int]:
        """Indices of the history entries ``viewer`` may not know yet, in a game of hidden
        information. Default: every chance outcome (a draw may be private), and the other
        players' choices already made at the open simultaneous step. A game whose chance
        outcomes are public, or whose secrets last longer, overrides this."""
        history = self._history
        out = {i for i, (p, _) in enumerate(history) if p == CHANCE}
        if self.current_player == SIMULTANEOUS:
            pending = set(self._pending_players())
            chosen: set[int] = set()
            for i in range(len(history) - 1, -1, -1):
                p = history[i][0]
                if p < 0 or p in pending or p in chosen:
                    break
                chosen.add(p)
                if p != viewer:
                    out.add(i)
        return out

    def move_number(self) -> int:
        """How many actions (chance included) have been applied."""
        return len(self._history)

    def _blank_copy(self) -> Self:
        """A new state of the same class sharing the game, with its own copy of the history
        and an empty legal-action cache: a game's fast ``clone`` starts here and copies its
        own fields."""
        other = type(self).__new__(type(self))
        other.game = self.game
        other._history = self._history.copy()
        other._legal_cache = {}
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        fields = {}
        for name in _field_names(type(self)):
            try:
                fields[name] = getattr(self, name)
            except AttributeError:  # a slot never set
                pass
        extra = getattr(self, "__dict__", None)
        if extra:
            fields.update(extra)
        return _restore_state, (type(self), fields)

    def clone(self) -> State:
        """An independent copy (games override for speed, starting from ``_blank_copy``)."""
        import copy

        return copy.deepcopy(self, {id(self.game): self.game})

    def resample(self, player: int, rng: random.Random) -> State:
        """A full state consistent with ``observation(player)``: what ``player`` cannot see
        (other hands, unseen draw orders, choices not yet revealed) is drawn afresh.

        Games of perfect information need not override this (a copy is exact).
        """
        if self.game.perfect_information:
            return self.clone()
        raise NotImplementedError(f"{self.game.name} has no resampler yet")

    def __str__(self) -> str:
        """The board as plain text (the renderer's rich markup stripped) and, once the game
        is over, the one results table below it."""
        from rich.text import Text

        obs = self.observation(None)
        board = Text.from_markup(self.game.renderer.text(obs)).plain
        if not self.is_terminal():
            return board
        table = score_table_text(score_lines(obs), seat_names(self.game.num_players),
                                 self.ranks())
        return f"{board}\n\n{table}" if table else board


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The ``__slots__`` of ``cls`` and its bases: a state's fields besides its ``__dict__``."""
    names = _FIELDS.get(cls)
    if names is None:
        found: list[str] = []
        for klass in reversed(cls.__mro__):
            slots = klass.__dict__.get("__slots__", ())
            for name in (slots,) if isinstance(slots, str) else slots:
                if name not in ("__dict__", "__weakref__") and name not in found:
                    found.append(name)
        names = _FIELDS[cls] = tuple(found)
    return names


def _restore_state(cls: type[State], fields: dict[str, Any]) -> State:
    """A state of ``cls`` with these fields: what unpickles a state."""
    state = cls.__new__(cls)
    for name, value in fields.items():
        setattr(state, name, value)
    return state


def _said_by(catalog: i18n.Words, text: str) -> str:
    """``text`` said by the game's catalog, else by the engine's (its default preset)."""
    if catalog.has(text) or not text:
        return catalog.say(text)
    return _(text)


@cython.locals(state=State)
def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one outcome at a chance node with the node's probabilities."""
    return state._draw_chance(rng)


_RUNNING_SUMS: dict[int, tuple[float, ...]] = {}
"""The running sums of ``n`` equal probabilities ``1.0 / n``, by ``n``."""


@cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t, _i=cython.Py_ssize_t, acc=cython.double,
               p=cython.double)
def equal_chance_index(n: int, x: float) -> int:
    """The index :func:`sample_chance` draws among ``n`` outcomes of probability ``1.0 / n``
    each for ``x = rng.random()``: the first whose running sum exceeds ``x`` (the last if
    none does), found by bisection in the sums added up as the draw adds them."""
    sums = _RUNNING_SUMS.get(n)
    if sums is None:
        p = 1.0 / n
        acc = 0.0
        running = []
        for _i in range(n):
            acc += p
            running.append(acc)
        sums = _RUNNING_SUMS[n] = tuple(running)
    i = bisect_right(sums, x)
    return i if i < n else n - 1


@cython.locals(state=State, x=cython.double, acc=cython.double, p=cython.double)
def _scan_chance(state: State, rng: random.Random) -> int:
    """:meth:`State._draw_chance` of any game: a pass over ``chance_outcomes()``."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError(_("not a chance node"))
    x = rng.random()
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if x < acc:
            return a
    return outcomes[-1][0]


@cython.locals(k=cython.int)
def _below(rng: random.Random, n: int) -> int:
    """A random int in ``[0, n)`` drawn exactly as ``random.Random.choice`` draws its index
    (``_randbelow``: the fewest bits that hold ``n``, again until below ``n``)."""
    if n <= 0:
        raise IndexError("cannot choose from an empty sequence")
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


Policy = Callable[[State, int, random.Random], int]
"""Chooses ``player``'s action in ``state``: ``policy(state, player, rng) -> action``."""


@cython.locals(state=State, cp=cython.Py_ssize_t, n=cython.Py_ssize_t, trusted=cython.bint,
               plain=cython.bint)
def play_out(
    state: State,
    rng: random.Random | int | None = None,
    policy: Policy | None = None,
    max_actions: int | None = None,
    on_move: Callable[[State, int, int], None] | None = None,
    until: Callable[[State], bool] | None = None,
) -> State:
    """The play loop: play ``state`` in place until the end (or ``max_actions`` steps, or the
    first position where ``until(state)`` holds) and return it.

    Chance is resolved with ``rng`` (an int seeds a new ``random.Random``) and the node's
    probabilities; players choose uniformly at random unless ``policy`` is given. At a
    simultaneous node every pending player chooses in turn (each from its own view: the base
    state hides the others' choices). ``on_move(state, player, action)`` runs after every
    applied action, e.g. to print it or to time it.
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    # the actions drawn here are legal: unless a state class has its own ``apply``, they are
    # played without checking them again, and a plain Random draws as its ``choice`` does
    trusted = type(state).apply is State.apply
    plain = type(rng) is random.Random
    n = 0
    while (cp := state.current_player) != TERMINAL:
        if until is not None and until(state):
            break
        if cp >= CHANCE and trusted and policy is None:  # one chooser, drawn at random
            if cp == CHANCE:
                a = sample_chance(state, rng)
            else:
                legal = state._legal_now(cp)
                a = legal[_below(rng, len(legal))] if plain else rng.choice(legal)
            state._play(a, cp)
            if on_move is not None:
                on_move(state, cp, a)
            n += 1
            if max_actions is not None and n >= max_actions:
                break
            continue
        if cp == CHANCE:
            movers = [CHANCE]
        elif cp >= 0:
            movers = [cp]
        else:  # simultaneous: every pending player chooses
            movers = state.pending_players()
        for p in movers:
            if p == CHANCE:
                a = sample_chance(state, rng)
            elif policy is None:
                a = rng.choice(state.legal_actions(p))
            else:
                a = policy(state, p, rng)
            state.apply(a, p)
            if on_move is not None:
                on_move(state, p, a)
            if cp == SIMULTANEOUS and state.current_player != SIMULTANEOUS:
                break
        n += 1
        if max_actions is not None and n >= max_actions:
            break
    return state


def resolve_chance(state: State, rng: random.Random | int | None = None) -> State:
    """Apply sampled outcomes while ``state`` is at a chance node; return it."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    while state.current_player == CHANCE:
        state.apply(sample_chance(state, rng))
    return state

