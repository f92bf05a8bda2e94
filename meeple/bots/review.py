"""The review of a finished game for one viewer: each player's estimated chance to win after
every move, the turning points, and the viewer's moves where the search bot's choice was
clearly better.

Every estimate is a search (:class:`meeple.bots.mcts.MCTSBot`, a fixed budget per game) from
the position as the viewer knew it then: where information is hidden, each iteration starts
from a determinisation drawn from the viewer's own information set at that moment
(``State.resample(viewer, rng)``, the one the bots play with), never from the true position,
so the estimates rest only on what the viewer could see. Each position's search has its own
fixed seed, so the same information set always gives the same estimates; a position the
viewer learned nothing new at (another player's choice still secret) keeps the estimate of
the position before it (:func:`unseen`). Where information is perfect the viewer does not
matter and one review serves everyone (:func:`info_key`).

A better move is named only when it is clearly better and the difference is larger than its
noise: the chart puts it :data:`CLEAR_GAIN` ahead of the move played, and one search of just
those two moves from the viewer's information set (:func:`check_move`, made as the move is
estimated) finds it ahead by more than that search's standard error.

The review's sentences (turning points, better moves, the chart's words) are said in the
language in use when the review is put together (:func:`assemble`, cheap once the positions'
searches are done): a review for a reader of another language is assembled again from the
same searches. A move's label in a sentence is said of its mover
(:func:`meeple.engine.words.of_them`).
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.engine import CHANCE, Game, State
from meeple.engine.i18n import DEFAULT, language, words
from meeple.engine.lessons import said_of_them
from meeple.engine.look import seat_name
from meeple.engine.records import move_numbers, moves_made
from meeple.engine.words import of_them

from .base import View
from .mcts import MCTSBot

_, _n = words(__file__)

REVIEW_ITERATIONS = 800
"""Search iterations per position, before the game's own budget factor (``SEARCH``); at most
the Expert bot's own budget in the game, shared between the views a game needs
(:func:`iterations_for`), so that the estimates keep up with a game as it is played."""
REVIEW_MIN = 60
"""The fewest search iterations of one position for one view."""
REVIEW_SECONDS = 30.0
"""A cap on one position's search, a safety only: the iterations end the search first (so
that the same position always gives the same estimate, however busy the machine)."""
CLEAR_GAIN = 0.05
"""A move of the bot is *clearly better* when the chart says it raises the player's chance to
win by at least this much (5 points in a hundred) over the move played, and the two moves
searched again side by side (:func:`check_move`) confirm it beyond that search's noise."""
CHECK_FACTOR = 1
"""The side-by-side search of a better move and the move played (:func:`check_move`) has
this many times a position's iterations."""
CHECK_LEAST = 0.02
"""The side-by-side search must find the better move ahead by at least this much chance to
win (and by :data:`NOISE_SIGMAS` times its noise)."""
TURNING_GAIN = 0.15
"""A move is a turning point when a player's chance to win moves by at least this much, and
by more than the estimates' noise."""
NOISE_SIGMAS = 2.0
"""A change of chance counts only when it is this many times larger than its noise (the
standard error of the difference of the two estimates)."""
TURNING_MAX = 4
"""At most this many turning points are named."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called after each position's estimate."""


def info_key(game: Game, viewer: int | None) -> str:
    """Which information set a review is for: ``"all"`` where information is perfect (every
    viewer gets the same review), else the viewer's seat."""
    if game.perfect_information or viewer is None:
        return "all"
    return str(viewer)


@dataclass
class Point:
    """One position of the chart: after the game's move ``move`` (numbered as the log numbers
    them, :func:`meeple.engine.records.move_numbers`; 0: the start), chance resolved.

    ``player``/``text``: who made the move that led here and its label (``None`` for the
    start); ``chances``: each player's estimated chance to win here (they sum to 1)."""

    move: int
    player: int | None
    text: str | None
    chances: list[float]

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "player": self.player, "text": self.text,
                "chances": [round(c, 4) for c in self.chances]}


@dataclass
class Turning:
    """A turning point: the move numbered ``move`` (as in the log) by ``player`` moved
    ``who``'s chance from ``before`` to ``after``; ``words`` says it in a sentence."""

    move: int
    player: int
    text: str
    who: int
    before: float
    after: float
    words: str

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "player": self.player, "text": self.text, "who": self.who,
                "before": round(self.before, 4), "after": round(self.after, 4),
                "words": self.words}


