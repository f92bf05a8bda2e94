"""KoPlus micro-benchmarks: ``legal_actions``, ``clone`` and ``apply`` on mid-game boards.

    python benchmarks/koplus_micro.py [--players 4] [--positions 200]

Positions come from random play (the board dealt, then 12 placements for 4 players). Every
``legal_actions`` call is timed on a fresh clone, so the per-state cache never answers; medians
are printed, never asserted. Targets: ``legal_actions`` ≤ 50 µs and ``clone`` ≤ 10 µs. Random
playouts are also counted per second of CPU time (target ≥ 2,000 for 2 players).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import meeple


def mid_game_states(players: int, count: int, seed: int = 1) -> list:
    """Random positions about halfway through the placements (each player ~3 tiles down)."""
    rng = random.Random(seed)
    game = meeple.load("koplus", players=players)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        meeple.resolve_chance(state, rng)
        for _ in range(3 * players):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


def playouts_per_cpu_second(players: int, seconds: float) -> tuple[float, float]:
    """Random playouts (and moves) per second of this process's CPU time, after a warm-up.

    CPU time rather than wall time, so the figure stays meaningful on a busy machine.
    """
    game = meeple.load("koplus", players=players)
    rng = random.Random(1)
    end = time.process_time() + seconds / 4
    while time.process_time() < end:
        meeple.play_out(game.new_initial_state(), rng)
    games = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        moves += meeple.play_out(game.new_initial_state(), rng).move_number()
        games += 1
    used = time.process_time() - start
    return games / used, moves / used


def median_us(samples: list[int]) -> float:
    return statistics.median(samples) / 1000.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of playouts")
    args = ap.parse_args()
    states = mid_game_states(args.players, args.positions)
    clock = time.perf_counter_ns
    legal, clones, applies, counts = [], [], [], []
    rng = random.Random(2)
    for state in states:
        fresh = [state.clone() for _ in range(args.repeat)]
        for s in fresh:
            t = clock()
            actions = s.legal_actions()
            legal.append(clock() - t)
        counts.append(len(actions))
        for _ in range(args.repeat):
            t = clock()
            for _ in range(100):
                state.clone()
            clones.append((clock() - t) // 100)
        for s in fresh:
            a = rng.choice(actions)
            t = clock()
            s.apply(a)
            applies.append(clock() - t)
    print(f"KoPlus {args.players} players, {len(states)} mid-game positions "
          f"(median {statistics.median(counts):.0f} legal actions)")
    print(f"  legal_actions (fresh clone)  median {median_us(legal):7.2f} µs   (target ≤ 50)")
    print(f"  clone                        median {median_us(clones):7.2f} µs   (target ≤ 10)")
    print(f"  apply (legal checked)        median {median_us(applies):7.2f} µs")
    for n in (2, 3, 4):
        g, m = playouts_per_cpu_second(n, args.seconds)
        target = "   (target ≥ 2000)" if n == 2 else ""
        print(f"  random playouts, {n} players   {g:7.0f} /CPU-s, {m:7.0f} moves/CPU-s{target}")


if __name__ == "__main__":
    main()
