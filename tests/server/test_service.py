"""The table service without HTTP, on the in-memory store and on the SQL stores: creating and
seating tables, bots, simultaneous moves, the end, rematches, clocks and refusals."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest

import meeple
from meeple.engine import CHANCE
from meeple.server import auth
from meeple.server.domain import (
    Code,
    Refused,
    Seat,
    SeatChoice,
    SeatKind,
    TableStatus,
    UserRecord,
    Visibility,
    bot_seat_name,
    shown_seat_name,
)
from meeple.server.live import LiveTable
from meeple.server.service import TableService
from meeple.server.store import MemoryStore, SqlStore, Store

from .util import rebuild, run_async

ME, BOT, OPEN = SeatChoice.ME, SeatChoice.BOT, SeatChoice.OPEN


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request, tmp_path):
    """Each test runs on the in-memory store, on SQLite and on PostgreSQL."""
    if request.param == "memory":
        s: Store = MemoryStore()
    elif request.param == "sqlite":
        s = SqlStore(f"sqlite:///{tmp_path / 'meeple.db'}")
    else:
        s = SqlStore(request.getfixturevalue("pg_url"))
    yield s
    s.close()


def run(store: Store, body: Callable[[TableService], Awaitable[None]]) -> None:
    """Run ``body`` with a table service on ``store`` in a fresh event loop."""

    async def main() -> None:
        service = TableService(store, rng=random.Random(3))
        try:
            await body(service)
        finally:
            service.stop()

    run_async(main())


def person(store: Store, name: str) -> UserRecord:
    user = store.add_user(name, auth.name_key(name), None, guest=True)
    assert user is not None
    return user


def tiny() -> meeple.Game:
    return meeple.load("sealed_bids", 2)


def stored_history(store: Store, lt: LiveTable) -> list[tuple[int, int]]:
    return [(m.player, m.action) for m in store.moves(lt.id)]


async def until(pred: Callable[[], bool], seconds: float = 120.0) -> None:
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "the table did not get there in time"
        await asyncio.sleep(0.005)


def test_create_join_start_and_play_to_the_end(store):
    async def body(service: TableService) -> None:
        ann, bob = person(store, "Ann"), person(store, "Bob")
        lt, tokens = await service.create(ann, tiny(), [(ME, None), (OPEN, None)], start=False)
        assert lt.meta.status == TableStatus.WAITING and [t["seat"] for t in tokens] == [0]
        assert lt.holds(0, None, tokens[0]["token"]) and not lt.holds(1, ann.id, None)
        with pytest.raises(Refused) as e:
            await service.start(lt, ann)
        assert e.value.code == Code.CONFLICT and "every seat" in e.value.reason
        assert (await service.join(lt, bob))[0]["seat"] == 1
        with pytest.raises(Refused) as e:
            await service.start(lt, bob)
        assert e.value.code == Code.FORBIDDEN and "owner" in e.value.reason
        await service.start(lt, ann)
        stored = store.table(lt.id)
        assert stored is not None and stored.meta.status == TableStatus.RUNNING
        assert stored.meta.started is not None
        # chance is resolved and stored before anyone is told
        assert store.moves(lt.id)[0].player == CHANCE and lt.state.pending_players() == [0, 1]
        rng = random.Random(1)
        while lt.meta.status == TableStatus.RUNNING:
            n = lt.state.move_number()
            seat = lt.state.pending_players()[-1]
            action = rng.choice(lt.state.legal_actions(seat))
            assert await service.act(lt, seat, action, n) > n
        state = rebuild("sealed_bids", 2, {"rounds": 3},
                        [(m.n, m.player, m.action, m.notation) for m in store.moves(lt.id)])
        assert state.is_terminal() and state.history() == lt.state.history()
        stored = store.table(lt.id)
        assert stored is not None and stored.meta.status == TableStatus.FINISHED
        assert stored.meta.result == lt.meta.result and stored.meta.to_move == []
        assert lt.meta.result is not None and lt.meta.result["winners"] == state.winners()
        assert stored.meta.move_count == len(store.moves(lt.id))

    run(store, body)


def test_simultaneous_moves_answer_an_older_frame_and_hide_the_other_bid(store):
    async def body(service: TableService) -> None:
        ann = person(store, "Ann")
        lt, _ = await service.create(ann, tiny(), [(ME, None), (ME, None)])
        n = lt.state.move_number()
        await service.act(lt, 1, 2, n)
        log0 = lt.base_frame(0)["log"]
        assert log0[-1] == {"n": n, "player": 1, "text": "(hidden)",
                            "sentence": "makes a secret choice.", "number": 1}
        assert log0[0]["text"] == "chance"  # a hidden-information game hides the draw
        assert lt.base_frame(1)["log"][-1]["text"] == "bid 3"
        assert lt.base_frame(None)["log"][-1]["text"] == "(hidden)"
        # seat 0 answers the frame of move n: nothing it may choose changed since
        await service.act(lt, 0, 0, n)
        assert [p for p, _ in stored_history(store, lt)][-3:-1] == [1, 0]
        assert lt.base_frame(0)["log"][n]["text"] == "bid 3"  # revealed once play moved on
        with pytest.raises(Refused) as e:
            await service.act(lt, 0, 1, n)
        assert e.value.code == Code.STALE

    run(store, body)


def test_bots_play_their_seats(store):
    async def body(service: TableService) -> None:
        ann = person(store, "Ann")
        lt, tokens = await service.create(ann, tiny(), [(ME, None), (BOT, "random")])
        assert lt.seats[1].kind == SeatKind.BOT and lt.seats[1].name == "Beginner bot"
        while lt.meta.status == TableStatus.RUNNING:
            await until(lambda: 0 in lt.state.pending_players()
                        or lt.meta.status != TableStatus.RUNNING)
            if lt.meta.status != TableStatus.RUNNING:
                break
            await service.act(lt, 0, lt.state.legal_actions(0)[0], lt.state.move_number())
        assert lt.meta.status == TableStatus.FINISHED
        players = [p for p, _ in stored_history(store, lt)]
        assert players.count(1) == 3 and players.count(0) == 3
        with pytest.raises(Refused) as e:  # a person cannot act for the bot's seat
            await service.act(lt, 1, 0, lt.state.move_number())
        assert e.value.code == Code.FORBIDDEN

    run(store, body)


def test_thinking_bots_and_a_rematch(store):
    async def body(service: TableService) -> None:
        ann = person(store, "Ann")
        lt, _ = await service.create(ann, tiny(), [(BOT, "greedy"), (BOT, "random")])
        await until(lambda: lt.meta.status == TableStatus.FINISHED)
        with pytest.raises(Refused) as e:
            await service.rematch(lt, ann)
        assert e.value.code == Code.FORBIDDEN  # Ann does not sit at this table
        people, _ = await service.create(ann, tiny(), [(ME, None), (BOT, "random")])
        with pytest.raises(Refused) as e:
            await service.rematch(people, ann)
        assert e.value.code == Code.CONFLICT and "finished" in e.value.reason
        while people.meta.status == TableStatus.RUNNING:
            await until(lambda: 0 in people.state.pending_players()
                        or people.meta.status != TableStatus.RUNNING)
            if people.meta.status == TableStatus.RUNNING:
                await service.act(people, 0, people.state.legal_actions(0)[-1],
                                  people.state.move_number())
        new, tokens = await service.rematch(people, ann)
        assert new.id != people.id and [t["seat"] for t in tokens] == [0]
        assert new.meta.status == TableStatus.RUNNING and new.seats[1].bot == "random"
        assert new.seats[0].user_id == ann.id and new.holds(0, None, tokens[0]["token"])
        stored = store.table(people.id)
        assert stored is not None and stored.meta.rematch_id == new.id
        again, tokens2 = await service.rematch(people, ann)
        assert again is new and new.holds(0, None, tokens2[0]["token"])

    run(store, body)


def test_a_bot_timed_as_light_answers_in_the_same_step_and_a_slow_one_in_the_pool(
        store, monkeypatch):
    from meeple.server import pool as pools
    from meeple.server.pool import LIGHT_THINK, THINK_SAMPLES, ThinkTimes

    times = ThinkTimes()
    assert times.light("koplus", "random") and not times.light("koplus", "greedy")
    for _ in range(THINK_SAMPLES - 1):
        times.note("koplus", "greedy", LIGHT_THINK / 10)
    assert not times.light("koplus", "greedy")  # not timed often enough yet
    times.note("koplus", "greedy", LIGHT_THINK / 10)
    assert times.light("koplus", "greedy") and not times.light("kozo", "greedy")
    for _ in range(4 * THINK_SAMPLES):  # it turned slow: back to the pool
        times.note("koplus", "greedy", LIGHT_THINK * 4)
    assert not times.light("koplus", "greedy")

    # the greedy bot counts as light on any machine, however slow: what follows is what a
    # light bot's turn does, not how fast this machine runs it
    monkeypatch.setattr(pools, "LIGHT_THINK", 1.0)

    async def body(service: TableService) -> None:
        ann = person(store, "Ann")
        pool = service.bots.times
        answered_at_once = 0
        for _game in range(6):  # its first moves are timed in the pool
            lt, _ = await service.create(ann, meeple.load("koplus", 2),
                                         [(ME, None), (BOT, "greedy")])
            while lt.meta.status == TableStatus.RUNNING:
                await until(lambda t=lt: 0 in t.state.pending_players()
                            or t.meta.status != TableStatus.RUNNING, 60)
                if lt.meta.status != TableStatus.RUNNING:
                    break
                light = pool.light("koplus", "greedy")
                await service.act(lt, 0, lt.state.legal_actions(0)[0], lt.state.move_number())
                if light:  # the bot's reply is stored with the move it answers
                    assert lt.meta.status != TableStatus.RUNNING or (
                        0 in lt.state.pending_players())
                    answered_at_once += 1
            if answered_at_once >= 3:
                break
        assert service.bots.started and pool.light("koplus", "greedy")
        assert answered_at_once >= 3

    run(store, body)


def test_refusals_change_nothing(store):
    async def body(service: TableService) -> None:
        ann, bob, eve = person(store, "Ann"), person(store, "Bob"), person(store, "Eve")
        lt, _ = await service.create(ann, tiny(), [(ME, None), (OPEN, None)],
                                     visibility=Visibility.PRIVATE, start=False)
        before = store.table(lt.id)
        code = lt.meta.invite_code
        cases: list[tuple[Callable[[], Awaitable[object]], Code, str]] = [
            (lambda: service.join(lt, bob), Code.FORBIDDEN, "private"),
            (lambda: service.join(lt, bob, code="nope"), Code.FORBIDDEN, "private"),
            (lambda: service.join(lt, bob, seat=0, code=code), Code.CONFLICT, "taken"),
            (lambda: service.join(lt, bob, seat=5, code=code), Code.INVALID, "no seat"),
            (lambda: service.leave(lt, 0, bob.id, None), Code.FORBIDDEN, "do not hold"),
            (lambda: service.set_seat(lt, bob, 1, BOT, "random"), Code.FORBIDDEN, "owner"),
            (lambda: service.set_seat(lt, ann, 1, BOT, "deep"), Code.INVALID, "no bot named"),
            (lambda: service.set_seat(lt, ann, 1, BOT, None), Code.INVALID, "needs 'bot'"),
            (lambda: service.act(lt, 0, 0, 0), Code.BAD_REQUEST, "waiting"),
        ]
        for call, want, words in cases:
            with pytest.raises(Refused) as e:
                await call()
            assert e.value.code == want and words in e.value.reason, (want, e.value.reason)
        assert store.table(lt.id) == before and store.moves(lt.id) == []
        await service.join(lt, bob, code=lt.meta.invite_code)
        with pytest.raises(Refused) as e:
            await service.set_seat(lt, ann, 1, OPEN)
        assert e.value.code == Code.CONFLICT and "Bob" in e.value.reason
        await service.start(lt, ann)
        n = lt.state.move_number()
        moves = store.moves(lt.id)
        later: list[tuple[Callable[[], Awaitable[object]], Code]] = [
            (lambda: service.act(lt, 0, 7, n), Code.ILLEGAL),
            (lambda: service.act(lt, 0, "1", n), Code.BAD_REQUEST),
            (lambda: service.act(lt, 0, 0, n + 3), Code.STALE),
            (lambda: service.act(lt, 9, 0, n), Code.BAD_REQUEST),
            (lambda: service.join(lt, eve, code=lt.meta.invite_code), Code.CONFLICT),
            (lambda: service.leave(lt, 1, bob.id, None), Code.CONFLICT),
        ]
        for later_call, want in later:
            with pytest.raises(Refused) as e:
                await later_call()
            assert e.value.code == want, (want, e.value.reason)
        assert store.moves(lt.id) == moves

    run(store, body)


def test_a_move_stored_by_another_process_first_is_refused_as_stale(store):
    async def body(service: TableService) -> None:
        ann = person(store, "Ann")
        lt, _ = await service.create(ann, tiny(), [(ME, None), (ME, None)])
        other = TableService(store, rng=random.Random(5))
        twin = other.table(lt.id)
        n = lt.state.move_number()
        await other.act(twin, 0, 0, n)
        with pytest.raises(Refused) as e:  # this process had not heard of it yet
            await service.act(lt, 0, 1, n)
        assert e.value.code == Code.STALE
        assert lt.state.move_number() == n + 1  # and it caught up
        assert stored_history(store, lt)[-1] == (0, 0)
        other.stop()

    run(store, body)


def test_clock_runs_out_forfeit_and_bot_takes_over(store):
    async def body(service: TableService) -> None:
        ann = person(store, "Ann")
        lt, _ = await service.create(
            ann, tiny(), [(ME, None), (ME, None)],
            clock={"kind": "per_move", "seconds": 0.2, "on_timeout": "forfeit"})
        assert lt.clocks_json() is not None
        await until(lambda: lt.meta.status == TableStatus.FINISHED)
        assert lt.meta.result is not None and lt.meta.result["forfeit"] == 0
        stored = store.table(lt.id)
        assert stored is not None and stored.meta.result == lt.meta.result

        slow, _ = await service.create(
            ann, tiny(), [(ME, None), (BOT, "random")],
            clock={"kind": "per_move", "seconds": 0.2, "on_timeout": "bot", "bot": "random"})
        await until(lambda: slow.meta.status == TableStatus.FINISHED)
        assert slow.seats[0].kind == SeatKind.BOT and slow.seats[0].name == "Ann"
        assert slow.meta.result is not None and slow.meta.result["forfeit"] is None

    run(store, body)


def test_a_restarted_service_resumes_from_the_store(store):
    async def first(service: TableService) -> None:
        ann = person(store, "Ann")
        lt, _ = await service.create(ann, tiny(), [(ME, None), (ME, None)])
        await service.act(lt, 0, 2, lt.state.move_number())
        first.table_id = lt.id  # type: ignore[attr-defined]

    run(store, first)

    async def second(service: TableService) -> None:
        lt = service.table(first.table_id)  # type: ignore[attr-defined]
        assert lt.state.pending_players() == [1]
        assert lt.base_frame(1)["log"][-1]["text"] == "(hidden)"
        await service.act(lt, 1, 0, lt.state.move_number())
        assert stored_history(store, lt)[-2:][0] == (1, 0)

    run(store, second)


def test_pictures_and_players_carry_names_and_seat_colours(store):
    async def body(service: TableService) -> None:
        zed = person(store, "Zed Q")
        lt, _ = await service.create(zed, meeple.load("koplus", 2), [(ME, None), (OPEN, None)],
                                     start=False)
        frame = lt.base_frame(None)
        assert "Zed Q" in frame["svg"] and "Player 2" in frame["svg"]  # the open seat
        await service.set_seat(lt, zed, 1, BOT, "random")
        frame = lt.base_frame(None)
        assert "Beginner bot" in frame["svg"] and "Bot (random)" not in frame["svg"]
        colours = [c.to_json() for c in lt.game.seat_colours()]
        assert [p["colour"] for p in lt.players_json()] == colours
        assert [p["name"] for p in lt.players_json()] == ["Zed Q", "Beginner bot"]
        assert [s["colour"] for s in lt.summary(zed.id)["seats"]] == colours

    run(store, body)


def test_bot_seats_carry_their_levels_name_one_name_per_seat(store):
    async def body(service: TableService) -> None:
        ann = person(store, "Ann")
        lt, _ = await service.create(ann, meeple.load("koplus", 4),
                                     [(ME, None), (BOT, "greedy"), (BOT, "greedy"),
                                      (BOT, "random")], start=False)
        names = ["Ann", "Casual bot", "Casual bot 2", "Beginner bot"]
        assert [s.name for s in lt.seats] == names
        assert [s["name"] for s in lt.summary(ann.id)["seats"]] == names
        await service.set_seat(lt, ann, 1, BOT, "mcts:expert")
        assert lt.seats[1].name == "Expert bot"
        await service.set_seat(lt, ann, 3, BOT, "greedy")  # "Casual bot 2" is taken
        assert [s.name for s in lt.seats] == ["Ann", "Expert bot", "Casual bot 2", "Casual bot"]
        assert [s.name for s in store.table(lt.id).seats] == [s.name for s in lt.seats]

    run(store, body)


def test_a_bot_seat_stored_with_its_spec_as_name_shows_its_level(store):
    ann = person(store, "Ann")
    legacy = Seat(1, SeatKind.BOT, name="Bot (mcts:thoughtful)", bot="mcts:thoughtful")
    assert shown_seat_name(legacy) == "Thoughtful bot"
    assert shown_seat_name(replace(legacy, name="Robbie")) == "Robbie"
    assert bot_seat_name("no-such-bot") == "Bot"

    async def body(service: TableService) -> None:
        lt, _ = await service.create(ann, meeple.load("koplus", 2), [(ME, None), (OPEN, None)],
                                     start=False)
        store.update_seat(lt.id, legacy)
        if isinstance(store, SqlStore):  # what an older server stored is read as a level
            assert store.table(lt.id).seats[1].name == "Thoughtful bot"

    run(store, body)
