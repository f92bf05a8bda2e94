"""The lobby's game descriptions carry options in the players' words and presets; a table made
from any preset starts; Kontor's game follows the player count through the API too."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from meeple.server import create_app

from .util import new_guest

GAMES = ["koplus", "kozo", "mops_royal", "botanik", "kontor"]


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url)) as c:
        new_guest(c, "Hana")
        yield c


def bots(n: int) -> list[dict]:
    return [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * (n - 1)


def test_the_game_list_carries_presets_and_plain_words(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    for name in GAMES:
        g = games[name]
        assert g["presets"][0]["name"] == "Standard" and g["presets"][0]["options"] == {}
        for o in g["options"]:
            assert o["label"] and isinstance(o["advanced"], bool)
            assert all(w["label"] for w in o["labels"])
    mode = next(o for o in games["kontor"]["options"] if o["name"] == "mode")
    assert mode["default"] is None
    assert {w["value"] for w in mode["labels"]} == {None, "basic", "advanced", "expansion"}
    assert client.get("/api/games/kozo").json()["presets"] == games["kozo"]["presets"]


@pytest.mark.parametrize("name", GAMES)
def test_a_table_from_every_preset_starts(client, name):
    for p in client.get(f"/api/games/{name}").json()["presets"]:
        counts = p["players"] or client.get(f"/api/games/{name}").json()["players"]
        n = counts[0]
        r = client.post("/api/tables", json={"game": name, "players": n, "options": p["options"],
                                             "seats": bots(n)})
        assert r.status_code == 201, (p["name"], r.text)
        t = r.json()["table"]
        assert t["status"] == "running"
        for key, value in p["options"].items():
            assert t["options"][key] == value


@pytest.mark.parametrize(("players", "mode"), [(2, "basic"), (3, "expansion"), (4, "expansion")])
def test_kontor_with_the_default_options_plays_the_game_for_its_count(client, players, mode):
    r = client.post("/api/tables", json={"game": "kontor", "players": players,
                                         "seats": bots(players)})
    assert r.status_code == 201, r.text
    t = r.json()["table"]
    assert t["options"]["mode"] == mode and t["players"] == players
    frame = client.get(f"/api/tables/{t['id']}/frame").json()
    assert len(frame["players"]) == players


@pytest.mark.parametrize(("players", "mode", "reason"), [
    (3, "basic", "Kontor's basic game is for 2 players; with 3 players play the expansion"),
    (2, "expansion", "Kontor's expansion is for 3 or 4 players"),
])
def test_kontor_refuses_a_mode_that_does_not_fit_the_count(client, players, mode, reason):
    r = client.post("/api/tables", json={"game": "kontor", "players": players,
                                         "options": {"mode": mode}, "seats": bots(players)})
    assert r.status_code == 422 and reason in r.json()["detail"]
