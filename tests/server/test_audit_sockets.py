"""What an attacker tries with sockets, on a real server (uvicorn on 127.0.0.1, real
WebSockets): sockets that outlive the session they were opened under (in one process and
through Redis in another), concurrent replays of one finished table, thousands of idle
sockets, a rated table's spectators' chat read without a cookie, two seats of one person at a
rated table, and one socket holding two people's seats at a hot-seat table."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from meeple.server import auth, create_app
from meeple.server.sockets import ENDED_CLOSE, TOO_MANY_CLOSE

from .conftest import free_port
from .util import rebuild, stored_moves

WAIT = 30.0
"""The longest a test waits for something that should happen at once (seconds)."""


class Served:
    """An app served by uvicorn on a free port of 127.0.0.1, in a thread of this process (so
    a test can look at what the app holds)."""

    def __init__(self, app: Any):
        self.app = app
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "no server"
            time.sleep(0.02)

    def client(self, **kw: Any) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=WAIT, **kw)

    def socket(self, path: str, cookie: str | None = None) -> ClientConnection:
        headers = {"Cookie": f"{auth.COOKIE}={cookie}"} if cookie else None
        return connect(f"ws://127.0.0.1:{self.port}{path}", additional_headers=headers,
                       open_timeout=WAIT, max_size=None, legacy=True)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)
        assert not self.thread.is_alive()

    @property
    def services(self) -> Any:
        return self.app.state.services


@pytest.fixture
def served(sqlite_url) -> Iterator[Served]:
    s = Served(create_app(sqlite_url))
    try:
        yield s
    finally:
        s.stop()


def signed_up(s: Served, name: str) -> tuple[httpx.Client, str]:
    """A registered player's client and session cookie."""
    c = s.client()
    r = c.post("/api/signup", json={"name": name, "password": "correct horse"})
    assert r.status_code == 200, r.text
    return c, c.cookies[auth.COOKIE]


def receive(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=WAIT))


def frame(ws: ClientConnection, pred=lambda f: True) -> dict[str, Any]:
    """The next frame (of the table socket ``ws``) that satisfies ``pred``."""
    for _ in range(500):
        msg = receive(ws)
        if msg.get("type") == "frame" and pred(msg):
            return msg
    raise AssertionError("no matching frame arrived")


