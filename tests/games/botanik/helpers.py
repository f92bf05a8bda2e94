"""Building Botanik positions for the worked examples of the rules."""

from __future__ import annotations

import meeple
from meeple.games.botanik.components import SOURCE_CELL, rotate
from meeple.games.botanik.rules import ADD, SWAP, TAKE, BotanikState, add_parts, rc_cell


def fresh(**options) -> BotanikState:
    """A state in round 1, step A, with empty piles (the test fills them)."""
    game = meeple.load("botanik", **options)
    s = game.new_initial_state()
    s.supply = []
    s.phase = TAKE
    s._sync()
    return s


def tid(s: BotanikState, name: str) -> int:
    return s.ts.index[name]


def set_registry(s, tops=None, rows=None, arrival=None, active=0):
    """Pile tops (5 ids), rows ({player: {column: id}}), arrival ids; ``active`` takes now."""
    if tops is not None:
        s.piles = [[tid(s, t)] for t in tops]
    for q, spaces in (rows or {}).items():
        for j, t in spaces.items():
            s.rows[q * 5 + j] = tid(s, t)
    if arrival is not None:
        s.arrival = [tid(s, t) for t in arrival]
    # round 1: seat 0 is the Meca player; step B makes seat 1 active
    s.round, s.step = 1, (0 if active == 0 else 1)
    s._sync()
    s._legal_cache = {}
    return s


def build(s, player, placements, check=True):
    """Add ``[(id, r, c, k), ...]`` to ``player``'s machine in order, each checked legal."""
    for name, r, c, k in placements:
        t = tid(s, name)
        k = s.ts.canonical(t, k)
        if check:
            legal = s.legal_adds(player, t)
            assert any(add_parts(a) == (r, c, k) for a in legal), f"{name}@{r},{c}/{k} not legal"
        s._place(player, t, rc_cell(r, c), rotate(s.ts.exits[t], k))
    s._legal_cache = {}
    return s


def adds_text(s, player, name):
    t = tid(s, name)
    return sorted(add_parts(a) for a in s.legal_adds(player, t))


__all__ = ["ADD", "SOURCE_CELL", "SWAP", "TAKE", "adds_text", "build", "fresh", "set_registry",
           "tid"]
