"""What an attacker or a load tries: sessions that end on logout, private tables that stay
private, option values that are not numbers, malformed requests and socket messages, a crash
between the last seat and the start, simultaneous moves through two processes, quotas and a
full work pool, log-in lock-outs, forwarded addresses, socket origins and the SQLite WAL."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import meeple
from meeple.engine import MeepleError
from meeple.server import auth, create_app
from meeple.server.domain import Seat, TableStatus
from meeple.server.service import TableService
from meeple.server.store import MemoryStore, SqlStore

from .util import frames_until, new_guest, run_async


@pytest.fixture
def client():
    with TestClient(create_app(store=MemoryStore())) as c:
        yield c


def _cookie(c: TestClient) -> str:
    return c.cookies[auth.COOKIE]


# ---------------------------------------------------------------------- sessions
def test_logging_out_ends_the_session_for_good(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids",
                                         "seats": [{"kind": "me"}, {"kind": "open"}]})
    tid = r.json()["table"]["id"]
    old = _cookie(client)
    assert client.get(f"/api/tables/{tid}/frame", params={"seat": 0}).status_code == 200
    assert client.post("/api/logout").status_code == 200
    client.cookies.set(auth.COOKIE, old)  # the old cookie, kept by someone
    assert client.get("/api/me").json()["name"] is None
    assert client.get(f"/api/tables/{tid}/frame", params={"seat": 0}).status_code == 403


def test_logging_out_everywhere_ends_every_session(client):
    client.post("/api/signup", json={"name": "Ann", "password": "correct horse"})
    first = _cookie(client)
    client.cookies.clear()
    client.post("/api/login", json={"name": "Ann", "password": "correct horse"})
    second = _cookie(client)
    assert first != second
    assert client.post("/api/logout/all").status_code == 200
    for cookie in (first, second):
        client.cookies.set(auth.COOKIE, cookie)
        assert client.get("/api/me").json()["name"] is None
    client.cookies.clear()
    assert client.post("/api/logout/all").status_code == 401


def test_the_cookie_carries_only_a_session_id(client):
    new_guest(client, "Ann")
    cookie = _cookie(client)
    assert "." not in cookie and len(cookie) >= 40  # a random id, not a signed user id


# ---------------------------------------------------------------------- privacy
def _private_finished(client: TestClient) -> str:
    r = client.post("/api/tables", json={
        "game": "sealed_bids", "visibility": "private",
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
    tid = r.json()["table"]["id"]
    for _ in range(200):
        if client.get(f"/api/tables/{tid}").json()["table"]["status"] == "finished":
            return tid
        time.sleep(0.02)
    raise AssertionError("the bots did not finish")


def test_private_tables_stay_private_in_profiles_and_endpoints(client):
    new_guest(client, "Ann")
    ann = _cookie(client)
    r = client.post("/api/tables", json={"game": "sealed_bids", "visibility": "private",
                                         "seats": [{"kind": "me"}, {"kind": "bot",
                                                                    "bot": "random"}]})
    tid = r.json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        f = frames_until(ws, lambda f: f["actions"] or f["status"] == "finished")
        while f["status"] != "finished":
            ws.send_json({"type": "act", "seat": 0, "action": f["actions"][0]["action"],
                          "move_number": f["move_number"]})
            f = frames_until(ws, lambda f: f["actions"] or f["status"] == "finished")
    rematch = client.post(f"/api/tables/{tid}/rematch").json()["table"]["id"]
    games = client.get("/api/users/Ann").json()["games"]
    assert [g["id"] for g in games] == [tid]  # Ann sees her own private table
    client.cookies.clear()
    new_guest(client, "Eve")
    assert client.get("/api/users/Ann").json()["games"] == []
    for path in (f"/api/tables/{tid}", f"/api/tables/{tid}/record",
                 f"/api/tables/{tid}/replay", f"/api/tables/{tid}/frame",
                 f"/api/tables/{rematch}"):
        r = client.get(path)
        assert r.status_code == 404, (path, r.status_code)
    with client.websocket_connect(f"/ws/tables/{rematch}") as ws:
        ws.send_json({"type": "hello", "tokens": []})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    client.cookies.clear()
    client.cookies.set(auth.COOKIE, ann)
    assert client.get(f"/api/tables/{tid}/record").status_code == 200


def test_an_invite_code_opens_a_private_table(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids", "visibility": "private",
                                         "start": False})
    tid = r.json()["table"]["id"]
    code = r.json()["table"]["invite"].rsplit("/", 1)[1]
    client.cookies.clear()
    new_guest(client, "Bob")
    assert client.get(f"/api/tables/{tid}").status_code == 404
    assert client.get(f"/api/tables/{tid}", headers={"X-Invite-Code": code}).status_code == 200
    r = client.post(f"/api/tables/{tid}/join", json={"code": code})
    assert r.status_code == 200
    assert client.get(f"/api/tables/{tid}").status_code == 200  # seated now


# ---------------------------------------------------------------------- options
def test_options_refuse_non_finite_numbers_and_absurd_sizes():
    for bad in (float("nan"), float("inf"), float("-inf")):
        with pytest.raises(MeepleError):
            meeple.load("kozo", 2, tremor=bad)
    with pytest.raises(MeepleError):
        meeple.load("kontor", 2, scored_areas="largest_" + "9" * 4300)


def test_nan_and_infinity_in_a_body_are_refused(client):
    new_guest(client, "Ann")
    for body in (b'{"game":"kozo","options":{"stability":"mujoco","sim_seconds":NaN}}',
                 b'{"game":"kozo","options":{"tremor":Infinity}}',
                 b'{"game":"kozo","options":{"tremor":1e999}}',
                 b'{"game":"kozo","players":NaN}'):
        r = client.post("/api/tables", content=body,
                        headers={"content-type": "application/json"})
        assert r.status_code in (400, 422), (body, r.status_code)
        assert "detail" in r.json()
    assert client.get("/api/my/tables").json()["tables"] == []


# ---------------------------------------------------------------------- malformed input
MALFORMED = [
    b"\xff\xfe{}",
    b'{"name": "\\ud800"}',
    b'{"name": "A' + b"[" * 5 + b'"}',
    b"[" * 2000 + b"]" * 2000,
    b'{"name": ' + b"9" * 5000 + b"}",
    b'{"name": "Ann", "password": NaN}',
    b"",
]


@pytest.mark.parametrize("body", MALFORMED)
def test_malformed_bodies_get_a_4xx_with_a_reason(client, body, caplog):
    new_guest(client, "Ann")
    for path in ("/api/signup", "/api/guest", "/api/tables"):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, (path, body[:20], r.status_code)
        assert isinstance(r.json()["detail"], (str, list))
    assert "Traceback" not in caplog.text


def test_nul_bytes_in_addresses_and_bodies_are_refused(db_url):
    """PostgreSQL cannot hold a NUL character: such requests are refused before storage."""
    with TestClient(create_app(db_url)) as client:
        for path in ("/api/users/%00", "/api/tables/%00", "/api/tables?game=%00",
                     "/api/users/%ED%A0%80", "/api/tables/a%00b/replay"):
            r = client.get(path)
            assert 400 <= r.status_code < 500, (path, r.status_code)
        for path, body in (("/api/guest", {"name": "Ann\u0000"}),
                           ("/api/signup", {"name": "A\u0000", "password": "x\u0000" * 8})):
            r = client.post(path, json=body)
            assert 400 <= r.status_code < 500, (path, r.status_code)
        new_guest(client, "Ann")
        r = client.post("/api/tables", json={"game": "sealed_bids", "start": False,
                                             "seats": [{"kind": "me"},
                                                       {"kind": "bot", "bot": "\u0000"}]})
        assert r.status_code == 422


def test_a_malformed_socket_message_gets_an_error_and_the_socket_stays(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids",
                                         "seats": [{"kind": "me"}, {"kind": "me"}]})
    tid = r.json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        frames_until(ws, lambda f: True)
        ws.send_bytes(b"\x00\x01binary")
        ws.send_text("[" * 1000 + "]" * 1000)
        ws.send_text('{"type": "view", "seat": [1]}')
        ws.send_text('{"type": "act", "seat": {"a": 1}, "action": 1, "move_number": 0}')
        ws.send_text('{"type": "hello", "tokens": [1, 2]}')
        ws.send_text('{"type": "act", "seat": 0, "action": NaN, "move_number": 0}')
        errors = 0
        ws.send_json({"type": "ping"})
        while True:
            msg = ws.receive_json()
            if msg["type"] == "pong":
                break
            errors += msg["type"] == "error"
        assert errors == 6
        f = frames_until(ws.__enter__() if False else ws, lambda f: True) if False else None
        ws.send_json({"type": "view", "seat": 1})
        f = frames_until(ws, lambda f: f["seat"] == 1)
        assert f["seats"] == [0, 1]


# ---------------------------------------------------------------------- crash recovery
def test_a_full_table_set_to_start_starts_after_a_crash(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    store = SqlStore(url)
    ann = store.add_user("Ann", "ann", None, True)
    bob = store.add_user("Bob", "bob", None, True)
    assert ann and bob

    async def seat_without_start() -> str:
        service = TableService(store)
        lt, _ = await service.create(ann, meeple.load("sealed_bids", 2), start=True)
        # the join's write of the last seat, then the process dies before the start
        store.update_seat(lt.id, Seat.person(1, bob.id, bob.name), if_open=True)
        service.stop()
        return lt.id

    tid = run_async(seat_without_start())
    store.close()
    with TestClient(create_app(url)) as c:
        t = c.get(f"/api/tables/{tid}").json()["table"]
        assert t["status"] == "running" and t["start_when_full"]


# ---------------------------------------------------------------------- two processes
def test_simultaneous_moves_through_two_processes_are_both_accepted(tmp_path):
    """Two services (two processes) on one database: seat 1's move prepared while seat 0's
    was being stored elsewhere is tried again, not refused."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    store = SqlStore(url)
    ann = store.add_user("Ann", "ann", None, True)
    assert ann

    class Shared:
        async def publish(self, table_id: str) -> None:
            return None

    async def main() -> None:
        a = TableService(store, rng=random.Random(1))
        b = TableService(store, rng=random.Random(2))
        a.fanout = b.fanout = Shared()
        lt_a, _ = await a.create(ann, meeple.load("sealed_bids", 2),
                                 [("me", None), ("me", None)])
        lt_b = b.table(lt_a.id)
        n = lt_a.state.move_number()
        assert sorted(lt_a.state.pending_players()) == [0, 1]
        # seat 0's move is stored by the other process, which this one has not heard of yet
        step = lt_a.prepare([(0, lt_a.state.legal_actions(0)[0])], a.rng, light_bots=None)
        store.commit(lt_a.id, step.change)
        await b.act(lt_b, 1, lt_b.state.legal_actions(1)[0], n)
        assert len(store.moves(lt_a.id)) >= n + 2
        assert [m.player for m in store.moves(lt_a.id)[n:n + 2]] == [0, 1]
        a.stop()
        b.stop()

    run_async(main())
    store.close()


