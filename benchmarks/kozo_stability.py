"""Kozo stability referees: median verdict times, static (exact equilibrium, HiGHS) and MuJoCo
(3 s simulated, sleep on).

1. The 12-piece tower of example Z5 (round 3), standing, and with a 13th piece that falls; the
   MuJoCo verdict on the standing tower as the referee runs it (each balance cube a body of
   its own) and in the smaller scene that was measured instead (each balance cube a geom of
   the polycube under it, ``carried=True``); the MuJoCo motion of the standing tower.
2. Every stability check of a few 3-player games between bots (towers of every size a game
   judges; greedy bots build tall towers, random ones topple early): the median time per
   check for each referee, overall, standing and falling, and by tower size.

    python benchmarks/kozo_stability.py [--repeats 30] [--games 3] [--bot greedy] [--seed 0]
                                        [--tower-only]

``--tower-only`` stops after part 1.

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import meeple
from meeple.bots import make_bot, seats_policy
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


def game_checks(games: int, bot: str, seed: int) -> list[tuple[list, list]]:
    """The tower of every stability check of ``games`` 3-player games between ``bot`` bots,
    as ``(pieces, balances)``."""
    rng = random.Random(seed)
    game = meeple.load("kozo", players=3)
    towers = []
    seen: list[Any] = [None]

    def collect(state: Any, player: int, action: int) -> None:
        check = state.last_check
        if check is not None and check is not seen[0]:
            seen[0] = check
            tower, balances, tremor = check["tower"]
            pieces = [(cells, 0.0, 0.0) for *_, cells in tower]
            if pieces and tremor and tuple(tremor) != (0.0, 0.0):
                pieces[-1] = (pieces[-1][0], tremor[0], tremor[1])
            towers.append((pieces, list(balances)))

    for g in range(games):
        bots = [make_bot(bot, game, seed=seed * 100 + g * 10 + i) for i in range(3)]
        seen[0] = None
        meeple.play_out(game.new_initial_state(), rng, policy=seats_policy(bots),
                        on_move=collect)
    return towers


def time_checks(towers, fn, repeats: int) -> list[float]:
    """Per tower: the median CPU time of ``fn(pieces, balances)`` in milliseconds."""
    out = []
    for pieces, balances in towers:
        runs = []
        for _ in range(repeats):
            c = time.process_time()
            fn(pieces, balances)
            runs.append((time.process_time() - c) * 1000)
        out.append(statistics.median(runs))
    return out


def summary(times: list[float]) -> str:
    q = statistics.quantiles(times, n=10) if len(times) > 1 else [times[0]] * 9
    return (f"median {statistics.median(times):7.2f} ms, 90th percentile {q[8]:7.2f} ms, "
            f"max {max(times):7.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--bot", default="greedy", help="bot kind playing every seat")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tower-only", action="store_true", help="only part 1: the 12-piece tower")
    args = ap.parse_args()
    print(f"{'compiled' if meeple.compiled() else 'pure Python'} build")
    tower, balances, _ = tower12()
    pieces = [(cells, 0.0, 0.0) for *_, cells in tower]
    balances = list(balances)
    print(f"tower: {len(pieces)} polycubes, {sum(len(p[0]) for p in pieces)} cubes, "
          f"{len(balances)} balance cubes")
    assert physics.static_stands(pieces, balances)
    ms = median_ms(lambda: physics.static_stands(pieces, balances), args.repeats)
    print(f"static verdict (HiGHS)            median {ms}")
    falling = pieces + [([(0, 0, 10), (1, 0, 10), (1, 0, 11)], 0.0, 0.0)]
    assert not physics.static_stands(falling, balances)
    ms = median_ms(lambda: physics.static_stands(falling, balances), args.repeats)
    print(f"static verdict, 13th piece falls  median {ms}")
    repeats = max(5, args.repeats // 3)
    ms = median_ms(lambda: physics.mujoco_verdict(pieces, balances), repeats)
    print(f"MuJoCo verdict (3 s simulated)    median {ms}")
    ms = median_ms(lambda: physics.mujoco_verdict(pieces, balances, carried=True), repeats)
    print(f"  balance cubes carried (measured) median {ms}")
    scene = {"pieces": [{"piece": 1, "cells": c} for c, _, _ in pieces],
             "balances": [{"column": [x, y], "height": h} for x, y, h in balances]}
    ms = median_ms(lambda: physics.motion(scene), 5)
    print(f"MuJoCo motion (up to 61 frames)   median {ms}")
    if args.tower_only:
        return

    towers = game_checks(args.games, args.bot, args.seed)
    verdicts = [physics.static_stands(p, b) for p, b in towers]
    print(f"\n{args.games} 3-player games ({args.bot} bots): {len(towers)} stability checks, "
          f"{verdicts.count(False)} falls, towers of {min(len(p) for p, _ in towers)}"
          f"-{max(len(p) for p, _ in towers)} polycubes (CPU time per check)")
    static_ms = time_checks(towers, physics.static_stands, 5)
    mujoco_ms = time_checks(towers, physics.mujoco_verdict, 1)
    print(f"static verdict   {summary(static_ms)}")
    print(f"MuJoCo verdict   {summary(mujoco_ms)}")
    carried_ms = time_checks(towers, lambda p, b: physics.mujoco_verdict(p, b, carried=True), 1)
    differ = sum(physics.mujoco_verdict(p, b)[0] != physics.mujoco_verdict(p, b, carried=True)[0]
                 for p, b in towers)
    print(f"  balance cubes carried (measured): {summary(carried_ms)}, {differ} verdicts differ")
    for label, keep in (("standing", True), ("falling", False)):
        idx = [i for i, v in enumerate(verdicts) if v is keep]
        if idx:
            print(f"  static, {label:8s} ({len(idx):3d})  {summary([static_ms[i] for i in idx])}")
            print(f"  MuJoCo, {label:8s} ({len(idx):3d})  {summary([mujoco_ms[i] for i in idx])}")
    sizes = sorted({len(p) for p, _ in towers})
    print("  by tower size (polycubes: checks, static median, MuJoCo median):")
    for n in sizes:
        idx = [i for i, (p, _) in enumerate(towers) if len(p) == n]
        print(f"    {n:2d}: {len(idx):3d}  {statistics.median(static_ms[i] for i in idx):6.2f} ms"
              f"  {statistics.median(mujoco_ms[i] for i in idx):7.2f} ms")


if __name__ == "__main__":
    main()
