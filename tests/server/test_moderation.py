"""Moderation and accounts: operators made from the command line, suspended accounts, deleted
chat lines, closed tables, blocks, reports, a person's data downloaded and their account
deleted; and every one of these routes refusing whoever may not use it."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import inspect
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from meeple.server import create_app
from meeple.server.db import Base
from meeple.server.sockets import ENDED_CLOSE
from meeple.server.store import MemoryStore

from .util import People, play

PASSWORD = "correct horse"
GERMAN = {"Accept-Language": "de"}


def _people(app) -> Iterator[People]:
    """Ann, Bob and Cy (registered), Gus (a guest) and Op, an operator, on ``app``."""
    with TestClient(app) as client:
        p = People(client)
        for name in ("Ann", "Bob", "Cy", "Op"):
            p.add(name, PASSWORD)
        p.add("Gus")
        services = client.app.state.services
        services.store.set_operator(p.user("Op").id, True)
        yield p


@pytest.fixture
def people() -> Iterator[People]:
    """The people of :func:`_people`, their server's storage in memory."""
    yield from _people(create_app(store=MemoryStore()))


@pytest.fixture
def sql_people(db_url) -> Iterator[People]:
    """The people of :func:`_people`, their server's storage in SQLite and in PostgreSQL."""
    yield from _people(create_app(db_url))


def table(p: People, owner: str, *others: str, game: str = "sealed_bids",
          **extra) -> str:
    """A table of ``owner`` and ``others`` (in that order), started once all sit."""
    seats = [{"kind": "me"}] + [{"kind": "open"} for _ in others]
    r = p.be(owner).post("/api/tables", json={"game": game, "players": len(seats),
                                              "seats": seats, **extra})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    code = r.json()["table"].get("invite", "").rsplit("/", 1)[-1] or None
    for i, name in enumerate(others, start=1):
        r = p.be(name).post(f"/api/tables/{tid}/join", json={"seat": i, "code": code})
        assert r.status_code == 200, r.text
    return tid


def closed_code(ws) -> int:
    """Read a socket until it closes; its close code. A socket left open answers the pings
    sent to it meanwhile (so that reading it never waits for ever)."""
    ws.send_json({"type": "ping"})
    pongs = 0
    for _ in range(1000):
        try:
            m = ws.receive_json()
        except WebSocketDisconnect as e:
            return e.code
        if m.get("type") == "pong":
            pongs += 1
            if pongs > 50:
                break
            ws.send_json({"type": "ping"})
    raise AssertionError("the socket stayed open")


def message(ws, pred) -> dict:
    """The first message of ``ws`` that satisfies ``pred``; the socket is pinged meanwhile, so
    that it fails, not waits for ever, when no such message comes."""
    ws.send_json({"type": "ping"})
    pongs = 0
    for _ in range(1000):
        m = ws.receive_json()
        if pred(m):
            return m
        if m.get("type") == "pong":
            pongs += 1
            if pongs > 50:
                break
            ws.send_json({"type": "ping"})
    raise AssertionError("no such message came")


def chat_texts(p: People, who: str | None, tid: str) -> list[str]:
    r = p.be(who).get(f"/api/tables/{tid}/chat")
    assert r.status_code == 200, r.text
    return [x["text"] for x in r.json()["lines"]]


