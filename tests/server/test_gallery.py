"""The lobby's pictures: one SVG per game, drawn by the game's renderer, made once, public."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient

import meeple
from meeple.server import create_app
from meeple.server.routers import gallery as gallery_router

SVG = "{http://www.w3.org/2000/svg}svg"


@pytest.fixture
def client(sqlite_url):
    with TestClient(create_app(sqlite_url)) as c:
        yield c


def test_every_game_has_a_picture_for_anyone(client):
    for name in meeple.games():
        r = client.get(f"/api/games/{name}/picture")  # no one is signed in
        assert r.status_code == 200, (name, r.text)
        assert r.headers["content-type"].startswith("image/svg+xml")
        assert ET.fromstring(r.content).tag == SVG, name
        assert "public" in r.headers["cache-control"]


def test_an_unknown_game_has_no_picture(client):
    r = client.get("/api/games/chess/picture")
    assert r.status_code == 404
    assert "chess" in r.json()["detail"]


def test_a_picture_is_made_once_per_process(client, monkeypatch):
    name = meeple.games()[0]
    first = client.get(f"/api/games/{name}/picture")
    calls = []
    monkeypatch.setattr(gallery_router, "lobby_picture",
                        lambda n: calls.append(n) or "<svg/>")
    again = client.get(f"/api/games/{name}/picture")
    assert calls == []
    assert again.content == first.content
    tag = again.headers["etag"]
    unchanged = client.get(f"/api/games/{name}/picture", headers={"If-None-Match": tag})
    assert unchanged.status_code == 304 and unchanged.content == b""


def test_the_picture_is_the_games_own_drawing(client):
    from meeple.gallery import lobby_picture

    for name in ("koplus", "kontor"):
        assert client.get(f"/api/games/{name}/picture").text == lobby_picture(name)