@dataclass
class Better:
    """One of the viewer's moves where the bot's choice was clearly better.

    ``move``: the position before it (the number of the move before it, as in the log, so
    the replay's picture at ``move`` shows the board it was played on); ``number``: its own
    number in the log; ``played``/``best``: the two moves as the UI
    describes them (``State.describe_action``); ``chance_played``/``chance_best``: the
    viewer's chance to win after each; ``words``: the difference in a sentence."""

    move: int
    player: int
    played: dict[str, Any]
    best: dict[str, Any]
    chance_played: float
    chance_best: float
    words: str
    number: int = 0

    @property
    def gain(self) -> float:
        return self.chance_best - self.chance_played

    def to_json(self) -> dict[str, Any]:
        best, played = round(self.chance_best, 4), round(self.chance_played, 4)
        return {"move": self.move, "number": self.number or self.move + 1,
                "player": self.player, "played": self.played, "best": self.best,
                "chance_played": played, "chance_best": best,
                "gain": round(best - played, 4), "words": self.words}


@dataclass
class Review:
    """A finished game's review for one information set (:func:`info_key`)."""

    game: str
    players: int
    viewer: int | None
    key: str
    points: list[Point]
    turning: list[Turning]
    better: list[Better]
    iterations: int
    seconds: float = 0.0
    names: list[str] = field(default_factory=list)

    def better_for(self, seat: int | None) -> list[Better]:
        """The better moves of ``seat`` (none for a spectator)."""
        return [b for b in self.better if seat is not None and b.player == seat]

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The review as JSON; ``better`` lists only ``seat``'s moves."""
        return {
            "game": self.game, "players": self.players, "viewer": seat, "key": self.key,
            "points": [p.to_json() for p in self.points],
            "turning": [t.to_json() for t in self.turning],
            "better": [b.to_json() for b in self.better_for(seat)],
            "iterations": self.iterations, "seconds": round(self.seconds, 2),
        }

    def stored(self) -> dict[str, Any]:
        """Everything, for storage (the better moves of every seat it covers)."""
        out = self.to_json(None)
        out["viewer"] = self.viewer
        out["better"] = [b.to_json() for b in self.better]
        return out

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Review:
        """The review :meth:`stored` wrote."""
        return cls(
            game=data["game"], players=data["players"], viewer=data["viewer"], key=data["key"],
            points=[Point(p["move"], p["player"], p["text"], list(p["chances"]))
                    for p in data["points"]],
            turning=[Turning(t["move"], t["player"], t["text"], t["who"], t["before"],
                             t["after"], t["words"]) for t in data["turning"]],
            better=[Better(b["move"], b["player"], b["played"], b["best"], b["chance_played"],
                           b["chance_best"], b["words"], b.get("number", 0))
                    for b in data["better"]],
            iterations=data["iterations"], seconds=data.get("seconds", 0.0),
        )


# ---------------------------------------------------------------------- the estimates
class Preempted(Exception):
    """A position's search was stopped for more urgent work (a bot's move, a hint); the
    same search is done again later, with the same result."""


Stop = Callable[[], bool]
"""``stop()``: whether a search should give way now (checked at every iteration)."""


class _Estimator(MCTSBot):
    """A search bot that also keeps, per first move of the mover at the root, the summed
    returns of every player over the iterations and their squares (the root's estimate for
    everyone, and its noise)."""

    def begin(self, state: State, mover: int) -> None:
        self._root_len = state.move_number()
        self._mover = mover
        self.sums: dict[int | None, list[float]] = {}
        self.squares: dict[int | None, list[float]] = {}
        self.counts: dict[int | None, int] = {}

    def _rollout(self, state: State) -> list[float]:
        first = self._first_move(state)
        values = super()._rollout(state)
        acc = self.sums.get(first)
        if acc is None:
            acc = self.sums[first] = [0.0] * len(values)
            self.squares[first] = [0.0] * len(values)
            self.counts[first] = 0
        sq = self.squares[first]
        for i, v in enumerate(values):
            acc[i] += v
            sq[i] += v * v
        self.counts[first] += 1
        return values

    def _first_move(self, state: State) -> int | None:
        history = state._history  # the determinisation's own list; read, not changed
        for p, a in history[self._root_len:]:
            if p == self._mover:
                return a
        return None


class _Pair(_Estimator):
    """An estimator whose search at the root considers only ``only`` among the mover's
    moves (set after construction)."""

    only: list[int] = []

    def _root_actions(self, view: View) -> list[int] | None:
        return list(self.only)


class _ViewerView(View):
    """The mover's decision, searched over determinisations of ``viewer``'s information set
    (set after construction); ``stop`` is asked at every iteration."""

    viewer: int | None = None
    stop: Stop | None = None

    def sample_state(self, rng: random.Random) -> State:
        if self.stop is not None and self.stop():
            raise Preempted
        if self.game.perfect_information or self.viewer is None:
            return self._state.clone()
        return self._state.resample(self.viewer, rng)


def _chances(values: Sequence[float]) -> list[float]:
    """Mean returns in [-1, 1] as chances to win that sum to 1."""
    shares = [max(0.0, min(1.0, (v + 1.0) / 2.0)) for v in values]
    total = sum(shares)
    n = len(shares)
    if total <= 0:
        return [1.0 / n] * n
    return [s / total for s in shares]


