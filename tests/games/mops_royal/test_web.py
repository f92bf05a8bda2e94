"""Mops Royal through the web server: every variant plays to the end, each seat acting through
the REST API with its seat token, and the frames hold what the engine shows that seat."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import meeple  # noqa: E402
from meeple.server import create_app  # noqa: E402


def new_table(client, players, options):
    r = client.post("/api/guest", json={"name": "Ann"})
    assert r.status_code == 200, r.text
    r = client.post("/api/tables", json={
        "game": "mops_royal", "players": players, "options": options,
        "seats": [{"kind": "me"}] * players})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["table"]["id"], {t["seat"]: t["token"] for t in body["tokens"]}


def frame(client, tid, seat, token):
    r = client.get(f"/api/tables/{tid}/frame", params={"seat": seat},
                   headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    return r.json()


def act(client, tid, seat, token, f, action):
    r = client.post(f"/api/tables/{tid}/act", json={
        "seat": seat, "action": action, "move_number": f["move_number"], "token": token})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("players,options", [
    (2, {"end_scoring": True}),
    (2, {"replacement_tiles": True}),
])
def test_a_whole_game_through_the_server(players, options, tmp_path):
    rng = random.Random(3)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'm.db'}")) as client:
        tid, tokens = new_table(client, players, options)
        phases = set()
        for _ in range(2000):
            f0 = frame(client, tid, 0, tokens[0])
            phases.add(f0["observation"]["phase"])
            if f0["status"] == "finished":
                break
            seat = min(f0["to_move"])
            f = f0 if seat == 0 else frame(client, tid, seat, tokens[seat])
            for a in f["actions"]:
                assert a["label"]
                if a["target"] is not None:
                    assert f'id="{a["target"]}"' in f["svg"]
            act(client, tid, seat, tokens[seat], f, rng.choice(f["actions"])["action"])
        else:
            raise AssertionError("the game did not end")
        obs = f0["observation"]
        assert len(obs["final_breakdown"]) == players
        # the results table is the page's own, drawn from the breakdown: not in the picture
        assert "Final scores" not in f0["svg"] and "score-table" not in f0["svg"]
        assert "Game over: " in f0["svg"]
        assert "round" in phases
        if options.get("end_scoring"):
            assert "end_scoring" in phases
        record = client.get(f"/api/tables/{tid}/record").json()
        state = meeple.replay(record)
        assert state.is_terminal()
        assert json.loads(json.dumps(state.observation(0))) == obs


def test_the_move_log_hides_a_placement_until_the_round_is_over(tmp_path):
    """A seat that has placed and is still choosing its scoring: the others see neither the
    tile in its layout nor the move in the log."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'm.db'}")) as client:
        tid, tokens = new_table(client, 2, {})
        rng = random.Random(1)
        checked = 0
        for _ in range(400):
            f0 = frame(client, tid, 0, tokens[0])
            f1 = frame(client, tid, 1, tokens[1])
            if f0["status"] == "finished":
                break
            both_to_place = (
                f0["observation"]["my_step"] == "place" and f1["observation"]["my_step"] == "place"
            )
            seat = 0 if f0["actions"] else 1
            f = f0 if seat == 0 else f1
            act(client, tid, seat, tokens[seat], f, rng.choice(f["actions"])["action"])
            if both_to_place:
                after0 = frame(client, tid, 0, tokens[0])
                if after0["observation"]["my_step"] == "score":
                    # seat 0 placed and is still choosing: seat 1 must not learn where
                    f1 = frame(client, tid, 1, tokens[1])
                    assert f1["observation"]["layouts"][0] == f0["observation"]["layouts"][0]
                    assert f1["log"][-1]["player"] == 0
                    assert f1["log"][-1]["text"] == "(hidden)"
                    checked += 1
        assert checked
