"""The compiled build against the pure-Python build, side by side: each figure is measured in
a fresh process of each build in turn (``MEEPLE_PURE_PYTHON=1`` for the pure one), several
rounds, and the medians and their ratio are printed. Rates are per second of the process's
own CPU time (one core), so a busy machine skews them less; nothing is asserted.

    .venv/bin/python benchmarks/compiled.py [--rounds 3] [--seconds 3] [--only NAME ...]
                                            [--review]

Figures: random KoPlus games a second through the public API and through ``play_out`` (as
``ratio_koplus.sh``), random playouts a second of every game, MCTS iterations a CPU-second of
every game (as ``mcts.py --seconds 1``), the time to ``import meeple``, and with ``--review``
the CPU time of a 2-player game's review (as ``review.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def koplus(players: int, mode: str, seconds: float) -> float:
    """Random KoPlus games a CPU-second: ``api`` (legal_actions/apply) or ``playout``."""
    import random

    import meeple

    game = meeple.load("koplus", players=players)
    rng = random.Random(5)

    def one() -> None:
        if mode == "playout":
            meeple.play_out(game.new_initial_state(), rng)
            return
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player == meeple.CHANCE:
                a, w = zip(*s.chance_outcomes(), strict=True)
                s.apply(rng.choices(a, w)[0])
            else:
                s.apply(rng.choice(s.legal_actions()))

    for _ in range(20):
        one()
    t, n = time.process_time(), 0
    while time.process_time() - t < seconds:
        one()
        n += 1
    return n / (time.process_time() - t)


def playouts(name: str, seconds: float) -> float:
    """Random playouts a CPU-second of ``name`` for two players (or its first count)."""
    import random

    import meeple
    from meeple.engine.registry import game_class

    counts = game_class(name).player_counts
    game = meeple.load(name, players=2 if 2 in counts else counts[0])
    rng = random.Random(1)
    meeple.play_out(game.new_initial_state(), rng)
    t, n = time.process_time(), 0
    while time.process_time() - t < seconds:
        meeple.play_out(game.new_initial_state(), rng)
        n += 1
    return n / (time.process_time() - t)


def mcts(name: str, seconds: float) -> float:
    """MCTS iterations a CPU-second (``benchmarks/mcts.py``'s figure, one second a position)."""
    sys.path.insert(0, str(HERE))
    from mcts import bench

    return float(bench(name, 1.0, 5)["per_second"])


def review_cpu(name: str, seconds: float) -> float:
    """CPU seconds of the review of a typical 2-player game (``benchmarks/review.py``)."""
    sys.path.insert(0, str(HERE))
    from review import review, typical_game

    final = typical_game(name, 7)
    t = time.process_time()
    review(final, None if final.game.perfect_information else 0)
    return time.process_time() - t


def import_ms(name: str, seconds: float) -> float:
    """Milliseconds to ``import meeple`` in a fresh process."""
    t = time.perf_counter()
    import meeple  # noqa: F401

    return 1000 * (time.perf_counter() - t)


KINDS = {"koplus": koplus, "playouts": playouts, "mcts": mcts, "review": review_cpu,
         "import": import_ms}


def child(kind: str, arg: str, seconds: float) -> None:
    """Measure one figure in this process and print it with the build in use."""
    if kind == "import":
        value = import_ms(arg, seconds)
    elif kind == "koplus":
        players, mode = arg.split(":")
        value = koplus(int(players), mode, seconds)
    else:
        value = KINDS[kind](arg, seconds)
    import meeple

    print(json.dumps({"value": value, "compiled": meeple.compiled()}))


def measure(kind: str, arg: str, seconds: float, pure: bool) -> float:
    env = {k: v for k, v in os.environ.items() if k != "MEEPLE_PURE_PYTHON"}
    if pure:
        env["MEEPLE_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, __file__, "--child", kind, arg, str(seconds)],
                         env=env, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    if got["compiled"] == pure:
        raise SystemExit(f"the {'pure' if pure else 'compiled'} build is not the one in use: "
                         "is it built (scripts/setup.sh)?")
    return float(got["value"])


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], float(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--only", nargs="*", default=None, help="figures whose label has a word")
    ap.add_argument("--review", action="store_true", help="also time the reviews (slow)")
    args = ap.parse_args()

    import meeple

    figures = [("koplus", "2:playout", "KoPlus 2p play_out games/s"),
               ("koplus", "2:api", "KoPlus 2p API games/s"),
               ("koplus", "4:api", "KoPlus 4p API games/s")]
    figures += [("playouts", g, f"{g} playouts/s") for g in meeple.games()]
    figures += [("mcts", g, f"{g} MCTS iterations/CPU-s") for g in meeple.games()]
    if args.review:
        figures += [("review", g, f"{g} review CPU-s (lower is better)") for g in meeple.games()]
    figures.append(("import", "-", "import meeple ms (lower is better)"))
    if args.only:
        figures = [f for f in figures if any(w in f[2] for w in args.only)]
    print(f"{'figure':<42} {'pure':>10} {'compiled':>10} {'ratio':>7}   (medians of "
          f"{args.rounds}, load {os.getloadavg()[0]:.1f})", flush=True)
    for kind, arg, label in figures:
        pure, built = [], []
        for _ in range(args.rounds):
            pure.append(measure(kind, arg, args.seconds, pure=True))
            built.append(measure(kind, arg, args.seconds, pure=False))
        p, c = statistics.median(pure), statistics.median(built)
        lower_better = "lower" in label
        ratio = (p / c if lower_better else c / p) if p and c else float("nan")
        print(f"{label:<42} {p:>10.1f} {c:>10.1f} {ratio:>6.2f}x", flush=True)


if __name__ == "__main__":
    main()