# ---------------------------------------------------------------------- operators
def test_grant_from_the_command_line_makes_an_operator_and_revoke_undoes_it(sqlite_url):
    from meeple.cli import app as cli

    with TestClient(create_app(sqlite_url)) as client:
        p = People(client)
        p.add("Ann", PASSWORD)
        p.add("Gus")
        assert p.be("Ann").get("/api/admin/reports").status_code == 403
        assert "operator" not in p.be("Ann").get("/api/me").json()
        r = CliRunner().invoke(cli, ["admin", "grant", "ann", "--db", sqlite_url])
        assert r.exit_code == 0, r.output
        assert "Ann" in r.output
        assert p.be("Ann").get("/api/admin/reports").status_code == 200
        assert p.be("Ann").get("/api/me").json()["operator"] is True
        r = CliRunner().invoke(cli, ["admin", "revoke", "Ann", "--db", sqlite_url])
        assert r.exit_code == 0, r.output
        assert p.be("Ann").get("/api/admin/reports").status_code == 403
        for name in ("Gus", "Nobody"):  # a guest, nobody of that name: refused, unchanged
            r = CliRunner().invoke(cli, ["admin", "grant", name, "--db", sqlite_url])
            assert r.exit_code != 0 and name in r.output
        assert p.be("Gus").get("/api/admin/reports").status_code == 403
        engine = client.app.state.services.store.engine  # the migration made what is used
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert [d for d in diff if "reports" in repr(d) or "operator" in repr(d)
                or "suspended" in repr(d) or "'block'" in repr(d)] == []
        assert {"reports"} <= set(inspect(engine).get_table_names())


def test_a_suspended_person_is_signed_out_a_bot_takes_their_seat_and_they_cannot_log_in(
        sql_people):
    people = sql_people
    tid = table(people, "Ann", "Bob", "Cy", game="koplus")
    two = table(people, "Bob", "Ann")  # two people: Bob's suspension ends this game
    waiting = people.be("Bob").post("/api/tables", json={
        "game": "sealed_bids", "start": False,
        "seats": [{"kind": "me"}, {"kind": "open"}]}).json()["table"]["id"]
    with people.be("Bob").websocket_connect("/ws/lobby/chat") as lobby, \
            people.be("Bob").websocket_connect(f"/ws/tables/{tid}") as at_table:
        assert lobby.receive_json()["type"] == "chat_history"
        r = people.be("Op").post("/api/admin/people/Bob/suspend")
        assert r.status_code == 200, r.text
        assert closed_code(lobby) == ENDED_CLOSE
        assert closed_code(at_table) == ENDED_CLOSE
    koplus = people.be("Ann").get(f"/api/tables/{tid}").json()["table"]
    assert koplus["status"] == "running"
    assert [s["kind"] for s in koplus["seats"]] == ["human", "bot", "human"]
    ended = people.be("Ann").get(f"/api/tables/{two}").json()["table"]
    assert ended["status"] == "finished" and ended["result"]["ranks"] == [2, 1]
    assert people.be("Ann").get(f"/api/tables/{waiting}").json()["table"]["status"] \
        == "aborted"
    bob = people.be("Bob")  # the old cookie signs in nowhere
    assert bob.get("/api/me").json()["name"] is None
    assert bob.post("/api/lobby/chat", json={"text": "hi"}).status_code == 401
    people.client.cookies.clear()
    r = people.client.post("/api/login", json={"name": "Bob", "password": PASSWORD})
    assert r.status_code == 403 and "suspended" in r.json()["detail"]
    german = people.client.post("/api/login", headers=GERMAN,
                                json={"name": "Bob", "password": PASSWORD})
    assert german.status_code == 403 and german.json()["detail"] != r.json()["detail"]
    assert people.be("Op").post("/api/admin/people/Bob/suspend").status_code == 409
    assert people.be("Op").post("/api/admin/people/Bob/unsuspend").status_code == 200
    r = people.client.post("/api/login", json={"name": "Bob", "password": PASSWORD})
    assert r.status_code == 200


