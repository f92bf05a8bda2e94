"""Hints and reviews over the API: a hint for the seat's holder at a casual table only (never
for spectators or at rated tables), a review worked out while the game is played, once per
table and information set, ready when the game ends; a game played without it reviewed on
demand with its progress; work left by a stopped server resumed from what it stored; a hint
that does not wait for review work. On SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

import meeple
from meeple.server import create_app
from meeple.server.reviews import Reviews, ReviewStore

from .util import descendants, new_guest, run_async


def bot_processes(pid: int) -> list[int]:
    """The bots' processes below ``pid``: the fork server and the workers it forked."""
    found = []
    for child in descendants(pid):
        try:
            if b"forkserver" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except OSError:
            pass
    return found

FAST = 30
"""Search iterations per position in these tests (the real budget is the game's own)."""


def install(app, **kw) -> Reviews:
    """The app's reviews with a small search budget (made before the first request)."""
    s = app.state.services
    reviews = Reviews(s.tables, ReviewStore(getattr(s.store, "engine", None)),
                      iterations=FAST, **kw)
    app.state.reviews = reviews
    return reviews


def table_with_bot(client, game: str = "koplus", bot: str = "greedy") -> tuple[str, str]:
    r = client.post("/api/tables", json={"game": game, "players": 2,
                                         "seats": [{"kind": "me"}, {"kind": "bot", "bot": bot}]})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["table"]["id"], body["tokens"][0]["token"] if body.get("tokens") else ""


def wait_turn(client, tid: str, seat: int = 0, limit: float = 60.0) -> dict:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        f = client.get(f"/api/tables/{tid}/frame?seat={seat}").json()
        if f["status"] == "finished" or (f["actions"] and seat in f["to_move"]):
            return f
        time.sleep(0.02)
    raise AssertionError("the table did not come back to the seat")


def play_out(client, tid: str, seat: int = 0) -> None:
    """Play the seat's first legal move until the game is over."""
    while True:
        f = wait_turn(client, tid, seat)
        if f["status"] == "finished":
            return
        r = client.post(f"/api/tables/{tid}/act", json={
            "seat": seat, "action": f["actions"][0]["action"], "move_number": f["move_number"]})
        assert r.status_code == 200, r.text


def wait_review(client, tid: str, seat: int | None = None, limit: float = 120.0) -> dict:
    q = f"?seat={seat}" if seat is not None else ""
    end = time.monotonic() + limit
    seen = []
    while time.monotonic() < end:
        r = client.get(f"/api/tables/{tid}/review{q}")
        assert r.status_code == 200, r.text
        body = r.json()
        seen.append(body["done"])
        if body["status"] != "running":
            assert seen == sorted(seen), "progress only moves on"
            return body
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


@pytest.fixture
def app(db_url):
    return create_app(db_url)


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        install(app)
        yield c


def review_rows(db_url: str, tid: str) -> list[tuple]:
    eng = create_engine(db_url)
    try:
        with eng.connect() as c:
            return [tuple(r) for r in c.execute(text(
                "SELECT key, status, done, total FROM reviews WHERE table_id = :t"), {"t": tid})]
    finally:
        eng.dispose()


# ---------------------------------------------------------------------- hints
def test_hint_for_the_seat_holder_is_a_legal_move_with_a_reason(client):
    new_guest(client, "Ann")
    tid, _ = table_with_bot(client)
    f = wait_turn(client, tid)
    r = client.get(f"/api/tables/{tid}/hint?seat=0")
    assert r.status_code == 200, r.text
    h = r.json()
    assert h["action"] in [a["action"] for a in f["actions"]]
    assert h["reason"] and "_" not in h["reason"]
    assert h["label"] == next(a["label"] for a in f["actions"] if a["action"] == h["action"])
    assert h["move_number"] == f["move_number"] and h["seconds"] >= 0
    # the bot's seat is not the asker's
    r = client.get(f"/api/tables/{tid}/hint?seat=1")
    assert r.status_code == 403 and "seat 1 only" in r.json()["detail"]


def test_no_hint_for_a_spectator(app, client):
    new_guest(client, "Ann")
    tid, _ = table_with_bot(client)
    wait_turn(client, tid)
    with TestClient(app) as other:
        new_guest(other, "Cy")
        r = other.get(f"/api/tables/{tid}/hint?seat=0")
        assert r.status_code == 403 and "seat 0 only" in r.json()["detail"]
        other.cookies.clear()
        r = other.get(f"/api/tables/{tid}/hint?seat=0")
        assert r.status_code == 403


