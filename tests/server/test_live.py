"""Live play over the WebSocket on every registered game: whole games, hidden information,
simultaneous phases, hot-seat, stale and duplicate moves, replays and records."""

from __future__ import annotations

import json
import random
import threading

import pytest
from fastapi.testclient import TestClient

import meeple
from meeple.engine import CHANCE
from meeple.server import create_app

from .util import frames_until, hello, new_guest, rebuild, stored_moves

GAMES = sorted(set(meeple.games()) | {"sealed_bids"})


def _svg(game, obs, names):
    """The game's picture with the seats' display names."""
    try:
        return game.renderer.svg(obs, names)
    except ModuleNotFoundError:
        return ""


def names_of(table):
    """The seat names the pictures show: the holder's, a bot's level name, None when open."""
    return [None if s["kind"] == "open" else s["name"] for s in table["seats"]]


def expected_log(state_moves, now_state, seat, over):
    """The log a seat may see: the stored moves as the engine's ``visible_history(seat)`` of
    the stored game allows (a hidden chance outcome reads "chance", another player's secret
    choice "(hidden)", and its sentence is the game's ``describe_unseen``); each sentence is
    the game's ``describe`` of the state before the move; two or more chance events before
    the first player's move are one line, the game's ``describe_setup``; a move's ``number``
    counts the players' moves (0 for chance); a finished table
    shows every move."""
    visible = now_state.visible_history(seat)
    assert len(visible) == len(state_moves)
    replay = now_state.game.new_initial_state()
    out, seen, made = [], [], 0
    for (n, player, action, text), (p, known) in zip(state_moves, visible, strict=True):
        assert p == player
        shown, said = text, replay.describe(player, action)
        if not over and known is None:
            assert player != seat  # a seat always knows its own choices
            shown = "chance" if player == CHANCE else "(hidden)"
            said = replay.describe_unseen(player)
        elif not over:
            assert known == action
        replay.apply(action, player)
        made += player != CHANCE  # a move's number counts the players' moves only
        out.append({"n": n, "player": player, "text": shown, "sentence": said,
                    "number": made if player != CHANCE else 0})
        seen.append(over or known is not None)
        if player == CHANCE and replay.current_player != CHANCE and len(out) == n + 1 >= 2 \
                and all(e["player"] == CHANCE for e in out):
            texts = [e["text"] for e, s in zip(out, seen, strict=True) if s]
            out = [{"n": 0, "player": CHANCE, "text": "; ".join(texts) or "chance",
                    "sentence": replay.describe_setup(), "moves": len(out)}]
    return out


def check_frame(frame, seat, table, moves, db_url):
    """Everything a frame holds must follow from ``observation(seat)`` of the stored game."""
    n = frame["move_number"]
    assert n == len(moves)
    state = rebuild(table["game"], table["players"], table["options"], moves)
    game = state.game
    assert frame["seat"] == seat
    assert frame["observation"] == json.loads(json.dumps(state.observation(seat)))
    assert frame["observation"]["viewer"] == seat
    assert frame["svg"] == _svg(game, frame["observation"], names_of(table))
    colours = [c.to_json() for c in game.seat_colours()]
    assert [p["colour"] for p in frame["players"]] == colours
    assert [p["name"] for p in frame["players"]] == [s["name"] for s in table["seats"]]
    if frame["status"] == "running":
        # chance is resolved (and stored) before anyone is told: no outcome waits in a state
        assert state.current_player != CHANCE
        legal = state.legal_actions(seat) if seat in state.pending_players() else []
        assert [a["action"] for a in frame["actions"]] == legal
        assert frame["to_move"] == state.pending_players()
    else:
        assert frame["actions"] == []
    over = frame["status"] == "finished"
    assert frame["log"] == expected_log(moves, state, seat, over)