def test_an_operator_deletes_a_chat_line_for_everyone(people):
    tid = table(people, "Ann", "Bob")
    with people.be("Cy").websocket_connect(f"/ws/tables/{tid}") as cy:
        r = people.be("Ann").post(f"/api/tables/{tid}/chat", json={"text": "rude words"})
        line = r.json()["line"]["id"]
        people.be("Bob").post(f"/api/tables/{tid}/chat", json={"text": "kind words"})
        assert people.be("Op").delete(f"/api/admin/chat/{line}").status_code == 200
        assert message(cy, lambda m: m["type"] == "chat_deleted")["id"] == line
    for who in ("Ann", "Bob", "Cy", None):  # the history read again
        texts = chat_texts(people, who, tid)
        assert "rude words" not in texts and "kind words" in texts, who
    with people.be("Bob").websocket_connect(f"/ws/tables/{tid}") as bob:
        bob.send_json({"type": "chat_history"})
        history = message(bob, lambda m: m["type"] == "chat_history")
        assert "rude words" not in [x["text"] for x in history["lines"]]
    lobby = people.be("Ann").post("/api/lobby/chat", json={"text": "lobby rude"}).json()
    assert people.be("Op").delete(f"/api/admin/chat/{lobby['line']['id']}").status_code == 200
    assert "lobby rude" not in [x["text"] for x in
                                people.be("Bob").get("/api/lobby/chat").json()["lines"]]
    assert people.be("Op").delete(f"/api/admin/chat/{line}").status_code == 404


def test_an_operator_closes_a_table_for_everyone(people):
    tid = table(people, "Ann", "Bob")
    with people.be("Ann").websocket_connect(f"/ws/tables/{tid}") as ann:
        assert people.be("Op").post(f"/api/admin/tables/{tid}/close").status_code == 200
        message(ann, lambda m: m["type"] == "frame" and m["status"] == "aborted")
    for who in ("Ann", "Bob", None):
        assert people.be(who).get(f"/api/tables/{tid}").json()["table"]["status"] == "aborted"
    assert "An operator closed the table." in chat_texts(people, "Bob", tid)
    frame = people.be("Ann").get(f"/api/tables/{tid}/frame", params={"seat": 0}).json()
    assert frame["actions"] == []
    assert people.be("Op").post(f"/api/admin/tables/{tid}/close").status_code == 409
    assert people.be("Op").post("/api/admin/tables/nowhere1/close").status_code == 404


# ---------------------------------------------------------------------- blocks
def test_a_block_hides_chat_refuses_invitations_and_keeps_tables_apart(people):
    tid = table(people, "Ann", "Bob")
    assert people.be("Ann").post("/api/my/blocks", json={"name": "bob"}).status_code == 200
    assert people.be("Ann").get("/api/my/blocks").json() == {"blocked": ["Bob"]}
    people.be("Bob").post(f"/api/tables/{tid}/chat", json={"text": "from Bob"})
    people.be("Ann").post(f"/api/tables/{tid}/chat", json={"text": "from Ann"})
    assert "from Bob" not in chat_texts(people, "Ann", tid)
    assert "from Ann" not in chat_texts(people, "Bob", tid)  # no chat either way
    assert {"from Ann", "from Bob"} <= set(chat_texts(people, "Cy", tid))
    people.be("Bob").post("/api/lobby/chat", json={"text": "lobby Bob"})
    assert "lobby Bob" not in [x["text"] for x in
                               people.be("Ann").get("/api/lobby/chat").json()["lines"]]
    # no invitations, either way
    for owner, guest in (("Ann", "Bob"), ("Bob", "Ann")):
        waiting = people.be(owner).post("/api/tables", json={
            "game": "sealed_bids", "start": False,
            "seats": [{"kind": "me"}, {"kind": "open"}]}).json()["table"]["id"]
        r = people.be(owner).post(f"/api/people/{guest}/invite", json={"table_id": waiting})
        assert r.status_code == 403 and r.json()["detail"], owner
        assert people.be(guest).get(f"/api/people/{guest}").json()["invitations"] == []
        # no shared table: the other cannot sit down where one of them sits
        r = people.be(guest).post(f"/api/tables/{waiting}/join", json={"seat": 1})
        assert r.status_code == 403 and "block" in r.json()["detail"], owner
        assert people.be("Cy").post(f"/api/tables/{waiting}/join",
                                    json={"seat": 1}).status_code == 200
    # the profile says so to the one who blocked, and a mute does not lift a block
    assert people.be("Ann").get("/api/people/Bob").json()["blocked"] is True
    assert people.be("Bob").get("/api/people/Ann").json()["blocked"] is False
    people.be("Ann").delete("/api/my/mutes/Bob")
    assert people.be("Ann").get("/api/my/blocks").json() == {"blocked": ["Bob"]}
    assert people.be("Ann").delete("/api/my/blocks/Bob").status_code == 200
    assert "from Bob" in chat_texts(people, "Ann", tid)
    assert people.be("Ann").post("/api/my/blocks", json={"name": "Ann"}).status_code == 422


