"""The bot levels over the API: ``/api/bots`` lists the ladder, and bot seats carry the level's
name (``bot_name``) in table summaries, live frames, the finished table and its replay."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from meeple.bots import bot_choices
from meeple.bots.levels import LADDER
from meeple.server import create_app

from .util import frames_until, new_guest


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url)) as c:
        yield c


def test_api_bots_lists_the_ladder_weakest_first(client):
    r = client.get("/api/bots")
    assert r.status_code == 200
    bots = r.json()["bots"]
    assert bots == bot_choices()
    assert [b["spec"] for b in bots] == [s.spec for s in LADDER]
    assert [b["step"] for b in bots] == list(range(1, len(LADDER) + 1))
    for b in bots:
        assert set(b) == {"spec", "name", "description", "step"}
        assert b["name"] and b["description"].endswith(".")
        assert ":" not in b["name"] and "_" not in b["description"]
    assert len({b["name"] for b in bots}) == len(bots)


def test_every_listed_level_takes_a_seat_and_shows_its_name(client):
    new_guest(client, "Ann")
    for b in client.get("/api/bots").json()["bots"]:
        r = client.post("/api/tables", json={
            "game": "sealed_bids", "start": False,
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": b["spec"]}]})
        assert r.status_code == 201, r.text
        seats = r.json()["table"]["seats"]
        assert seats[1]["bot"] == b["spec"] and seats[1]["bot_name"] == b["name"]
        assert seats[0]["kind"] != "bot" and seats[0]["bot_name"] is None
        tid = r.json()["table"]["id"]
        listed = {t["id"]: t for t in client.get("/api/tables?status=waiting").json()["tables"]}
        assert listed[tid]["seats"][1]["bot_name"] == b["name"]


def test_an_old_spec_is_named_by_its_place_on_the_ladder(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={
        "game": "sealed_bids", "start": False,
        "seats": [{"kind": "me"}, {"kind": "bot", "bot": "mcts:3"}]})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["seats"][1]["bot_name"] == "Casual"


def test_players_of_frames_results_and_replays_carry_the_level_name(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={
        "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]})
    tid = r.json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        f = frames_until(ws, lambda f: bool(f["actions"]))
        assert [p["bot_name"] for p in f["players"]] == [None, "Casual"]
        while f["status"] != "finished":
            ws.send_json({"type": "act", "seat": 0, "action": f["actions"][0]["action"],
                          "move_number": f["move_number"]})
            f = frames_until(ws, lambda f: f["actions"] or f["status"] == "finished")
    assert f["result"]["winners"]
    assert f["players"][1]["kind"] == "bot" and f["players"][1]["bot_name"] == "Casual"
    replay = client.get(f"/api/tables/{tid}/replay?seat=0").json()
    assert [p["bot_name"] for p in replay["players"]] == [None, "Casual"]
    summary = client.get(f"/api/tables/{tid}").json()
    table = summary.get("table", summary)
    assert table["status"] == "finished" and table["seats"][1]["bot_name"] == "Casual"