def _noise(sums: Sequence[float], squares: Sequence[float], k: int) -> list[float]:
    """The standard error of each player's chance (half that of the mean return)."""
    out = []
    for s, q in zip(sums, squares, strict=True):
        mean = s / k
        var = max(0.0, q / k - mean * mean)
        out.append(0.5 * math.sqrt(var / max(1, k - 1)) if k > 1 else 0.5)
    return out


def _mover(state: State, viewer: int | None) -> int:
    """Whose choice the search at ``state`` is about: the player to move, or at a
    simultaneous step the viewer when still to choose, else the first still to choose."""
    cp = state.current_player
    if cp >= 0:
        return cp
    pending = state.pending_players()
    if viewer is not None and viewer in pending:
        return viewer
    return pending[0]


@dataclass
class _Search:
    """What one position's search found: everyone's chances through its best move (the one
    estimate of the position: the chart, the turning points and the better moves all read
    it), their noise (standard errors), and the mover's best move."""

    mover: int
    chances: list[float]
    best: int | None
    noise: list[float]


def _search(state: State, viewer: int | None, iterations: int, seed: int,
            stop: Stop | None = None) -> _Search:
    game = state.game
    mover = _mover(state, viewer)
    hidden_mover = not game.perfect_information and mover != viewer
    bot = _Estimator(game, seed=seed, level=5, mistakes=0.0, iterations=iterations,
                     seconds=REVIEW_SECONDS,
                     # another player's own moves are not the viewer's to list: no shortlist
                     # from their legal moves at the root
                     candidates=0 if hidden_mover else None)
    bot.begin(state, mover)
    legal = [] if hidden_mover else state.legal_actions(mover)
    view = _ViewerView(game=game, seat=mover,
                       observation=state.observation(viewer if viewer is not None else mover),
                       legal_actions=legal, move_number=state.move_number(), _state=state)
    view.viewer = viewer
    view.stop = stop
    bot.search(view)
    tried = [a for a in bot.sums if a is not None]
    best = max(tried, key=lambda a: (bot.counts[a], bot.sums[a][mover])) if tried else None
    n = game.num_players
    if best is not None:
        acc, sq, k = bot.sums[best], bot.squares[best], bot.counts[best]
    else:
        acc = [sum(s[i] for s in bot.sums.values()) for i in range(n)]
        sq = [sum(s[i] for s in bot.squares.values()) for i in range(n)]
        k = max(1, sum(bot.counts.values()))
    return _Search(mover, _chances([x / k for x in acc]), best, _noise(acc, sq, k))


def check_move(state: State, viewer: int | None, mover: int, best: int, played: int,
               iterations: int, seed: int, stop: Stop | None = None) -> dict[str, Any]:
    """The search's own move ``best`` and the move ``played`` of ``mover`` in ``state``,
    searched again side by side from ``viewer``'s information set (one search whose root
    tries only these two moves, its iterations drawn from the same determinisations): how
    much more chance to win ``best`` gives ``mover`` (``gain``), the standard error of that
    difference (``noise``), and the two moves. Two estimates of two searches of different
    positions differ by more than their own errors say (each search's tree and samples
    differ); two moves judged in one search do not."""
    game = state.game
    bot = _Pair(game, seed=seed, level=5, mistakes=0.0, iterations=iterations,
                seconds=REVIEW_SECONDS, candidates=0)
    bot.only = [best, played]
    bot.begin(state, mover)
    view = _ViewerView(game=game, seat=mover,
                       observation=state.observation(viewer if viewer is not None else mover),
                       legal_actions=[best, played], move_number=state.move_number(),
                       _state=state)
    view.viewer = viewer
    view.stop = stop
    bot.search(view)
    n = game.num_players
    means, errs = [], []
    for a in (best, played):
        k = bot.counts.get(a, 0)
        if k < 2:
            return {"best": best, "played": played, "gain": 0.0, "noise": 0.5}
        acc, sq = bot.sums[a], bot.squares[a]
        means.append(_chances([x / k for x in acc])[mover] if n > 2
                     else (acc[mover] / k + 1.0) / 2.0)
        errs.append(_noise(acc, sq, k)[mover])
    return {"best": best, "played": played, "gain": round(means[0] - means[1], 5),
            "noise": round(math.hypot(*errs), 5)}


def _step_move(history: Sequence[tuple[int, int]], at: int, viewer: int | None
               ) -> tuple[int, int] | None:
    """The reviewed player's move (player, action) that starts the step at ``history[at]``
    (a charted position's next move), if it is one: the viewer's, or anyone's where
    information is perfect."""
    if at >= len(history):
        return None
    p, a = history[at]
    if p < 0 or (viewer is not None and p != viewer):
        return None
    return p, a


