"""Does the review find the mistakes that lost the game? For each title, 2 players:

* ``--games`` games of the Beginner bot against the Expert bot (the seats alternate): in how
  many does the review of the Beginner's view list at least one better move, and how many
  does it list on average;
* ``--games`` games of the Expert against the Expert: how many better moves the review of
  seat 0's view lists on average (a good review lists far fewer: aim for under a third of
  the Beginner's).

The reviews use the server's budget (:func:`meeple.bots.review.iterations_for`). Prints the
counts; never fails. Games run in ``--jobs`` processes (each game's review in the process
that played it).

    .venv/bin/python benchmarks/review_acceptance.py [--games 20] [--first 0] [--jobs 2]
        [--each] [GAME ...]

``--first F`` plays games F to F + games - 1 of each pairing (the same games as a run that
played them; to add games to an earlier run's), ``--each`` prints every game's count as it
ends.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

import meeple
from meeple.bots import make_bot, seats_policy
from meeple.bots.review import review

BEGINNER, EXPERT = "random", "mcts:expert"


def one(name: str, specs: tuple[str, str], seat: int, seed: int) -> tuple[int, float]:
    """Play one game of ``specs`` (seat 0, seat 1) and review it for ``seat``'s view: how
    many better moves of ``seat`` the review lists, and the seconds it all took."""
    started = time.perf_counter()
    game = meeple.load(name, 2)
    state = game.new_initial_state()
    bots = [make_bot(spec, game, seed=seed * 2 + i) for i, spec in enumerate(specs)]
    meeple.play_out(state, random.Random(seed), seats_policy(bots))
    viewer = None if game.perfect_information else seat
    r = review(state, viewer)
    return len(r.better_for(seat)), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_", nargs="*", metavar="GAME", default=None)
    parser.add_argument("--games", type=int, default=20, help="games per title and pairing")
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--each", action="store_true", help="print every game's count")
    args = parser.parse_args()
    titles = args.games_ or meeple.games()
    jobs = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for g in range(args.first, args.first + args.games):  # every title's first games first
            for name in titles:
                seat = g % 2  # the Beginner's seat alternates
                specs = (BEGINNER, EXPERT) if seat == 0 else (EXPERT, BEGINNER)
                jobs.append((name, "beginner", g, pool.submit(one, name, specs, seat, g)))
                jobs.append((name, "expert", g,
                             pool.submit(one, name, (EXPERT, EXPERT), 0, 1000 + g)))
        if args.each:
            from concurrent.futures import as_completed

            which = {f: (n, kind, g) for n, kind, g, f in jobs}
            for f in as_completed(which):
                n, kind, g = which[f]
                count, took = f.result()
                print(f"{n} {kind} game {g}: {count} better moves ({took:.0f} s)", flush=True)
        print(f"{'game':<11} {'games':>5} {'beginner: with one':>19} {'mean':>5} "
              f"{'expert: mean':>13} {'ratio':>6} {'s/game':>7}")
        for name in titles:
            mine = [(kind, f.result()) for n, kind, _g, f in jobs if n == name]
            beginner = [c for kind, (c, _s) in mine if kind == "beginner"]
            expert = [c for kind, (c, _s) in mine if kind == "expert"]
            seconds = sum(s for _k, (_c, s) in mine) / max(1, len(mine))
            with_one = sum(1 for c in beginner if c > 0)
            b_mean = sum(beginner) / max(1, len(beginner))
            e_mean = sum(expert) / max(1, len(expert))
            ratio = e_mean / b_mean if b_mean else float("nan")
            print(f"{name:<11} {len(beginner):>5} {with_one:>19} {b_mean:>5.2f} "
                  f"{e_mean:>13.2f} {ratio:>6.2f} {seconds:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