def sign_up(client, name: str) -> None:
    """A registered player (rated tables are for them only), signed in."""
    r = client.post("/api/signup", json={"name": name, "password": "correct horse"})
    assert r.status_code == 200, r.text


def test_no_hint_at_a_rated_table(app, client):
    sign_up(client, "Ann")
    r = client.post("/api/tables", json={"game": "koplus", "players": 2, "rated": True,
                                         "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    with TestClient(app) as bob:
        sign_up(bob, "Bob")
        assert bob.post(f"/api/tables/{tid}/join", json={}).status_code == 200
        client.post(f"/api/tables/{tid}/start")
        table = client.get(f"/api/tables/{tid}").json()["table"]
        assert table["status"] == "running" and table["rated"] is True
        seat = table["to_move"][0]
        asker = client if seat == 0 else bob
        r = asker.get(f"/api/tables/{tid}/hint?seat={seat}")
        assert r.status_code == 403 and "casual tables" in r.json()["detail"]


def test_hint_only_when_it_is_your_move_and_not_after_the_end(client):
    new_guest(client, "Ann")
    tid, _ = table_with_bot(client)
    play_out(client, tid)
    r = client.get(f"/api/tables/{tid}/hint?seat=0")
    assert r.status_code == 409 and "no hint" in r.json()["detail"]


# ---------------------------------------------------------------------- reviews
def engine_review(client, tid: str, seat: int | None) -> dict:
    """The engine's own review of the table's game (every position searched in one go)."""
    from meeple.bots.review import review
    from meeple.engine.records import replay

    final = replay(client.get(f"/api/tables/{tid}/record").json())
    return review(final, seat, iterations=FAST).to_json(seat)


def test_a_review_is_ready_when_the_game_ends(db_url, client):
    """Each position is estimated while the game is played: once it ends the review is made
    without anyone asking, and opening it answers the stored review at once."""
    new_guest(client, "Ann")
    tid, _ = table_with_bot(client)
    r = client.post(f"/api/tables/{tid}/review")
    assert r.status_code == 409 and "over" in r.json()["detail"]
    play_out(client, tid)
    body = wait_review(client, tid)  # never asked for: made as the game was played
    assert body["status"] == "done" and body["done"] == body["total"]
    reviews = client.app.state.reviews
    assert not reviews.tasks, "nothing left to work out"
    opened = client.post(f"/api/tables/{tid}/review?seat=1").json()
    assert opened["status"] == "done", "opened: the stored review, no search"
    assert not reviews.tasks
    review = body["review"]
    record = client.get(f"/api/tables/{tid}/record").json()
    # the last point is the record's last move, numbered as the log numbers moves
    assert review["points"][-1]["move"] == sum(1 for p, _ in record["moves"] if p >= 0)
    assert len(review["points"]) == body["total"]
    assert all(abs(sum(p["chances"]) - 1) < 1e-3 for p in review["points"])
    assert review["better"] == []  # no seat asked: no one's better moves
    # the positions estimated one by one as the game went are the engine's review
    assert review["points"] == engine_review(client, tid, None)["points"]
    mine = client.get(f"/api/tables/{tid}/review?seat=0").json()["review"]
    assert mine["points"] == review["points"]
    assert all(b["player"] == 0 for b in mine["better"])
    assert opened["review"]["points"] == review["points"]
    assert review_rows(db_url, tid) == [("all", "done", body["total"], body["total"])]


def test_a_stored_review_is_said_in_the_readers_language(client):
    """The review made as the game ended is read in another language from the same stored
    estimates: the same figures, the words in that language."""
    new_guest(client, "Ann")
    tid, _ = table_with_bot(client)
    play_out(client, tid)
    en = wait_review(client, tid, 0)["review"]
    de = client.get(f"/api/tables/{tid}/review?seat=0",
                    headers={"Accept-Language": "de"}).json()["review"]
    assert [p["chances"] for p in de["points"]] == [p["chances"] for p in en["points"]]
    assert [(t["move"], t["before"], t["after"]) for t in de["turning"]] == \
        [(t["move"], t["before"], t["after"]) for t in en["turning"]]
    assert [p["text"] for p in de["points"]] != [p["text"] for p in en["points"]]
    assert de["ending"] != en["ending"]


def test_hidden_information_review_is_per_seat(db_url, client):
    new_guest(client, "Ann")
    tid, _ = table_with_bot(client, game="sealed_bids", bot="random")
    play_out(client, tid)
    r = client.post(f"/api/tables/{tid}/review")
    assert r.status_code == 422 and "seat=N" in r.json()["detail"]
    # each seat's view was estimated as the game went, without anyone asking
    first, second = wait_review(client, tid, 0), wait_review(client, tid, 1)
    assert first["status"] == second["status"] == "done"
    assert sorted(k for k, *_ in review_rows(db_url, tid)) == ["0", "1"]
    # each is what that seat's information set gives: the same as the engine's review
    for seat, body in ((0, first), (1, second)):
        assert body["review"]["points"] == engine_review(client, tid, seat)["points"]


def test_an_old_game_is_reviewed_on_demand_and_a_stopped_server_resumes_it(db_url):
    app = create_app(db_url)
    with TestClient(app) as client:
        install(app)
        app.state.services.tables.on_change = None  # as before: nothing estimated in play
        new_guest(client, "Ann")
        tid, _ = table_with_bot(client, game="mops_royal")
        play_out(client, tid)
        assert client.get(f"/api/tables/{tid}/review?seat=0").json()["status"] == "none"
        total = client.post(f"/api/tables/{tid}/review?seat=0").json()["total"]
        end = time.monotonic() + 60
        while client.get(f"/api/tables/{tid}/review?seat=0").json()["done"] < 3:
            assert time.monotonic() < end
            time.sleep(0.05)
        client.portal.call(_stop, app)  # the server stops mid-review
    left = [r for r in review_rows(db_url, tid) if r[0] == "0"]
    (key, status, done, left_total), = left
    assert (key, status, left_total) == ("0", "running", total) and 3 <= done < total
    app2 = create_app(db_url)
    with TestClient(app2) as client:
        install(app2, stale_after=0.0)
        new_guest(client, "Ann")
        first = client.get(f"/api/tables/{tid}/review?seat=0").json()
        assert first["status"] == "running" and first["done"] >= done  # resumed, not anew
        body = wait_review(client, tid, 0)
        assert body["status"] == "done" and len(body["review"]["points"]) == total
    assert ("0", "done", total, total) in review_rows(db_url, tid)


def test_a_restart_resumes_the_estimates_of_a_game_in_play_where_they_stopped(db_url):
    app = create_app(db_url)
    with TestClient(app) as client:
        install(app)
        new_guest(client, "Ann")
        tid, _ = table_with_bot(client, game="sealed_bids", bot="random")
        for _ in range(2):
            f = wait_turn(client, tid)
            client.post(f"/api/tables/{tid}/act", json={
                "seat": 0, "action": f["actions"][0]["action"], "move_number": f["move_number"]})
        end = time.monotonic() + 120
        while min((r[2] for r in review_rows(db_url, tid)), default=0) < 3:
            assert time.monotonic() < end, "the positions played were estimated"
            time.sleep(0.05)
        client.portal.call(_stop, app)  # the server stops mid-game
        cookies = dict(client.cookies)
    stored = {k: done for k, _status, done, _total in review_rows(db_url, tid)}
    assert sorted(stored) == ["0", "1"] and min(stored.values()) >= 3
    # while the game is played the rows say so: no review is being made yet
    assert {status for _k, status, _d, _t in review_rows(db_url, tid)} == {"playing"}
    app2 = create_app(db_url)
    with TestClient(app2) as client:
        install(app2)
        pool = app2.state.services.tables.bots
        real, searched = pool.background, []

        async def counted(fn, *args, **kw):
            # the moves of the position searched, once for each view the job estimates
            searched.extend([len(args[4])] * len(args[6]))
            return await real(fn, *args, **kw)

        pool.background = counted
        client.cookies.update(cookies)  # Ann again
        play_out(client, tid)
        reviews = [wait_review(client, tid, seat) for seat in (0, 1)]
    total = reviews[0]["total"]
    assert all(r["status"] == "done" and r["total"] == total for r in reviews)
    # only what was not stored was searched again
    assert len(searched) == 2 * total - sum(stored.values())
    for seat, body in enumerate(reviews):
        assert body["review"]["points"] == engine_review(client, tid, seat)["points"]


def test_a_hint_does_not_wait_for_review_work():
    """Review work gives way: a hint asked while a position's search holds the only process
    is answered first (the search is stopped and done again afterwards)."""
    import asyncio

    from meeple.bots.hint import hint_part, ready
    from meeple.server.pool import BotPool
    from meeple.server.reviews import estimate_views

    game = meeple.load("kozo", 2)

    async def run() -> None:
        pool = BotPool(workers=1)
        try:
            await pool.run(ready)  # the processes run
            search = asyncio.ensure_future(pool.background(
                estimate_views, "t/review", type(game), 2, {}, [], 0, [0], [None], 10**7))
            while not pool._running_background:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.5)  # the search is under way
            hint = await asyncio.wait_for(
                pool.run(hint_part, type(game), 2, {}, [], 0, hint=True), timeout=120)
            assert hint["action"] >= 0
            assert not search.done(), "the search gave way and goes on"
            while not pool._running_background:  # taken up again once the hint is made
                await asyncio.sleep(0.01)
            search.cancel()
            await pool.run(ready)  # which it gives way to again, and is not taken up again
            assert not pool._running_background and not pool.queued(None)
        finally:
            pool.stop()

    run_async(run())


def test_the_review_tells_players_of_one_name_apart(client):
    new_guest(client, "Ann")
    tid = finished_by_bots(client, "koplus")
    client.post(f"/api/tables/{tid}/review?seat=0")
    review = wait_review(client, tid, 0)["review"]
    words = " ".join(t["words"] for t in review["turning"]) + " ".join(
        b["words"] for b in review["better"])
    assert words, "a game between two random bots has turning points or better moves"
    # the sentences name the players as the pages do (two bots of one level: "Beginner bot"
    # and "Beginner bot 2")
    seats = [s["name"] for s in client.get(f"/api/tables/{tid}").json()["table"]["seats"]]
    assert len(set(seats)) == 2 and any(f": {n} " in words for n in seats), (seats, words)
    # and where one name holds several seats, each is told apart by its player number
    from types import SimpleNamespace

    from meeple.server.domain import SeatKind
    from meeple.server.reviews import display_names

    same = SimpleNamespace(seats=[SimpleNamespace(kind=SeatKind.HUMAN, name="Ann"),
                                  SimpleNamespace(kind=SeatKind.HUMAN, name="Ann"),
                                  SimpleNamespace(kind=SeatKind.OPEN, name=None)])
    assert display_names(same) == ["Ann (player 1)", "Ann (player 2)", "Player 3"]


async def _stop(app) -> None:
    app.state.reviews.stop()


def test_the_review_routes_are_documented():
    import pathlib

    doc = (pathlib.Path(meeple.__file__).parent.parent / "docs" / "api.md").read_text()
    for route in ("GET /api/tables/{id}/hint", "POST /api/tables/{id}/review",
                  "GET /api/tables/{id}/review"):
        assert route in doc


def test_hint_workers_are_readied_for_the_seat_holder_only(app, client):
    sign_up(client, "Ann")
    tid, _ = table_with_bot(client, bot="random")
    assert client.post(f"/api/tables/{tid}/hint/ready?seat=0").status_code == 204
    with TestClient(app) as other:
        new_guest(other, "Eve")
        r = other.post(f"/api/tables/{tid}/hint/ready?seat=0")
        assert r.status_code == 403 and "seat 0 only" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": "koplus", "players": 2, "rated": True,
                                         "seats": [{"kind": "me"}, {"kind": "open"}]})
    rated = r.json()["table"]["id"]
    r = client.post(f"/api/tables/{rated}/hint/ready?seat=0")
    assert r.status_code == 403 and "casual tables" in r.json()["detail"]


