"""Ratings: one openskill rating (Plackett–Luce, multi-player by rank) per game and person,
updated after every rated game from its final ranks; resigning or running out of time counts
as last place.

Ratings are kept from being farmed: only registered players sit at rated tables (the table
service refuses guests); a game a player left (resigned, ran out of time, was claimed out)
before ``RATED_AFTER`` moves were played rates nobody (:func:`rates_anyone`); and of the rated
games between the same two people in a day only the first ``PAIR_GAMES`` move their ratings:
a person's change is scaled by the share of their opponents they have not played that often
(bots always count). The bots' levels have ratings on the same scale, fitted from the arena's runs
between the levels (``meeple/bots/ladder.json``), so a person can see which level matches them.

A rating is shown as its conservative estimate ``mu - 3 sigma`` (openskill's ``ordinal``):
a newcomer (mu 25, sigma 25/3) shows 0 and rises as games confirm their strength.

How the bots are fitted: every pair of levels the arena measured gives ``games`` played,
``upper_wins`` and ``draws`` (a draw counts half a win to each). For two sides whose sigma is
small, openskill's own prediction (``predict_win``) says the upper level wins with probability
``Phi((mu_upper - mu_lower) / c)``, ``Phi`` the normal distribution and ``c = sqrt(2) * beta``
(beta = 25/6). The levels' mu are the maximum-likelihood fit of that model (with one drawn game
added to every pair, so that a clean sweep stays finite), shifted so that the weakest level
stands at 25, where a newcomer starts. A level's sigma is one over the square root of the
Fisher information of its games, at most 25/3.
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
from openskill.models import PlackettLuce
from scipy import optimize, special

from meeple.bots.levels import bot_name, is_step

from ..domain import Seat, SeatKind
from .store import CommunityStore, RatedResult, Rating

MODEL = PlackettLuce()
MU, SIGMA, BETA = MODEL.mu, MODEL.sigma, MODEL.beta
LADDER = Path(__file__).resolve().parents[2] / "bots" / "ladder.json"
RATED_AFTER = 10
"""Moves that must have been played (by anyone, chance not counted) before a player leaves a
rated game for it to rate anyone."""
PAIR_GAMES = 3
"""Rated games between the same two people in ``PAIR_WINDOW`` that move their ratings."""
PAIR_WINDOW = 24 * 3600.0


def shown(mu: float, sigma: float) -> float:
    """The rating shown for (mu, sigma): the conservative estimate, one decimal."""
    return round(mu - 3 * sigma, 1)


@dataclass(frozen=True)
class BotRating:
    """A bot level's rating in one game, fitted from the arena's runs."""

    spec: str
    mu: float
    sigma: float
    games: int


def fit_levels(pairs: Sequence[Mapping[str, Any]]) -> dict[str, BotRating]:
    """The levels' ratings from the arena's pairs (see the module's docstring)."""
    c = math.sqrt(2) * BETA
    wins: dict[tuple[str, str], float] = {}
    games: dict[tuple[str, str], int] = {}
    order: list[str] = []
    for p in pairs:
        lo, up = str(p["lower"]), str(p["upper"])
        n = int(p.get("games", 0))
        if n <= 0 or lo == up:
            continue
        w_up = float(p.get("upper_wins", 0)) + float(p.get("draws", 0)) / 2
        for a, b, w in ((up, lo, w_up + 0.5), (lo, up, n - w_up + 0.5)):
            wins[(a, b)] = wins.get((a, b), 0.0) + w
            games[(a, b)] = games.get((a, b), 0) + n
        for s in (lo, up):
            if s not in order:
                order.append(s)
    if not order:
        return {}
    linked = {order[0]}  # the levels linked to the first one named (the weakest) by pairs
    grew = True
    while grew:
        grew = False
        for a, b in games:
            if a in linked and b not in linked:
                linked.add(b)
                grew = True
    levels = [s for s in order if s in linked]
    index = {s: k for k, s in enumerate(levels)}
    edges = [(index[a], index[b], w) for (a, b), w in wins.items() if a in index]

    def loss(free: np.ndarray) -> tuple[float, np.ndarray]:
        mu = np.concatenate(([0.0], free))
        total, grad = 0.0, np.zeros(len(levels))
        for a, b, w in edges:
            z = (mu[a] - mu[b]) / c
            total -= w * float(special.log_ndtr(z))
            # d/dz log Phi(z) = phi(z) / Phi(z)
            ratio = math.exp(-0.5 * z * z - float(special.log_ndtr(z))) / math.sqrt(2 * math.pi)
            grad[a] -= w * ratio / c
            grad[b] += w * ratio / c
        return total, grad[1:]

    start = np.arange(1, len(levels), dtype=float)
    fitted = optimize.minimize(loss, start, jac=True, method="L-BFGS-B").x if len(
        levels) > 1 else np.zeros(0)
    mus = dict(zip(levels, np.concatenate(([0.0], fitted)).tolist(), strict=True))
    low = min(mus.values())
    out: dict[str, BotRating] = {}
    for i in levels:
        info = 0.0
        played = 0
        for (a, b), n in games.items():
            if a != i or b not in mus:
                continue
            z = (mus[a] - mus[b]) / c
            chance = float(special.ndtr(z))
            density = math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
            info += n * density * density / max(chance * (1 - chance), 1e-12) / (c * c)
            played += n
        sigma = min(SIGMA, 1 / math.sqrt(info)) if info > 0 else SIGMA
        out[i] = BotRating(i, MU + mus[i] - low, sigma, played)
    return out


def load_ladder(path: Path = LADDER) -> Mapping[str, Mapping[str, BotRating]]:
    """Every game's bot levels fitted from ``ladder.json`` (none if it is not there), fitted
    once per version of the file: every app a process makes shares the fit."""
    try:
        seen = path.stat()
    except OSError:
        return {}
    return _fitted_ladder(path, seen.st_mtime_ns, seen.st_size)


@functools.lru_cache(maxsize=4)
def _fitted_ladder(path: Path, mtime_ns: int, size: int) -> Mapping[str, Mapping[str, BotRating]]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    out: dict[str, Mapping[str, BotRating]] = {}
    for game, entry in (data.get("games") or {}).items():
        fitted = fit_levels((entry or {}).get("pairs") or [])
        if fitted:
            out[str(game)] = MappingProxyType(fitted)
    return MappingProxyType(out)


def final_ranks(ranks: Sequence[int], last: Sequence[int]) -> list[int]:
    """The ranks that rate a table: the seats in ``last`` (resigned or out of time, in that
    order) after everyone else, the first of them above the next."""
    out = [int(r) for r in ranks]
    others = [r for s, r in enumerate(out) if s not in last]
    bottom = max(others, default=0)
    for k, seat in enumerate(dict.fromkeys(last)):
        out[seat] = bottom + 1 + (len(set(last)) - 1 - k)
    return out


def rates_anyone(departed: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a finished rated table rates anyone: not when a player was counted last
    (resigned, ran out of time or was claimed out) before ``RATED_AFTER`` moves were played
    (a departure stored without its move count counts as late)."""
    return all(int(d.get("moves", RATED_AFTER)) >= RATED_AFTER
               for d in departed or [] if d.get("last", True))


class Ratings:
    """The people's ratings (stored) and the bots' (fitted once from the ladder)."""

    def __init__(self, store: CommunityStore, ladder: Mapping[str, Mapping[str, BotRating]]
                 | None = None):
        self.store = store
        self.bots: Mapping[str, Mapping[str, BotRating]] = (
            load_ladder() if ladder is None else ladder)

    def rating_of(self, user_id: int, game: str) -> Rating:
        have = self.store.rating(user_id, game)
        return have if have is not None else Rating(user_id, game, MU, SIGMA, 0, 0)

    def weights(self, game: str, seats: Sequence[Seat], now: float) -> dict[int, float]:
        """How much of their rating change each person of a table gets: the share of their
        opponents (people and rated bots) they have played fewer than ``PAIR_GAMES`` rated
        games of ``game`` with since ``now - PAIR_WINDOW``."""
        ids = [s.user_id for s in seats if s.user_id is not None]
        bots = self.bots.get(game, {})
        n_bots = sum(1 for s in seats if s.user_id is None and s.kind == SeatKind.BOT
                     and s.bot in bots)
        since = now - PAIR_WINDOW
        fresh = {uid: n_bots for uid in ids}
        for k, a in enumerate(ids):
            for b in ids[k + 1:]:
                if self.store.pair_games(a, b, game, since) < PAIR_GAMES:
                    fresh[a] += 1
                    fresh[b] += 1
        opponents = len(ids) - 1 + n_bots
        return {uid: fresh[uid] / opponents for uid in ids}

    def rate_table(self, table_id: str, game: str, seats: Sequence[Seat], ranks: Sequence[int],
                   last: Sequence[int] = (), departed: Sequence[Mapping[str, Any]] = (),
                   ) -> list[RatedResult] | None:
        """Update the ratings of the people of a finished rated table (once per table); the
        results stored, or ``None`` when it rates nobody (fewer than two people, one person
        in several seats, a player left too early (``departed``, see :func:`rates_anyone`) or
        rated already). Each person's change is weighed by :meth:`weights`."""
        people = [s for s in seats if s.user_id is not None]
        ids = [s.user_id for s in people]
        if len(people) < 2 or len(set(ids)) != len(ids) or not rates_anyone(departed):
            return None
        weight = self.weights(game, seats, time.time())
        before: dict[int, Rating] = {}
        order = final_ranks(ranks, last)
        teams: list[list[Any]] = []
        places: list[float] = []
        who: list[int | None] = []
        bots = self.bots.get(game, {})
        for s in seats:
            if s.user_id is not None:
                r = before[s.user_id] = self.rating_of(s.user_id, game)
                teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma)])
            elif s.kind == SeatKind.BOT and s.bot is not None and s.bot in bots:
                b = bots[s.bot]  # a bot's rating is the arena's: it takes part, unchanged
                teams.append([MODEL.rating(mu=b.mu, sigma=b.sigma)])
            else:
                continue
            places.append(order[s.seat])
            who.append(s.user_id)
        new = MODEL.rate(teams, ranks=places)
        results = []
        for uid, place, team in zip(who, places, new, strict=True):
            if uid is None:
                continue
            w, old = weight[uid], before[uid]
            results.append(RatedResult(uid, int(place), old.mu + w * (team[0].mu - old.mu),
                                       old.sigma + w * (team[0].sigma - old.sigma)))
        if not self.store.record_rated(table_id, game, results):
            return None
        return results

    def bot_board(self, game: str) -> list[dict[str, Any]]:
        """The bots' levels of a game as leaderboard rows."""
        return [{"bot": True, "spec": b.spec, "name": bot_label(b.spec), "mu": round(b.mu, 2),
                 "sigma": round(b.sigma, 2), "rating": shown(b.mu, b.sigma), "played": b.games}
                for b in self.bots.get(game, {}).values()]


def bot_label(spec: str) -> str:
    """How a bot level is named on screen (the ladder's name for its steps)."""
    named = bot_name(spec) if is_step(spec) else None
    if named:
        return named
    kind, _sep, level = spec.partition(":")
    return f"{kind} bot, level {level}" if level else f"{kind} bot"
