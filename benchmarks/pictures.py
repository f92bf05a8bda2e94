"""How long one picture of a table takes to draw, per game and configuration (one core, CPU
time, so that a busy machine does not skew it): the SVG and the terminal text of the first
player's view halfway through a random game.

    python benchmarks/pictures.py [GAME ...] [--repeat 20]

Prints milliseconds per picture (the best of the repetitions, after a warm-up); never asserted.
A few milliseconds is usual; the browser and the terminal draw one after every move.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import meeple
from meeple.engine import game_class


def halfway(game: meeple.Game, seed: int = 5) -> meeple.State:
    """A position halfway through a random game of ``game``."""
    moves = meeple.play_out(game.new_initial_state(), random.Random(seed)).move_number()
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.move_number() < moves // 2 and not state.is_terminal():
        if state.current_player == meeple.CHANCE:
            meeple.resolve_chance(state, rng)
            continue
        p = state.pending_players()[0]
        state.apply(rng.choice(state.legal_actions(p)), p)
    return state


def best_ms(draw: Callable[[dict[str, Any]], object], obs: dict[str, Any], repeat: int) -> float:
    """The least CPU time of ``repeat`` pictures ``draw(obs)``, in milliseconds."""
    draw(obs)
    times = []
    for _ in range(repeat):
        start = time.process_time()
        draw(obs)
        times.append(time.process_time() - start)
    return 1000 * min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("games", nargs="*", default=None)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    print(f"{'game':<12} {'players':>7}  {'options':<40} {'svg ms':>7} {'text ms':>8}")
    for name in args.games or meeple.games():
        for players, options in game_class(name).configurations():
            game = meeple.load(name, players=players, **options)
            obs = halfway(game).observation(0)
            svg = best_ms(game.renderer.svg, obs, args.repeat)
            text = best_ms(game.renderer.text, obs, args.repeat)
            opts = ",".join(f"{k}={v}" for k, v in options.items())
            print(f"{name:<12} {players:>7}  {opts:<40} {svg:>7.1f} {text:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