@pytest.mark.parametrize("game_name", GAMES)
def test_whole_game_with_hidden_information(game_name, sqlite_url):
    """People in every seat (one connection each, by seat token) and a spectator play a whole
    game; every frame each of them receives is checked against the engine's own view."""
    cls = meeple.engine.game_class(game_name)
    players, options = cls.configurations()[0]
    rng = random.Random(7)
    with TestClient(create_app(sqlite_url)) as client:
        new_guest(client, "Ann")
        r = client.post("/api/tables", json={
            "game": game_name, "players": players, "options": options,
            "seats": [{"kind": "me"}] * players})
        assert r.status_code == 201, r.text
        table = r.json()["table"]
        tid = table["id"]
        tokens = {t["seat"]: t["token"] for t in r.json()["tokens"]}
        client.cookies.clear()  # from now on only the seat tokens say who is who
        sockets = {s: client.websocket_connect(f"/ws/tables/{tid}") for s in range(players)}
        spectator = client.websocket_connect(f"/ws/tables/{tid}")
        try:
            for ws in [*sockets.values(), spectator]:
                ws.__enter__()
            for seat, ws in sockets.items():  # the first message presents the seat token
                frames_until(hello(ws, tokens[seat]), lambda f, s=seat: f["seats"] == [s])
                ws.send_json({"type": "view", "seat": seat})  # the frame the loop reads first
            limit = meeple.load(game_name, players=players, **options).max_game_length
            for _ in range(limit + 1):
                info = client.get(f"/api/tables/{tid}").json()["table"]
                n = info["move_number"]
                moves = stored_moves(sqlite_url, tid)
                frames = {}
                for seat, ws in sockets.items():
                    frames[seat] = frames_until(ws, lambda f, n=n: f["move_number"] == n)
                    assert frames[seat]["seats"] == [seat]
                    check_frame(frames[seat], seat, table, moves, sqlite_url)
                pub = frames_until(spectator, lambda f, n=n: f["move_number"] == n)
                assert pub["seat"] is None and pub["seats"] == [] and pub["actions"] == []
                state = rebuild(table["game"], players, table["options"], moves)
                assert pub["observation"] == json.loads(json.dumps(state.observation(None)))
                assert pub["log"] == expected_log(moves, state, None,
                                                  pub["status"] == "finished")
                if info["status"] == "finished":
                    assert state.is_terminal()
                    assert pub["result"]["winners"] == state.winners()
                    break
                seat = min(info["to_move"])
                action = rng.choice(frames[seat]["actions"])["action"]
                sockets[seat].send_json({"type": "act", "seat": seat, "action": action,
                                         "move_number": n})
            else:
                pytest.fail(f"{game_name}: no end within max_game_length = {limit} moves")
        finally:
            for ws in [*sockets.values(), spectator]:
                ws.__exit__(None, None, None)
        record = client.get(f"/api/tables/{tid}/record").json()
        assert meeple.replay(record).is_terminal()
        rep = client.get(f"/api/tables/{tid}/replay?move=0&seat=0").json()
        assert rep["move_number"] == 0 and rep["total"] == len(record["moves"])


def _table_with_two_seats(client, seats=None):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids",
                                          "seats": seats or [{"kind": "me"}, {"kind": "me"}]})
    assert r.status_code == 201, r.text
    return r.json()["table"]["id"], {t["seat"]: t["token"] for t in r.json()["tokens"]}


