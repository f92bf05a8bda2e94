"""Generated Kozo towers for testing the stability referees against each other."""

from __future__ import annotations

import random

import meeple
from meeple.games.kozo import physics
from meeple.games.kozo.components import BALANCE_BASE, PLACEMENTS, RING


def generate_towers(count: int, seed: int = 0) -> list[tuple[list, list]]:
    """``count`` towers ``(pieces, balances)``, half standing and half falling by the static
    referee, built by random legal placements (with overhangs and bridges over the chimney).

    Each round starts empty; every placement that stands is kept (with a random balance cube),
    one that falls is recorded and undone. Placements are biased towards high, large pieces so
    towers grow tall.
    """
    rng = random.Random(seed)
    game = meeple.load("kozo", players=2, rounds=1)
    standing: list[tuple[list, list]] = []
    falling: list[tuple[list, list]] = []
    want = count // 2
    while len(standing) < want or len(falling) < count - want:
        state = game.new_initial_state()
        fails = 0
        while fails < 20:
            legal = state.placements()
            if not legal:
                break
            action = rng.choice(legal)
            trial = state.clone()
            trial._place(action)
            pieces, balances = trial.physics_tower()
            if physics.static_stands(pieces, balances):
                if len(standing) < want and rng.random() < 0.5:
                    standing.append((pieces, balances))
                bal = [BALANCE_BASE + i for i, (x, y) in enumerate(RING)
                       if trial.top[y * 3 + x] >= 1 and not trial.bal[y * 3 + x]]
                b = rng.choice(bal)
                x, y = RING[b - BALANCE_BASE]
                trial.balances.append((x, y, trial.top[y * 3 + x]))
                trial.bal[y * 3 + x] = 1
                trial._place_cache = None
                state = trial
                if state.placed == (1 << 12) - 1:
                    break
            else:
                fails += 1
                if len(falling) < count - want:
                    falling.append((pieces, balances))
    towers = standing + falling
    rng.shuffle(towers)
    return towers


def describe(pieces) -> str:
    """A tower as placements, for messages."""
    out = []
    for cells, _, _ in pieces:
        out.append(" ".join(f"{x}{y}{z}" for x, y, z in sorted(cells)))
    return " | ".join(out)


assert PLACEMENTS  # the tables are built at import