def reply(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (frames and chat lines before it are skipped)."""
    for _ in range(500):
        msg = receive(ws)
        if msg.get("type") == kind:
            return msg
    raise AssertionError(f"no {kind} arrived")


def closed_code(ws: ClientConnection) -> tuple[int | None, list[dict[str, Any]]]:
    """Read until the server closes ``ws``: its close code, and what came before."""
    seen = []
    try:
        for _ in range(1000):
            seen.append(json.loads(ws.recv(timeout=WAIT)))
    except ConnectionClosed as e:
        return (e.rcvd.code if e.rcvd else None), seen
    raise AssertionError("the socket was not closed")


def until(pred, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not pred():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


# ---------------------------------------------------------------------- sessions
@pytest.mark.parametrize("how", ["logout", "logout/all"])
def test_ending_a_session_closes_every_socket_it_opened(served, how):
    ann, cookie = signed_up(served, "Ann")
    r = ann.post("/api/tables", json={"game": "kontor", "players": 2, "seats": [
        {"kind": "me"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    table = served.socket(f"/ws/tables/{tid}", cookie)
    lobby = served.socket("/ws/lobby/chat", cookie)
    turns = served.socket("/ws/me", cookie)
    other = served.socket(f"/ws/tables/{tid}")  # a spectator: no session, stays
    try:
        assert frame(table)["seats"] == [0]
        assert receive(lobby)["type"] == "chat_history"
        assert receive(turns)["type"] == "turns"
        frame(other)
        assert ann.post(f"/api/{how}").status_code == 200
        for ws in (table, lobby, turns):
            code, seen = closed_code(ws)
            assert code == ENDED_CLOSE
            assert all(m.get("seats") in (None, []) for m in seen[1:])  # no hand after
        other.send(json.dumps({"type": "ping"}))
        assert any(receive(other).get("type") == "pong" for _ in range(20))
        lt = served.services.tables.tables[tid]
        until(lambda: (served.app.state.sockets.by_session == {} and len(lt.conns) == 1
                       and not served.services.tables.watchers
                       and not served.app.state.community.chat.lobby),
              "what the closed sockets held is kept")
        assert len(served.app.state.sockets) == 1  # the spectator's
    finally:
        for ws in (table, lobby, turns, other):
            ws.close()


@pytest.mark.postgres
def test_a_session_ended_in_one_process_closes_its_sockets_in_another(pg_url, redis_url):
    one = Served(create_app(pg_url, redis_url))
    two = Served(create_app(pg_url, redis_url))
    try:
        ann, cookie = signed_up(one, "Ann")
        r = ann.post("/api/tables", json={"game": "sealed_bids", "seats": [
            {"kind": "me"}, {"kind": "open"}]})
        tid = r.json()["table"]["id"]
        table = two.socket(f"/ws/tables/{tid}", cookie)
        lobby = two.socket("/ws/lobby/chat", cookie)
        try:
            assert frame(table)["seats"] == [0]
            assert receive(lobby)["type"] == "chat_history"
            assert ann.post("/api/logout/all").status_code == 200
            assert closed_code(table)[0] == ENDED_CLOSE
            assert closed_code(lobby)[0] == ENDED_CLOSE
        finally:
            table.close()
            lobby.close()
        until(lambda: len(two.app.state.sockets) == 0, "the sockets stay known")
    finally:
        one.stop()
        two.stop()


def test_a_session_ended_while_redis_was_away_closes_its_sockets_in_another_when_it_is_back(
        pg_url, own_redis):
    port = free_port()
    store = own_redis(port)
    url = f"redis://127.0.0.1:{port}/0"
    one, two = Served(create_app(pg_url, url)), Served(create_app(pg_url, url))
    try:
        ann, cookie = signed_up(one, "Ann")
        tid = ann.post("/api/tables", json={"game": "sealed_bids", "seats": [
            {"kind": "me"}, {"kind": "open"}]}).json()["table"]["id"]
        table = two.socket(f"/ws/tables/{tid}", cookie)
        try:
            assert frame(table)["seats"] == [0]
            store.terminate()
            store.wait(WAIT)
            # the word of the logout cannot reach the other process
            assert ann.post("/api/logout/all").status_code == 200
            table.send('{"type": "ping"}')
            assert reply(table, "pong")  # still open
            own_redis(port)
            assert closed_code(table)[0] == ENDED_CLOSE
        finally:
            table.close()
    finally:
        one.stop()
        two.stop()


# ---------------------------------------------------------------------- idle sockets
def _spectated(served: Served) -> tuple[str, Any]:
    ann, _cookie = signed_up(served, "Ann")
    r = ann.post("/api/tables", json={"game": "sealed_bids", "seats": [
        {"kind": "me"}, {"kind": "open"}]})
    tid = r.json()["table"]["id"]
    return tid, served.services.tables.tables[tid]


def test_sockets_from_one_address_are_capped_and_release_what_they_held(served):
    tid, lt = _spectated(served)
    served.app.state.sockets.per_address = 5
    sockets = [served.socket(f"/ws/tables/{tid}") for _ in range(5)]
    try:
        for ws in sockets:
            frame(ws)
        extra = served.socket(f"/ws/tables/{tid}")
        code, seen = closed_code(extra)
        assert code == TOO_MANY_CLOSE
        assert seen[0]["type"] == "error" and seen[0]["code"] == "quota"
        assert "too many" in seen[0]["reason"]
        lobby = served.socket("/ws/lobby/chat")  # every kind of socket counts
        assert closed_code(lobby)[0] == TOO_MANY_CLOSE
    finally:
        for ws in sockets:
            ws.close()
    until(lambda: not lt.conns, "the table keeps its connections")
    until(lambda: served.app.state.sockets.by_address == {}, "the addresses stay counted")
    again = served.socket(f"/ws/tables/{tid}")  # room again once they closed
    frame(again)
    again.close()


def test_sockets_at_one_table_are_capped(served):
    tid, lt = _spectated(served)
    served.app.state.sockets.per_table = 3
    sockets = [served.socket(f"/ws/tables/{tid}") for _ in range(3)]
    try:
        for ws in sockets:
            frame(ws)
        code, seen = closed_code(served.socket(f"/ws/tables/{tid}"))
        assert code == TOO_MANY_CLOSE and "watching" in seen[0]["reason"]
    finally:
        for ws in sockets:
            ws.close()
    until(lambda: not lt.conns, "the table keeps its connections")


def test_a_spectator_coming_or_going_sends_the_others_nothing(served):
    tid, _lt = _spectated(served)
    first = served.socket(f"/ws/tables/{tid}")
    frame(first)
    for _ in range(3):
        served.socket(f"/ws/tables/{tid}").close()
    later = served.socket(f"/ws/tables/{tid}")
    frame(later)  # it was let in before the ping below
    first.send(json.dumps({"type": "ping"}))
    assert receive(first)["type"] == "pong"  # no frame for each spectator's coming
    first.close()
    later.close()


# ---------------------------------------------------------------------- replays
LANGS = ["en", "de", "es", "nl"]


def test_concurrent_replays_in_several_languages_all_answer(served, sqlite_url):
    ann, _cookie = signed_up(served, "Ann")
    r = ann.post("/api/tables", json={"game": "kontor", "players": 2, "seats": [
        {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
    tid = r.json()["table"]["id"]
    until(lambda: ann.get(f"/api/tables/{tid}").json()["table"]["status"] == "finished",
          "the bots did not finish")
    moves = stored_moves(sqlite_url, tid)
    asks = [(i * 37 % (len(moves) + 1), [None, 0, 1][i % 3], LANGS[i % 4]) for i in range(64)]
    answers: dict[int, tuple[int, Any]] = {}

    def ask(i: int) -> None:
        n, seat, lang = asks[i]
        params = {"move": n} | ({"seat": seat} if seat is not None else {})
        with served.client(cookies={"lang": lang}) as c:
            r = c.get(f"/api/tables/{tid}/replay", params=params)
            answers[i] = (r.status_code, r.json())

    healthy = []
    with ThreadPoolExecutor(64) as pool:
        jobs = [pool.submit(ask, i) for i in range(64)]
        with served.client() as c:
            while not all(j.done() for j in jobs):  # the server answers meanwhile
                healthy.append(c.get("/healthz").status_code)
        for j in jobs:
            j.result()
    assert healthy and set(healthy) == {200}
    for i, (status, body) in answers.items():
        n, seat, lang = asks[i]
        assert status == 200, (asks[i], body)
        state = rebuild("kontor", 2, {}, moves, n)
        assert body["move_number"] == n and body["total"] == len(moves)
        assert body["observation"] == json.loads(json.dumps(state.observation(seat)))
    german = [b for i, (_, b) in answers.items() if asks[i][2] == "de" and asks[i][0] > 10]
    english = [b for i, (_, b) in answers.items() if asks[i][2] == "en" and asks[i][0] > 10]
    assert german and english
    assert {e["sentence"] for b in german for e in b["log"]}.isdisjoint(
        {e["sentence"] for b in english for e in b["log"]} - {""})


# ---------------------------------------------------------------------- rated tables
def _rated(served: Served, game: str = "sealed_bids",
           ) -> tuple[str, dict[str, httpx.Client], dict[str, str], list[str]]:
    """A running rated two-person table of Ann and Bob (Cy, signed up, may watch): its id,
    everyone's client and cookie, and the seat tokens."""
    clients, cookies = {}, {}
    for name in ("Ann", "Bob", "Cy"):
        clients[name], cookies[name] = signed_up(served, name)
    r = clients["Ann"].post("/api/tables", json={"game": game, "rated": True,
                                                 "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    tokens = [r.json()["tokens"][0]["token"]]
    r = clients["Bob"].post(f"/api/tables/{tid}/join", json={"seat": 1})
    assert r.status_code == 200, r.text
    tokens.append(r.json()["tokens"][0]["token"])
    return tid, clients, cookies, tokens


def test_a_rated_tables_spectator_lines_stay_hidden_from_a_reader_without_cookie(served):
    tid, clients, cookies, _tokens = _rated(served)
    anonymous = served.socket(f"/ws/tables/{tid}")
    watcher = served.socket(f"/ws/tables/{tid}", cookies["Cy"])
    try:
        frame(anonymous)
        frame(watcher)
        assert clients["Cy"].post(f"/api/tables/{tid}/chat",
                                  json={"text": "Bob bids high"}).status_code == 200
        assert clients["Ann"].post(f"/api/tables/{tid}/chat",
                                   json={"text": "good luck"}).status_code == 200
        heard = []
        while "good luck" not in heard:
            msg = receive(anonymous)
            heard += [msg["text"]] if msg.get("type") == "chat" else []
        assert "Bob bids high" not in heard
        anonymous.send(json.dumps({"type": "chat_history"}))
        history = reply(anonymous, "chat_history")
        assert "Bob bids high" not in [x["text"] for x in history["lines"]]
        with served.client() as nobody:
            lines = nobody.get(f"/api/tables/{tid}/chat").json()["lines"]
        assert "Bob bids high" not in [x["text"] for x in lines]
        with served.client() as dee:
            dee.post("/api/signup", json={"name": "Dee", "password": "correct horse"})
            lines = dee.get(f"/api/tables/{tid}/chat").json()["lines"]
        assert "Bob bids high" in [x["text"] for x in lines]  # a signed-in spectator
    finally:
        anonymous.close()
        watcher.close()


def test_one_person_holds_one_seat_of_a_rated_table(served):
    ann, _cookie = signed_up(served, "Ann")
    r = ann.post("/api/tables", json={"game": "koplus", "players": 3, "rated": True,
                                      "start": False,
                                      "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "open"}]})
    assert r.status_code == 409 and "one seat" in r.json()["detail"]
    r = ann.post("/api/tables", json={"game": "koplus", "players": 2, "rated": True,
                                      "seats": [{"kind": "me"}, {"kind": "open"}]})
    tid = r.json()["table"]["id"]
    r = ann.post(f"/api/tables/{tid}/join", json={"seat": 1})
    assert r.status_code == 409 and "one seat" in r.json()["detail"]
    assert ann.get(f"/api/tables/{tid}").json()["table"]["status"] == "waiting"


def test_one_socket_holds_one_seat_of_a_rated_table(served):
    tid, _clients, _cookies, tokens = _rated(served, "koplus")  # nothing hidden: still one
    ws = served.socket(f"/ws/tables/{tid}")
    try:
        ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        assert frame(ws, lambda f: f["seats"] != [])["seats"] == [0]
        ws.send(json.dumps({"type": "view", "seat": 1}))
        assert reply(ws, "error")["code"] == "forbidden"
    finally:
        ws.close()


# ---------------------------------------------------------------------- hot-seat
def test_a_hot_seat_socket_holds_only_its_own_persons_seats(served):
    ann, ann_cookie = signed_up(served, "Ann")
    r = ann.post("/api/tables", json={"game": "kontor", "players": 3, "seats": [
        {"kind": "me", "name": "Ann"}, {"kind": "me", "name": "Ada"}, {"kind": "open"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    own = [t["token"] for t in r.json()["tokens"]]
    bob, _cookie = signed_up(served, "Bob")
    r = bob.post(f"/api/tables/{tid}/join", json={"seat": 2})
    assert r.status_code == 200, r.text
    bobs = r.json()["tokens"][0]["token"]
    for cookie, tokens in ((ann_cookie, [bobs]), (None, [*own, bobs]), (None, [own[0], bobs])):
        ws = served.socket(f"/ws/tables/{tid}", cookie)
        try:
            ws.send(json.dumps({"type": "hello", "tokens": tokens}))
            seats = frame(ws, lambda f: f["seats"] != [])["seats"]
            assert 2 not in seats and seats in ([0, 1], [0])
            ws.send(json.dumps({"type": "view", "seat": 2}))
            assert reply(ws, "error")["code"] == "forbidden"
        finally:
            ws.close()