def test_the_same_move_from_two_connections_is_applied_once(db_url):
    with TestClient(create_app(db_url)) as client:
        tid, tokens = _table_with_two_seats(client)
        with client.websocket_connect(f"/ws/tables/{tid}") as a, \
                client.websocket_connect(f"/ws/tables/{tid}") as b:
            hello(b, tokens[0])
            fa = frames_until(a, lambda f: f["actions"])
            fb = frames_until(b, lambda f: f["actions"])
            n = fa["move_number"]
            assert fb["move_number"] == n and 0 in fa["seats"] and 0 in fb["seats"]
            act = {"type": "act", "seat": 0, "action": fa["actions"][0]["action"],
                   "move_number": n}
            # both send at once, twice each; a ping after them says when all are answered
            for _ in range(2):
                a.send_json(act)
                b.send_json(act)
            errors = []
            for ws in (a, b):
                ws.send_json({"type": "ping"})
                while (msg := ws.receive_json())["type"] != "pong":
                    if msg["type"] == "error":
                        errors.append(msg)
            assert len(errors) == 3
            assert {m["code"] for m in errors} == {"stale"}
        moves = stored_moves(db_url, tid)
        assert [(p, a) for _, p, a, _ in moves].count((0, act["action"])) == 1
        assert len(moves) == n + 1


