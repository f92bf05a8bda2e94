"""Monte Carlo tree search for every meeple game, fair by construction.

:class:`MCTSBot` is a single-observer information-set MCTS (SO-ISMCTS): each iteration draws a
determinisation from the bot's own view (``view.sample_state(rng)``: a copy where information
is perfect, the game's resampler where it is hidden), walks one shared tree of the bot's
information sets with UCB1 over the actions available in that determinisation (counting
availability, so actions that are only sometimes legal are judged fairly), expands one node,
plays out and backs up every player's return. Where information is perfect this is plain
UCT. Chance outcomes branch the tree unless a game turns ``chance_nodes`` off (open loop).
Simultaneous choices are searched with decoupled UCT: each pending player chooses from its own
statistics at the node, so no player's choice is conditioned on another's, with a little noise
on the scores (``JITTER``) so that every choice meets every choice of the others.

Play-outs use the game's ``heuristics`` (:class:`meeple.engine.plugins.Heuristics`) where it has
them:

- ``rollout_action(state, player, rng) -> action``: the play-out policy (else uniform random);
- ``evaluate(state, player) -> float``: an estimate of the player's return in [-1, 1], used to
  stop a play-out early (after ``rollout_depth`` actions) instead of playing to the end;
- ``quiet(state) -> bool``: whether a play-out may stop here for the evaluation; one that has
  played ``rollout_depth`` actions goes on to the next quiet position (Botanik: the end of
  the round), so that every evaluation sees the same point of the game's cycle;
- ``action_value(state, player, action) -> float``: the greedy bot's judgement, used to pick
  the ``candidates`` among the bot's own moves that the search considers at the root;
- ``shortlist(state, player, legal) -> list[int]``: a cheap choice of the moves worth
  searching, applied once at every tree node where one player moves (Kontor's placements,
  Botanik's additions);
- ``SEARCH``: settings the game gives the levels that use its heuristics: :class:`Level`
  fields (for example Kozo, whose moves are costly to apply, evaluates at once with
  ``rollout_depth`` 0; Kontor turns ``chance_nodes`` off), except that ``budget`` is a factor
  on those levels' iterations and ``mistakes`` a factor on their rate of mistakes (where a
  random move costs less than in most games).

Budgets: ``iterations`` and/or ``seconds`` per move; ``time_limit`` (seconds, settable by a
server's time control) and ``view.deadline`` cap the thinking time further. Levels 1-5 map to
budgets, play-out settings and a rate of deliberate mistakes (``LEVELS``); a bot made without a
level is level 5, which makes none.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # mypy reads the shadow's typed names
    from meeple.engine import _cython_shadow as cython
else:
    try:
        import cython
    except ImportError:  # the pure-Python build without Cython installed
        from meeple.engine import _cython_shadow as cython

if cython.compiled:  # C's: the same IEEE results as math's, without a Python call
    from cython.cimports.libc.math import log, sqrt  # type: ignore[import-untyped]
else:
    from math import log, sqrt

from meeple.engine import CHANCE, SIMULTANEOUS, Game, OptionError, State, play_out
from meeple.engine.core import sample_chance
from meeple.engine.i18n import words
from meeple.engine.plugins import optional

from .base import View

_, _n = words(__file__)


@dataclass(frozen=True)
class Level:
    """What a level means: a search budget and how play-outs are run."""

    iterations: int
    seconds: float
    """A cap on thinking time per move (the iterations usually end the search first)."""
    exploration: float = 0.35
    use_heuristics: bool = True
    rollout_depth: int | None = None
    candidates: int | None = None
    """Search only this many of the bot's own moves, the best by the game's ``action_value``
    (the greedy bot's judgement); ``None`` searches them all."""
    mistakes: float = 0.0
    """The chance, per move with a choice, of playing a random legal move instead of searching.
    Where searches saturate, more iterations hardly add strength; mistakes keep the levels
    apart."""
    chance_nodes: bool = True
    """Whether the tree keeps one child per chance outcome. Off, the outcomes are part of the
    determinisation only (open loop): where a draw matters only later (Kontor's new top cards),
    the moves after it share one node instead of being split among every possible draw."""


LEVELS: dict[int, Level] = {
    1: Level(iterations=10, seconds=0.5, exploration=1.4, use_heuristics=False, mistakes=0.8),
    2: Level(iterations=40, seconds=1.0, exploration=1.0, use_heuristics=False, mistakes=0.4),
    3: Level(iterations=100, seconds=2.0, rollout_depth=4, mistakes=0.25),
    4: Level(iterations=250, seconds=4.0, rollout_depth=4, mistakes=0.12),
    5: Level(iterations=600, seconds=8.0, rollout_depth=4),
}
"""Levels 1-5: levels 1-2 search a little with random play-outs; levels 3-5 use the game's
evaluation after short play-outs, each with about 2.5 times the search of the one below.
Below level 5 a bot also plays a random move now and then, one move in eight at level 4 and
four in five at level 1."""


JITTER = 0.01
"""Random noise on the scores of simultaneous choices. Without it, where every outcome is
exact (a game's last round), each player cycles through its choices in the same fixed order,
so each choice only ever meets the same choice of the other player and is judged by that
pairing alone."""


@cython.final
@cython.cclass
class _Stat:
    """Visits, summed return of the player who chose (and its mean), and availability of one
    action. Compiled, an extension type of C numbers (``mcts.pxd``)."""

    __slots__ = ("visits", "total", "avail", "mean")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.mean = 0.0
        """``total / visits``, kept by the backup: read for every sibling at every pick."""


_LOGS = [0.0] + [math.log(n) for n in range(1, 1 << 14)]
"""``math.log(n)`` for the availability counts of most searches, looked up, not computed."""


@cython.final
@cython.cclass
class _Node:
    """One information set of the search tree (reached by a sequence of keys from the root).
    Compiled, an extension type (``mcts.pxd``)."""

    __slots__ = ("children", "stats", "joint", "moves", "order", "row")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.stats: dict[int, _Stat] = {}
        self.joint: dict[int, dict[int, _Stat]] | None = None
        self.moves: list[int] | None = None
        self.order: list[int] | None = None
        """The moves of the last pick here where every one had been tried (``None`` before)."""
        self.row: list[_Stat] = []
        """Their statistics, in that order: a pick over the same moves reads this list."""

    def child(self, key: Any) -> _Node:
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = _Node()
        return node


@cython.locals(c=cython.double, s=_Stat, avail=cython.Py_ssize_t, nlogs=cython.Py_ssize_t,
               v=cython.Py_ssize_t, lg=cython.double, logs=list, score=cython.double,
               best_score=cython.double)
def _ucb_pick(
    stats: dict[int, _Stat], legal: list[int], c: float, rng: random.Random, jitter: float = 0.0
) -> tuple[int, bool]:
    """UCB1 with availability counts; an untried action first. Returns (action, was_new).

    ``jitter`` adds up to that much random noise to each score, so that equal scores are
    broken at random (see ``JITTER``)."""
    if jitter:
        return _ucb_pick_jittered(stats, legal, c, rng, jitter)
    # one pass: count availability, score the tried actions until an untried one turns up
    # (the first best in ``legal`` order wins, as in the two-pass form below)
    get = stats.get
    logs, nlogs = _LOGS, len(_LOGS)
    untried: list[int] | None = None
    best_a, best_score = -1, -math.inf
    for a in legal:
        s = get(a)
        if s is None:
            if untried is None:
                untried = [a]
            else:
                untried.append(a)
            continue
        avail = s.avail + 1
        s.avail = avail
        if untried is None:
            v = s.visits
            lg = logs[avail] if avail < nlogs else log(avail)
            score = s.mean + c * sqrt(lg / v)
            if score > best_score:
                best_a, best_score = a, score
    if untried is not None:
        a = untried[0] if len(untried) == 1 else rng.choice(untried)
        s = stats[a] = _Stat()
        s.avail = 1
        return a, True
    return best_a, False


@cython.locals(node=_Node, c=cython.double, s=_Stat, avail=cython.Py_ssize_t,
               nlogs=cython.Py_ssize_t, logs=list, score=cython.double,
               best_score=cython.double, best_i=cython.Py_ssize_t, i=cython.Py_ssize_t,
               lg=cython.double)
def _ucb_pick_row(node: _Node, c: float) -> int:
    """:func:`_ucb_pick` over ``node.order`` (every move tried) through ``node.row``: the
    same availability counts and the same pick, without looking the moves up."""
    logs, nlogs = _LOGS, len(_LOGS)
    best_i, best_score, i = 0, -math.inf, 0
    for s in node.row:
        avail = s.avail + 1
        s.avail = avail
        lg = logs[avail] if avail < nlogs else log(avail)
        score = s.mean + c * sqrt(lg / s.visits)
        if score > best_score:
            best_i, best_score = i, score
        i += 1
    return node.order[best_i]  # type: ignore[index]


def _ucb_pick_jittered(
    stats: dict[int, _Stat], legal: list[int], c: float, rng: random.Random, jitter: float
) -> tuple[int, bool]:
    """:func:`_ucb_pick` with noise on the scores (simultaneous choices)."""
    untried: list[int] = []
    tried: list[_Stat] = []
    tried_actions: list[int] = []
    get = stats.get
    for a in legal:
        s = get(a)
        if s is None:
            untried.append(a)
        else:
            s.avail += 1
            tried.append(s)
            tried_actions.append(a)
    if untried:
        a = untried[0] if len(untried) == 1 else rng.choice(untried)
        s = stats[a] = _Stat()
        s.avail = 1
        return a, True
    best_i, best_score = 0, -math.inf
    for i, s in enumerate(tried):
        v = s.visits
        score = s.total / v + c * sqrt(log(s.avail) / v)
        if jitter:
            score += jitter * rng.random()
        if score > best_score:
            best_i, best_score = i, score
    return tried_actions[best_i], False


class MCTSBot:
    """Information-set MCTS over the bot's own view. See the module docstring."""

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        level: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float | None = None,
        use_heuristics: bool | None = None,
        rollout_depth: int | None = None,
        time_limit: float | None = None,
        candidates: int | None = None,
        mistakes: float | None = None,
        chance_nodes: bool | None = None,
    ):
        if level is None:
            level = 5
        if level not in LEVELS:
            raise OptionError(_("mcts level must be one of 1-5, got {level}", level=repr(level)))
        spec = LEVELS[level]
        self.level = level
        self.name = f"mcts:{level}"
        self.game = game
        self.rng = random.Random(seed)
        use = spec.use_heuristics if use_heuristics is None else use_heuristics
        module = game.heuristics if use else None
        tuning = dict(optional(module, "SEARCH") or {})
        budget, mistake_factor = tuning.pop("budget", 1.0), tuning.pop("mistakes", 1.0)
        spec = replace(spec, **tuning)
        self.iterations = round(spec.iterations * budget) if iterations is None else iterations
        self.seconds = spec.seconds if seconds is None else seconds
        if self.iterations <= 0 and self.seconds <= 0:
            raise OptionError(_("an mcts bot needs a budget: iterations or seconds above 0"))
        self.exploration = spec.exploration if exploration is None else exploration
        self.time_limit = time_limit
        self._rollout_action = optional(module, "rollout_action")
        self._evaluate = optional(module, "evaluate")
        self._quiet = optional(module, "quiet")
        self._action_value = module.action_value if module is not None else None
        self._shortlist = optional(module, "shortlist")
        self.candidates = spec.candidates if candidates is None else candidates
        depth = spec.rollout_depth if rollout_depth is None else rollout_depth
        self.rollout_depth = depth if self._evaluate is not None else None
        self.chance_nodes = spec.chance_nodes if chance_nodes is None else chance_nodes
        self._exact_tree = game.perfect_information and self.chance_nodes
        """Whether a tree node always stands for one position (information is perfect and
        every chance outcome has its own child), so its moves need not be listed again."""
        self.mistakes = (min(1.0, spec.mistakes * mistake_factor)
                         if mistakes is None else mistakes)
        if not 0.0 <= self.mistakes <= 1.0:
            raise OptionError(_("mcts mistakes must be a chance from 0 to 1, got {value}",
                                value=repr(self.mistakes)))
        self.last_iterations = 0
        """How many iterations the last ``act`` ran (for benchmarks and logs)."""

    # -- budget ---------------------------------------------------------------------------
    def _stop_time(self, view: View) -> float:
        now = time.perf_counter()
        limits = [self.seconds] if self.seconds and self.seconds > 0 else []
        if self.time_limit is not None:
            limits.append(self.time_limit)
        deadline = getattr(view, "deadline", None)
        if deadline is not None:
            limits.append(deadline - time.monotonic())
        if not limits:
            return math.inf
        return now + max(0.0, min(limits) * 0.95 - 0.005)

    # -- search ---------------------------------------------------------------------------
    def act(self, view: View) -> int:
        legal = view.legal_actions
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        if self.mistakes and self.rng.random() < self.mistakes:
            return self.rng.choice(legal)
        root = self.search(view)
        seat = view.seat
        stats = root.joint[seat] if root.joint is not None and seat in root.joint else root.stats
        best, best_key = legal[0], (-1, -math.inf)
        for a in legal:
            s = stats.get(a)
            if s is None:
                continue
            key = (s.visits, s.total / s.visits if s.visits else -math.inf)
            if key > best_key:
                best, best_key = a, key
        return best

    def _root_actions(self, view: View) -> list[int] | None:
        """The bot's own moves worth searching, or ``None`` for all of them."""
        legal = view.legal_actions
        k, value = self.candidates, self._action_value
        if not k or value is None or len(legal) <= k:
            return None
        state = view.sample_state(self.rng)
        rng = self.rng
        ranked = sorted(legal, key=lambda a: (value(state, view.seat, a), rng.random()))
        return ranked[-k:]

    def search(self, view: View) -> _Node:
        """Run the budgeted search from ``view``; return the root of the tree."""
        root = _Node()
        stop = self._stop_time(view)
        limit = self.iterations if self.iterations > 0 else math.inf
        done = 0
        root_actions = self._root_actions(view)
        seat = view.seat
        while done < limit:
            self._iterate(root, view.sample_state(self.rng), seat, root_actions)
            done += 1
            if (done & 7 == 0 or done < 8) and time.perf_counter() >= stop:
                break
        self.last_iterations = done
        return root

    @cython.locals(node=_Node, stat=_Stat)
    def _iterate(
        self, root: _Node, state: State, seat: int = -1, root_actions: list[int] | None = None
    ) -> None:
        rng, c = self.rng, self.exploration
        exact = self._exact_tree
        node = root
        path: list[tuple[_Stat, int]] = []
        expanded = False
        while not expanded and not state.is_terminal():
            cp = state.current_player
            if cp == CHANCE:
                outcome = sample_chance(state, rng)
                state.apply(outcome, CHANCE)
                if self.chance_nodes:
                    node = node.child(("c", outcome))
            elif cp == SIMULTANEOUS:
                if node.joint is None:
                    node.joint = {}
                joint = []
                for p in state.pending_players():
                    stats = node.joint.setdefault(p, {})
                    own = root_actions if node is root and p == seat else None
                    a, new = _ucb_pick(stats, own or state.legal_actions(p), c, rng, JITTER)
                    path.append((stats[a], p))
                    joint.append((p, a))
                    expanded |= new
                for p, a in joint:
                    state.apply(a, p)
                node = node.child(tuple(joint))
            else:
                own = root_actions if node is root and cp == seat else None
                if own is None and exact and node.order is not None:
                    own = node.order  # the same position as at every visit: the same moves
                if own is None:
                    own = state.legal_actions(cp)
                    if self._shortlist is not None:
                        own = self._moves(node, state, cp, own)
                if own is node.order or own == node.order:  # the same moves, all tried
                    a = _ucb_pick_row(node, c)
                else:
                    a, expanded = _ucb_pick(node.stats, own, c, rng)
                    if not expanded:
                        node.order = own
                        node.row = [node.stats[m] for m in own]
                path.append((node.stats[a], cp))
                state.apply(a, cp)
                node = node.child(a)
        values = self._rollout(state)
        for stat, p in path:
            stat.visits += 1
            stat.total += values[p]
            stat.mean = stat.total / stat.visits

    def _moves(self, node: _Node, state: State, player: int, legal: list[int]) -> list[int]:
        """The game's ``shortlist`` of ``legal`` at ``node``, chosen once per node (and kept
        to the moves legal in this determinisation)."""
        moves = node.moves
        if moves is None:
            short = self._shortlist(state, player, legal)
            moves = node.moves = short if len(short) < len(legal) else []
        if not moves:  # the shortlist kept every move
            return legal
        allowed = set(legal)
        return [a for a in moves if a in allowed] or legal

    def _values(self, state: State) -> list[float]:
        """The game's evaluation for every player (two players: one call, zero-sum)."""
        evaluate = self._evaluate
        n = state.game.num_players
        if n == 2:
            v = max(-1.0, min(1.0, float(evaluate(state, 0))))
            return [v, -v]
        return [max(-1.0, min(1.0, float(evaluate(state, p)))) for p in range(n)]

    def _rollout(self, state: State) -> list[float]:
        """Play ``state`` on with the game's play-out policy: to the end, or (with an
        evaluation) ``rollout_depth`` actions and on to the next quiet position."""
        rng = self.rng
        policy = self._rollout_action
        depth = self.rollout_depth
        if depth is None:
            play_out(state, rng, policy)
            return state.returns()
        if depth > 0:
            play_out(state, rng, policy, max_actions=depth)
        if self._quiet is not None:
            play_out(state, rng, policy, until=self._quiet)
        return state.returns() if state.is_terminal() else self._values(state)


def mcts_bot(game: Game, seed: int | None = None, level: int | None = None, **kw) -> MCTSBot:
    """The ``mcts`` entry of the bot table: ``make_bot("mcts:4", game)``."""
    return MCTSBot(game, seed=seed, level=level, **kw)


__all__ = ["LEVELS", "Level", "MCTSBot", "mcts_bot"]
