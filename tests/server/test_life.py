"""A table's life in the table service, on the in-memory store, SQLite and PostgreSQL: the
events its listeners are told, resigning, aborting, time limits and claims, taking back a move,
rated tables and creating a table once per request key."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

import meeple
from meeple.engine import CHANCE, registry
from meeple.server import auth, create_app
from meeple.server.domain import (
    DEFAULT_MOVE_LIMIT,
    Code,
    Refused,
    SeatKind,
    TableEvent,
    TableStatus,
    UserRecord,
)
from meeple.server.live import Holder, LiveTable
from meeple.server.service import PLAY_ON_BOT, TableService
from meeple.server.store import MemoryStore, SqlStore, Store

from ..engine.tinygame import Pictures, SealedBids, SealedBidsState
from .test_service import BOT, ME, OPEN, person, run, tiny, until
from .util import new_guest, rebuild, run_async, stored_moves

LIMIT = 0.3
"""The time limit per move of the tests' services (seconds)."""
LONG_LIMIT = 600.0
"""A time limit per move no machine runs out during a test, for tests that check a move still
in time (they then move the clock on by a whole limit)."""


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


def test_events_of_leaving_and_of_a_clock_running_out(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        seen = listen(service)
        lt, _ = await service.create(ann, tiny(), [(ME, None), (OPEN, None)], start=False)
        await service.join(lt, bob)
        await service.leave(lt, 1, bob.id, None)
        assert [(e, d) for _, e, d in seen] == [
            ("joined", {"seat": 1, "user_id": bob.id, "name": "Bob"}),
            ("left", {"seat": 1, "user_id": bob.id, "name": "Bob"})]
        await service.set_seat(lt, ann, 1, BOT, "random")
        await service.leave(lt, 1, ann.id, None)  # the owner frees a bot seat: nobody left
        assert [e for _, e, _ in seen] == ["joined", "left"]

        seen.clear()
        slow, _ = await service.create(
            ann, tiny(), [(ME, None), (BOT, "random")],
            clock={"kind": "per_move", "seconds": 0.2, "on_timeout": "bot", "bot": "random"})
        await until(lambda: slow.meta.status == TableStatus.FINISHED)
        told = [(e, d) for t, e, d in seen if t == slow.id]
        assert ("timed_out", {"seat": 0, "user_id": ann.id, "name": "Ann"}) in told
        finished = [d for e, d in told if e == "finished"]
        assert len(finished) == 1 and finished[0]["timed_out"] == [0]
        assert finished[0]["ranks"] == slow.meta.result["ranks"]  # type: ignore[index]
        assert [e for e, _ in told].index("timed_out") < [e for e, _ in told].index("finished")
        assert slow.meta.departed == [{"seat": 0, "how": "timed_out", "last": False,
                                       "moves": 1}]

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
        assert stored.meta.departed == [{"seat": 1, "how": "resigned", "last": True,
                                         "moves": 1}]
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
        played = await service.create(ann, koplus(3), [(ME, None), (OPEN, None), (OPEN, None)])
        on = played[0]
        await service.join(on, bob)
        await service.join(on, cat)
        await service.resign(on, me(cat))
        rng = random.Random(2)
        while on.meta.status == TableStatus.RUNNING:  # Ann and Bob play it out
            pending = [s for s in on.state.pending_players() if s != 2]
            if not pending:
                await asyncio.sleep(0.01)  # the bot plays for Cat
                continue
            seat = pending[0]
            with contextlib.suppress(Refused):  # the bot moved first
                await service.act(on, seat, rng.choice(on.state.legal_actions(seat)),
                                  on.state.move_number(), by=Holder(on.seats[seat].user_id))
        assert on.state.is_terminal() and on.meta.status == TableStatus.FINISHED
        ranked = on.meta.result
        assert ranked is not None and ranked["ranks"][2] == 3 and ranked["resigned"] == [2]
        assert sorted(ranked["ranks"][:2]) in ([1, 1], [1, 2])
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


def member(store: Store, name: str) -> UserRecord:
    """A registered player (rated tables are for them only)."""
    user = store.add_user(name, auth.name_key(name), None, guest=False)
    assert user is not None
    return user


def test_no_undo_at_rated_tables_nor_after_chance(store: Store) -> None:
    ann, bob = member(store, "Ann"), member(store, "Bob")

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
    ann, bob = member(store, "Ann"), member(store, "Bob")

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


def test_time_limit_claim_the_game(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        seen = listen(service)
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        with pytest.raises(Refused) as e:
            await service.claim(lt, me(bob), 0)
        assert e.value.code == Code.CONFLICT and "still has time" in e.value.reason
        assert lt.life_json({1})["claim"] is False
        # a whole limit later, Ann's time has run out (a limit long enough that a slow machine
        # never runs it out before the claim above)
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() + LONG_LIMIT)
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

    run_with(store, body, move_limit=LONG_LIMIT)


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
        # a table stored before turns were timed without a clock counts from its last move
        seat = lt.seats[0]
        assert seat.turn_started is not None and lt.last_moved is not None
        assert lt.limit_deadline(seat) == seat.turn_started + LIMIT
        legacy = replace(seat, turn_started=None)
        assert lt.limit_deadline(legacy) == lt.last_moved + LIMIT
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


# ---------------------------------------------------------------------- over HTTP
def _first_move(client: TestClient, tid: str, seat: int) -> int:
    """Play ``seat``'s first legal action over REST; the new move number."""
    f = client.get(f"/api/tables/{tid}/frame", params={"seat": seat}).json()
    r = client.post(f"/api/tables/{tid}/act", json={
        "seat": seat, "action": f["actions"][0]["action"], "move_number": f["move_number"]})
    assert r.status_code == 200, r.text
    return r.json()["move_number"]


def _two_players(app, registered: bool = False) -> tuple[TestClient, TestClient]:
    ann, bob = TestClient(app), TestClient(app)
    for client, name in ((ann, "Ann"), (bob, "Bob")):
        if registered:
            r = client.post("/api/signup", json={"name": name, "password": "correct horse"})
            assert r.status_code == 200, r.text
        else:
            new_guest(client, name)
    return ann, bob


def _table(ann: TestClient, bob: TestClient, **extra: Any) -> str:
    r = ann.post("/api/tables", json={"game": "koplus", **extra})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    assert bob.post(f"/api/tables/{tid}/join").status_code == 200
    return tid


def test_api_undo_resign_abort_and_claim(db_url):
    app = create_app(db_url)
    with TestClient(app):
        ann, bob = _two_players(app)
        watcher = TestClient(app)
        new_guest(watcher, "Cat")
        tid = _table(ann, bob)
        t = ann.get(f"/api/tables/{tid}").json()["table"]
        assert t["status"] == "running" and t["rated"] is False
        r = bob.post(f"/api/tables/{tid}/undo")
        assert r.status_code == 409 and "your own last move" in r.json()["detail"]
        n0 = t["move_number"]
        assert _first_move(ann, tid, 0) == n0 + 1
        frame = ann.get(f"/api/tables/{tid}/frame", params={"seat": 0}).json()
        assert frame["life"]["undo"] == [0] and frame["life"]["resign"] == [0]
        assert frame["life"]["abort"] is False and frame["life"]["claim"] is False
        assert frame["life"]["limit"] == DEFAULT_MOVE_LIMIT
        public = watcher.get(f"/api/tables/{tid}/frame").json()["life"]
        assert public["undo"] == [] and public["resign"] == [] and public["abort"] is False
        r = ann.post(f"/api/tables/{tid}/undo", json={})
        assert r.status_code == 200 and r.json() == {"ok": True, "move_number": n0}
        _first_move(ann, tid, 0)
        r = ann.post(f"/api/tables/{tid}/claim", json={"seat": 1})
        assert r.status_code == 409 and "Bob still has time" in r.json()["detail"]
        r = ann.post(f"/api/tables/{tid}/claim", json={"seat": 9})
        assert r.status_code == 422
        r = watcher.post(f"/api/tables/{tid}/resign")
        assert r.status_code == 403
        r = ann.post(f"/api/tables/{tid}/abort")
        assert r.status_code == 409 and "resigned now" in r.json()["detail"]
        r = bob.post(f"/api/tables/{tid}/resign", json={"seat": 1})
        assert r.status_code == 200
        t = r.json()["table"]
        assert t["status"] == "finished" and t["result"]["ranks"] == [1, 2]
        assert t["result"]["resigned"] == [1]
        assert bob.post(f"/api/tables/{tid}/resign").status_code == 409
        assert ann.post(f"/api/tables/{tid}/undo").status_code == 409

        other = _table(ann, bob)
        r = bob.post(f"/api/tables/{other}/abort")
        assert r.status_code == 200 and r.json()["table"]["status"] == "aborted"
        for client in (ann, bob):
            assert [x["id"] for x in client.get("/api/my/tables").json()["tables"]] == []
            assert client.get("/api/my/turns").json()["tables"] == []
        running = ann.get("/api/tables", params={"status": "running"}).json()["tables"]
        assert running == []
        waiting = ann.post("/api/tables", json={"game": "koplus"}).json()["table"]["id"]
        assert bob.post(f"/api/tables/{waiting}/abort").status_code == 403
        assert ann.post(f"/api/tables/{waiting}/abort").json()["table"]["status"] == "aborted"
        assert ann.post(f"/api/tables/{waiting}/join").status_code == 409


def test_api_rated_and_create_once_per_request_key(db_url):
    app = create_app(db_url)
    with TestClient(app):
        ann, bob = _two_players(app, registered=True)
        r = ann.post("/api/tables", json={"game": "koplus", "rated": True,
                                          "options": {"bonus_needs_points": True}})
        assert r.status_code == 422 and "standard options" in r.json()["detail"]
        r = ann.post("/api/tables", json={"game": "koplus", "rated": True, "seats": [
            {"kind": "me"}, {"kind": "bot", "bot": "random"}]})
        assert r.status_code == 409 and "two different people" in r.json()["detail"]
        tid = _table(ann, bob, rated=True)
        t = ann.get(f"/api/tables/{tid}").json()["table"]
        assert t["rated"] is True and t["status"] == "running"
        listed = ann.get("/api/my/tables").json()["tables"]
        assert [(x["id"], x["rated"]) for x in listed] == [(tid, True)]
        _first_move(ann, tid, 0)
        r = ann.post(f"/api/tables/{tid}/undo")
        assert r.status_code == 409 and "rated" in r.json()["detail"]

        key = {"Idempotency-Key": "create-1"}
        first = ann.post("/api/tables", json={"game": "koplus"}, headers=key)
        again = ann.post("/api/tables", json={"game": "koplus"}, headers=key)
        assert first.status_code == again.status_code == 201
        assert first.json()["table"]["id"] == again.json()["table"]["id"]
        assert [t["seat"] for t in again.json()["tokens"]] == [0]
        by_field = ann.post("/api/tables", json={"game": "koplus", "request_id": "create-1"})
        assert by_field.json()["table"]["id"] == first.json()["table"]["id"]
        theirs = bob.post("/api/tables", json={"game": "koplus"}, headers=key)
        assert theirs.json()["table"]["id"] != first.json()["table"]["id"]
        fresh = ann.post("/api/tables", json={"game": "koplus"},
                         headers={"Idempotency-Key": "create-2"})
        assert fresh.json()["table"]["id"] != first.json()["table"]["id"]
        r = ann.post("/api/tables", json={"game": "koplus", "request_id": ""})
        assert r.status_code == 422


def test_api_live_turn_count(db_url):
    app = create_app(db_url)
    with TestClient(app) as anon:
        with anon.websocket_connect("/ws/me") as ws:
            assert ws.receive_json()["code"] == "unauthorized"
        ann, bob = _two_players(app)
        with ann.websocket_connect("/ws/me") as ws:
            assert ws.receive_json() == {"type": "turns", "count": 0}
            tid = _table(ann, bob)
            assert ws.receive_json() == {"type": "turns", "count": 1}
            other = _table(ann, bob)
            assert ws.receive_json() == {"type": "turns", "count": 2}
            _first_move(ann, tid, 0)
            assert ws.receive_json() == {"type": "turns", "count": 1}
            bob.post(f"/api/tables/{other}/abort")
            assert ws.receive_json() == {"type": "turns", "count": 0}
            _first_move(bob, tid, 1)
            assert ws.receive_json() == {"type": "turns", "count": 1}
            bob.post(f"/api/tables/{tid}/resign")
            assert ws.receive_json() == {"type": "turns", "count": 0}
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}


