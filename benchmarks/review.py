"""How long the review of a typical 2-player game of each title takes on one core (the games
played by two level-3 search bots): wall time and this process's CPU time (the figure for one
core to itself on a busy machine), and the longest hint at a few positions. Prints figures;
never fails.

    .venv/bin/python benchmarks/review.py [--games NAME ...] [--hints N]
"""

from __future__ import annotations

import argparse
import random
import time

import meeple
from meeple.bots import make_bot, seats_policy
from meeple.bots.hint import hint
from meeple.bots.review import iterations_for, review


def typical_game(name: str, seed: int) -> meeple.State:
    """A finished 2-player game of ``name`` between two level-3 search bots."""
    game = meeple.load(name, 2)
    state = game.new_initial_state()
    bots = [make_bot("mcts:3", game, seed=seed), make_bot("mcts:3", game, seed=seed + 1)]
    meeple.play_out(state, random.Random(seed), seats_policy(bots))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", nargs="*", default=meeple.games())
    parser.add_argument("--hints", type=int, default=5, help="hints timed per game")
    args = parser.parse_args()
    print(f"{'game':<11} {'moves':>5} {'points':>6} {'iters':>5} {'review s':>9} "
          f"{'cpu s':>7} {'hint max s':>10}")
    for name in args.games:
        final = typical_game(name, 7)
        viewer = None if final.game.perfect_information else 0
        t, cpu = time.perf_counter(), time.process_time()
        r = review(final, viewer)
        took, cpu = time.perf_counter() - t, time.process_time() - cpu
        # hints at a few positions of the same game
        history = final.history()
        worst = 0.0
        rng = random.Random(3)
        for _ in range(args.hints):
            state = final.game.new_initial_state()
            stop = rng.randrange(len(history))
            for p, a in history[:stop]:
                state.apply(a, p)
            if state.current_player == meeple.CHANCE:
                continue
            seat = state.pending_players()[0]
            h = hint(state, seat)
            worst = max(worst, h.seconds)
        print(f"{name:<11} {len(history):>5} {len(r.points):>6} {iterations_for(final.game):>5} "
              f"{took:>9.1f} {cpu:>7.1f} {worst:>10.2f}")


if __name__ == "__main__":
    main()
