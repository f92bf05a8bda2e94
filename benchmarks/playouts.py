"""Random playouts per second and moves per second, per game and configuration (one core:
per second of the process's own CPU time, so that a busy machine skews them less).

    python benchmarks/playouts.py [GAME ...] [--seconds 3]

Each configuration gets a warm-up, then a measured window; the figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import random
import time

import meeple
from meeple.engine import game_class


def measure(game, seconds: float) -> tuple[float, float]:
    rng = random.Random(1)
    end = time.process_time() + seconds / 4  # warm-up
    while time.process_time() < end:
        meeple.play_out(game.new_initial_state(), rng)
    games = moves = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        s = meeple.play_out(game.new_initial_state(), rng)
        games += 1
        moves += s.move_number()
    elapsed = time.process_time() - start
    return games / elapsed, moves / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("games", nargs="*", default=None)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    build = "compiled" if meeple.compiled() else "pure Python"
    print(f"{build} build, per CPU-second")
    print(f"{'game':<12} {'players':>7}  {'options':<40} {'playouts/s':>11} {'moves/s':>10}")
    for name in args.games or meeple.games():
        for players, options in game_class(name).configurations():
            game = meeple.load(name, players=players, **options)
            g, m = measure(game, args.seconds)
            opts = ",".join(f"{k}={v}" for k, v in options.items())
            print(f"{name:<12} {players:>7}  {opts:<40} {g:>11.1f} {m:>10.0f}", flush=True)


if __name__ == "__main__":
    main()