def test_concurrent_rest_moves_are_applied_once(db_url):
    with TestClient(create_app(db_url)) as client:
        tid, tokens = _table_with_two_seats(client)
        f = client.get(f"/api/tables/{tid}/frame?seat=1").json()
        body = {"seat": 1, "action": f["actions"][-1]["action"],
                "move_number": f["move_number"], "token": tokens[1]}
        results: list[int] = []

        def send():
            results.append(client.post(f"/api/tables/{tid}/act", json=body).status_code)

        threads = [threading.Thread(target=send) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [200] + [409] * 5
        assert len(stored_moves(db_url, tid)) == f["move_number"] + 1


def test_refusals_on_the_websocket_change_nothing(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        tid, tokens = _table_with_two_seats(client, [{"kind": "me"}, {"kind": "open"}])
        client.post(f"/api/tables/{tid}/seats/1", json={"kind": "bot", "bot": "random"})
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            f = frames_until(ws, lambda f: f["status"] == "running")
            n = f["move_number"]
            before = stored_moves(sqlite_url, tid)
            bad = [
                ("not json", "bad_request"),
                ("[1, 2]", "bad_request"),
                (json.dumps({"type": "dance"}), "bad_request"),
                (json.dumps({"type": "act", "seat": 1, "action": 0, "move_number": n}),
                 "forbidden"),
                (json.dumps({"type": "act", "seat": "0", "action": 0, "move_number": n}),
                 "bad_request"),
                (json.dumps({"type": "act", "seat": 0, "action": "0", "move_number": n}),
                 "bad_request"),
                (json.dumps({"type": "act", "seat": 0, "action": 99, "move_number": n}),
                 "illegal"),
                (json.dumps({"type": "act", "seat": 0, "action": 0, "move_number": n + 5}),
                 "stale"),
                (json.dumps({"type": "act", "seat": 0, "action": 0, "move_number": 0}),
                 "stale"),
                (json.dumps({"type": "view", "seat": 1}), "forbidden"),
                ("x" * 20000, "bad_request"),
            ]
            for text, code in bad:
                ws.send_text(text)
                msg = ws.receive_json()
                while msg["type"] == "frame":
                    msg = ws.receive_json()
                assert msg["type"] == "error" and msg["code"] == code, (text[:40], msg)
                assert msg["reason"]
            ws.send_json({"type": "ping"})
            msg = ws.receive_json()
            while msg["type"] == "frame":
                msg = ws.receive_json()
            assert msg == {"type": "pong"}
            assert [m[:3] for m in stored_moves(sqlite_url, tid)][: len(before)] == [
                m[:3] for m in before
            ]
            assert all(m[1] != 0 for m in stored_moves(sqlite_url, tid)[len(before):])
        with client.websocket_connect("/ws/tables/nothere") as ws:
            msg = ws.receive_json()
            assert msg["code"] == "not_found"


def test_bad_token_on_the_websocket_is_said_and_ignored(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        tid, tokens = _table_with_two_seats(client)
        client.cookies.clear()
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            hello(ws, "forged")
            msgs = [ws.receive_json() for _ in range(3)]
            errors = [m for m in msgs if m["type"] == "error"]
            assert len(errors) == 1 and errors[0]["code"] == "forbidden"
            frames = [m for m in msgs if m["type"] == "frame"]
            assert frames and all(f["seats"] == [] and f["seat"] is None for f in frames)


def test_hot_seat_shows_the_seat_that_must_act(sqlite_url):
    """One browser holds both seats of a simultaneous game: the frame shows the lowest pending
    held seat, then the other, and 'view' switches only between held seats."""
    with TestClient(create_app(sqlite_url)) as client:
        tid, _ = _table_with_two_seats(client)
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            f = frames_until(ws, lambda f: f["status"] == "running")
            assert f["seats"] == [0, 1] and f["seat"] == 0 and f["to_move"] == [0, 1]
            ws.send_json({"type": "view", "seat": 1})
            f1 = frames_until(ws, lambda f: f["seat"] == 1)
            assert f1["observation"]["viewer"] == 1
            ws.send_json({"type": "act", "seat": 1, "action": f1["actions"][0]["action"],
                          "move_number": f1["move_number"]})
            f = frames_until(ws, lambda f: f["move_number"] == f1["move_number"] + 1)
            assert f["seat"] == 0 and f["to_move"] == [0]
            # seat 1's bid is hidden from seat 0's view of the log
            assert f["log"][-1]["text"] == "(hidden)"
            ws.send_json({"type": "act", "seat": 0, "action": f["actions"][0]["action"],
                          "move_number": f["move_number"]})
            f = frames_until(ws, lambda f: f["move_number"] > f1["move_number"] + 1)
            assert f["log"][-2]["text"].startswith("bid") and f["seat"] == 0


def test_bot_game_replay_profile_and_rematch(db_url):
    with TestClient(create_app(db_url)) as client:
        client.post("/api/signup", json={"name": "Ann", "password": "correct horse"})
        r = client.post("/api/tables", json={
            "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]})
        tid = r.json()["table"]["id"]
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            while True:
                f = frames_until(ws, lambda f: f["actions"] or f["status"] == "finished")
                if f["status"] == "finished":
                    break
                ws.send_json({"type": "act", "seat": 0, "action": f["actions"][0]["action"],
                              "move_number": f["move_number"]})
            assert f["players"][1]["kind"] == "bot" and f["players"][1]["level"] == "greedy"
            assert f["result"]["winners"]
        total = len(stored_moves(db_url, tid))
        frames = [client.get(f"/api/tables/{tid}/replay?move={i}&seat=1").json()
                  for i in range(total + 1)]
        moves = stored_moves(db_url, tid)
        for i, fr in enumerate(frames):
            assert fr["move_number"] == i and len(fr["log"]) == i
            st = rebuild("sealed_bids", 2, {"rounds": 3}, moves, upto=i)
            assert fr["observation"] == json.loads(json.dumps(st.observation(1)))
        assert client.get(f"/api/tables/{tid}/replay?move={total + 1}").status_code == 422
        assert client.get(f"/api/tables/{tid}/replay?seat=5").status_code == 422
        prof = client.get("/api/users/ann").json()
        assert prof["name"] == "Ann" and [g["id"] for g in prof["games"]] == [tid]
        assert prof["games"][0]["rank"] in (1, 2)
        assert client.get("/api/users/nobody").status_code == 404
        r = client.post(f"/api/tables/{tid}/rematch")
        assert r.status_code == 201
        new = r.json()["table"]
        assert new["status"] == "running" and new["seats"][1]["bot"] == "greedy"
        assert r.json()["tokens"][0]["seat"] == 0
        again = client.post(f"/api/tables/{tid}/rematch").json()["table"]
        assert again["id"] == new["id"]
        assert client.get(f"/api/tables/{tid}").json()["table"]["rematch"] == new["id"]
        client.cookies.clear()
        new_guest(client, "Eve")
        assert client.post(f"/api/tables/{tid}/rematch").status_code == 403