# ---------------------------------------------------------------------- quotas and pools
def test_one_player_cannot_open_tables_without_limit():
    from meeple.server.domain import Quotas

    with TestClient(create_app(store=MemoryStore(),
                               quotas=Quotas(tables=3, bot_seats=4, search_bots=2))) as c:
        new_guest(c, "Ann")
        body = {"game": "sealed_bids", "start": False}
        for _ in range(3):
            assert c.post("/api/tables", json=body).status_code == 201
        r = c.post("/api/tables", json=body)
        assert r.status_code == 429 and r.headers["retry-after"] and "tables" in r.json()["detail"]
        c.cookies.clear()
        new_guest(c, "Bob")
        mcts = {"game": "sealed_bids", "start": False,
                "seats": [{"kind": "bot", "bot": "mcts:3"}, {"kind": "bot", "bot": "mcts:3"}]}
        assert c.post("/api/tables", json=mcts).status_code == 201
        r = c.post("/api/tables", json=mcts)
        assert r.status_code == 429 and "mcts" in r.json()["detail"]
        listed = c.get("/api/tables", params={"status": "waiting"}).json()["tables"]
        assert [t["owner"] for t in listed].count("Bob") == 1


def test_a_full_work_pool_answers_503_with_retry_after(client):
    s = client.app.state.services  # type: ignore[attr-defined]
    tid = _private_finished_public(client)
    s.tables.work.pending = s.tables.work.limit  # every place taken
    r = client.get(f"/api/tables/{tid}/replay", params={"move": 1})
    assert r.status_code == 503 and r.headers["retry-after"]
    assert "busy" in r.json()["detail"]
    assert client.get("/healthz").status_code == 200
    s.tables.work.pending = 0
    assert client.get(f"/api/tables/{tid}/replay", params={"move": 1}).status_code == 200


