"""MCTS iterations per second on one core, per game (the start and a few random positions).

    python benchmarks/mcts.py [GAME ...] [--seconds S] [--level L] [--ladder]

Rates are per second of the process's own CPU time, i.e. on one core, so that a busy machine
does not skew them (the wall-clock time is printed too). Targets: at least 2,000 iterations/s
for KoPlus and 500/s for the other games (Kozo with its static referee). Prints one line per
game; never fails on timing.

``--ladder`` also prints, per game, the CPU time per move of each search step of the bot ladder
(``meeple.bots.levels``: a fixed number of iterations per move, so a faster search answers
sooner at the same strength), measured on the same positions.
"""

from __future__ import annotations

import argparse
import random
import time

import meeple
from meeple.bots import view_for
from meeple.bots.mcts import MCTSBot
from meeple.engine import SIMULTANEOUS, State
from meeple.engine.registry import game_class, games

TARGETS = {"koplus": 2000}
DEFAULT_TARGET = 500


class _Found(Exception):
    """The random game has reached the position it was played for."""


def _position(game: meeple.Game, stop_at: int, rng: random.Random, first: bool) -> State | None:
    """A random game's decision position after ``stop_at`` moves (``first``: its first
    decision), or ``None`` if the game ended before."""
    moves = 0
    found: list[State] = []

    def policy(state: State, p: int, rng: random.Random) -> int:
        nonlocal moves
        if moves >= stop_at or (first and moves == 0):
            found.append(state.clone())
            raise _Found
        moves += 1
        return rng.choice(state.legal_actions(p))

    try:
        meeple.play_out(game.new_initial_state(), rng, policy=policy)
    except _Found:
        return found[0]
    return None


def positions(game: meeple.Game, count: int, rng: random.Random) -> list[State]:
    """Decision positions from random games: the first, and some later ones."""
    out: list[State] = []
    while len(out) < count:
        stop_at = rng.randrange(0, max(1, game.max_game_length // 3))
        state = _position(game, stop_at, rng, first=not out)
        if state is not None:
            out.append(state)
    return out


def bench(name: str, seconds: float, level: int, options: dict | None = None) -> dict:
    """Iterations per second of ``mcts:level`` searching for ``seconds`` at a few positions."""
    game = meeple.load(name, players=2 if 2 in game_class(name).player_counts else None,
                       **(options or {}))
    rng = random.Random(1)
    total_it, total_s, total_cpu = 0, 0.0, 0.0
    for state in positions(game, 4, rng):
        cp = state.current_player
        seat = state.pending_players()[0] if cp == SIMULTANEOUS else cp
        bot = MCTSBot(game, seed=1, level=level, iterations=0, seconds=seconds, mistakes=0)
        t0, c0 = time.perf_counter(), time.process_time()
        bot.act(view_for(state, seat))
        total_s += time.perf_counter() - t0
        total_cpu += time.process_time() - c0
        total_it += bot.last_iterations
    rate = total_it / total_cpu  # per second of this process's CPU time: one core
    target = TARGETS.get(name, DEFAULT_TARGET)
    return {"game": name, "players": game.num_players, "iterations": total_it,
            "seconds": round(total_s, 2), "cpu_seconds": round(total_cpu, 2),
            "per_second": round(rate), "per_wall_second": round(total_it / total_s),
            "target": target, "met": rate >= target}


def ladder_times(name: str) -> list[dict]:
    """CPU seconds per move of each search step of the ladder in ``name`` (two players where
    the game allows), the mean over the benchmark's positions."""
    from meeple.bots import levels

    game = meeple.load(name, players=2 if 2 in game_class(name).player_counts else None)
    states = positions(game, 4, random.Random(1))
    out = []
    for step in levels.steps():
        if step.kind != "search":
            continue
        cpu, iterations = 0.0, 0
        for state in states:
            cp = state.current_player
            seat = state.pending_players()[0] if cp == SIMULTANEOUS else cp
            bot = levels.build(step.spec, game, seed=1)
            c0 = time.process_time()
            bot.act(view_for(state, seat))
            cpu += time.process_time() - c0
            iterations += getattr(bot, "last_iterations", 0)
        out.append({"game": name, "step": step.name, "budget": step.budget(name),
                    "iterations": iterations, "cpu_seconds_per_move": cpu / len(states)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=None)
    parser.add_argument("--seconds", type=float, default=1.0, help="search time per position")
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--ladder", action="store_true",
                        help="also the CPU time per move of each search step of the ladder")
    args = parser.parse_args()
    for name in args.games or games():
        r = bench(name, args.seconds, args.level)
        print(f"{r['game']:<11} {r['players']}p  {r['per_second']:>7} iterations/CPU-s "
              f"(target {r['target']}, {'met' if r['met'] else 'NOT met'}; "
              f"{r['iterations']} in {r['cpu_seconds']} CPU-s, {r['seconds']} s wall)",
              flush=True)
        if args.ladder:
            for t in ladder_times(r["game"]):
                print(f"  {t['step']:<11} {t['budget']:>5} iterations a move: "
                      f"{t['cpu_seconds_per_move']:.3f} CPU-s per move", flush=True)


if __name__ == "__main__":
    main()
