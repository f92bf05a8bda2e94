"""REST API: players and sessions, the lobby, tables and seats, refusals with reasons."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import meeple
from meeple.server import create_app

from .util import new_guest


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url)) as c:
        yield c


def test_signup_login_logout_and_me(client):
    assert client.get("/api/me").json() == {"name": None, "guest": None, "lang": "en"}
    r = client.post("/api/signup", json={"name": "Ann", "password": "correct horse"})
    assert r.status_code == 200 and r.json() == {"name": "Ann", "guest": False, "lang": "en"}
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert client.get("/api/me").json()["name"] == "Ann"
    assert client.post("/api/logout").json() == {"ok": True}
    client.cookies.clear()
    assert client.get("/api/me").json()["name"] is None
    r = client.post("/api/login", json={"name": "ann", "password": "correct horse"})
    assert r.status_code == 200 and r.json()["name"] == "Ann"
    assert client.get("/api/me").json()["name"] == "Ann"


def test_signup_refusals(client):
    assert client.post("/api/signup", json={"name": "Ann", "password": "12345678"}).status_code \
        == 200
    r = client.post("/api/signup", json={"name": "ANN", "password": "12345678"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    r = client.post("/api/signup", json={"name": "Bob", "password": "short"})
    assert r.status_code == 422 and "password" in r.json()["detail"]
    r = client.post("/api/signup", json={"name": "<script>", "password": "12345678"})
    assert r.status_code == 422 and "name" in r.json()["detail"]
    r = client.post("/api/signup", json={"name": "Bob"})
    assert r.status_code == 422
    r = client.post(
        "/api/signup", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422


def test_passwords_are_hashed_with_argon2(db_url, client):
    from sqlalchemy import create_engine, text

    client.post("/api/signup", json={"name": "Ann", "password": "correct horse"})
    eng = create_engine(db_url)
    with eng.connect() as c:
        h = c.execute(text("SELECT password_hash FROM users WHERE name='Ann'")).scalar()
    eng.dispose()
    assert h.startswith("$argon2") and "correct horse" not in h


def test_login_rate_limit(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        client.post("/api/signup", json={"name": "Ann", "password": "correct horse"})
        client.cookies.clear()
        for _ in range(5):
            r = client.post("/api/login", json={"name": "Ann", "password": "wrong pass"})
            assert r.status_code == 401 and r.json()["detail"] == "wrong name or password"
        r = client.post("/api/login", json={"name": "Ann", "password": "correct horse"})
        assert r.status_code == 429 and "try again" in r.json()["detail"]
        assert int(r.headers["retry-after"]) > 0
        assert client.get("/api/me").json()["name"] is None


def test_login_rate_limit_per_address(sqlite_url):
    with TestClient(create_app(sqlite_url, login_limit=(100, 3, 60))) as client:
        for i in range(3):
            client.post("/api/login", json={"name": f"nobody{i}", "password": "whatever1"})
        r = client.post("/api/login", json={"name": "other", "password": "whatever1"})
        assert r.status_code == 429


def test_guests_get_distinct_names(client):
    assert new_guest(client, "Ann") == {"name": "Ann", "guest": True, "lang": "en"}
    assert new_guest(client, "Ann")["name"] == "Ann (2)"
    client.post("/api/signup", json={"name": "Reg", "password": "12345678"})
    r = client.post("/api/guest", json={"name": "reg"})
    assert r.status_code == 409 and "registered" in r.json()["detail"]
    r = client.post("/api/login", json={"name": "Ann", "password": "anything1"})
    assert r.status_code == 401  # a guest cannot log in with a password


def test_lobby_lists_games_rules_bots_clocks(client):
    games = client.get("/api/games").json()["games"]
    names = [g["name"] for g in games]
    assert names == meeple.games()
    for g in games:
        assert g["rules"] == f"/rules/{g['name']}"
        assert all("reconstructed" in o for o in g["options"])
        assert client.get(f"/api/games/{g['name']}").json()["name"] == g["name"]
    assert client.get("/api/games/chess").status_code == 404
    specs = [b["spec"] for b in client.get("/api/bots").json()["bots"]]
    assert "random" in specs and "greedy" in specs
    assert "blitz" in client.get("/api/clocks").json()["profiles"]


def test_rules_page_of_each_game(client):
    for name in meeple.games():
        if name == "sealed_bids":
            continue
        r = client.get(f"/api/games/{name}/rules")
        if r.status_code == 404:  # a game still being written may have no rules page yet
            assert "no rules page" in r.json()["detail"]
            continue
        text = r.json()["markdown"]
        assert r.status_code == 200 and len(text) > 100
        # the rulebook's pictures come as the URLs of their drawings
        assert "(picture:" not in text and f"(/api/learn/{name}/pictures/" in text


def test_create_table_refusals(client):
    r = client.post("/api/tables", json={"game": "sealed_bids"})
    assert r.status_code == 401 and "guest" in r.json()["detail"]
    new_guest(client)
    cases = [
        ({"game": "chess"}, 404, "no game named"),
        ({"game": "sealed_bids", "players": 3}, 422, "allowed: 2"),
        ({"game": "sealed_bids", "options": {"rounds": 9}}, 422, "allowed: 1, 2, 3"),
        ({"game": "sealed_bids", "options": {"colour": 1}}, 422, "unknown option"),
        ({"game": "sealed_bids", "seats": [{"kind": "me"}]}, 422, "1 seats for 2 players"),
        ({"game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "deep"}]},
         422, "no bot named"),
        ({"game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "bot"}]}, 422, "needs 'bot'"),
        ({"game": "sealed_bids", "clock": "eternal"}, 422, "no clock profile"),
        ({"game": "sealed_bids", "clock": {"kind": "fischer"}}, 422, "initial"),
        ({"game": "sealed_bids", "surprise": True}, 422, None),
    ]
    for body, code, words in cases:
        r = client.post("/api/tables", json=body)
        assert r.status_code == code, (body, r.text)
        if words:
            assert words in str(r.json()["detail"]), (body, r.text)
    assert client.get("/api/tables").json()["tables"] == []


def test_invite_join_start_and_seats(client, sqlite_url):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids", "visibility": "private",
                                          "start": False})
    assert r.status_code == 201
    t = r.json()["table"]
    tid, invite = t["id"], t["invite"]
    assert t["status"] == "waiting" and t["seats"][1]["kind"] == "open"
    colours = [c.to_json() for c in meeple.load("sealed_bids", 2).seat_colours()]
    assert [s["colour"] for s in t["seats"]] == colours
    assert set(colours[0]) == {"name", "label", "fill", "symbol", "ink"}
    assert client.get("/api/tables").json()["tables"] == []  # private: not listed
    code = invite.rsplit("/", 1)[1]
    assert client.get(invite).status_code == 200  # the page of the invite link
    ann = dict(client.cookies)
    client.cookies.clear()
    r = client.post(f"/api/tables/{tid}/join", json={})
    assert r.status_code == 401
    new_guest(client, "Bob")
    r = client.post(f"/api/tables/{tid}/join", json={})  # private: as if there were none
    assert r.status_code == 404 and r.json() == {"detail": "no such table"}
    r = client.post(f"/api/tables/{tid}/join", json={"code": "nope"})
    assert r.status_code == 404
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "code": code})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    r = client.post(f"/api/tables/{tid}/join", json={"code": code})
    assert r.status_code == 200
    assert r.json()["tokens"][0]["seat"] == 1
    assert "invite" not in r.json()["table"]  # only the owner sees the invite link
    r = client.post(f"/api/tables/{tid}/start")
    assert r.status_code == 403 and "owner" in r.json()["detail"]
    r = client.post(f"/api/tables/{tid}/leave", json={"seat": 0})
    assert r.status_code == 403
    assert client.post(f"/api/tables/{tid}/leave", json={"seat": 1}).status_code == 200
    assert client.post(f"/api/tables/{tid}/join", json={"code": code}).status_code == 200
    bob = dict(client.cookies)
    client.cookies.clear()
    client.cookies.update(ann)
    r = client.post(f"/api/tables/{tid}/seats/1", json={"kind": "bot", "bot": "random"})
    assert r.status_code == 409 and "Bob" in r.json()["detail"]
    r = client.post(f"/api/tables/{tid}/start")
    assert r.status_code == 200 and r.json()["table"]["status"] == "running"
    assert client.post(f"/api/tables/{tid}/start").status_code == 409
    client.cookies.clear()
    client.cookies.update(bob)
    turns = client.get("/api/my/turns").json()["tables"]
    assert [x["id"] for x in turns] == [tid]  # sealed bids: everyone bids at once
    r = client.post(f"/api/tables/{tid}/join", json={"code": code})
    assert r.status_code == 409 and "started" in r.json()["detail"]


def test_owner_puts_a_bot_in_a_seat_and_start_when_full(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids"})
    tid = r.json()["table"]["id"]
    assert r.json()["table"]["status"] == "waiting"
    listed = client.get("/api/tables?status=waiting").json()["tables"]
    assert [t["id"] for t in listed] == [tid]
    assert "invite" not in listed[0] and listed[0]["start_when_full"] is True
    assert all(set(s) == {"seat", "kind", "name", "colour", "bot", "bot_name"}
               for s in listed[0]["seats"])
    assert listed[0]["seats"][0]["colour"] == r.json()["table"]["seats"][0]["colour"]
    r = client.post(f"/api/tables/{tid}/start")
    assert r.status_code == 409 and "every seat" in r.json()["detail"]
    r = client.post(f"/api/tables/{tid}/seats/1", json={"kind": "bot", "bot": "greedy"})
    assert r.status_code == 200
    assert r.json()["table"]["status"] == "running"  # "start": true starts it when full
    r = client.post(f"/api/tables/{tid}/seats/1", json={"kind": "open"})
    assert r.status_code == 409


def test_rest_act_needs_the_seat(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids",
                                          "seats": [{"kind": "me"}, {"kind": "me"}]})
    tid = r.json()["table"]["id"]
    tokens = {t["seat"]: t["token"] for t in r.json()["tokens"]}
    frame = client.get(f"/api/tables/{tid}/frame?seat=0").json()
    n = frame["move_number"]
    a = frame["actions"][0]["action"]
    client.cookies.clear()
    r = client.post(f"/api/tables/{tid}/act", json={"seat": 0, "action": a, "move_number": n})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{tid}/act",
                    json={"seat": 0, "action": a, "move_number": n, "token": tokens[1]})
    assert r.status_code == 403
    assert client.get(f"/api/tables/{tid}/frame?seat=0",
                      headers={"X-Seat-Token": tokens[1]}).status_code == 403
    assert client.get(f"/api/tables/{tid}/frame?seat=0",
                      headers={"X-Seat-Token": tokens[0]}).status_code == 200
    # a seat token in the address is refused: addresses end up in logs
    r = client.get(f"/api/tables/{tid}/frame?seat=0&token={tokens[0]}")
    assert r.status_code == 400 and "X-Seat-Token" in r.json()["detail"]
    r = client.post(f"/api/tables/{tid}/act",
                    json={"seat": 0, "action": 7, "move_number": n, "token": tokens[0]})
    assert r.status_code == 409 and "no such action" in r.json()["detail"]
    r = client.post(f"/api/tables/{tid}/act",
                    json={"seat": 0, "action": "x", "move_number": n, "token": tokens[0]})
    assert r.status_code == 422
    r = client.post(f"/api/tables/{tid}/act",
                    json={"seat": 0, "action": a, "move_number": n, "token": tokens[0]})
    assert r.status_code == 200 and r.json()["move_number"] == n + 1
    r = client.post(f"/api/tables/{tid}/act",
                    json={"seat": 0, "action": a, "move_number": n, "token": tokens[0]})
    assert r.status_code == 409 and "already answered" in r.json()["detail"]
    assert client.get(f"/api/tables/{tid}").json()["table"]["move_number"] == n + 1
    assert client.get("/api/tables/nope").status_code == 404
    r = client.get(f"/api/tables/{tid}/motion")
    assert r.status_code == 404 and "no recorded motion" in r.json()["detail"]
    assert client.get(f"/api/tables/{tid}/record").status_code == 409  # not over yet
    assert client.get(f"/api/tables/{tid}/replay").status_code == 409


def test_pages_static_and_vendor(client):
    for path in ("/", "/login", "/table/abc", "/replay/abc", "/rules/koplus", "/profile/Ann"):
        r = client.get(path)
        assert r.status_code == 200 and "html" in r.headers["content-type"], path
    assert client.get("/static/index.html").status_code == 200
    assert client.get("/static/../../pyproject.toml").status_code == 404
    assert client.get("/healthz").json() == {"ok": True}
    if (meeple.__path__[0] + "/web/node_modules/three/package.json"):
        r = client.get("/vendor/three/package.json")
        assert r.status_code in (200, 404)


def test_pages_scripts_and_answers_are_compressed_where_the_browser_accepts_it(client):
    """A phone's first load: the scripts, the rules and the lobby's answers come gzipped to a
    browser that says it takes gzip, whole to one that does not; small answers as they are."""
    for path in ("/static/board.js", "/api/games", "/api/games/koplus/rules", "/api/words/de"):
        zipped = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert zipped.status_code == 200, path
        assert zipped.headers.get("content-encoding") == "gzip", path
        whole = client.get(path, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in whole.headers and whole.content == zipped.content
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers


def test_openapi_documents_every_route_with_its_answer(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path in ("/api/signup", "/api/login", "/api/guest", "/api/logout", "/api/me",
                 "/api/users/{name}", "/api/my/turns", "/api/my/tables", "/api/games",
                 "/api/games/{name}", "/api/games/{name}/rules", "/api/bots", "/api/clocks",
                 "/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/join",
                 "/api/tables/{table_id}/leave", "/api/tables/{table_id}/seats/{seat}",
                 "/api/tables/{table_id}/start", "/api/tables/{table_id}/rematch",
                 "/api/tables/{table_id}/act", "/api/tables/{table_id}/frame",
                 "/api/tables/{table_id}/record",
                 "/api/tables/{table_id}/replay", "/api/tables/{table_id}/motion", "/healthz"):
        assert path in paths, path
        for method, op in paths[path].items():
            ok = op["responses"].get("200") or op["responses"].get("201")
            assert ok and ok["content"]["application/json"]["schema"] != {}, (path, method)
    seat = spec["components"]["schemas"]["SeatSummary"]["properties"]
    assert "colour" in seat
    assert spec["components"]["schemas"]["SeatColour"]["required"] == ["name", "fill", "symbol",
                                                                       "ink"]


def test_the_app_runs_on_the_in_memory_store():
    from meeple.server.store import MemoryStore

    with TestClient(create_app(store=MemoryStore())) as client:
        new_guest(client, "Ann")
        r = client.post("/api/tables", json={"game": "sealed_bids",
                                              "seats": [{"kind": "me"}, {"kind": "bot",
                                                                         "bot": "random"}]})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        frame = client.get(f"/api/tables/{tid}/frame?seat=0").json()
        assert frame["status"] == "running" and frame["actions"]
        r = client.post(f"/api/tables/{tid}/act", json={
            "seat": 0, "action": frame["actions"][0]["action"],
            "move_number": frame["move_number"]})
        assert r.status_code == 200 and r.json()["move_number"] > frame["move_number"]
        assert [t["id"] for t in client.get("/api/my/tables").json()["tables"]] == [tid]