# ---------------------------------------------------------------------- reports
def test_reports_reach_the_operators_and_nobody_else(people):
    tid = table(people, "Ann", "Bob", visibility="private")
    line = people.be("Ann").post(f"/api/tables/{tid}/chat",
                                 json={"text": "you are bad"}).json()["line"]["id"]
    r = people.be("Bob").post("/api/reports", json={"line": line, "reason": "insult"})
    assert r.status_code == 201, r.text
    r = people.be("Gus").post("/api/reports", json={"name": "Ann", "reason": "cheats"})
    assert r.status_code == 201, r.text
    # a line of a private table is not there for someone who may not read it
    assert people.be("Cy").post("/api/reports", json={"line": line, "reason": "x"}) \
        .status_code == 404
    for body in ({"reason": "why"}, {"line": line, "name": "Ann", "reason": "x"},
                 {"name": "Bob", "reason": ""}, {"name": "Bob", "reason": "x" * 501},
                 {"name": "Bob"}, {"line": -1, "reason": "x"}, {"name": "Bob", "reason": 3}):
        r = people.be("Bob").post("/api/reports", json=body)
        assert 400 <= r.status_code < 500 and r.json()["detail"], body
    reports = people.be("Op").get("/api/admin/reports").json()["reports"]
    assert [(x["reporter"], x["name"], x["text"], x["reason"]) for x in reports] == [
        ("Bob", "Ann", "you are bad", "insult"), ("Gus", "Ann", None, "cheats")]
    assert reports[0]["table"] == tid
    for who in ("Ann", "Bob", "Gus", None):
        r = people.be(who).get("/api/admin/reports")
        assert r.status_code in (401, 403) and r.json()["detail"], who
    assert people.be("Bob").post(f"/api/admin/reports/{reports[0]['id']}/close") \
        .status_code == 403
    assert people.be("Op").post(f"/api/admin/reports/{reports[0]['id']}/close") \
        .status_code == 200
    assert [x["reason"] for x in people.be("Op").get("/api/admin/reports").json()["reports"]] \
        == ["cheats"]


# ---------------------------------------------------------------------- your own account
def test_the_data_download_holds_ones_own_data_and_nobody_elses_private_data(people):
    tid = table(people, "Ann", "Bob", visibility="private")
    play(people, tid, {0: "Ann", 1: "Bob"})
    people.be("Ann").post(f"/api/tables/{tid}/chat", json={"text": "good game"})
    people.be("Bob").post(f"/api/tables/{tid}/chat", json={"text": "Bob's own words"})
    people.be("Bob").put("/api/my/notifications", json={"email": "bob@example.org"})
    people.be("Ann").post("/api/my/blocks", json={"name": "Cy"})
    people.be("Cy").post("/api/lobby/chat", json={"text": "Cy in the lobby"})
    r = people.be("Ann").get("/api/my/data")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["account"]["name"] == "Ann" and data["account"]["guest"] is False
    assert [g["id"] for g in data["games"]] == [tid]
    assert data["games"][0]["moves"] and data["games"][0]["seats_held"] == [0]
    assert [x["text"] for x in data["chat"]] == ["good game"]
    assert data["blocked"] == ["Cy"]
    text = r.text
    for private in ("Bob's own words", "bob@example.org", "Cy in the lobby", "password",
                    "argon2", "token", "invite"):
        assert private not in text, private
    assert people.be(None).get("/api/my/data").status_code == 401