def test_undo_and_resign_survive_a_restart(db_url):
    app = create_app(db_url)
    with TestClient(app):
        ann, bob = _two_players(app)
        tid = _table(ann, bob)
        n = _first_move(ann, tid, 0)
        _first_move(bob, tid, 1)
        _first_move(ann, tid, 0)
        assert ann.post(f"/api/tables/{tid}/undo").json()["move_number"] == n + 1
        kept = stored_moves(db_url, tid)
        assert len(kept) == n + 1
        cookies = (dict(ann.cookies), dict(bob.cookies))
    app = create_app(db_url)  # a new server on the same database
    with TestClient(app) as client:
        client.cookies.update(cookies[0])
        t = client.get(f"/api/tables/{tid}").json()["table"]
        assert t["move_number"] == n + 1 and t["to_move"] == [0]
        f = client.get(f"/api/tables/{tid}/frame", params={"seat": 0}).json()
        assert f["move_number"] == n + 1
        assert sum(e.get("moves", 1) for e in f["log"]) == n + 1
        state = rebuild("koplus", 2, {}, kept)
        assert f["observation"] == state.observation(0)
        client.cookies.clear()
        client.cookies.update(cookies[1])
        assert client.post(f"/api/tables/{tid}/resign").status_code == 200
    with TestClient(create_app(db_url)) as client:
        t = client.get(f"/api/tables/{tid}").json()["table"]
        assert t["status"] == "finished" and t["result"]["resigned"] == [1]
        assert t["result"]["ranks"] == [1, 2]
        assert stored_moves(db_url, tid) == kept


