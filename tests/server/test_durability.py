"""Durability and scale-out: a restarted server resumes every table, clocks are enforced (also
across restarts), and two server instances on one PostgreSQL share tables through Redis."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest
from fastapi.testclient import TestClient

import meeple
from meeple.server import create_app

from .util import frames_until, hello, new_guest, rebuild, run_async, stored_moves


def _play_some(ws, seat: int, count: int, first=None):
    f = first
    for _ in range(count):
        if f is None or not (f["actions"] or f["status"] == "finished"):
            f = frames_until(ws, lambda f: f["actions"] or f["status"] == "finished")
        if f["status"] == "finished":
            return f
        ws.send_json({"type": "act", "seat": seat, "action": f["actions"][0]["action"],
                      "move_number": f["move_number"]})
        f = None
    return f


def test_restart_mid_game_then_finish(db_url):
    with TestClient(create_app(db_url)) as client:
        client.post("/api/signup", json={"name": "Ann", "password": "correct horse"})
        r = client.post("/api/tables", json={
            "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]})
        tid = r.json()["table"]["id"]
        token = r.json()["tokens"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            _play_some(ws, 0, 2)
            frames_until(ws, lambda f: f["actions"])
    # the first server is gone; a new one on the same database takes over
    before = stored_moves(db_url, tid)
    with TestClient(create_app(db_url)) as client:
        # every stored move is there; the bot, whose bid may have been still to come, may
        # have made it as the table was read again
        t = client.get(f"/api/tables/{tid}").json()["table"]
        assert t["status"] == "running" and len(before) <= t["move_number"] <= len(before) + 1
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            f = frames_until(hello(ws, token), lambda f: f["seats"])
            assert f["move_number"] >= len(before) and f["seats"] == [0]
            f = _play_some(ws, 0, 20, first=f)
            assert f["status"] == "finished"
        after = stored_moves(db_url, tid)
        assert after[: len(before)] == before
        state = rebuild("sealed_bids", 2, {"rounds": 3}, after)
        assert state.is_terminal()
        record = client.get(f"/api/tables/{tid}/record").json()
        assert meeple.replay(record).history() == state.history()


def test_restart_resumes_bot_tables(sqlite_url):
    games = [g for g in ("koplus", "sealed_bids") if g in meeple.games()]
    with TestClient(create_app(sqlite_url, bot_delay=0.3)) as client:
        new_guest(client, "Ann")
        ids = []
        for g in games:
            r = client.post("/api/tables", json={
                "game": g, "seats": [{"kind": "bot", "bot": "random"}] * 2})
            assert r.status_code == 201, r.text
            ids.append(r.json()["table"]["id"])
        time.sleep(0.5)
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        for tid in ids:
            with client.websocket_connect(f"/ws/tables/{tid}") as ws:
                f = frames_until(ws, lambda f: f["status"] == "finished", limit=5000)
            t = client.get(f"/api/tables/{tid}").json()["table"]
            state = rebuild(t["game"], 2, t["options"], stored_moves(sqlite_url, tid))
            assert state.is_terminal() and f["result"]["winners"] == state.winners()


def test_turn_clock_runs_out_and_a_bot_takes_over(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        new_guest(client, "Ann")
        r = client.post("/api/tables", json={
            "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}],
            "clock": {"kind": "per_move", "seconds": 0.4, "on_timeout": "bot", "bot": "random"}})
        tid = r.json()["table"]["id"]
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            f = frames_until(ws, lambda f: f["actions"])
            assert f["clocks"]["kind"] == "per_move" and 0 in f["clocks"]["running"]
            assert 0 < f["clocks"]["remaining"][0] <= 0.4
            f = frames_until(ws, lambda f: f["status"] == "finished", limit=5000)
        t = client.get(f"/api/tables/{tid}").json()["table"]
        assert t["seats"][0]["kind"] == "bot" and t["seats"][0]["name"] == "Ann"
        assert t["result"]["forfeit"] is None
        # the seat is the bot's now: its person can no longer act for it
        r = client.post(f"/api/tables/{tid}/act", json={"seat": 0, "action": 0,
                                                         "move_number": t["move_number"]})
        assert r.status_code == 403


def test_real_time_clock_forfeit_and_increment(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        new_guest(client, "Ann")
        r = client.post("/api/tables", json={
            "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "me"}],
            "clock": {"kind": "fischer", "initial": 1.0, "increment": 5,
                      "on_timeout": "forfeit"}})
        tid = r.json()["table"]["id"]
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            f = frames_until(ws, lambda f: f["actions"])
            ws.send_json({"type": "act", "seat": 0, "action": f["actions"][0]["action"],
                          "move_number": f["move_number"]})
            f = frames_until(ws, lambda f: f["move_number"] > f["move_number"] - 1
                             and f["to_move"] == [1])
            rem = f["clocks"]["remaining"]
            assert rem[0] > 5.0  # seat 0 moved in time: its bank grew by the increment
            assert 1 in f["clocks"]["running"] and rem[1] <= 1.0
            f = frames_until(ws, lambda f: f["status"] == "finished", limit=5000)
        assert f["result"]["forfeit"] == 1 and f["result"]["winners"] == [0]
        assert f["actions"] == []


def test_clock_deadline_passed_while_the_server_was_down(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        new_guest(client, "Ann")
        r = client.post("/api/tables", json={
            "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "me"}],
            "clock": {"kind": "per_move", "seconds": 0.6, "on_timeout": "forfeit"}})
        tid = r.json()["table"]["id"]
    time.sleep(0.8)
    with TestClient(create_app(sqlite_url)) as client:
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            f = frames_until(ws, lambda f: f["status"] == "finished", limit=100)
        assert f["result"]["forfeit"] == 0  # the lowest seat runs out first and forfeits


@pytest.mark.postgres
def test_two_servers_share_tables_through_redis(pg_url, redis_url):
    app1 = create_app(pg_url, redis_url)
    app2 = create_app(pg_url, redis_url)
    with TestClient(app1) as c1, TestClient(app2) as c2:
        new_guest(c1, "Ann")
        r = c1.post("/api/tables", json={"game": "sealed_bids", "visibility": "private"})
        t = r.json()["table"]
        tid, code = t["id"], t["invite"].rsplit("/", 1)[1]
        new_guest(c2, "Bob")
        r = c2.post(f"/api/tables/{tid}/join", json={"code": code})  # on the other server
        assert r.status_code == 200, r.text
        with c1.websocket_connect(f"/ws/tables/{tid}") as ann, \
                c2.websocket_connect(f"/ws/tables/{tid}") as bob:
            fa = frames_until(ann, lambda f: f["status"] == "running")
            fb = frames_until(bob, lambda f: f["status"] == "running")
            assert fa["seat"] == 0 and fb["seat"] == 1
            n = fb["move_number"]
            bob.send_json({"type": "act", "seat": 1, "action": fb["actions"][0]["action"],
                           "move_number": n})
            # Ann, on the first server, learns of Bob's move through Redis
            fa = frames_until(ann, lambda f: f["move_number"] == n + 1)
            assert fa["to_move"] == [0] and fa["log"][-1]["text"] == "(hidden)"
            # the same move arriving at both servers is stored once
            act = {"type": "act", "seat": 0, "action": fa["actions"][0]["action"],
                   "move_number": fa["move_number"]}
            body = {k: act[k] for k in ("seat", "action", "move_number")}
            r1 = c1.post(f"/api/tables/{tid}/act", json=body)
            r2 = c2.post(f"/api/tables/{tid}/act", json=body)
            assert r1.status_code == 200 and r2.status_code == 403  # Bob does not hold seat 0
            ann.send_json(act)
            err = ann.receive_json()
            while err["type"] == "frame":
                err = ann.receive_json()
            assert err["code"] == "stale"
            fb = frames_until(bob, lambda f: f["move_number"] > n + 1)
            assert fb["log"][n + 1]["text"].startswith("bid")
        moves = stored_moves(pg_url, tid)
        assert [m[1] for m in moves].count(0) == 1


@pytest.mark.postgres
def test_same_move_on_two_servers_is_stored_once(pg_url, redis_url):
    import threading

    app1 = create_app(pg_url, redis_url)
    app2 = create_app(pg_url, redis_url)
    with TestClient(app1) as c1, TestClient(app2) as c2:
        new_guest(c1, "Ann")
        r = c1.post("/api/tables", json={"game": "sealed_bids",
                                          "seats": [{"kind": "me"}, {"kind": "me"}]})
        tid = r.json()["table"]["id"]
        tokens = {t["seat"]: t["token"] for t in r.json()["tokens"]}
        f = c1.get(f"/api/tables/{tid}/frame?seat=0").json()
        body = {"seat": 0, "action": f["actions"][0]["action"], "move_number": f["move_number"],
                "token": tokens[0]}
        codes: list[int] = []
        threads = [threading.Thread(target=lambda c=c: codes.append(
            c.post(f"/api/tables/{tid}/act", json=body).status_code)) for c in (c1, c2) * 3]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(codes) == [200] + [409] * 5
        assert len(stored_moves(pg_url, tid)) == f["move_number"] + 1


class PatientBot:
    """Thinks until the deadline its view gives (or 20 s without one), then plays."""

    name = "patient"
    budgets: list[float | None] = []

    def __init__(self, game, seed=None):
        pass

    def act(self, view):
        now = time.monotonic()
        PatientBot.budgets.append(None if view.deadline is None else view.deadline - now)
        end = view.deadline if view.deadline is not None else now + 20
        while time.monotonic() < end:
            time.sleep(0.01)
        return view.legal_actions[0]


def test_bots_keep_to_the_tables_time_control(sqlite_url, monkeypatch):
    from meeple import bots

    monkeypatch.setitem(bots.BOTS, "patient", PatientBot)
    PatientBot.budgets.clear()
    with TestClient(create_app(sqlite_url)) as client:
        new_guest(client, "Ann")
        r = client.post("/api/tables", json={
            "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "patient"}],
            "clock": {"kind": "per_move", "seconds": 0.5, "on_timeout": "forfeit"}})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            f = _play_some(ws, 0, 3)
            f = frames_until(ws, lambda f: f["status"] == "finished", limit=200)
        assert f["result"].get("forfeit") is None
    assert len(PatientBot.budgets) == 3
    assert all(b is not None and 0 < b <= 0.5 for b in PatientBot.budgets)


@contextlib.asynccontextmanager
async def _listener_and_talker(redis_url: str, prefix: str, heard, on_resume=None):
    """Two processes' buses on ``prefix``, started (the first one's messages go to ``heard``,
    its resumptions to ``on_resume``), stopped after."""
    from meeple.server.fanout import RedisBus

    listener = RedisBus(redis_url, prefix, heard, on_resume)
    talker = RedisBus(redis_url, prefix, heard)
    await listener.start()
    await talker.start()
    try:
        yield listener, talker
    finally:
        await talker.stop()
        await listener.stop()


def test_a_burst_of_changes_reaches_the_other_process_in_order_on_one_connection(redis_url):
    async def main() -> None:
        got: list[str] = []
        done = asyncio.Event()

        async def heard(topic: str, data: str) -> None:
            got.append(topic)
            if topic == "t1999":
                done.set()

        async with _listener_and_talker(redis_url, "test:", heard) as (listener, talker):
            # more at once than the client's pool has connections
            await asyncio.gather(*(talker.publish(f"t{i}") for i in range(2000)))
            await asyncio.wait_for(done.wait(), 20)
            assert got == [f"t{i}" for i in range(2000)]  # each once, in order
            clients = await listener.client.client_list()
            assert len(clients) <= 4  # one listener and one sender each (and this query)

    run_async(main())


def test_the_other_processes_are_heard_again_after_redis_drops_the_connection(redis_url):
    async def main() -> None:
        got: list[str] = []
        resumed = asyncio.Event()

        async def heard(topic: str, data: str) -> None:
            got.append(topic)

        async def resume() -> None:
            resumed.set()

        async def hearing(topic: str) -> None:
            while topic not in got:
                await asyncio.sleep(0.02)

        async with _listener_and_talker(redis_url, "dropped:", heard, resume) as (_, talker):
            await talker.publish("before")
            await asyncio.wait_for(hearing("before"), 20)
            # Redis drops every listening connection (as a restart or a network cut does)
            assert await talker.client.execute_command("CLIENT", "KILL", "TYPE", "pubsub") >= 1
            await asyncio.wait_for(resumed.wait(), 20)  # told: what was missed must be read
            await talker.publish("after")
            await asyncio.wait_for(hearing("after"), 20)

    run_async(main())