def check_at(before: State, found_before: dict[str, Any], after: State,
             found_after: dict[str, Any], viewer: int | None, iterations: int | None,
             stop: Stop | None = None) -> dict[str, Any] | None:
    """The side-by-side check (:func:`check_move`) of the move that led from the charted
    position ``before`` to ``after`` (estimated as ``found_before``, ``found_after``), when
    it is the reviewed player's, not the search's own choice, and the chart puts the
    search's choice at least :data:`CLEAR_GAIN` ahead; ``None`` otherwise."""
    step = _step_move(after.history(), before.move_number(), viewer)
    if step is None or found_before.get("end") or found_before.get("best") is None:
        return None
    p, played = step
    best = found_before["best"]
    if found_before.get("mover") != p or best == played:
        return None
    if found_before["chances"][p] - found_after["chances"][p] < CLEAR_GAIN:
        return None
    game = before.game
    its = CHECK_FACTOR * (iterations if iterations is not None else iterations_for(game))
    seed = _seed(game, before.move_number()) ^ 0x5EED
    return check_move(before, viewer, p, best, played, its, seed, stop)


def estimate(state: State, viewer: int | None, *, iterations: int | None = None,
             seed: int = 0) -> list[float]:
    """Each player's chance to win ``state`` as ``viewer`` knows it (the review's estimate of
    one position): a function of the viewer's information set and ``seed`` only."""
    if state.is_terminal():
        return _chances(state.returns())
    its = iterations if iterations is not None else iterations_for(state.game)
    return _search(state, viewer, its, seed).chances


def views(game: Game) -> list[int | None]:
    """The views a game's reviews need: one where information is perfect (``None``), else
    each seat's."""
    if game.perfect_information:
        return [None]
    return list(range(game.num_players))


