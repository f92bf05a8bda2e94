"""KoPlus micro-benchmarks: ``legal_actions``, ``clone`` and ``apply`` on mid-game boards.

    python benchmarks/koplus_micro.py [--players 4] [--positions 200]

Positions come from random play (the board dealt, then 12 placements for 4 players). Every
``legal_actions`` call is timed on a fresh clone, so the per-state cache never answers; medians
are printed, never asserted. Targets: ``legal_actions`` ≤ 50 µs and ``clone`` ≤ 10 µs. Random
playouts are also counted per second of CPU time (target ≥ 2,000 for 2 players), and set
against the C reference (``shared/bench/koplus_ref.c`` beside the repository, or
``--reference``), run alternately with the same loop as ``shared/bench/ratio_koplus.sh``
(``s.apply(rng.choice(s.legal_actions()))``, chance by ``rng.choices``): the ratio's
target is ≥ 0.1 of C at 2 and at 4 players.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import meeple


def mid_game_states(players: int, count: int, seed: int = 1) -> list:
    """Random positions about halfway through the placements (each player ~3 tiles down)."""
    rng = random.Random(seed)
    game = meeple.load("koplus", players=players)
    out: list[meeple.State] = []
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


REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "koplus_ref.c"
"""The C reference of random KoPlus playouts, where this machine has it."""


def api_playouts_per_second(players: int, seconds: float) -> float:
    """Random playouts per second (wall time) through the public API, exactly as
    ``ratio_koplus.sh`` plays and times them."""
    game = meeple.load("koplus", players=players)
    rng = random.Random(5)
    chance = meeple.CHANCE

    def one() -> None:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player == chance:
                a, w = zip(*s.chance_outcomes())  # noqa: B905 (the same loop as the script)
                s.apply(rng.choices(a, w)[0])
            else:
                s.apply(rng.choice(s.legal_actions()))

    for _ in range(20):
        one()
    start = time.perf_counter()  # wall time, as the C reference measures itself
    n = 0
    while time.perf_counter() - start < seconds:
        one()
        n += 1
    return n / (time.perf_counter() - start)


def build_reference(source: Path) -> Path | None:
    """The C reference compiled like ``ratio_koplus.sh`` does, or ``None`` without a compiler."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None or not source.exists():
        return None
    out = Path(tempfile.gettempdir()) / "koplus_ref_bench"
    if not out.exists() or out.stat().st_mtime < source.stat().st_mtime:
        subprocess.run([cc, "-O2", "-march=native", "-o", str(out), str(source)], check=True)
    return out


def reference_ratio(binary: Path, players: int, seconds: float, rounds: int = 3) -> list[float]:
    """meeple's playouts over C's, each round C then meeple for ``seconds`` each."""
    ratios = []
    for _ in range(rounds):
        text = subprocess.run([str(binary), str(players), str(seconds)], check=True,
                              capture_output=True, text=True).stdout
        found = re.search(r"playouts_per_s=([0-9.]+)", text)
        if found is None:
            raise RuntimeError(f"unexpected output from the C reference: {text!r}")
        ratios.append(api_playouts_per_second(players, seconds) / float(found.group(1)))
    return ratios


def median_us(samples: list[int]) -> float:
    return statistics.median(samples) / 1000.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of playouts")
    ap.add_argument("--reference", type=Path, default=REFERENCE,
                    help="the C reference's source (skipped where it or gcc is missing)")
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
    binary = build_reference(args.reference)
    if binary is None:
        print(f"  ratio to C: no C reference ({args.reference}) or no compiler here")
        return
    for n in (2, 4):
        ratios = reference_ratio(binary, n, args.seconds)
        rounds = ", ".join(f"{r:.3f}" for r in ratios)
        met = "met" if statistics.median(ratios) >= 0.1 else "NOT met"
        print(f"  ratio to C, {n} players        median {statistics.median(ratios):.3f} "
              f"(rounds {rounds}; target ≥ 0.1, {met}; wall time, load "
              f"{os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
