"""Mops Royal speed figures on one core, in CPU time (so a busy machine does not skew them).

    python benchmarks/mops_royal_speed.py [--seconds 3]

Prints random playouts per CPU second for every configuration, and the cost of the two hot
paths: building a complete layout tile by tile (which finds every combination incrementally
from the precomputed shape masks) and listing the legal actions of a scoring step.
"""

from __future__ import annotations

import argparse
import random
import time

import meeple
from meeple.engine import CHANCE
from meeple.games.mops_royal.components import STEP_SCORE, cell_index
from meeple.games.mops_royal.rules import MopsRoyal


def playouts(players: int, options: dict, seconds: float) -> tuple[float, float]:
    game = meeple.load("mops_royal", players=players, **options)
    rng = random.Random(1)
    for _ in range(5):
        meeple.play_out(game.new_initial_state(), rng)
    games = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        s = meeple.play_out(game.new_initial_state(), rng)
        games += 1
        moves += s.move_number()
    cpu = time.process_time() - start
    return games / cpu, moves / cpu


def layouts(seconds: float) -> tuple[float, float]:
    """Complete random layouts built per CPU second, and scoring-step listings per second."""
    game = meeple.load("mops_royal", players=2)
    rng = random.Random(2)
    cells = [cell_index(x, y) for y in range(5) for x in range(5)]
    built = 0
    listed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        s = game.new_initial_state()
        s.apply(rng.choice(s.legal_actions()), CHANCE)
        s.apply(rng.choice(s.legal_actions()), CHANCE)
        s.apply(0, CHANCE)
        tiles = [t for t in range(36) if t != s.start[0]]
        rng.shuffle(tiles)
        for c, t in zip(cells[1:], tiles, strict=False):
            s.put_tile(0, c, t)
        built += 1
        s.phase = 3
        s.step[0] = STEP_SCORE
        for _ in range(20):
            s._legal_cache = {}
            s._legal_actions(0)
            listed += 1
    cpu = time.process_time() - start
    return built / cpu, listed / cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    print(f"{'players':>7}  {'options':<28} {'playouts/s':>11} {'moves/s':>10}  (CPU time)")
    for players, options in MopsRoyal.configurations():
        g, m = playouts(players, options, args.seconds)
        opts = ",".join(f"{k}={v}" for k, v in options.items())
        print(f"{players:>7}  {opts:<28} {g:>11.1f} {m:>10.0f}", flush=True)
    b, listed = layouts(args.seconds)
    print(f"complete layouts built (all combinations found): {b:.0f}/s")
    print(f"scoring-step legal action lists on complete layouts: {listed:.0f}/s")


if __name__ == "__main__":
    main()
