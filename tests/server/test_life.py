"""A table's life in the table service, on the in-memory store, SQLite and PostgreSQL: the
events its listeners are told, resigning, aborting, time limits and claims, taking back a move,
rated tables and creating a table once per request key."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import meeple
from meeple.server.domain import Code, Refused, SeatKind, TableEvent, TableStatus, UserRecord
from meeple.server.live import Holder, LiveTable
from meeple.server.service import PLAY_ON_BOT, TableService
from meeple.server.store import MemoryStore, SqlStore, Store

from .test_service import BOT, ME, OPEN, person, run, tiny, until
from .util import run_async

LIMIT = 0.3
"""The time limit per move of the tests' services (seconds)."""


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


Events = list[tuple[str, str, dict[str, Any]]]


def listen(service: TableService) -> Events:
    """Every event the service tells, as (table id, event, data)."""
    seen: Events = []

    def listener(lt: LiveTable, event: str, data: dict[str, Any]) -> None:
        seen.append((lt.id, event, data))

    service.on_event(listener)
    return seen


def test_events_of_joining_and_starting(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        seen = listen(service)
        lt, _ = await service.create(ann, tiny(), [(ME, None), (OPEN, None)])
        assert seen == []
        await service.join(lt, bob)
        names = [e for _, e, _ in seen]
        assert names == ["joined", "started", "turn"]
        assert seen[0] == (lt.id, "joined", {"seat": 1, "user_id": bob.id, "name": "Bob"})
        assert seen[2][2] == {"seats": [0, 1], "user_ids": sorted([ann.id, bob.id])}
        assert all(isinstance(e, TableEvent) for _, e, _ in seen)

    run(store, body)


def test_a_failing_listener_never_breaks_the_change(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        async def broken(lt: LiveTable, event: str, data: dict[str, Any]) -> None:
            raise RuntimeError("listener down")

        service.on_event(broken)
        seen = listen(service)
        lt, _ = await service.create(ann, tiny(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        assert lt.meta.status == "running"
        assert [e for _, e, _ in seen] == ["joined", "started", "turn"]

    run(store, body)


def run_with(store: Store, body: Callable[[TableService], Awaitable[None]], **kw: Any) -> None:
    """Run ``body`` with a table service on ``store`` (``kw``: its settings)."""

    async def main() -> None:
        service = TableService(store, rng=random.Random(5), **kw)
        try:
            await body(service)
        finally:
            service.stop()

    run_async(main())


def koplus(players: int = 2) -> meeple.Game:
    """A game of perfect information where no chance follows a move."""
    return meeple.load("koplus", players)


async def play(service: TableService, lt: LiveTable, seat: int) -> int:
    """``seat`` plays its first legal action; the new move number."""
    n = lt.state.move_number()
    assert seat in lt.state.pending_players()
    return await service.act(lt, seat, lt.state.legal_actions(seat)[0], n, by=Holder(
        lt.seats[seat].user_id))


def me(user: UserRecord) -> Holder:
    return Holder(user.id)


def test_resign_two_players_ends_the_game_counted_last(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        seen = listen(service)
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        await play(service, lt, 0)
        seen.clear()
        with pytest.raises(Refused) as e:
            await service.resign(lt, me(ann), 1)
        assert e.value.code == Code.FORBIDDEN
        await service.resign(lt, me(bob))
        assert lt.meta.status == TableStatus.FINISHED
        result = lt.meta.result
        assert result is not None and result["ranks"] == [1, 2] and result["winners"] == [0]
        assert result["resigned"] == [1] and result["timed_out"] == []
        assert [e for _, e, _ in seen] == ["resigned", "finished", "turn"]
        assert seen[0][2] == {"seat": 1, "user_id": bob.id, "name": "Bob"}
        assert seen[1][2] == {"ranks": [1, 2], "scores": result["scores"], "resigned": [1],
                              "timed_out": []}
        assert seen[2][2] == {"seats": [], "user_ids": []}
        stored = store.table(lt.id)
        assert stored is not None and stored.meta.status == TableStatus.FINISHED
        assert stored.meta.result == result
        assert stored.meta.departed == [{"seat": 1, "how": "resigned", "last": True}]
        with pytest.raises(Refused) as e:
            await service.resign(lt, me(ann))
        assert e.value.code == Code.CONFLICT

    run_with(store, body)


def test_resign_three_players_plays_on_then_ends_in_resign_order(store: Store) -> None:
    ann, bob, cat = person(store, "Ann"), person(store, "Bob"), person(store, "Cat")

    async def body(service: TableService) -> None:
        lt, _ = await service.create(ann, koplus(3), [(ME, None), (OPEN, None), (OPEN, None)])
        await service.join(lt, bob)
        await service.join(lt, cat)
        await service.resign(lt, me(ann))
        # two remain with people among them: a bot plays on for Ann, counted last
        assert lt.meta.status == TableStatus.RUNNING
        assert lt.seats[0].kind == SeatKind.BOT and lt.seats[0].bot == PLAY_ON_BOT
        assert lt.seats[0].user_id == ann.id and 0 not in lt.held_by(me(ann))
        assert service.turn_count(ann.id) == 0
        await until(lambda: 0 not in lt.state.pending_players())  # the bot played for Ann
        await service.resign(lt, me(bob))
        assert lt.meta.status == TableStatus.FINISHED
        result = lt.meta.result
        assert result is not None and result["ranks"] == [3, 2, 1]
        assert result["winners"] == [2] and result["resigned"] == [0, 1]

    run_with(store, body)


def test_abort_before_a_persons_first_move_only(store: Store) -> None:
    ann, bob, cat = person(store, "Ann"), person(store, "Bob"), person(store, "Cat")

    async def body(service: TableService) -> None:
        seen = listen(service)
        waiting, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        with pytest.raises(Refused) as e:
            await service.abort(waiting, me(bob))
        assert e.value.code == Code.FORBIDDEN
        await service.abort(waiting, me(ann))
        assert waiting.meta.status == TableStatus.ABORTED
        assert [e for _, e, _ in seen] == ["aborted"]
        with pytest.raises(Refused):
            await service.join(waiting, bob)

        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        with pytest.raises(Refused) as e:
            await service.abort(lt, me(cat))
        assert e.value.code == Code.FORBIDDEN
        seen.clear()
        await service.abort(lt, me(bob))
        assert lt.meta.status == TableStatus.ABORTED and lt.meta.result is None
        assert [e for _, e, _ in seen] == ["aborted", "turn"]
        stored = store.table(lt.id)
        assert stored is not None and stored.meta.status == TableStatus.ABORTED
        assert service.turn_count(ann.id) == 0
        with pytest.raises(Refused) as e:
            await play(service, lt, 0)

        moved, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(moved, bob)
        await play(service, moved, 0)
        with pytest.raises(Refused) as e:
            await service.abort(moved, me(bob))
        assert e.value.code == Code.CONFLICT and "resigned" in e.value.reason
        assert moved.meta.status == TableStatus.RUNNING

    run_with(store, body)


def test_undo_own_last_move_while_nobody_played_since(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        seen = listen(service)
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        n0 = lt.state.move_number()
        history = lt.state.history()
        with pytest.raises(Refused) as e:
            await service.undo(lt, me(ann))
        assert e.value.code == Code.CONFLICT and "your own last move" in e.value.reason
        await play(service, lt, 0)
        assert 0 in lt.life_json({0})["undo"] and lt.life_json({1})["undo"] == []
        with pytest.raises(Refused) as e:
            await service.undo(lt, me(bob))
        assert e.value.code == Code.CONFLICT
        seen.clear()
        assert await service.undo(lt, me(ann)) == n0
        assert lt.state.history() == history and lt.state.pending_players() == [0]
        assert [m.n for m in store.moves(lt.id)] == list(range(n0))
        stored = store.table(lt.id)
        assert stored is not None and stored.meta.move_count == n0 and stored.meta.undos == 1
        assert [e for _, e, _ in seen] == ["undone", "turn"]
        assert seen[0][2] == {"seat": 0}
        # the same move number is played again, a different move
        n = lt.state.move_number()
        await service.act(lt, 0, lt.state.legal_actions(0)[-1], n, by=me(ann))
        await play(service, lt, 1)
        with pytest.raises(Refused) as e:
            await service.undo(lt, me(ann))
        assert "nobody has played since" in e.value.reason
        assert [m.n for m in store.moves(lt.id)] == list(range(n0 + 2))

    run_with(store, body)


def test_no_undo_at_rated_tables_nor_after_chance(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)], rated=True)
        await service.join(lt, bob)
        assert lt.meta.rated and lt.summary(ann.id)["rated"] is True
        await play(service, lt, 0)
        assert lt.life_json({0})["undo"] == []
        with pytest.raises(Refused) as e:
            await service.undo(lt, me(ann))
        assert "rated" in e.value.reason

        bids, _ = await service.create(ann, tiny(), [(ME, None), (OPEN, None)])
        await service.join(bids, bob)
        n = bids.state.move_number()
        await service.act(bids, 0, 1, n, by=me(ann))
        # a hidden bid while the other has not bid yet showed nothing: it may be taken back
        assert bids.undo_refusal(0) is None
        assert await service.undo(bids, me(ann)) == n
        await service.act(bids, 0, 1, n, by=me(ann))
        await service.act(bids, 1, 0, n, by=me(bob))  # both bids shown, chance turns a prize
        with pytest.raises(Refused) as e:
            await service.undo(bids, me(bob))
        assert "chance" in e.value.reason

    run_with(store, body)


def test_rated_tables_need_standard_options_and_two_people(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        odd = meeple.load("koplus", 2, bonus_needs_points=True)
        with pytest.raises(Refused) as e:
            await service.create(ann, odd, rated=True)
        assert e.value.http_status == 422 and "standard options" in e.value.reason
        with pytest.raises(Refused) as e:
            await service.create(ann, koplus(), [(ME, None), (BOT, "random")], rated=True)
        assert e.value.http_status == 409 and "two different people" in e.value.reason
        with pytest.raises(Refused) as e:
            await service.create(ann, koplus(), [(ME, None), (ME, None)], rated=True)
        assert e.value.http_status == 409
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)], rated=True)
        assert lt.meta.status == TableStatus.WAITING
        await service.set_seat(lt, ann, 1, BOT, "random")
        with pytest.raises(Refused) as e:
            await service.start(lt, ann)
        assert e.value.code == Code.CONFLICT
        await service.set_seat(lt, ann, 1, OPEN)
        await service.join(lt, bob)
        assert lt.meta.status == TableStatus.RUNNING
        stored = store.table(lt.id)
        assert stored is not None and stored.meta.rated is True
        casual, _ = await service.create(ann, odd)
        assert store.table(casual.id).meta.rated is False  # type: ignore[union-attr]

    run_with(store, body)


def test_time_limit_claim_the_game(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        seen = listen(service)
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        with pytest.raises(Refused) as e:
            await service.claim(lt, me(bob), 0)
        assert e.value.code == Code.CONFLICT and "still has time" in e.value.reason
        assert lt.life_json({1})["claim"] is False
        await asyncio.sleep(LIMIT + 0.05)
        assert lt.late(time.time()) == [0]
        assert lt.life_json({1})["claim"] is True and lt.life_json({0})["claim"] is False
        with pytest.raises(Refused) as e:
            await service.claim(lt, me(ann), 0)
        assert e.value.code == Code.FORBIDDEN
        seen.clear()
        await service.claim(lt, me(bob), 0)
        assert lt.meta.status == TableStatus.FINISHED
        result = lt.meta.result
        assert result is not None and result["ranks"] == [2, 1] and result["timed_out"] == [0]
        assert [e for _, e, _ in seen] == ["timed_out", "claimed", "finished", "turn"]
        assert seen[0][2] == {"seat": 0, "user_id": ann.id, "name": "Ann"}
        assert seen[1][2] == {"seat": 0, "by": bob.id}

    run_with(store, body, move_limit=LIMIT)


def test_time_limit_hand_the_seat_to_a_bot(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        seen = listen(service)
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        await asyncio.sleep(LIMIT + 0.05)
        seen.clear()
        await service.claim(lt, me(bob), 0, to_bot=True)
        assert lt.seats[0].kind == SeatKind.BOT and lt.meta.status == TableStatus.RUNNING
        assert [e for _, e, _ in seen][:1] == ["timed_out"] and "claimed" not in [
            e for _, e, _ in seen]
        await until(lambda: 1 in lt.state.pending_players())  # the bot played for Ann
        stored = store.table(lt.id)
        assert stored is not None and stored.seats[0].kind == SeatKind.BOT
        assert stored.meta.departed == [{"seat": 0, "how": "timed_out", "last": False}]

    run_with(store, body, move_limit=LIMIT)


def test_a_table_nobody_plays_at_is_abandoned(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        assert service.turn_count(ann.id) == 1 and service.turn_count(bob.id) == 0
        await until(lambda: lt.meta.status == TableStatus.ABANDONED, 5)
        stored = store.table(lt.id)
        assert stored is not None and stored.meta.status == TableStatus.ABANDONED
        assert service.turn_count(ann.id) == 0
        assert lt.id not in store.running_ids()

    run_with(store, body, move_limit=LIMIT)


def test_the_same_request_key_answers_the_first_table(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        first, tokens = await service.create(ann, koplus(), key="k1")
        again, again_tokens = await service.create(ann, koplus(), key="k1")
        assert again.id == first.id and [t["seat"] for t in again_tokens] == [0]
        assert again.holds(0, None, again_tokens[0]["token"])
        other, _ = await service.create(bob, koplus(), key="k1")
        assert other.id != first.id
        fresh, _ = await service.create(ann, koplus(), key="k2")
        assert fresh.id != first.id
        # another process on the same storage answers the same table too
        if not isinstance(store, MemoryStore):
            twin = TableService(store)
            try:
                seen, _ = await twin.create(ann, koplus(), key="k1")
                assert seen.id == first.id
            finally:
                twin.stop()
        assert len(store.owned_open(ann.id)) == 2

    run_with(store, body)


def test_turn_counts_are_pushed_to_watchers(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        queue = service.watch(ann.id)
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        assert await asyncio.wait_for(queue.get(), 5) == 1
        await play(service, lt, 0)
        assert await asyncio.wait_for(queue.get(), 5) == 0
        await service.resign(lt, me(bob))
        assert queue.empty()  # Ann's count did not change: she was not to move
        service.unwatch(ann.id, queue)
        assert ann.id not in service.watchers

    run_with(store, body)
