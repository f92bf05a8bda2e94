"""Who holds a seat, checked on every message against who sits there now: a socket loses a
seat its holder left (by session or by token), a bot or another person taking it, a person
moving seats; one person holds one seat at a table of hidden information unless it is a
hot-seat table; the owner frees a bot seat with /leave."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from meeple.server import create_app
from meeple.server.store import MemoryStore

from .util import People, frames_until


@pytest.fixture
def people():
    with TestClient(create_app(store=MemoryStore())) as client:
        p = People(client)
        for name in ("Owner", "Bea", "Dan"):
            p.add(name)
        yield p


def _waiting_table(people: People, players: int = 2) -> str:
    r = people.be("Owner").post("/api/tables", json={
        "game": "kontor" if players == 2 else "mops_royal", "players": players, "start": False,
        "seats": [{"kind": "me"}] + [{"kind": "open"}] * (players - 1)})
    assert r.status_code == 201, r.text
    return r.json()["table"]["id"]


def _join(people: People, name: str, tid: str, seat: int) -> str:
    r = people.be(name).post(f"/api/tables/{tid}/join", json={"seat": seat})
    assert r.status_code == 200, r.text
    return r.json()["tokens"][0]["token"]


def _after_start(people: People, ws, tid: str, dan_seat: int = 1) -> None:
    """Start the table, then check that ``ws`` (which held ``dan_seat`` before) sees only the
    public view, was told its seats changed, and cannot act for the seat."""
    r = people.be("Owner").post(f"/api/tables/{tid}/start")
    assert r.status_code == 200, r.text
    seen = []
    for _ in range(200):
        msg = ws.receive_json()
        seen.append(msg)
        if msg.get("type") == "frame" and msg["status"] == "running":
            break
    frame = seen[-1]
    assert frame["seats"] == [] and frame["seat"] is None and frame["actions"] == []
    assert "hand" not in str(frame["observation"].get("private", ""))
    assert any(m.get("type") == "seats" and m["seats"] == [] for m in seen)
    dans = people.be("Dan").get(f"/api/tables/{tid}/frame", params={"seat": dan_seat}).json()
    legal = [a["action"] for a in dans["actions"]] or [0]
    ws.send_json({"type": "act", "seat": dan_seat, "action": legal[0],
                  "move_number": dans["move_number"]})
    ws.send_json({"type": "ping"})
    answers = []
    while True:
        msg = ws.receive_json()
        if msg["type"] == "pong":
            break
        answers.append(msg)
    assert any(m["type"] == "error" and m["code"] == "forbidden" for m in answers)
    after = people.be("Dan").get(f"/api/tables/{tid}/frame", params={"seat": dan_seat}).json()
    assert after["move_number"] == dans["move_number"]  # nothing was applied


def test_a_socket_loses_a_seat_its_holder_left(people):
    tid = _waiting_table(people)
    _join(people, "Bea", tid, 1)
    with people.be("Bea").websocket_connect(f"/ws/tables/{tid}") as ws:
        assert frames_until(ws, lambda f: True)["seats"] == [1]
        assert people.be("Bea").post(f"/api/tables/{tid}/leave",
                                     json={"seat": 1}).status_code == 200
        _join(people, "Dan", tid, 1)
        _after_start(people, ws, tid)


def test_a_token_only_socket_loses_a_seat_its_holder_left(people):
    tid = _waiting_table(people)
    token = _join(people, "Bea", tid, 1)
    with people.be(None).websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "tokens": [token]})
        frames_until(ws, lambda f: f["seats"] == [1])
        r = people.be(None).post(f"/api/tables/{tid}/leave", json={"seat": 1, "token": token})
        assert r.status_code == 200
        _join(people, "Dan", tid, 1)
        _after_start(people, ws, tid)


def test_a_socket_loses_a_seat_a_bot_took(people):
    tid = _waiting_table(people)
    _join(people, "Bea", tid, 1)
    with people.be("Bea").websocket_connect(f"/ws/tables/{tid}") as ws:
        frames_until(ws, lambda f: f["seats"] == [1])
        people.be("Bea").post(f"/api/tables/{tid}/leave", json={"seat": 1})
        r = people.be("Owner").post(f"/api/tables/{tid}/seats/1",
                                    json={"kind": "bot", "bot": "random"})
        assert r.status_code == 200, r.text
        people.be("Owner").post(f"/api/tables/{tid}/start")
        f = frames_until(ws, lambda f: f["status"] != "waiting")
        assert f["seats"] == [] and f["seat"] is None and f["actions"] == []


def test_a_socket_follows_its_holder_to_another_seat(people):
    tid = _waiting_table(people, players=3)
    _join(people, "Bea", tid, 1)
    with people.be("Bea").websocket_connect(f"/ws/tables/{tid}") as ws:
        frames_until(ws, lambda f: f["seats"] == [1])
        people.be("Bea").post(f"/api/tables/{tid}/leave", json={"seat": 1})
        _join(people, "Bea", tid, 2)
        _join(people, "Dan", tid, 1)
        told = []
        for _ in range(50):
            msg = ws.receive_json()
            if msg["type"] == "seats":
                told.append(msg["seats"])
                if msg["seats"]:
                    break
        assert told[-1] == [2] and all(seats in ([], [2]) for seats in told)
        f = frames_until(ws, lambda f: True)
        assert f["seats"] == [2]
        _ = people.be("Owner").post(f"/api/tables/{tid}/start")
        f = frames_until(ws, lambda f: f["status"] == "running")
        assert f["seats"] == [2] and f["seat"] == 2


def test_one_person_one_seat_at_a_table_of_hidden_information(people):
    tid = _waiting_table(people, players=3)
    token_b = _join(people, "Bea", tid, 1)
    r = people.be("Bea").post(f"/api/tables/{tid}/join", json={"seat": 2})
    assert r.status_code == 409 and "one seat" in r.json()["detail"]
    token_d = _join(people, "Dan", tid, 2)
    people.be("Owner").post(f"/api/tables/{tid}/start")
    # the tokens of two people's seats on one socket: it holds one of them only
    with people.be(None).websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "tokens": [token_b, token_d]})
        f = frames_until(ws, lambda f: f["seats"])
        assert f["seats"] == [1]


def test_a_hot_seat_table_of_hidden_information_keeps_every_seat(people):
    r = people.be("Owner").post("/api/tables", json={
        "game": "kontor", "players": 2, "seats": [{"kind": "me"}, {"kind": "me"}]})
    assert r.status_code == 201
    tid = r.json()["table"]["id"]
    with people.be("Owner").websocket_connect(f"/ws/tables/{tid}") as ws:
        assert frames_until(ws, lambda f: f["status"] == "running")["seats"] == [0, 1]


def test_the_owner_frees_a_bot_seat_with_leave(people):
    r = people.be("Owner").post("/api/tables", json={
        "game": "kontor", "players": 2, "start": False,
        "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]})
    tid = r.json()["table"]["id"]
    r = people.be("Bea").post(f"/api/tables/{tid}/leave", json={"seat": 1})
    assert r.status_code == 403  # only the owner
    r = people.be("Owner").post(f"/api/tables/{tid}/leave", json={"seat": 1})
    assert r.status_code == 200, r.text
    assert r.json()["table"]["seats"][1]["kind"] == "open"