def iterations_for(game: Game) -> int:
    """The review's search iterations per position and view in ``game``: its ``SEARCH``
    budget factor applied, at most the Expert bot's budget in the game shared between the
    game's views (:func:`views`), and beyond two players shared again as the players are
    (a round has more positions, and more bots think between a person's moves); at least
    :data:`REVIEW_MIN`."""
    from meeple.engine.plugins import optional

    from .levels import LADDER

    tuning = optional(game.heuristics, "SEARCH") or {}
    its = round(REVIEW_ITERATIONS * float(tuning.get("budget", 1.0)))
    expert = LADDER[-1].budget(game.name)
    if expert:
        its = min(its, expert)
    # more players, more positions per round and more bots thinking between a person's moves
    return max(REVIEW_MIN, its * 2 // (len(views(game)) * max(2, game.num_players)))


def _seed(game: Game, move: int) -> int:
    return zlib.crc32(f"{game.name}:{move}".encode())


def _pct(x: float) -> str:
    # TRANSLATORS: a chance in per cent ("42%")
    return _("{percent}%", percent=round(100 * x))


def _check(final: State, viewer: int | None, ended: bool = False) -> None:
    game = final.game
    if not final.is_terminal() and not ended:
        raise ValueError(_("only a finished game has a review"))
    if viewer is not None and not 0 <= viewer < game.num_players:
        raise ValueError(_("seat must be 0..{last}", last=str(game.num_players - 1)))
    if viewer is None and not game.perfect_information:
        raise ValueError(_("{game} hides information: a review is for one player's view",
                           game=game.title))


def charted(history: Sequence[Sequence[Any]]) -> list[int]:
    """Where the positions a review charts lie in ``history`` (how many of its steps lie
    before each): the start and after every move, once chance has been resolved, and the
    end (a game's current position while it is played)."""
    return [i for i in range(len(history)) if history[i][0] != CHANCE] + [len(history)]


def prefixes(history: Sequence[Sequence[Any]]) -> list[int]:
    """A checksum of each charted position's history (:func:`charted`): a position
    estimated while the game was played is still the game's if its checksum is (a move taken
    back and another played instead changes it)."""
    out, h, at = [], 0, 0
    for i in charted(history):
        for p, a in history[at:i]:
            h = zlib.crc32(f"{p},{a};".encode(), h)
        at = i
        out.append(h)
    return out


def positions(final: State) -> tuple[list[int], list[State]]:
    """The positions a review charts, as (moves so far, state) lists: the start and after
    every move, once chance has been resolved, and the end."""
    history = final.history()
    where = charted(history)
    state = final.game.new_initial_state()
    states: list[State] = []
    at = 0
    for i in where:
        for p, a in history[at:i]:
            state.apply(a, p)
        at = i
        states.append(state.clone())
    return where, states


def _found_json(found: _Search | None, chances: list[float]) -> dict[str, Any]:
    if found is None:
        return {"end": True, "chances": chances}
    return {"mover": found.mover, "chances": [round(c, 5) for c in found.chances],
            "best": found.best, "noise": [round(x, 5) for x in found.noise]}


def _found_of(data: dict[str, Any]) -> _Search | None:
    if data.get("end"):
        return None
    n = len(data["chances"])
    return _Search(data["mover"], list(data["chances"]), data["best"],
                   list(data.get("noise") or [0.0] * n))


def estimate_at(state: State, viewer: int | None, move: int, iterations: int | None = None,
                stop: Stop | None = None) -> dict[str, Any]:
    """The search of one charted position, ``state`` after ``move`` steps of its game's
    history, for ``viewer``'s view, as JSON (:func:`assemble` reads it): what the server
    works out after each move of a game as it is played, and stores. ``stop``: asked at
    every iteration; when it says so the search gives way (:class:`Preempted`)."""
    game = state.game
    if state.is_terminal():
        return _found_json(None, _chances(state.returns()))
    its = iterations if iterations is not None else iterations_for(game)
    found = _search(state, viewer, its, _seed(game, move), stop)
    return _found_json(found, found.chances)


def estimate_positions(final: State, viewer: int | None, start: int, stop: int,
                       iterations: int | None = None, ended: bool = False,
                       ) -> list[dict[str, Any]]:
    """The searches of charted positions ``start`` to ``stop`` (indices into
    :func:`positions`), as JSON, to be put together by :func:`assemble`. ``ended``: the game
    ended before its rules end it (a player resigned or left): ``final`` is its last
    position."""
    _check(final, viewer, ended)
    return _estimate(final.game, viewer, positions(final), start, stop, iterations)


def unseen(before: State, after: State, viewer: int | None) -> bool:
    """Whether ``viewer`` learned nothing from ``before`` to ``after``, a later position of
    the same game: every step between them is another player's choice still secret to the
    viewer (a choice at a step everyone plays at once, before the reveal), and nothing the
    viewer knew changed. The viewer's information set is then the one it was, and so is the
    review's estimate for that view (:func:`same_estimate`): it is not searched again."""
    game = after.game
    if viewer is None or game.perfect_information or after.is_terminal():
        return False
    seen, now = before.visible_history(viewer), after.visible_history(viewer)
    n = len(seen)
    if len(now) <= n or now[:n] != seen:
        return False
    return all(p >= 0 and p != viewer and a is None for p, a in now[n:])


def same_estimate(found: dict[str, Any]) -> dict[str, Any]:
    """The estimate of a position whose view is that of the position before it
    (:func:`unseen`): the same figures, marked as kept."""
    out = {k: v for k, v in found.items() if k not in ("h", "check")}
    out["same"] = True
    return out


def _estimate(game: Game, viewer: int | None, charted: tuple[list[int], list[State]],
              start: int, stop: int, iterations: int | None,
              progress: Progress | None = None) -> list[dict[str, Any]]:
    where, states = charted
    out: list[dict[str, Any]] = []

    def at(k: int) -> dict[str, Any]:
        """Position ``k``'s estimate: kept from the one before where the viewer learned
        nothing, else searched (the first of a part searches again what it needs)."""
        if k and unseen(states[k - 1], states[k], viewer):
            return same_estimate(at(k - 1))
        return estimate_at(states[k], viewer, where[k], iterations)

    for k in range(start, min(stop, len(states))):
        before = (out[-1] if out else at(k - 1)) if k else None
        if before is not None and unseen(states[k - 1], states[k], viewer):
            found = same_estimate(before)
        else:
            found = estimate_at(states[k], viewer, where[k], iterations)
        if before is not None:
            check = check_at(states[k - 1], before, states[k], found, viewer, iterations)
            if check is not None:
                found["check"] = check
        out.append(found)
        if progress is not None:
            progress(k + 1, len(states))
    return out


def estimate_part(game: str | type[Game], players: int, options: dict[str, Any],
                  moves: list[tuple[int, int]], viewer: int | None, start: int, stop: int,
                  iterations: int | None = None, ended: bool = False) -> list[dict[str, Any]]:
    """:func:`estimate_positions` from a game (its name or class), options and moves."""
    from meeple.engine import load

    g = load(game, players, **options) if isinstance(game, str) else game(players, **options)
    state = g.new_initial_state()
    for p, a in moves:
        state.apply(a, p)
    return estimate_positions(state, viewer, start, stop, iterations, ended)


def assemble(final: State, viewer: int | None, found: Sequence[dict[str, Any]], *,
             names: Sequence[str | None] | None = None, iterations: int | None = None,
             seconds: float = 0.0, ended: bool = False) -> Review:
    """The review from every charted position's search (:func:`estimate_positions`, in
    order): the chart, the turning points and the better moves (``ended``: see
    :func:`estimate_positions`)."""
    _check(final, viewer, ended)
    game = final.game
    where, states = positions(final)
    if len(found) != len(where):
        raise ValueError(f"a review needs {len(where)} positions, got {len(found)}")  # a bug
    history = final.history()
    given = [n or "" for n in names] if names else None
    label = [seat_name(p, given) for p in range(game.num_players)]
    searches = [_found_of(f) for f in found]
    chances = [list(f["chances"]) for f in found]
    points: list[Point] = []
    movers: dict[int, tuple[int, int]] = {}
    for k, i in enumerate(where):
        p_t = _last_mover(history, i, where[k - 1] if k else 0)
        if p_t is None:
            points.append(Point(moves_made(history[:i]), None, None, chances[k]))
        else:
            j, p = p_t
            movers[k] = p_t
            with of_them():
                d = _before(states, where, k, history, j).describe_action(history[j][1], p)
            points.append(Point(moves_made(history[:i]), p, d.get("label") or d["text"],
                                chances[k]))

    def said(k: int) -> str | None:
        """The move log's sentence (subject-less) of the move that led to ``points[k]``."""
        j, p = movers[k]
        before = _before(states, where, k, history, j)
        if type(before).describe is State.describe:
            return None  # a game whose log says only the notation
        return before.describe(p, history[j][1]) or None

    noise = [list(s.noise) if s is not None else [0.0] * len(c)
             for s, c in zip(searches, chances, strict=True)]
    kept: set[int] = set()  # points whose move was the one the search before it chose
    for k, (j, p) in movers.items():
        before = searches[k - 1]
        if before is not None and before.mover == p and before.best == history[j][1]:
            kept.add(k)
    turning = _turning(points, label, said, noise, kept)
    checks = [f.get("check") for f in found]
    better = _better(states, where, searches, chances, noise, history, viewer, label, checks)
    its = iterations if iterations is not None else iterations_for(game)
    return Review(game=game.name, players=game.num_players, viewer=viewer,
                  key=info_key(game, viewer), points=points, turning=turning, better=better,
                  iterations=its, seconds=seconds, names=label)


def review(
    final: State,
    viewer: int | None,
    *,
    names: Sequence[str | None] | None = None,
    iterations: int | None = None,
    progress: Progress | None = None,
) -> Review:
    """The review of the finished game ``final`` for ``viewer`` (a seat, or ``None`` where
    information is perfect). ``names``: the players' names for the sentences;
    ``progress(done, total)`` is told after each position."""
    _check(final, viewer)
    started = time.perf_counter()
    charted = positions(final)
    found = _estimate(final.game, viewer, charted, 0, len(charted[0]), iterations, progress)
    return assemble(final, viewer, found, names=names, iterations=iterations,
                    seconds=time.perf_counter() - started)


def _last_mover(history: Sequence[tuple[int, int]], i: int,
                prev: int) -> tuple[int, int] | None:
    """The last player's move (index, player) among ``history[prev:i]``."""
    for j in range(i - 1, prev - 1, -1):
        if history[j][0] != CHANCE:
            return j, history[j][0]
    return None


def _before(states: list[State], where: list[int], k: int,
            history: Sequence[tuple[int, int]], j: int) -> State:
    """The state just before ``history[j]`` (from the charted position before it)."""
    s = states[k - 1].clone()
    for p, a in history[where[k - 1]:j]:
        s.apply(a, p)
    return s


def _significant(change: float, noise: float, least: float) -> bool:
    """Whether a change of chance is both large (``least``) and larger than its noise."""
    return abs(change) >= max(least, NOISE_SIGMAS * noise)


def _turning(points: list[Point], label: Sequence[str],
             said: Callable[[int], str | None] | None = None,
             noise: Sequence[Sequence[float]] | None = None,
             kept: set[int] | None = None) -> list[Turning]:
    """The largest swings of chance (at most ``TURNING_MAX``, in the order played), each
    told with the move log's sentence of the move (``said(k)`` for ``points[k]``: what the
    move did, such as a tower that falls), else with the move's label. A swing counts only
    when it is larger than the two estimates' noise (``noise[k][player]``: the standard
    error of ``points[k]``'s chance), and a move the search itself chose there (``kept``)
    is no turning point when its mover's chance falls after it (the search said it was the
    best move: what the chances do then is no mistake of the move)."""
    found: list[tuple[float, int, int]] = []
    for k in range(1, len(points)):
        a, b = points[k - 1], points[k]
        if b.player is None or b.text is None:
            continue
        deltas = [y - x for x, y in zip(a.chances, b.chances, strict=True)]
        if kept is not None and k in kept and deltas[b.player] < 0:
            continue  # the move the search chose itself: its mover's fall is not its doing
        who = max(range(len(deltas)), key=lambda q: abs(deltas[q]))
        err = math.hypot(noise[k - 1][who], noise[k][who]) if noise is not None else 0.0
        if _significant(deltas[who], err, TURNING_GAIN):
            found.append((abs(deltas[who]), k, who))
    found.sort(key=lambda x: -x[0])
    out: list[Turning] = []
    for _gain, k, who in sorted(found[:TURNING_MAX], key=lambda x: points[x[1]].move):
        a, b = points[k - 1], points[k]
        assert b.player is not None and b.text is not None
        mover = label[b.player]
        change = _change(label[who], who == b.player, a.chances[who], b.chances[who])
        sentence = said(k) if said is not None else None
        if sentence:
            # TRANSLATORS: {sentence} is the move log's sentence without its subject
            # ("lays a U and catches 5 aliens"), {change} how a chance to win changed
            words = _("Move {number}: {player} {sentence}; {change}.", number=str(b.move),
                      player=mover, sentence=sentence.rstrip(". "), change=change)
        else:
            words = _("Move {number}: {choice}, and {change}.", number=str(b.move),
                      choice=_chose(mover, b.text), change=change)
        out.append(Turning(b.move, b.player, b.text, who, a.chances[who], b.chances[who],
                           words))
    return out


def _better(states: list[State], where: list[int], searches: list[_Search | None],
            chances: list[list[float]], noise: list[list[float]],
            history: Sequence[tuple[int, int]], viewer: int | None,
            label: Sequence[str], checks: Sequence[dict[str, Any] | None] | None = None,
            ) -> list[Better]:
    """The moves (of the viewer, or of everyone where information is perfect) for which the
    search's own choice was clearly better. The figures are the chart's: the chance before
    the move (through the search's choice) and the chance after the move played (the next
    position's estimate), so a move says the same numbers here as in the turning points.
    The chart must put the search's choice :data:`CLEAR_GAIN` ahead, and the two moves
    searched again side by side (``checks[m]``: the check of the move that led to position
    ``m``, :func:`check_at`) must find it ahead by more than that search's noise (where no
    check was stored, the chart's difference must exceed its two estimates' noise)."""
    out: dict[int, Better] = {}
    numbers = move_numbers(history)
    for k, found in enumerate(searches):
        if found is None or found.best is None:
            continue
        s, i = states[k], where[k]
        if viewer is not None and found.mover != viewer:
            continue
        # the move the mover made here: the first of theirs from this position on
        j = next((j for j in range(i, len(history)) if history[j][0] == found.mover), None)
        if j is None:
            continue
        out.pop(j, None)  # a move is judged from the last position before it
        if history[j][1] == found.best:
            continue
        nxt = next((m for m in range(k + 1, len(where)) if where[m] > j), None)
        if nxt is None:
            continue
        p = found.mover
        played = history[j][1]
        best_chance, played_chance = chances[k][p], chances[nxt][p]
        if best_chance - played_chance < CLEAR_GAIN:
            continue
        check = checks[nxt] if checks is not None and where[nxt - 1] == j else None
        if check is not None and check.get("best") == found.best \
                and check.get("played") == played:
            if check["gain"] < max(CHECK_LEAST, NOISE_SIGMAS * check["noise"]):
                continue
        elif not _significant(best_chance - played_chance,
                              math.hypot(noise[k][p], noise[nxt][p]), CLEAR_GAIN):
            continue
        with of_them():
            d_played = s.describe_action(played, p)
            d_best = s.describe_action(found.best, p)
        words = _("Move {number}: {choice}. Better: {best}, with a chance to win of {chance} "
                  "instead of {played}.", number=str(numbers[j]), choice=_chose(label[p], d_played),
                  best=_said(d_best), chance=_pct(best_chance), played=_pct(played_chance))
        out[j] = Better(moves_made(history[:i]), p, d_played, d_best, played_chance,
                        best_chance, words, numbers[j])
    return [out[j] for j in sorted(out)]


def _change(name: str, own: bool, before: float, after: float) -> str:
    """How a player's chance to win moved, in words ("their chance to win rises from 40% to
    70%"); ``own``: the player is the mover named before it."""
    b, a = _pct(before), _pct(after)
    if own:
        if after > before:
            return _("their chance to win rises from {before} to {after}", before=b, after=a)
        return _("their chance to win falls from {before} to {after}", before=b, after=a)
    if after > before:
        return _("{player}'s chance to win rises from {before} to {after}", player=name,
                 before=b, after=a)
    return _("{player}'s chance to win falls from {before} to {after}", player=name,
             before=b, after=a)


def _chose(who: str, d: dict[str, Any] | str) -> str:
    """"Ann chose to lay a U ...", or "Ann chose the red card 21" for a move that is itself a
    choice ("Choose the red card 21")."""
    said = _said(d)
    if language() == DEFAULT and said.startswith("choose "):
        return f"{who} chose {said.removeprefix('choose ')}"
    # TRANSLATORS: {move} is the move's label as a player reads it on a button ("lay a U
    # on row 6"); another language may write "{player} chose: {move}"
    return _("{player} chose to {move}", player=who, move=said)


def _said(d: dict[str, Any] | str) -> str:
    """A move's label to go inside a sentence that names its mover (in English its first
    letter small)."""
    label = said_of_them(d if isinstance(d, str) else (d.get("label") or d.get("text") or ""))
    if language() != DEFAULT:
        return label
    return label[0].lower() + label[1:] if label else ""




# ---------------------------------------------------------------------- pictures and text
CHART_W, CHART_H = 640, 280
"""The chart's size in the picture's units."""


def chart_svg(r: Review, colours: Sequence[Any], names: Sequence[str] | None = None) -> str:
    """The review's chart as an SVG picture: one line per player in the player's colour
    (each chance to win after every move), the turning points marked and named in their
    tooltips, and a key of the players."""
    from meeple.engine import svg
    from meeple.engine.look import INK, MUTED

    left, top, right, bottom = 44, 16, 16, 64
    w, h = CHART_W - left - right, CHART_H - top - bottom
    first = r.points[0].move if r.points else 0
    last = max(first + 1, r.points[-1].move if r.points else 1)

    def x(move: int) -> float:
        return left + w * (move - first) / (last - first)

    def y(chance: float) -> float:
        return top + h * (1.0 - chance)

    body = [svg.rect(left, top, w, h, fill="none", stroke=MUTED, stroke_width=1)]
    for pct in (0, 25, 50, 75, 100):
        yy = y(pct / 100)
        body.append(svg.path(f"M{left} {yy:.1f}H{left + w}", stroke=MUTED, stroke_width=0.5,
                             stroke_dasharray="3 3" if pct not in (0, 100) else None))
        body.append(svg.text(left - 6, yy + 4, _pct(pct / 100), size=11, anchor="end"))
    # TRANSLATORS: the chart's horizontal axis
    body.append(svg.text(left + w / 2, top + h + 28, _("moves"), size=11, anchor="middle"))
    body.append(svg.text(left, top + h + 16, str(first), size=11, anchor="middle"))
    body.append(svg.text(left + w, top + h + 16, str(last), size=11, anchor="middle"))
    label = [seat_name(p, list(names) if names else None) for p in range(r.players)]
    for p in range(r.players):
        colour = colours[p]
        d = "M" + " L".join(f"{x(pt.move):.1f} {y(pt.chances[p]):.1f}" for pt in r.points)
        body.append(svg.group([svg.title(_("{player}'s chance to win", player=label[p])),
                               svg.path(d, stroke=colour.fill, stroke_width=2.5,
                                        stroke_linejoin="round")],
                              class_="chance-line", data_player=p))
    for t in r.turning:
        colour = colours[t.who]
        body.append(svg.group([svg.title(t.words),
                               svg.circle(x(t.move), y(t.after), 6, fill=colour.fill,
                                          stroke=INK, stroke_width=1.5)],
                              class_="turning-point", data_move=t.move))
    kx = left
    for p in range(r.players):
        body.append(svg.player_mark(colours[p], kx + 7, CHART_H - 14, 7))
        body.append(svg.text(kx + 19, CHART_H - 10, label[p], size=12))
        kx += 26 + 8 * len(label[p]) + 12
    return svg.document(CHART_W, CHART_H, body, cls="review-chart",
                        label=_("Each player's chance to win after every move"))


def review_lines(r: Review, seat: int | None, names: Sequence[str] | None = None,
                 every: int = 1) -> list[str]:
    """The review as plain lines for a terminal: the chances after every ``every``-th move,
    the turning points and ``seat``'s better moves (everyone's where ``seat`` is ``None``
    and information is perfect)."""
    label = [seat_name(p, list(names) if names else None) for p in range(r.players)]
    out = [_("Chance to win after each move:")]
    width = max(len(n) for n in label)
    # TRANSLATORS: column heads of a table: the move's number, the move played
    move, played = _("move"), _("move played")
    head = f"  {move:>4}  " + "  ".join(f"{n:>{max(width, 4)}}" for n in label) + f"  {played}"
    out.append(head)
    for k, pt in enumerate(r.points):
        if k % every and k != len(r.points) - 1:
            continue
        cells = "  ".join(f"{_pct(c):>{max(width, 4)}}" for c in pt.chances)
        what = (_("{player}: {move}", player=label[pt.player],
                  move=said_of_them(pt.text or "")) if pt.player is not None
                else _("the start"))
        out.append(f"  {pt.move:>{max(4, len(move))}}  {cells}  {what}")
    out.append("")
    out.append(_("Turning points:") if r.turning else _("No turning points: no single move "
                                                        "changed the chances by much."))
    out += [f"  {t.words}" for t in r.turning]
    out.append("")
    better = r.better if seat is None else r.better_for(seat)
    if better:
        out.append(_("Where the bot's choice was clearly better than your moves:")
                   if seat is not None else
                   _("Where the bot's choice was clearly better than the players' moves:"))
        out += [f"  {b.words}" for b in better]
    else:
        out.append(_("The bot found no clearly better move than your choices.")
                   if seat is not None else
                   _("The bot found no clearly better move than the players' choices."))
    return out


__all__ = ["Better", "Point", "Review", "Turning", "assemble", "chart_svg", "estimate",
           "estimate_part", "estimate_positions", "info_key", "iterations_for", "positions",
           "review", "review_lines", "same_estimate", "unseen"]
