"""The bots' pool (real processes) is shared between people, not tables: someone flooding it
with bot-only tables cannot hold back another person's bot, hints and other analysis never
take every process from the bots' moves, and a hint never waits for a busy pool (one process
more is kept for hints). Orders are checked,
never durations."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import meeple
from meeple.server.pool import BotPool

from .util import run_async


def _first(game: meeple.Game) -> tuple[list[tuple[int, int]], int]:
    """The moves of a game up to the first decision of a player, and that player."""
    state, moves = game.new_initial_state(), []
    while state.is_chance_node():
        action = state.chance_outcomes()[0][0]
        moves.append((state.current_player, action))
        state.apply(action, state.current_player)
    return moves, state.pending_players()[0]


async def _served_in_order(pool: BotPool, calls: list[tuple[str, object]]) -> list[str]:
    """Start the ``calls`` (name, coroutine) in this order, the pool's processes already
    running; the names in the order their answers came."""
    await pool.run(time.sleep, 0)  # the processes run
    answered: list[str] = []

    async def one(name: str, call) -> None:
        await call
        answered.append(name)

    await asyncio.gather(*(one(name, call) for name, call in calls))
    return answered


def _served_by_one_process(calls: Callable[[BotPool], list[tuple[str, object]]]) -> list[str]:
    """The order in which a pool of one process answers ``calls(pool)`` (name, coroutine),
    asked in their order."""

    async def main() -> list[str]:
        pool = BotPool(workers=1)
        try:
            return await _served_in_order(pool, calls(pool))
        finally:
            pool.stop()

    return run_async(main())


def test_a_person_with_many_bot_tables_does_not_hold_back_anothers_bot():
    """Ann has twelve tables whose bots think, asked before Bob's one: with one process,
    Bob's bot is served as soon as the job running ends, not after Ann's backlog."""
    game = meeple.load("koplus", 2)
    moves, seat = _first(game)

    rng = random.Random(2)
    answered = _served_by_one_process(lambda pool: [
        *[(f"ann{i}", pool.act(f"ann-table-{i}", game, moves, seat, "mcts:5", rng, None,
                               person="ann")) for i in range(12)],
        ("bob", pool.act("bob-table", game, moves, seat, "mcts:5", rng, None, person="bob"))])
    assert answered.index("bob") <= 1, answered  # after at most Ann's first job


def test_analysis_never_holds_back_a_bots_move():
    """Six hints asked before a bot's move, two processes: the move is handed to a process
    at once, while five hints still wait (analysis never takes every process)."""
    game = meeple.load("koplus", 2)
    moves, seat = _first(game)

    async def main() -> None:
        pool = BotPool(workers=2)
        try:
            await pool.run(time.sleep, 0)  # the processes run
            hints = [asyncio.create_task(pool.run(time.sleep, 0.2, person="cy"))
                     for _ in range(6)]
            move = asyncio.create_task(pool.act("table", game, moves, seat, "mcts:5",
                                                random.Random(3), None, person="dee"))
            await asyncio.sleep(0)  # every job asked for
            assert (pool.queued("dee"), pool.queued("cy")) == (0, 5)
            await asyncio.gather(move, *hints)
        finally:
            pool.stop()

    run_async(main())


def test_guests_from_one_address_share_a_limit_of_tables_with_thinking_bots(sqlite_url):
    """Guests are cheap to make: those asking from one address may have six tables with
    thinking bots open between them; the next is refused in plain words. Someone signed up
    is not held to it, nor are tables without thinking bots."""
    from fastapi.testclient import TestClient

    from meeple.server import create_app

    from .util import new_guest

    bots = {"game": "koplus", "players": 2, "start": False,
            "seats": [{"kind": "bot", "bot": "mcts:5"}, {"kind": "bot", "bot": "mcts:5"}]}
    with TestClient(create_app(sqlite_url)) as c:  # every request comes from "testclient"
        for name in ("Ann", "Bob", "Cy"):
            new_guest(c, name)
            for _ in range(2):
                assert c.post("/api/tables", json=bots).status_code == 201
        new_guest(c, "Dee")
        r = c.post("/api/tables", json=bots)
        assert r.status_code == 429, r.text
        assert r.json()["detail"] == ("guests playing from your address already have 6 tables "
                                      "with thinking bots; finish one first, or sign up")
        greedy = {**bots, "seats": [{"kind": "bot", "bot": "greedy"}] * 2}
        assert c.post("/api/tables", json=greedy).status_code == 201
        assert c.post("/api/signup", json={"name": "Eve", "password": "correct horse"}
                      ).status_code in (200, 201)
        assert c.post("/api/tables", json=bots).status_code == 201


def test_a_hint_never_waits_for_a_busy_pool(tmp_path: Path):
    """The pool's one process works on a job that waits for a hint to leave a file (up to a
    minute): the hint runs beside it at once, in the process kept for hints, and only one
    hint at a time does; other analysis waits for the pool's own process."""
    hinted = tmp_path / "hinted"
    wait = f"for i in $(seq 1200); do [ -e {hinted} ] && exit 0; sleep 0.05; done; exit 1"

    async def main() -> None:
        pool = BotPool(workers=1)
        try:
            await pool.run(time.sleep, 0)  # the processes run
            busy = asyncio.create_task(pool.run(subprocess.run, ["sh", "-c", wait],
                                                person="ann"))
            await asyncio.sleep(0)
            other = asyncio.create_task(pool.run(time.sleep, 0, person="bob"))
            first = asyncio.create_task(pool.run(time.sleep, 0.5, person="cy", hint=True))
            second = asyncio.create_task(pool.run(os.mknod, str(hinted), person="dee",
                                                  hint=True))
            await asyncio.sleep(0)  # every job asked for
            assert (pool.queued("bob"), pool.queued("cy"), pool.queued("dee")) == (1, 0, 1)
            await asyncio.gather(first, second)
            assert (await busy).returncode == 0, "the hint waited for the busy process"
            await other
        finally:
            pool.stop()

    run_async(main())