def test_a_deleted_account_keeps_its_games_under_deleted_player(sql_people):
    people = sql_people
    tid = table(people, "Bob", "Ann", rated=True)
    play(people, tid, {0: "Bob", 1: "Ann"})
    people.be("Bob").post(f"/api/tables/{tid}/chat", json={"text": "well played"})
    running = table(people, "Cy", "Bob", "Ann", game="koplus")
    people.be("Bob").post("/api/my/blocks", json={"name": "Cy"})
    people.be("Bob").post("/api/people/Ann/follow")
    people.be("Ann").post("/api/people/Bob/follow")
    people.be("Ann").post("/api/my/mutes", json={"name": "Bob"})
    before_ann = people.be("Ann").get("/api/my/data").json()
    # the wrong password, or no confirmation, deletes nothing
    for body in ({"confirm": True, "password": "wrong password"}, {"password": PASSWORD},
                 {"confirm": False, "password": PASSWORD}):
        r = people.be("Bob").post("/api/my/account/delete", json=body)
        assert 400 <= r.status_code < 500 and r.json()["detail"], body
    assert people.be("Bob").get("/api/me").json()["name"] == "Bob"
    r = people.be("Bob").post("/api/my/account/delete",
                              json={"confirm": True, "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert people.be("Bob").get("/api/me").json()["name"] is None
    people.client.cookies.clear()
    assert people.client.post("/api/login", json={"name": "Bob", "password": PASSWORD}) \
        .status_code == 401
    assert people.be("Ann").get("/api/people/Bob").status_code == 404
    # the games stay, with "deleted player" in Bob's place: the table, its record and chat,
    # the leaderboard, Ann's profile
    seats = people.be("Ann").get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert [s["name"] for s in seats] == ["deleted player", "Ann"]
    assert people.be("Ann").get(f"/api/tables/{tid}").json()["table"]["owner"] \
        == "deleted player"
    german = people.be("Ann").get(f"/api/tables/{tid}", headers=GERMAN).json()["table"]
    assert german["seats"][0]["name"] not in ("deleted player", "Bob")
    record = people.be("Ann").get(f"/api/tables/{tid}/record").json()
    assert "Bob" not in json.dumps(record)
    lines = people.be("Cy").get(f"/api/tables/{tid}/chat").json()["lines"]
    assert "Bob" not in json.dumps(lines)
    assert ["deleted player", "well played"] in [[x["name"], x["text"]] for x in lines]
    board = people.be("Ann").get("/api/leaderboard/sealed_bids").json()["rows"]
    people_rows = [r["name"] for r in board if not r["bot"]]
    assert "deleted player" in people_rows and "Bob" not in people_rows
    ann = people.be("Ann").get("/api/people/Ann").json()
    assert "Bob" not in json.dumps(ann)
    assert ann["following"] == []
    koplus = people.be("Cy").get(f"/api/tables/{running}").json()["table"]
    assert koplus["status"] == "running"
    assert [s["kind"] for s in koplus["seats"]] == ["human", "bot", "human"]
    assert koplus["seats"][1]["name"] == "deleted player"
    # nothing of anyone else's went: Ann's data is as it was, but for Bob's name
    after_ann = people.be("Ann").get("/api/my/data").json()
    assert after_ann["chat"] == before_ann["chat"]
    assert after_ann["ratings"] == before_ann["ratings"]
    assert [g["id"] for g in after_ann["games"]] == [g["id"] for g in before_ann["games"]]
    assert people.be("Cy").post("/api/tables", json={
        "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "open"}]}).status_code == 201
    # the name "deleted player" is nobody's to take
    people.client.cookies.clear()
    for route in ("/api/guest", "/api/signup"):
        r = people.client.post(route, json={"name": "Deleted Player", "password": PASSWORD})
        assert r.status_code == 422, route
    # the freed name can be registered again, by someone new
    people.add("Bob", "another password")
    assert people.be("Bob").get("/api/people/Bob").json()["games"] == []


def test_a_guest_deletes_their_account_without_a_password(people):
    assert people.be("Gus").post("/api/my/account/delete", json={"confirm": True}) \
        .status_code == 200
    assert people.be("Gus").get("/api/me").json()["name"] is None


# ---------------------------------------------------------------------- who may do what
OPERATOR_ROUTES = [
    ("GET", "/api/admin/reports", None),
    ("POST", "/api/admin/reports/1/close", None),
    ("POST", "/api/admin/people/Ann/suspend", None),
    ("POST", "/api/admin/people/Ann/unsuspend", None),
    ("DELETE", "/api/admin/chat/1", None),
    ("POST", "/api/admin/tables/{tid}/close", None),
]
PERSONAL_ROUTES = [
    ("GET", "/api/my/blocks", None),
    ("POST", "/api/my/blocks", {"name": "Ann"}),
    ("DELETE", "/api/my/blocks/Ann", None),
    ("POST", "/api/reports", {"name": "Ann", "reason": "x"}),
    ("GET", "/api/my/data", None),
    ("POST", "/api/my/account/delete", {"confirm": True, "password": PASSWORD}),
]


def test_each_route_refuses_whoever_may_not_use_it(people):
    tid = table(people, "Ann", "Bob")
    people.be("Ann").post("/api/lobby/chat", json={"text": "still here"})
    people.be("Ann").post("/api/reports", json={"name": "Bob", "reason": "x"})
    before = people.be("Op").get("/api/admin/reports").json()
    for method, path, body in OPERATOR_ROUTES:
        url = path.replace("{tid}", tid)
        for who in (None, "Gus", "Ann", "Bob"):  # nobody, a guest, a person, another
            r = people.be(who).request(method, url, json=body)
            assert r.status_code == (401 if who is None else 403), (who, url)
            assert r.json()["detail"], (who, url)
    for method, path, body in PERSONAL_ROUTES:
        r = people.be(None).request(method, path, json=body)
        assert r.status_code == 401 and r.json()["detail"], path
    # nothing changed: the table runs, the line and the report are there, Ann signs in
    assert people.be("Ann").get(f"/api/tables/{tid}").json()["table"]["status"] == "running"
    assert "still here" in [x["text"] for x in
                            people.be("Bob").get("/api/lobby/chat").json()["lines"]]
    assert people.be("Op").get("/api/admin/reports").json() == before
    assert people.be("Ann").get("/api/me").json()["name"] == "Ann"
    # an operator cannot suspend themselves; unknown people and lines are 404
    assert people.be("Op").post("/api/admin/people/Op/suspend").status_code == 422
    assert people.be("Op").post("/api/admin/people/Nobody/suspend").status_code == 404
    assert people.be("Op").delete("/api/admin/chat/999999").status_code == 404
    assert people.be("Op").delete(f"/api/admin/chat/{2**40}").status_code == 404
    assert people.be("Op").post("/api/admin/reports/999/close").status_code == 404


MALFORMED = [b"", b"{", b"[]", b'{"name": 5}', b'{"confirm": "yes"}', b'{"line": "x"}',
             b'{"name": "\\ud800", "reason": "x"}', b"[" * 2000, b'{"reason": NaN}']


def test_malformed_bodies_get_a_4xx_with_a_reason(people):
    for body in MALFORMED:
        for who in ("Ann", "Op"):
            for path in ("/api/my/blocks", "/api/reports", "/api/my/account/delete"):
                r = people.be(who).post(path, content=body,
                                        headers={"content-type": "application/json"})
                assert 400 <= r.status_code < 500, (path, body[:20], r.status_code)
                assert r.json()["detail"]
    assert people.be("Ann").get("/api/me").json()["name"] == "Ann"
