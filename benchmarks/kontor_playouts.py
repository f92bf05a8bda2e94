"""Kontor random playouts per second per configuration, by wall clock and by CPU time.

    python benchmarks/kontor_playouts.py [--seconds 3]

The CPU-time rate (``time.process_time``) stays meaningful on a busy machine, where the wall
clock rate of ``benchmarks/playouts.py`` drops with the load. Figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import random
import time

import meeple
from meeple.engine import game_class


def measure(game, seconds: float) -> tuple[float, float, float]:
    """(playouts per wall second, playouts per CPU second, moves per CPU second)."""
    rng = random.Random(1)
    meeple.play_out(game.new_initial_state(), rng)  # warm-up
    games = moves = 0
    w0, c0 = time.perf_counter(), time.process_time()
    while time.process_time() - c0 < seconds:
        s = meeple.play_out(game.new_initial_state(), rng)
        games += 1
        moves += s.move_number()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return games / wall, games / cpu, moves / cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    print(f"{'players':>7}  {'options':<52} {'wall/s':>8} {'cpu/s':>8} {'moves/cpu-s':>11}")
    for players, options in game_class("kontor").configurations():
        game = meeple.load("kontor", players=players, **options)
        w, c, m = measure(game, args.seconds)
        opts = ",".join(f"{k}={v}" for k, v in options.items())
        print(f"{players:>7}  {opts:<52} {w:>8.1f} {c:>8.1f} {m:>11.0f}", flush=True)


if __name__ == "__main__":
    main()