def test_a_fresh_server_runs_its_bots_processes_once_the_hint_button_is_shown(tmp_path,
                                                                              processes):
    """A new server process starts its bots' processes when the page shows the Hint button
    (it asks for them then), so the first hint does not wait for a fork server to import every
    game: they run before the hint is asked, and the hint answers. (How long a hint takes is
    in benchmarks/review.py.)"""
    import http.cookiejar
    import json
    import socket
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = processes(  # ended with the test, however it goes
        [str(Path(sys.executable).with_name("meeple")), "serve", "--port", str(port),
         "--db", f"sqlite:///{tmp_path / 'meeple.db'}"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(method: str, path: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(base + path, method=method, data=data,
                                     headers={"Content-Type": "application/json"})
        with opener.open(req, timeout=120) as r:
            raw = r.read()
            return json.loads(raw) if raw else None

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                call("GET", "/healthz")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.2)
        call("POST", "/api/guest", {"name": "Fay"})
        made = call("POST", "/api/tables", {
            "game": "koplus", "players": 2, "options": {}, "start": True,
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]})
        tid = made["table"]["id"]
        call("POST", f"/api/tables/{tid}/hint/ready?seat=0")  # as the table page does
        deadline = time.monotonic() + 120
        while len(bot_processes(proc.pid)) < 2:  # the fork server and a worker
            assert time.monotonic() < deadline, "the bots' processes did not start"
            time.sleep(0.2)
        hint = call("GET", f"/api/tables/{tid}/hint?seat=0")
        assert hint["seat"] == 0 and hint["reason"]
    finally:
        proc.terminate()
        proc.wait(20)


@pytest.mark.parametrize("warm", [True, False])
def test_meeple_serve_starts_the_bots_processes_with_the_server(tmp_path, warm):
    """`meeple serve` warms the bots' processes at start-up, so the first hint does not wait
    for them; an app made for tests starts them only when asked."""
    from meeple.server import create_app
    from meeple.server.pool import BotPool

    bots = BotPool()
    app = create_app(f"sqlite:///{tmp_path / 'm.db'}", bots=bots, warm_bots=warm)
    with TestClient(app) as c:
        deadline = time.monotonic() + 120
        while warm and not bots.started and time.monotonic() < deadline:
            c.get("/healthz")  # let the event loop run the start-up's tasks
        assert bots.started is warm


def finished_by_bots(client, game: str) -> str:
    """A finished table of ``game`` between two random bots (a short game)."""
    options = {"kozo": {"rounds": 1}, "kontor": {"max_rounds": 4}}.get(game, {})
    r = client.post("/api/tables", json={"game": game, "players": 2, "options": options,
                                         "seats": [{"kind": "bot", "bot": "random"}] * 2})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    end = time.monotonic() + 120
    while client.get(f"/api/tables/{tid}").json()["table"]["status"] != "finished":
        assert time.monotonic() < end, "the bots did not finish their game"
        time.sleep(0.05)
    return tid


def numbered(log: list[dict]) -> dict[int, dict]:
    """The log's lines by the number they show (a move's; chance and set-up lines show none)."""
    return {e["number"]: e for e in log if e["number"]}


def test_the_review_and_the_replay_number_moves_as_the_log_does(client):
    """A move's number is the same in the log, the replay ("move n of N"), the review's chart,
    turning points and better moves, and the record: the set-up and chance steps are no
    moves, in every game."""
    client.app.state.services.tables.on_change = None  # reviewed on demand: one view only
    new_guest(client, "Ann")
    for game in ("botanik", "kontor", "koplus", "kozo", "mops_royal"):
        tid = finished_by_bots(client, game)
        end = client.get(f"/api/tables/{tid}/replay").json()
        total = end["moves"]
        lines = numbered(end["log"])
        assert sorted(lines) == list(range(1, total + 1)), game
        assert all(e["player"] < 0 for e in end["log"] if not e["number"]), game
        record = client.get(f"/api/tables/{tid}/record").json()
        assert sum(1 for p, _ in record["moves"] if p >= 0) == total
        assert end["number"] == total
        for k in sorted({0, 1, total // 2, total}):
            at = client.get(f"/api/tables/{tid}/replay?number={k}").json()
            assert (at["number"], at["moves"]) == (k, total), game
            assert max(numbered(at["log"]), default=0) == k, game  # move k is the last shown
        assert client.get(f"/api/tables/{tid}/replay?number={total + 1}").status_code == 422
    # the review of the last one (hidden hands: one seat's view)
    seat = None if meeple.load(game, 2).perfect_information else 0
    q = "" if seat is None else f"?seat={seat}"
    client.post(f"/api/tables/{tid}/review{q}")
    review = wait_review(client, tid, seat)["review"]
    assert [p["move"] for p in review["points"]] == list(range(total + 1))
    assert review["ending"] == "The game was played to its end."  # said under the chart
    assert all(lines[p["move"]]["player"] == p["player"] for p in review["points"][1:])
    for t in review["turning"]:
        assert t["words"].startswith(f"Move {t['move']}: ")
        assert lines[t["move"]]["player"] == t["player"]
    for b in review["better"]:
        assert b["words"].startswith(f"Move {b['number']}: ")
        assert lines[b["number"]]["player"] == b["player"] and b["move"] < b["number"]


def test_the_in_memory_review_store_takes_calls_from_many_threads_at_once():
    """A server whose tables live in memory keeps its reviews in an in-memory SQLite database,
    one connection shared by every thread: calls from several threads at once (reviews of
    several tables work at the same time) each keep their own transaction."""
    from concurrent.futures import ThreadPoolExecutor

    store = ReviewStore(None)

    def work(t: int) -> int:
        for i in range(40):
            table = f"t{t}-{i}"
            assert store.create(table, "all", 3, time.time())
            store.progress(table, "all", [{"n": i}], time.time())
            assert store.get(table, "all") is not None
            store.finish(table, "all", {"done": True}, time.time())
        return t

    with ThreadPoolExecutor(8) as pool:
        assert sorted(pool.map(work, range(8))) == list(range(8))
