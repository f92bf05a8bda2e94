"""The learning routes: the how-to-play page with its pictures, the player aid, the tutorial's
steps and the check of a move against a step, for every game; the aid in a table's frame."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient

import meeple
from meeple.engine.lessons import ending
from meeple.engine.registry import game_lessons
from meeple.server import create_app

SVG = "{http://www.w3.org/2000/svg}svg"
GAMES = ["botanik", "kontor", "koplus", "kozo", "mops_royal"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('learn') / 'learn.db'}"
    with TestClient(create_app(url)) as c:
        yield c


@pytest.mark.parametrize("name", GAMES)
def test_the_howto_page_names_its_pictures_and_each_is_an_svg(client, name):
    r = client.get(f"/api/learn/{name}")
    assert r.status_code == 200, r.text
    page = r.json()
    assert page["name"] == name and page["title"] == meeple.load(name).title
    assert page["markdown"].startswith("# How to play")
    assert "picture:" not in page["markdown"]
    assert len(page["pictures"]) >= 3
    for p in page["pictures"]:
        assert f"]({p['url']})" in page["markdown"]
        assert p["caption"]
        pic = client.get(p["url"])
        assert pic.status_code == 200, (p, pic.text)
        assert pic.headers["content-type"].startswith("image/svg+xml")
        assert ET.fromstring(pic.content).tag == SVG
        again = client.get(p["url"], headers={"If-None-Match": pic.headers["etag"]})
        assert again.status_code == 304
    assert page["steps"] == len(game_lessons(name).LESSON.steps) >= 3
    assert page["tutorial"] == f"/tutorial/{name}"
    assert page["closing"]["bot"] == "random" and page["closing"]["text"]
    assert page["aid"]["scoring"] and page["aid"]["turn"]


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_page_opens_with_the_same_howto(client, name):
    page = client.get(f"/api/learn/{name}").json()
    rules = client.get(f"/api/games/{name}/rules").json()
    assert rules["howto"] == page["markdown"]
    assert rules["markdown"] and rules["markdown"] != rules["howto"]


def test_unknown_games_and_pictures_and_steps_are_404(client):
    assert client.get("/api/learn/chess").status_code == 404
    assert client.get("/api/learn/koplus/pictures/nothing.svg").status_code == 404
    assert client.get("/api/learn/koplus/steps/99").status_code == 404
    assert client.get("/api/learn/koplus/steps/-1").status_code == 404


@pytest.mark.parametrize("name", GAMES)
def test_the_aid_has_scoring_and_turn_steps(client, name):
    aid = client.get(f"/api/learn/{name}/aid").json()
    expected = game_lessons(name).AID
    assert [(r["what"], r["points"]) for r in aid["scoring"]] == list(expected.scoring)
    assert aid["turn"] == list(expected.turn)


@pytest.mark.parametrize("name", GAMES)
def test_the_tutorial_walks_to_its_end_through_the_api(client, name):
    lesson = game_lessons(name).LESSON
    index: int | None = 0
    seen = 0
    while index is not None:
        view = client.get(f"/api/learn/{name}/steps/{index}").json()
        step = lesson.steps[index]
        assert view["index"] == index and view["count"] == len(lesson.steps)
        assert view["text"] == step.text and view["title"] == step.title
        assert view["highlight"] and all(f'id="{h}"' in view["svg"] for h in view["highlight"])
        assert view["ask"]
        texts = [a["text"] for a in view["actions"]]
        assert step.expect[0] in texts
        wrong = next((t for t in texts if t not in step.expect), None)
        if wrong is not None:
            r = client.post(f"/api/learn/{name}/steps/{index}/check", json={"move": wrong})
            assert r.status_code == 200, r.text
            verdict = r.json()
            assert verdict["ok"] is False and verdict["next"] is None and verdict["svg"] is None
            assert verdict["message"] == step.wrong.get(wrong, step.otherwise)
        good = next(a for a in view["actions"] if a["text"] == step.expect[0])
        verdict = client.post(f"/api/learn/{name}/steps/{index}/check",
                              json={"move": good["action"]}).json()
        assert verdict["ok"] is True and verdict["message"] == step.good
        assert ET.fromstring(verdict["svg"]).tag == SVG and verdict["svg"] != view["svg"]
        assert [r["player"] for r in verdict["replies"]] == [
            p for p, _ in step.replies if p >= 0]
        index = verdict["next"]
        seen += 1
        assert verdict["finished"] is (index is None)
        # the move that ends the guided game brings its final scoring
        assert (verdict["final_breakdown"] is None) is (index is not None)
    assert verdict["final_breakdown"] == ending(lesson).observation(0)["final_breakdown"]
    assert verdict["ranks"] == ending(lesson).ranks()
    assert seen == len(lesson.steps)


def test_a_move_that_is_no_move_is_explained(client):
    r = client.post("/api/learn/koplus/steps/0/check", json={"move": "fly away"})
    assert r.status_code == 200
    assert r.json()["ok"] is False and "not a move" in r.json()["message"]
    r = client.post("/api/learn/koplus/steps/0/check", json={"move": "U1@4,7"})
    assert r.json()["message"] == game_lessons("koplus").LESSON.steps[0].wrong["U1@4,7"]
    r = client.post("/api/learn/koplus/steps/0/check", json={"move": "X@5,5"})
    assert r.json()["ok"] is False and r.json()["message"].startswith("That move is not allowed")
    assert client.post("/api/learn/koplus/steps/0/check", json={}).status_code == 422


def test_the_tutorial_page_is_served(client):
    r = client.get("/tutorial/koplus")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]


def test_a_table_frame_says_what_the_current_step_asks(client):
    r = client.post("/api/guest", json={"name": "Learner"})
    assert r.status_code == 200, r.text
    r = client.post("/api/tables", json={"game": "koplus", "players": 2, "seats": [
        {"kind": "me"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    frame = client.get(f"/api/tables/{tid}/frame?seat=0").json()
    assert frame["aid"] == game_lessons("koplus").ask(frame["observation"])
    assert frame["aid"].startswith("Lay your U in the middle section")
    client.cookies.clear()


def test_the_intended_moves_come_first_so_the_highlighted_place_shows_them(client):
    lesson = game_lessons("kozo").LESSON
    view = client.get("/api/learn/kozo/steps/0").json()
    assert view["actions"][0]["text"] == lesson.steps[0].expect[0]
    assert len(view["actions"]) == 236  # every legal move is still offered