def test_another_process_sees_a_move_taken_back(db_url) -> None:
    """Two services on one database: a move taken back in one is gone in the other too."""
    store = SqlStore(db_url)
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        lt, _ = await service.create(ann, koplus(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        other = TableService(store)
        try:
            twin = other.get(lt.id)
            assert twin is not None
            n = await play(service, lt, 0)
            other.refresh(twin)
            assert twin.state.move_number() == n
            await service.undo(lt, me(ann))
            await service.act(lt, 0, lt.state.legal_actions(0)[-1], n - 1, by=me(ann))
            other.refresh(twin)  # same move count as before the undo, another move
            assert twin.state.history() == lt.state.history()
            assert twin.meta.undos == 1 and twin.undo_refusal(0) is None
            await other.undo(twin, me(ann))
            service.refresh(lt)
            assert lt.state.history() == twin.state.history()
            assert lt.state.move_number() == n - 1
        finally:
            other.stop()

    try:
        run_with(store, body)
    finally:
        store.close()


def test_nobody_claims_against_their_own_seat(store: Store) -> None:
    ann = person(store, "Ann")

    async def body(service: TableService) -> None:
        lt, _ = await service.create(ann, koplus(), [(ME, None), (ME, None)])  # hot-seat
        await asyncio.sleep(LIMIT + 0.05)
        assert lt.late(time.time()) == [0]
        assert lt.life_json({0, 1})["claim"] is False
        with pytest.raises(Refused) as e:
            await service.claim(lt, me(ann), 0)
        assert e.value.code == Code.FORBIDDEN
        assert lt.meta.status == TableStatus.RUNNING

    run_with(store, body, move_limit=LIMIT)


@pytest.mark.postgres
def test_the_turn_count_follows_moves_made_on_another_server(pg_url, redis_url):
    apps = [create_app(pg_url, redis_url) for _ in range(3)]
    with TestClient(apps[0]) as c1, TestClient(apps[1]) as c2, TestClient(apps[2]) as bob:
        new_guest(c1, "Ann")
        new_guest(bob, "Bob")
        c2.cookies.update(dict(c1.cookies))  # Ann's session, on the other server
        with c2.websocket_connect("/ws/me") as ws:
            assert ws.receive_json() == {"type": "turns", "count": 0}
            tid = _table(c1, bob)
            assert ws.receive_json() == {"type": "turns", "count": 1}
            _first_move(c1, tid, 0)
            assert ws.receive_json() == {"type": "turns", "count": 0}
            _first_move(bob, tid, 1)
            assert ws.receive_json() == {"type": "turns", "count": 1}
            assert bob.post(f"/api/tables/{tid}/resign").status_code == 200
            assert ws.receive_json() == {"type": "turns", "count": 0}


class _FixedPrizeState(SealedBidsState):
    """Sealed bids where the first prize stays for every round: no chance event follows a
    bid, so a bid that shows the other's sealed bid is the last entry of the history."""

    def _apply(self, action: int, player: int) -> None:
        prize = self.prize
        super()._apply(action, player)
        if player != CHANCE and self.prize is None and prize is not None:
            self.prize = prize


class _FixedPrize(SealedBids):
    name = "fixed_prize_bids"
    title = "Sealed bids with a fixed prize (test game)"
    state_class = _FixedPrizeState


def test_no_undo_of_a_move_that_showed_something_hidden(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")
    registry.register(_FixedPrize, renderer=Pictures())

    async def body(service: TableService) -> None:
        lt, _ = await service.create(ann, meeple.load(_FixedPrize.name, 2),
                                     [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        n = lt.state.move_number()
        await service.act(lt, 0, 2, n, by=me(ann))  # Ann's bid is sealed: Bob cannot see it
        await service.act(lt, 1, 0, n, by=me(bob))  # Bob's bid closes the round: both shown
        assert lt.log[-1].player == 1 and lt.meta.status == TableStatus.RUNNING
        assert lt.life_json({1})["undo"] == []
        with pytest.raises(Refused) as e:
            await service.undo(lt, me(bob))
        assert e.value.code == Code.CONFLICT and "showed you something hidden" in e.value.reason
        assert [m.player for m in store.moves(lt.id)][-2:] == [0, 1]  # nothing taken back

    try:
        run_with(store, body)
    finally:
        registry._GAMES.pop(_FixedPrize.name, None)
