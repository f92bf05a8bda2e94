"""Refit Botanik's search evaluation (``MARGIN_MODEL`` in ``meeple/games/botanik/heuristics.py``).

    python scripts/fit_botanik_evaluation.py [--games 1100] [--seed 5000] [--workers 2]

Plays level-3 search bots against each other (with a random move now and then, for variety),
records the features of both machines at some decisions, and fits, stage by stage, the final
score difference by least squares. Prints the table to paste into the heuristics, with each
stage's spread (the residual's standard deviation). The bots search with the model in place, so
each refit learns from play at that model's strength.
"""

from __future__ import annotations

import argparse
import random
from multiprocessing import Pool

import numpy as np

import meeple
from meeple.bots import view_for
from meeple.bots.mcts import MCTSBot
from meeple.engine import State
from meeple.games.botanik.heuristics import margin_features, rounds_left

STAGES = ((0.75, 1.01), (0.5, 0.75), (0.25, 0.5), (0.0, 0.25))
"""Ranges of the share of rounds left; one row of the model each."""

MISTAKES = 0.08
"""The bots' chance of a random move: enough to vary the games, not to spoil them."""


def positions(seed: int, iterations: int | None = None) -> list[list[float]]:
    """(share of rounds left, feature differences..., final score difference) rows of one game
    between level-3 bots (``iterations`` overrides their budget)."""
    game = meeple.load("botanik")
    rng = random.Random(seed)
    bots = [MCTSBot(game, level=3, iterations=iterations, mistakes=MISTAKES,
                    seed=rng.randrange(1 << 30)) for _ in range(2)]
    rows = []

    def policy(state: State, p: int, rng: random.Random) -> int:
        if rng.random() < 0.3:
            mine, theirs = margin_features(state, 0), margin_features(state, 1)
            rows.append([rounds_left(state)] + [a - b for a, b in zip(mine, theirs, strict=True)])
        return bots[p].act(view_for(state, p))

    state = meeple.play_out(game.new_initial_state(), rng, policy=policy)
    scores = state.scores()
    return [row + [scores[0] - scores[1]] for row in rows]


def fit(data: np.ndarray) -> list[tuple[float, tuple[float, ...], float]]:
    """One (mean share left, weights, spread) per stage; symmetric, so no constant term."""
    model = []
    for lo, hi in STAGES:
        rows = data[(data[:, 0] >= lo) & (data[:, 0] < hi)]
        x = np.r_[rows[:, 1:-1], -rows[:, 1:-1]]
        y = np.r_[rows[:, -1], -rows[:, -1]]
        weights, *_ = np.linalg.lstsq(x, y, rcond=None)
        spread = float((y - x @ weights).std())
        model.append((float(rows[:, 0].mean()), tuple(float(w) for w in weights), spread))
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1100)
    parser.add_argument("--seed", type=int, default=5000, help="the first game's seed")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    with Pool(args.workers) as pool:
        data = np.array([r for rows in pool.map(positions, seeds) for r in rows])
    print(f"{len(data)} positions from {args.games} games")
    print("MARGIN_MODEL = (")
    for left, weights, spread in fit(data):
        print(f"    ({left:.2f}, ({', '.join(f'{w:.2f}' for w in weights)}), {spread:.1f}),")
    print(")")


if __name__ == "__main__":
    main()
