"""Botanik random playouts per CPU second, per configuration, plus the greedy bot's speed.

    python benchmarks/botanik_playouts.py [--games 300]

CPU time (``time.process_time``) is measured rather than wall time, so the figure stays
meaningful on a busy machine; the figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import time

import meeple
from meeple.bots import make_bot, seats_policy


def playouts(game, n: int) -> tuple[float, float]:
    rng = random.Random(1)
    for _ in range(max(n // 10, 1)):  # warm-up
        meeple.play_out(game.new_initial_state(), rng)
    moves = 0
    start = time.process_time()
    for _ in range(n):
        moves += meeple.play_out(game.new_initial_state(), rng).move_number()
    cpu = time.process_time() - start
    return n / cpu, moves / cpu


def greedy_seconds_per_game(game, n: int) -> float:
    start = time.process_time()
    for seed in range(n):
        rng = random.Random(seed)
        bots = [make_bot("greedy", game, seed=seed), make_bot("greedy", game, seed=seed + 1)]
        meeple.play_out(game.new_initial_state(), rng, policy=seats_policy(bots))
    return (time.process_time() - start) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--greedy-games", type=int, default=4)
    args = ap.parse_args()
    print(f"{'options':<28} {'playouts/cpu-s':>15} {'moves/cpu-s':>12}")
    for players, options in meeple.engine.game_class("botanik").configurations():
        game = meeple.load("botanik", players=players, **options)
        g, m = playouts(game, args.games)
        opts = ",".join(f"{k}={v}" for k, v in options.items()) or "(defaults)"
        print(f"{opts:<28} {g:>15.1f} {m:>12.0f}", flush=True)
    if args.greedy_games:
        sec = greedy_seconds_per_game(meeple.load("botanik"), args.greedy_games)
        print(f"greedy vs greedy: {sec:.2f} cpu-s per game")


if __name__ == "__main__":
    main()