def _private_finished_public(client: TestClient) -> str:
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={
        "game": "sealed_bids",
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
    tid = r.json()["table"]["id"]
    for _ in range(200):
        if client.get(f"/api/tables/{tid}").json()["table"]["status"] == "finished":
            return tid
        time.sleep(0.02)
    raise AssertionError("the bots did not finish")


def test_replays_run_off_the_event_loop(client):
    """A slow replay does not hold up other requests."""
    tid = _private_finished_public(client)
    s = client.app.state.services  # type: ignore[attr-defined]
    lt = s.tables.table(tid)
    real = lt._replay
    started, answered, held = threading.Event(), threading.Event(), []

    def slow(n, seat):  # held until /healthz has answered (a minute, if it cannot answer)
        started.set()
        held.append(answered.wait(60))
        return real(n, seat)

    lt._replay = slow
    done = []
    t = threading.Thread(target=lambda: done.append(
        client.get(f"/api/tables/{tid}/replay", params={"move": 2}).status_code))
    t.start()
    assert started.wait(60)
    assert client.get("/healthz").status_code == 200
    answered.set()
    t.join()
    assert done == [200] and held == [True]


def test_a_search_bot_thinks_in_another_process(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={
        "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]})
    tid = r.json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        f = frames_until(ws, lambda f: f["actions"])
        ws.send_json({"type": "act", "seat": 0, "action": f["actions"][0]["action"],
                      "move_number": f["move_number"]})
        frames_until(ws, lambda f: f["move_number"] > f["move_number"] - 1 and (
            f["actions"] or f["status"] == "finished"), limit=200)
    bots = client.app.state.services.tables.bots
    assert bots._executor is not None and bots._executor._processes  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- limits
def test_lock_outs_slow_the_attacker_not_the_owner():
    app = create_app(store=MemoryStore(), login_limit=(3, 50, 60.0))
    with TestClient(app, client=("10.0.0.66", 5000)) as attacker:
        attacker.post("/api/signup", json={"name": "Ann", "password": "correct horse"})
        attacker.cookies.clear()
        waits = []
        for _ in range(6):
            r = attacker.post("/api/login", json={"name": "Ann", "password": "wrong pass"})
            if r.status_code == 429:
                waits.append(int(r.headers["retry-after"]))
                s = app.state.services
                # let the delay pass, then fail again: the next delay is longer
                for key, (count, last) in list(s.limiter._pairs.items()):
                    s.limiter._pairs[key] = (count, last - 10_000)
        assert len(waits) >= 2 and waits == sorted(waits) and waits[-1] > waits[0]
        r = attacker.post("/api/login", json={"name": "Ann", "password": "wrong pass"})
        assert r.status_code == 401  # the delay passed: one more try, then a longer wait
        r = attacker.post("/api/login", json={"name": "Ann", "password": "wrong pass"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) > waits[-1]
    with TestClient(app, client=("192.0.2.7", 5000)) as owner:
        r = owner.post("/api/login", json={"name": "Ann", "password": "correct horse"})
        assert r.status_code == 200


def test_a_forwarded_address_counts_only_from_a_trusted_proxy():
    app = create_app(store=MemoryStore(), login_limit=(100, 3, 60.0))
    with TestClient(app, client=("127.0.0.1", 5000)) as c:
        for i in range(5):
            r = c.post("/api/login", json={"name": f"x{i}", "password": "wrong pass"},
                       headers={"X-Forwarded-For": f"203.0.113.{i}"})
        assert r.status_code == 429  # the header is ignored: one address failed 3 times
    app = create_app(store=MemoryStore(), login_limit=(100, 3, 60.0),
                     trusted_proxies=["127.0.0.1"])
    with TestClient(app, client=("127.0.0.1", 5000)) as c:
        for i in range(5):
            r = c.post("/api/login", json={"name": f"x{i}", "password": "wrong pass"},
                       headers={"X-Forwarded-For": f"203.0.113.{i}"})
        assert r.status_code == 401  # five clients behind the proxy, one failure each


def test_the_websocket_checks_its_origin(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids", "start": False})
    tid = r.json()["table"]["id"]
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/ws/tables/{tid}",
                                      headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
    with client.websocket_connect(f"/ws/tables/{tid}",
                                  headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "frame"


# ---------------------------------------------------------------------- SQLite
def test_sqlite_wal_stays_bounded_under_sustained_writes(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    store = SqlStore(url)
    store.wal_limit = 1 << 20  # the default (16 MiB) scaled to this test's writes
    wal = Path(f"{tmp_path / 'm.db'}-wal")
    ann = store.add_user("Ann", "ann", None, True)
    assert ann
    stop = threading.Event()

    def reader() -> None:  # the server reads all the time: readers overlap the checkpoints
        while not stop.is_set():
            with store.engine.connect() as conn:
                conn.exec_driver_sql("BEGIN")
                conn.exec_driver_sql("SELECT count(*) FROM moves").all()
                time.sleep(0.005)
                conn.exec_driver_sql("COMMIT")
            time.sleep(0.001)

    readers = [threading.Thread(target=reader) for _ in range(3)]
    for t in readers:
        t.start()
    biggest = 0
    try:
        from meeple.server.domain import Change, Move, TableMeta

        for t in range(40):
            tid = f"t{t}"
            store.add_table(TableMeta(tid, "sealed_bids", 2, {}, ann.id, "c", time.time()),
                            [Seat(0), Seat(1)])
            for n in range(0, 200, 20):
                store.commit(tid, Change(
                    moves=[Move(k, 0, 1, "x" * 190) for k in range(n, n + 20)],
                    move_count=n + 20, to_move=[0], status=TableStatus.RUNNING,
                    started=1.0, finished=None, result=None))
            store.checkpoint()
            biggest = max(biggest, wal.stat().st_size if wal.exists() else 0)
    finally:
        stop.set()
        for t in readers:
            t.join()
    store.close()
    assert biggest < 4 * 1024 * 1024, biggest


# ---------------------------------------------------------------------- names
def test_a_guest_name_never_blocks_a_registration(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids", "start": False})
    tid = r.json()["table"]["id"]
    guest = _cookie(client)
    client.cookies.clear()
    r = client.post("/api/signup", json={"name": "ann", "password": "correct horse"})
    assert r.status_code == 200 and r.json() == {"name": "ann", "guest": False, "lang": "en"}
    client.cookies.clear()
    client.cookies.set(auth.COOKIE, guest)
    assert client.get("/api/me").json() == {"name": "Ann (guest)", "guest": True, "lang": "en"}
    seats = client.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert seats[0]["name"] == "Ann (guest)" and seats[0]["mine"]
    # and a guest still cannot take a registered name
    r = client.post("/api/guest", json={"name": "ANN"})
    assert r.status_code == 409


def test_the_garbage_collector_runs_on_a_clock_youngest_most_often(monkeypatch):
    import asyncio
    import gc

    from meeple.server import app

    monkeypatch.setattr(app, "MIDDLE_EVERY", 4)
    monkeypatch.setattr(app, "FULL_EVERY", 12)
    seen: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    async def main() -> None:
        task = asyncio.create_task(app.collections(every=0.01))
        await asyncio.sleep(0.4)
        task.cancel()

    gc.callbacks.append(note)
    try:
        run_async(main())
    finally:
        gc.callbacks.remove(note)
    assert seen.count(0) >= 10 and seen.count(1) >= 3 and seen.count(2) >= 1
    assert seen.count(0) > seen.count(1) > seen.count(2)
