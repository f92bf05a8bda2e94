"""How long one person's bot waits while another person floods the bots' pool, and how long a
bot's move waits behind a loop of hints (the real pool, two processes, KoPlus).

    python benchmarks/bot_pool_fairness.py [--tables N] [--bot SPEC]

Prints Bob's bot reply alone and while Ann's N bot-only tables all wait for a move, with the
jobs queued per person (as the server does) and, for comparison, per table (everyone one turn
per table, as before the pool was shared by person); then a move while a dozen hints wait.
Never fails on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Hashable

import meeple
from meeple.bots.hint import hint_part
from meeple.server.pool import BotPool


def _first(game: meeple.Game) -> tuple[list[tuple[int, int]], int]:
    """The moves up to the first decision of a player, and that player."""
    state, moves = game.new_initial_state(), []
    while state.is_chance_node():
        action = state.chance_outcomes()[0][0]
        moves.append((state.current_player, action))
        state.apply(action, state.current_player)
    return moves, state.pending_players()[0]


async def _flood(tables: int, spec: str, by_person: bool) -> tuple[float, float]:
    """Bob's reply alone and while Ann's ``tables`` wait (seconds)."""
    game = meeple.load("koplus", 2)
    moves, seat = _first(game)
    pool, rng = BotPool(workers=2), random.Random(1)

    def who(person: str) -> Hashable:
        return person if by_person else None  # None: the table's own queue

    async def reply(key: str, person: str) -> float:
        start = time.perf_counter()
        await pool.act(key, game, moves, seat, spec, rng, None, person=who(person))
        return time.perf_counter() - start

    try:
        await reply("warm-up", "bob")
        alone = await reply("bob", "bob")
        ann = [asyncio.create_task(reply(f"ann-{i}", "ann")) for i in range(tables)]
        await asyncio.sleep(0)
        flooded = await reply("bob", "bob")
        await asyncio.gather(*ann)
        return alone, flooded
    finally:
        pool.stop()


async def _hints(hints: int, spec: str) -> tuple[float, float]:
    """A move alone and while ``hints`` hints wait (seconds)."""
    game = meeple.load("koplus", 2)
    moves, seat = _first(game)
    pool, rng = BotPool(workers=2), random.Random(2)

    async def move() -> float:
        start = time.perf_counter()
        await pool.act("table", game, moves, seat, spec, rng, None, person="bob")
        return time.perf_counter() - start

    try:
        await move()
        alone = await move()
        asked = [asyncio.create_task(pool.run(hint_part, type(game), game.num_players,
                                              dict(game.options), moves, seat, len(moves),
                                              person="cy")) for _ in range(hints)]
        await asyncio.sleep(0)
        busy = await move()
        await asyncio.gather(*asked)
        return alone, busy
    finally:
        pool.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--bot", default="mcts:5")
    args = parser.parse_args()
    for by_person in (True, False):
        alone, flooded = asyncio.run(_flood(args.tables, args.bot, by_person))
        print(f"queued per {'person' if by_person else 'table '}: Bob's {args.bot} reply "
              f"{alone * 1000:6.0f} ms alone, {flooded * 1000:6.0f} ms while Ann's "
              f"{args.tables} tables wait")
    alone, busy = asyncio.run(_hints(12, args.bot))
    print(f"a {args.bot} move: {alone * 1000:6.0f} ms alone, {busy * 1000:6.0f} ms while 12 "
          "hints wait")


if __name__ == "__main__":
    main()
