"""Kozo stability referees: median verdict time on the 12-piece tower of example Z5 (round 3),
static (exact equilibrium, HiGHS) and MuJoCo (3 s simulated, sleep on), plus the MuJoCo motion.

    python benchmarks/kozo_stability.py [--repeats 30]

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

import meeple
from meeple.games.kozo import physics

Z5_ROUND3 = [
    ("P12.6@0,0", "B@0,1"), ("P3.8@1,0", "B@1,0"), ("P7.23@1,0", "B@2,2"),
    ("P9.4@0,1", "B@0,1"), ("P1.1@2,0", "B@0,2"), ("P2.1@2,0", "B@2,0"),
    ("P8.1@0,0", "B@2,2"), ("P6.1@0,0", "B@0,0"), ("P11.8@1,0", "B@2,1"),
    ("P4.0@1,2", "B@1,2"), ("P5.1@1,0", "B@1,0"), ("P10.8@1,0", "B@2,1"),
]


def tower12():
    """The complete 12-piece tower (45 cubes, 12 balance cubes) of Z5's round 3."""
    s = meeple.load("kozo", players=3, rounds=1).new_initial_state()
    for poly, bal in Z5_ROUND3:
        s.apply(s.string_to_action(poly))
        if poly != Z5_ROUND3[-1][0]:
            s.apply(s.string_to_action(bal))
    s.apply(s.string_to_action("B@2,1"))
    return s.last_check["tower"]


def median_ms(fn, repeats: int) -> str:
    """Median wall-clock and CPU time of ``fn`` in milliseconds, as text."""
    fn()
    wall = []
    cpu = []
    for _ in range(repeats):
        t = time.perf_counter()
        c = time.process_time()
        fn()
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - t) * 1000)
    return f"{statistics.median(wall):8.2f} ms (CPU {statistics.median(cpu):7.2f} ms)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=30)
    args = ap.parse_args()
    tower, balances, _ = tower12()
    pieces = [(cells, 0.0, 0.0) for *_, cells in tower]
    balances = list(balances)
    print(f"tower: {len(pieces)} polycubes, {sum(len(p[0]) for p in pieces)} cubes, "
          f"{len(balances)} balance cubes")
    assert physics.static_stands(pieces, balances)
    ms = median_ms(lambda: physics.static_stands(pieces, balances), args.repeats)
    print(f"static verdict (HiGHS)            median {ms}")
    falling = pieces + [([(0, 0, 10), (1, 0, 10), (1, 0, 11)], 0.0, 0.0)]
    ms = median_ms(lambda: physics.static_stands(falling, balances), args.repeats)
    print(f"static verdict, 13th piece falls  median {ms}")
    ms = median_ms(lambda: physics.mujoco_verdict(pieces, balances), max(5, args.repeats // 3))
    print(f"MuJoCo verdict (3 s simulated)    median {ms}")
    scene = {"pieces": [{"piece": 1, "cells": c} for c, _, _ in pieces],
             "balances": [{"column": [x, y], "height": h} for x, y, h in balances]}
    ms = median_ms(lambda: physics.motion(scene), 5)
    print(f"MuJoCo motion (up to 61 frames)   median {ms}")


if __name__ == "__main__":
    main()
