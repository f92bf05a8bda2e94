"""The cap on a person's tables guards against floods of tables with other people, never
against games against bots: a table where the person sits alone with bots (the tutorial's game
too) waits on them alone, so it counts toward none of their limits while it stays in their
tables to be played on; guests from one address still share the bots' pool's limit of tables
with thinking bots."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server import create_app

from .util import new_guest

CAP = 10
"""The default most tables with other players one person may have."""
WAIT = 30.0
"""The ceiling on waiting for a bot's reply, in seconds (a reply takes milliseconds)."""
VS_BOT = {"game": "koplus", "players": 2,
          "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url)) as c:
        yield c


def _as(client: TestClient, cookies: dict[str, str]) -> None:
    """Make the next requests ``cookies``' person's."""
    client.cookies.clear()
    client.cookies.update(cookies)


def _person(client: TestClient, name: str) -> dict[str, str]:
    """A new guest called ``name``; their cookies."""
    client.cookies.clear()
    new_guest(client, name)
    return dict(client.cookies)


def _my_move(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    """Seat 0's frame once it is seat 0's turn (the bot has replied)."""
    deadline = time.monotonic() + WAIT
    while True:
        frame = client.get(f"/api/tables/{tid}/frame?seat=0",
                           headers={"X-Seat-Token": token}).json()
        if frame["to_move"] == [0] and frame["actions"]:
            return frame
        assert time.monotonic() < deadline, "the bot did not reply"
        time.sleep(0.02)


def _play(client: TestClient, tid: str, token: str) -> int:
    """Play seat 0's first legal move at a table against a bot; the move number after it."""
    frame = _my_move(client, tid, token)
    r = client.post(f"/api/tables/{tid}/act", json={
        "seat": 0, "action": frame["actions"][0]["action"],
        "move_number": frame["move_number"], "token": token})
    assert r.status_code == 200, r.text
    return int(r.json()["move_number"])


def _against_bot(client: TestClient) -> tuple[str, str]:
    """A new running table of the session's person against a bot: its id and seat token."""
    r = client.post("/api/tables", json=VS_BOT)
    assert r.status_code == 201, r.text
    return r.json()["table"]["id"], r.json()["tokens"][0]["token"]


def _with_others(client: TestClient, ann: dict[str, str], bob: dict[str, str],
                 n: int) -> list[int]:
    """Ann opens ``n`` tables for two and Bob sits down at each; the status codes of Ann's
    requests to open them."""
    codes = []
    for _ in range(n):
        _as(client, ann)
        r = client.post("/api/tables", json={"game": "koplus", "players": 2})
        codes.append(r.status_code)
        if r.status_code == 201:
            _as(client, bob)
            tid = r.json()["table"]["id"]
            assert client.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    _as(client, ann)
    return codes


def test_twenty_games_against_bots_left_midway_never_refuse_the_next(client):
    new_guest(client, "Ann")
    for _ in range(20):
        tid, token = _against_bot(client)
        _play(client, tid, token)  # one move, then off to another game
    r = client.post("/api/tables", json=VS_BOT)
    assert r.status_code == 201, r.text
    mine = client.get("/api/my/tables").json()["tables"]
    assert len(mine) == 21 and {t["status"] for t in mine} == {"running"}


def test_the_tutorials_game_never_counts(client):
    """With the cap reached by games with other people, the game that ends the tutorial
    (made as the tutorial's page makes it) still starts."""
    bob = _person(client, "Bob")
    ann = _person(client, "Ann")
    assert _with_others(client, ann, bob, CAP) == [201] * CAP
    closing = client.get("/api/learn/koplus").json()["closing"]
    r = client.post("/api/tables", json={
        "game": "koplus", "players": closing["players"], "options": closing["options"],
        "seats": [{"kind": "me"}] + [{"kind": "bot", "bot": closing["bot"]}] * (
            closing["players"] - 1),
        "visibility": "private", "start": True})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["status"] == "running"


def test_the_eleventh_table_with_other_people_is_refused_saying_what_to_do(client):
    bob = _person(client, "Bob")
    ann = _person(client, "Ann")
    for _ in range(3):  # games against bots do not bring the cap nearer
        _against_bot(client)
    assert _with_others(client, ann, bob, CAP + 1) == [201] * CAP + [429]
    r = client.post("/api/tables", json={"game": "koplus", "players": 2})
    assert r.status_code == 429 and r.headers["retry-after"]
    assert r.json()["detail"] == (
        "you have 10 tables with other players (or waiting for them), the most one person may "
        "have: finish, resign or call off one of them (under Your tables in the lobby) to start "
        "another; games against bots alone are not limited")
    r = client.post("/api/tables", json={"game": "koplus", "players": 2},
                    headers={"Accept-Language": "de"})
    assert r.status_code == 429 and "Deine Tische" in r.json()["detail"]
    _against_bot(client)  # a game against a bot still starts


def test_a_paused_game_against_a_bot_is_listed_and_played_on(client):
    new_guest(client, "Ann")
    first, token = _against_bot(client)
    n = _play(client, first, token)
    for _ in range(CAP + 2):  # more games against bots than the cap, each left at once
        _against_bot(client)
    listed = {t["id"]: t for t in client.get("/api/my/tables").json()["tables"]}
    assert len(listed) == CAP + 3 and listed[first]["my_seats"] == [0]
    assert first in {t["id"] for t in client.get("/api/my/turns").json()["tables"]}
    assert _play(client, first, token) > n  # the bot replied, and the game goes on
    assert client.get(f"/api/tables/{first}").json()["table"]["status"] == "running"


def test_guests_from_one_address_stay_within_the_pools_limit_of_thinking_bots(client):
    """Games against thinking bots count toward no person's cap, but guests from one address
    may still have only the bots' pool's six tables with thinking bots between them."""
    thinking = {**VS_BOT, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "mcts:5"}]}
    for name, n in (("Ann", 5), ("Bob", 1)):  # every request comes from "testclient"
        new_guest(client, name)
        for _ in range(n):  # more than the 4 thinking bots a person's other tables may have
            r = client.post("/api/tables", json=thinking)
            assert r.status_code == 201, r.text
    new_guest(client, "Cy")
    r = client.post("/api/tables", json=thinking)
    assert r.status_code == 429
    assert r.json()["detail"].startswith("guests playing from your address already have 6 "
                                         "tables with thinking bots")
    assert client.post("/api/tables", json=VS_BOT).status_code == 201
