"""The community: chat at tables and in the lobby (stored, live on the sockets, limits, mutes,
spectators hidden at rated tables until the end, system lines), ratings after rated games
(people and bot levels), profiles with avatars, follows and invitations, and turn e-mails
through a local SMTP server with an unsubscribe link. Storage runs on SQLite and PostgreSQL."""

from __future__ import annotations

import email
import time
from email import policy
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from aiosmtpd.controller import Controller
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meeple.server import create_app
from meeple.server.community import models
from meeple.server.community.ratings import (
    MU,
    SIGMA,
    BotRating,
    Ratings,
    final_ranks,
    fit_levels,
    load_ladder,
    shown,
)
from meeple.server.community.store import CommunityStore, RatedResult
from meeple.server.db import Base, open_database
from meeple.server.domain import Seat, SeatChoice

from .conftest import free_port
from .util import People, play

MINE = {m.__tablename__ for m in (models.ChatRow, models.MuteRow, models.RatingRow,
                                  models.RatingHistoryRow, models.FollowRow,
                                  models.InvitationRow, models.NotifyRow)}
EVIL = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">'


@pytest.fixture
def app(db_url):
    return create_app(db_url)


@pytest.fixture
def people(app):
    with TestClient(app) as client:
        p = People(client)
        for name in ("Ann", "Bob", "Cy"):  # registered: rated tables are for them only
            p.add(name, "correct horse")
        yield p


def _table(people: People, owner: str = "Ann", joiner: str = "Bob", rated: bool = False,
           game: str = "sealed_bids") -> str:
    """A started two-person table of ``owner`` and ``joiner``."""
    if rated:
        service = people.client.app.state.services.tables
        user = people.user(owner)

        async def make() -> str:
            lt, _ = await service.create(user, service_game(game),
                                         [(SeatChoice.ME, None), (SeatChoice.OPEN, None)],
                                         rated=True)
            return lt.id

        tid = people.client.portal.call(make)
    else:
        r = people.be(owner).post("/api/tables", json={
            "game": game, "seats": [{"kind": "me"}, {"kind": "open"}]})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
    r = people.be(joiner).post(f"/api/tables/{tid}/join", json={"seat": 1})
    assert r.status_code == 200, r.text
    assert people.be(owner).get(f"/api/tables/{tid}").json()["table"]["status"] == "running"
    return tid


def service_game(name: str):
    import meeple

    return meeple.load(name, 2)




def _chat_lines(ws, until_text: str, limit: int = 200) -> list[dict]:
    """Chat lines from a table socket until one says ``until_text``."""
    seen = []
    for _ in range(limit):
        msg = ws.receive_json()
        if msg.get("type") == "chat":
            seen.append(msg)
            if msg["text"] == until_text:
                return seen
    raise AssertionError(f"no chat line {until_text!r} arrived")


def _drain_until_pong(ws) -> list[dict]:
    ws.send_json({"type": "ping"})
    out = []
    while True:
        msg = ws.receive_json()
        if msg.get("type") == "pong":
            return out
        out.append(msg)


# ---------------------------------------------------------------------- storage
def test_the_migration_builds_the_community_models(empty_db_url):
    engine = open_database(empty_db_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
            ours = [d for d in diff if _table_of(d) in MINE]
            assert ours == []
            from sqlalchemy import inspect

            assert MINE <= set(inspect(conn).get_table_names())
            heads = {r[0] for r in conn.exec_driver_sql("SELECT version_num FROM "
                                                        "alembic_version")}
            assert "0003_community" in _applied(heads)
        open_database(empty_db_url).dispose()  # a second start finds the schema up to date
    finally:
        engine.dispose()


def _applied(heads: set[str]) -> set[str]:
    """Every revision the database's heads stand on (the heads and all below them)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from meeple.server.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(cfg)
    return {r.revision for r in script.iterate_revisions(tuple(heads), "base")}


def _table_of(diff) -> str | None:
    item = diff[0] if isinstance(diff, list) else diff
    for part in item[1:]:
        name = getattr(part, "name", None)
        table = getattr(part, "table", None)
        if table is not None and getattr(table, "name", None):
            return table.name
        if name and hasattr(part, "columns"):
            return name
        if isinstance(part, str):
            return part
    return None


def test_the_store_keeps_chat_mutes_ratings_follows_and_settings(db_url):
    from meeple.server.store import SqlStore

    users = SqlStore(db_url)
    try:
        ann = users.add_user("Ann", "ann", None, guest=True)
        bob = users.add_user("Bob", "bob", None, guest=True)
        assert ann is not None and bob is not None
        store = CommunityStore(users.engine)
        first = store.add_chat("lobby", ann.id, "Ann", EVIL, "say")
        store.add_chat("lobby", None, "", "A system line.", "system")
        lines = store.chat("lobby")
        assert [x.text for x in lines] == [EVIL, "A system line."] and lines[0].id == first.id
        assert [x.text for x in store.chat("lobby", limit=1)] == ["A system line."]
        store.mute(ann.id, bob.id)
        store.mute(ann.id, bob.id)  # twice is once
        assert store.mutes(ann.id) == {bob.id} and store.mutes(bob.id) == set()
        store.unmute(ann.id, bob.id)
        assert store.mutes(ann.id) == set()
        results = [RatedResult(ann.id, 1, 27.5, 7.0), RatedResult(bob.id, 2, 22.5, 7.0)]
        assert store.record_rated("t1", "koplus", results)
        assert not store.record_rated("t1", "koplus", results)  # one table rates once
        a = store.rating(ann.id, "koplus")
        assert a is not None and (a.played, a.won, a.mu) == (1, 1, 27.5)
        b = store.rating(bob.id, "koplus")
        assert b is not None and (b.played, b.won) == (1, 0)
        assert [r.user_id for r in store.leaderboard("koplus")] == [ann.id, bob.id]
        assert store.rated_tables(["t1", "t2"]) == {"t1"}
        assert [p.table_id for p in store.history(ann.id)] == ["t1"]
        store.follow(ann.id, bob.id)
        assert store.following(ann.id) == [bob.id] and store.followers(bob.id) == 1
        store.unfollow(ann.id, bob.id)
        assert store.following(ann.id) == []
        n = store.set_notify(ann.id, email="ann@example.org", turn_mail=True)
        assert (n.email, n.turn_mail) == ("ann@example.org", True)
        assert store.notify(bob.id).turn_mail is False
    finally:
        users.close()


# ---------------------------------------------------------------------- chat
def test_table_chat_is_stored_live_and_has_system_lines(people):
    tid = _table(people)
    with people.be("Bob").websocket_connect(f"/ws/tables/{tid}") as bob_ws, \
            people.be("Cy").websocket_connect(f"/ws/tables/{tid}") as cy_ws:
        bob_ws.send_json({"type": "chat_history"})
        for _ in range(100):
            msg = bob_ws.receive_json()
            if msg.get("type") == "chat_history":
                break
        texts = [x["text"] for x in msg["lines"]]
        assert "Bob sat down." in texts and "The game has begun." in texts
        assert all(x["system"] for x in msg["lines"])
        with people.be("Ann").websocket_connect(f"/ws/tables/{tid}") as ann_ws:
            ann_ws.send_json({"type": "chat", "text": EVIL})
            line = _chat_lines(bob_ws, EVIL)[-1]
            assert line["name"] == "Ann" and not line["system"] and not line["spectator"]
            assert _chat_lines(cy_ws, EVIL)[-1]["text"] == EVIL  # kept as typed
        # a spectator's line at a casual table reaches the players at once
        cy_ws.send_json({"type": "chat", "text": "good luck both"})
        got = _chat_lines(bob_ws, "good luck both")[-1]
        assert got["spectator"] and got["name"] == "Cy"
    lines = people.be("Bob").get(f"/api/tables/{tid}/chat").json()["lines"]
    said = [(x["name"], x["text"]) for x in lines if not x["system"]]
    assert said == [("Ann", EVIL), ("Cy", "good luck both")]
    # by REST too, and nobody signed in reads but cannot say
    r = people.be("Ann").post(f"/api/tables/{tid}/chat", json={"text": "  well   played "})
    assert r.status_code == 200 and r.json()["line"]["text"] == "well played"
    assert people.be(None).post(f"/api/tables/{tid}/chat", json={"text": "hi"}).status_code \
        == 401
    assert people.be(None).get(f"/api/tables/{tid}/chat").json()["lines"][-1]["text"] == \
        "well played"


def test_a_private_tables_chat_is_read_only_by_who_may_see_the_table(people):
    r = people.be("Ann").post("/api/tables", json={
        "game": "sealed_bids", "visibility": "private", "seats": [{"kind": "me"},
                                                                   {"kind": "open"}]})
    tid = r.json()["table"]["id"]
    people.be("Ann").post(f"/api/tables/{tid}/chat", json={"text": "our secret"})
    assert people.be("Cy").get(f"/api/tables/{tid}/chat").status_code == 404
    assert people.be("Cy").post(f"/api/tables/{tid}/chat", json={"text": "x"}).status_code \
        == 404
    for ask in ({"type": "chat_history"}, {"type": "chat", "text": "let me in"}):
        seen = []
        with people.be("Cy").websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json(ask)
            with pytest.raises(WebSocketDisconnect):
                while True:
                    seen.append(ws.receive_json())
        assert [m["type"] for m in seen] == ["chat_error", "error"], seen
        assert seen[0]["reason"] == "the chat opens once you are let in at this table"
        assert "our secret" not in str(seen) and seen[1]["code"] == "not_found"
    texts = [x["text"] for x in people.be("Ann").get(f"/api/tables/{tid}/chat").json()["lines"]]
    assert texts == ["our secret"]


def test_chat_limits_on_length_rate_and_characters(people):
    tid = _table(people)
    with people.be("Ann").websocket_connect(f"/ws/tables/{tid}") as ws:
        for text, why in (("x" * 501, "at most 500"), ("   ", "say something"),
                          ("bell\x07", "control"), (42, "is text")):
            ws.send_json({"type": "chat", "text": text})
            errors = [m for m in _drain_until_pong(ws) if m.get("type") == "chat_error"]
            assert len(errors) == 1 and why in errors[0]["reason"], (text, errors)
        ws.send_json({"type": "chat", "text": "x" * 500})  # the longest allowed
        assert _chat_lines(ws, "x" * 500)
        for i in range(4):
            ws.send_json({"type": "chat", "text": f"line {i}"})
        _chat_lines(ws, "line 3")
        ws.send_json({"type": "chat", "text": "one too many"})
        errors = [m for m in _drain_until_pong(ws) if m.get("type") == "chat_error"]
        assert errors and errors[0]["code"] == "quota" and "too fast" in errors[0]["reason"]
    r = people.be("Ann").post(f"/api/tables/{tid}/chat", json={"text": "and by REST"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    stored = [x["text"] for x in people.be("Bob").get(f"/api/tables/{tid}/chat").json()["lines"]
              if not x["system"]]
    assert stored == ["x" * 500] + [f"line {i}" for i in range(4)]
    # another person is not slowed down by Ann
    assert people.be("Bob").post("/api/lobby/chat", json={"text": "hi"}).status_code == 200


def test_a_muted_person_is_not_shown_to_who_muted_them(people):
    tid = _table(people)
    assert people.be("Bob").post("/api/my/mutes", json={"name": "ann"}).status_code == 200
    assert people.be("Bob").get("/api/my/mutes").json() == {"muted": ["Ann"]}
    assert people.be("Bob").post("/api/my/mutes", json={"name": "Nobody"}).status_code == 404
    with people.be("Bob").websocket_connect(f"/ws/tables/{tid}") as bob_ws, \
            people.be("Cy").websocket_connect(f"/ws/tables/{tid}") as cy_ws:
        people.be("Ann").post(f"/api/tables/{tid}/chat", json={"text": "from Ann"})
        people.be("Cy").post(f"/api/tables/{tid}/chat", json={"text": "from Cy"})
        got = [m["text"] for m in _chat_lines(bob_ws, "from Cy")]
        assert "from Ann" not in got
        assert [m["text"] for m in _chat_lines(cy_ws, "from Cy")][-2:] == ["from Ann",
                                                                           "from Cy"]
    texts = [x["text"] for x in people.be("Bob").get(f"/api/tables/{tid}/chat").json()["lines"]]
    assert "from Ann" not in texts and "from Cy" in texts
    people.be("Ann").post("/api/lobby/chat", json={"text": "lobby Ann"})
    assert "lobby Ann" not in [x["text"] for x in
                               people.be("Bob").get("/api/lobby/chat").json()["lines"]]
    assert people.be("Bob").delete("/api/my/mutes/Ann").status_code == 200
    texts = [x["text"] for x in people.be("Bob").get(f"/api/tables/{tid}/chat").json()["lines"]]
    assert "from Ann" in texts


def test_lobby_chat_socket_sends_history_then_live_lines(people):
    people.be("Ann").post("/api/lobby/chat", json={"text": "earlier"})
    with people.be("Bob").websocket_connect("/ws/lobby/chat") as bob_ws, \
            people.be(None).websocket_connect("/ws/lobby/chat") as anon_ws:
        first = bob_ws.receive_json()
        assert first["type"] == "chat_history" and first["lines"][-1]["text"] == "earlier"
        assert anon_ws.receive_json()["type"] == "chat_history"
        bob_ws.send_json({"type": "chat", "text": EVIL})
        assert bob_ws.receive_json()["text"] == EVIL
        assert anon_ws.receive_json() | {"time": 0} == {
            "type": "chat", "id": first["lines"][-1]["id"] + 1, "name": "Bob", "text": EVIL,
            "system": False, "spectator": False, "time": 0}
        anon_ws.send_json({"type": "chat", "text": "hi"})  # nobody signed in: read only
        assert anon_ws.receive_json()["type"] == "chat_error"
        bob_ws.send_text("not json")
        assert bob_ws.receive_json()["type"] == "chat_error"


def test_spectators_are_hidden_from_players_at_a_rated_table_until_the_end(people):
    tid = _table(people, rated=True)
    assert people.client.app.state.services.tables.tables[tid].meta.rated is True
    people.add("Dee", "correct horse")
    with people.be("Ann").websocket_connect(f"/ws/tables/{tid}") as ann_ws, \
            people.be("Cy").websocket_connect(f"/ws/tables/{tid}") as cy_ws:
        cy_ws.send_json({"type": "chat", "text": "Bob should bid high"})
        assert _chat_lines(cy_ws, "Bob should bid high")[-1]["spectator"]
        people.be("Bob").post(f"/api/tables/{tid}/chat", json={"text": "from a player"})
        got = [m["text"] for m in _chat_lines(ann_ws, "from a player")]
        assert "Bob should bid high" not in got
    for name in ("Ann", "Bob"):
        texts = [x["text"] for x in
                 people.be(name).get(f"/api/tables/{tid}/chat").json()["lines"]]
        assert "Bob should bid high" not in texts and "from a player" in texts
    other = [x["text"] for x in people.be("Dee").get(f"/api/tables/{tid}/chat").json()["lines"]]
    assert "Bob should bid high" in other  # other spectators read it
    nobody = people.be(None).get(f"/api/tables/{tid}/chat").json()["lines"]
    assert "Bob should bid high" not in [x["text"] for x in nobody]  # a player without cookie
    play(people, tid, {0: "Ann", 1: "Bob"})
    texts = [x["text"] for x in people.be("Ann").get(f"/api/tables/{tid}/chat").json()["lines"]]
    assert "Bob should bid high" in texts and "The game is over." in texts


# ---------------------------------------------------------------------- ratings
def test_a_rated_game_updates_ratings_leaderboard_and_profile(people):
    tid = _table(people, rated=True)
    table = play(people, tid, {0: "Ann", 1: "Bob"})
    ranks = table["result"]["ranks"]
    board = people.be(None).get("/api/leaderboard/sealed_bids").json()
    rows = {r["name"]: r for r in board["rows"] if not r["bot"]}
    assert set(rows) == {"Ann", "Bob"} and all(r["played"] == 1 for r in rows.values())
    if ranks[0] != ranks[1]:
        winner, loser = ("Ann", "Bob") if ranks[0] < ranks[1] else ("Bob", "Ann")
        assert rows[winner]["mu"] > MU > rows[loser]["mu"]
        assert rows[winner]["won"] == 1 and rows[loser]["won"] == 0
        assert [r["name"] for r in board["rows"] if not r["bot"]] == [winner, loser]
    for r in rows.values():
        assert r["sigma"] < SIGMA and r["rating"] == shown(r["mu"], r["sigma"])
    prof = people.be("Cy").get("/api/people/Ann").json()
    g = next(x for x in prof["games"] if x["game"] == "sealed_bids")
    assert g["played"] == 1 and g["rated_games"] == 1 and g["rating"] == rows["Ann"]["rating"]
    bots = people.client.app.state.community.ratings.bot_board("sealed_bids")
    if bots:  # the bot level nearest to the rating, when the game has measured levels
        assert g["nearest_bot"]["rating"] == min(
            (b["rating"] for b in bots), key=lambda r: (abs(r - g["rating"]), r))
    else:
        assert "nearest_bot" not in g
    assert [p["table"] for p in prof["history"]["sealed_bids"]] == [tid]
    recent = prof["recent"][0]
    assert recent["id"] == tid and recent["rated"] and recent["replay"] == f"/replay/{tid}"
    assert recent["review"] == f"/review/{tid}" and recent["rank"] == ranks[0]
    chat = [x["text"] for x in people.be("Ann").get(f"/api/tables/{tid}/chat").json()["lines"]]
    assert any(t.startswith("New ratings: ") for t in chat)
    # a casual game changes no rating
    casual = _table(people)
    play(people, casual, {0: "Ann", 1: "Bob"})
    again = {r["name"]: r for r in people.be(None).get("/api/leaderboard/sealed_bids").json()
             ["rows"]}
    assert again["Ann"]["played"] == 1 and again["Ann"]["mu"] == rows["Ann"]["mu"]
    prof = people.be("Ann").get("/api/people/Ann").json()
    g = next(x for x in prof["games"] if x["game"] == "sealed_bids")
    assert g["played"] == 2 and g["rated_games"] == 1
    assert people.be(None).get("/api/leaderboard/nosuchgame").status_code == 404


def test_resigning_or_timing_out_counts_as_last_place():
    assert final_ranks([1, 2, 3, 4], [0]) == [5, 2, 3, 4]
    assert final_ranks([1, 1, 2], [2, 0]) == [2, 1, 3]  # the first to go is the very last
    store = CommunityStore()
    ratings = Ratings(store, ladder={})
    seats = [Seat.person(0, 1, "Ann"), Seat.person(1, 2, "Bob"), Seat.person(2, 3, "Cy")]
    out = ratings.rate_table("t", "koplus", seats, [1, 2, 3], last=[0])
    assert out is not None
    by = {r.user_id: r for r in out}
    assert by[1].rank == 4 and by[1].mu < MU < by[2].mu
    assert ratings.rate_table("t", "koplus", seats, [1, 2, 3]) is None  # rated once
    # one person in two seats, or fewer than two people, rates nobody
    hot = [Seat.person(0, 1, "Ann"), Seat.person(1, 1, "Ann")]
    assert ratings.rate_table("u", "koplus", hot, [1, 2]) is None
    assert ratings.rate_table("v", "koplus", [Seat.person(0, 1, "Ann"),
                                              Seat.robot(1, "random")], [1, 2]) is None


def test_a_profile_names_the_bot_level_nearest_to_each_rating():
    from meeple.server.community.profiles import nearest_bot

    ratings = Ratings(CommunityStore(), ladder={"koplus": {
        "random": BotRating("random", 25.0, 2.0, 80),
        "greedy": BotRating("greedy", 33.0, 1.0, 80)}})
    assert nearest_bot(ratings, "koplus", 16.0)["spec"] == "random"  # 19.0 is nearer
    assert nearest_bot(ratings, "koplus", 27.0) == {"spec": "greedy", "name": "Casual",
                                                   "rating": 30.0}
    assert nearest_bot(ratings, "koplus", 24.5)["spec"] == "random"  # as near: the weaker
    assert nearest_bot(ratings, "kozo", 10.0) is None  # no levels measured


def test_who_left_first_is_rated_last_whichever_way_they_left():
    """Bob runs out of time first, then Ann resigns: the table's result puts Bob last, and so
    does the rating (it follows the order people left, not resignations before time-outs)."""
    import meeple
    from meeple.server.community import leavers
    from meeple.server.domain import Departure, result_of

    state = meeple.load("koplus", 3).new_initial_state()
    departed = [{"seat": 1, "how": Departure.TIMED_OUT, "last": True},
                {"seat": 0, "how": Departure.RESIGNED, "last": True}]
    result = result_of(state, departed=departed)
    assert result["ranks"] == [2, 3, 1]
    order = leavers(departed, result, result)
    assert order == [1, 0]
    assert final_ranks(result["ranks"], order) == result["ranks"]
    ratings = Ratings(CommunityStore(), ladder={})
    seats = [Seat.person(0, 1, "Ann"), Seat.person(1, 2, "Bob"), Seat.person(2, 3, "Cy")]
    out = ratings.rate_table("t", "koplus", seats, result["ranks"], order)
    assert out is not None
    assert {r.user_id: r.rank for r in out} == {1: 2, 2: 3, 3: 1}
    # a seat handed to a bot after its time ran out plays on but is rated last all the same
    handed = [{"seat": 2, "how": Departure.TIMED_OUT, "last": False}]
    played = result_of(state, departed=handed)
    order = leavers(handed, played, played)
    assert order == [2] and final_ranks([1, 2, 3], order)[2] == 3
    # a player whose clock ran out at the end (no departure stored) is counted too
    assert leavers([], {"timed_out": [1]}, {"forfeit": 1}) == [1]


def test_bot_levels_are_fitted_on_the_same_scale_and_shown_as_bots(db_url):
    pairs = [{"lower": "random", "upper": "greedy", "games": 40, "upper_wins": 36, "draws": 0},
             {"lower": "greedy", "upper": "mcts:2", "games": 40, "upper_wins": 30, "draws": 4},
             {"lower": "mcts:2", "upper": "mcts:4", "games": 40, "upper_wins": 40, "draws": 0}]
    fit = fit_levels(pairs)
    assert fit["random"].mu == pytest.approx(MU)
    mus = [fit[s].mu for s in ("random", "greedy", "mcts:2", "mcts:4")]
    assert mus == sorted(mus) and all(b - a > 1 for a, b in zip(mus, mus[1:], strict=False))
    assert all(0 < fit[s].sigma <= SIGMA for s in fit)
    # with openskill's own prediction the fitted gap gives back the measured share
    from openskill.models import PlackettLuce

    m = PlackettLuce()
    p = m.predict_win([[m.rating(mu=fit["greedy"].mu, sigma=0.001)],
                       [m.rating(mu=fit["random"].mu, sigma=0.001)]])[0]
    assert p == pytest.approx(36.5 / 41, abs=0.01)
    assert fit_levels([]) == {}
    # the arena's measured ladder gives every game's levels, the weakest at a newcomer's mu
    measured = load_ladder()
    assert measured, "meeple/bots/ladder.json gives no levels"
    for levels in measured.values():
        first = next(iter(levels.values()))
        assert first.mu == pytest.approx(MU)
        assert all(b.mu >= first.mu and b.games > 0 for b in levels.values())
    assert load_ladder(Path("/nonexistent/ladder.json")) == {}
    app = create_app(db_url)
    app.state.community.ratings.bots = {"sealed_bids": fit}
    with TestClient(app) as client:
        rows = client.get("/api/leaderboard/sealed_bids").json()["rows"]
        bots = [r for r in rows if r["bot"]]
        assert [r["spec"] for r in bots] == ["mcts:4", "mcts:2", "greedy", "random"]
        assert bots[0]["name"] == "mcts bot, level 4" and bots[-1]["name"] == "Beginner"
    # a bot at a rated table takes part with its fitted rating and keeps it
    ratings = Ratings(CommunityStore(), ladder={"koplus": {"greedy": BotRating("greedy", 40.0,
                                                                               1.0, 80)}})
    seats = [Seat.person(0, 1, "Ann"), Seat.person(1, 2, "Bob"), Seat.robot(2, "greedy")]
    out = ratings.rate_table("t", "koplus", seats, [2, 3, 1])
    assert out is not None and {r.user_id for r in out} == {1, 2}
    assert ratings.bots["koplus"]["greedy"].mu == 40.0


# ---------------------------------------------------------------------- people
def test_avatar_profile_follow_and_invite(people):
    svg = people.be(None).get("/api/users/Ann/avatar.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text == people.be(None).get("/api/users/Ann/avatar.svg").text
    assert svg.text != people.be(None).get("/api/users/Bob/avatar.svg").text
    odd = people.be(None).get("/api/users/%3Cscript%3Ealert(1)%22%3E/avatar.svg")
    assert odd.status_code == 200 and "<script" not in odd.text and "&lt;script&gt;" in odd.text
    assert "default-src 'none'" in svg.headers["content-security-policy"]
    assert people.be("Ann").post("/api/people/Bob/follow").status_code == 200
    assert people.be("Ann").post("/api/people/Ann/follow").status_code == 422
    ann = people.be("Ann").get("/api/people/Ann").json()
    assert [f["name"] for f in ann["following"]] == ["Bob"] and ann["me"]
    assert ann["avatar"] == "/api/users/Ann/avatar.svg"
    bob = people.be("Ann").get("/api/people/Bob").json()
    assert bob["you_follow"] and bob["followers"] == 1 and not bob["me"]
    assert "notify" not in bob and "invitations" not in bob  # only for themselves
    r = people.be("Ann").post("/api/tables", json={
        "game": "sealed_bids", "visibility": "private", "start": False,
        "seats": [{"kind": "me"}, {"kind": "open"}]})
    tid = r.json()["table"]["id"]
    with people.be("Bob").websocket_connect("/ws/lobby/chat") as ws:
        assert ws.receive_json()["type"] == "chat_history"
        assert people.be("Ann").post("/api/people/Bob/invite",
                                     json={"table_id": tid}).status_code == 200
        told = ws.receive_json()
        assert told == {"type": "invitation", "from": "Ann", "table": tid,
                        "title": "Sealed bids (test game)"}
    assert people.be("Ann").post("/api/people/Bob/invite",
                                 json={"table_id": tid}).status_code == 200  # again: one
    assert people.be("Cy").post("/api/people/Bob/invite",
                                json={"table_id": tid}).status_code == 404  # not Cy's
    inv = people.be("Bob").get("/api/people/Bob").json()["invitations"]
    assert len(inv) == 1 and inv[0]["from"] == "Ann" and inv[0]["link"].startswith(
        f"/invite/{tid}/")
    r = people.be("Bob").post(f"/api/tables/{tid}/join",
                              json={"seat": 1, "code": inv[0]["link"].rsplit("/", 1)[1]})
    assert r.status_code == 200, r.text
    assert people.be("Bob").get("/api/people/Bob").json()["invitations"] == []  # seat taken
    assert people.be("Ann").delete("/api/people/Bob/follow").status_code == 200
    assert people.be("Ann").get("/api/people/Ann").json()["following"] == []
    assert people.be(None).get("/api/people/Nobody").status_code == 404


# ---------------------------------------------------------------------- e-mail
class Inbox:
    """What a local SMTP server received."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        self.messages.append(email.message_from_bytes(envelope.content,
                                                      policy=policy.default))
        return "250 OK"


@pytest.fixture
def smtp():
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, f"smtp://127.0.0.1:{port}?from=turns@meeple.test&site=http://meeple.test"
    finally:
        controller.stop()


def test_a_turn_email_is_sent_after_a_while_away_with_an_unsubscribe_link(db_url, smtp):
    inbox, url = smtp
    app = create_app(db_url, smtp_url=url)
    mailer = app.state.community.mailer
    mailer.away_after = 0.3
    with TestClient(app) as client:
        p = People(client)
        p.add("Ann", "correct horse")
        p.add("Bob", "battery staple")
        p.add("Gus")
        assert p.be("Gus").put("/api/my/notifications",
                               json={"email": "gus@example.org"}).status_code == 403
        r = p.be("Ann").put("/api/my/notifications", json={"turn_mail": True})
        assert r.status_code == 422  # an address first
        r = p.be("Ann").put("/api/my/notifications", json={"email": "not an address"})
        assert r.status_code == 422
        r = p.be("Ann").put("/api/my/notifications",
                            json={"email": "ann@example.org", "turn_mail": True})
        assert r.json() == {"email": "ann@example.org", "turn_mail": True,
                            "mail_offered": True}
        tid = _table(p, "Ann", "Bob")
        # Bob watches the table: he is not mailed (and did not ask to be)
        with p.be("Bob").websocket_connect(f"/ws/tables/{tid}"):
            deadline = time.monotonic() + 120
            while not inbox.messages and time.monotonic() < deadline:
                time.sleep(0.05)
        assert len(inbox.messages) == 1
        msg = inbox.messages[0]
        assert msg["To"] == "ann@example.org" and msg["From"] == "turns@meeple.test"
        assert msg["Subject"] == "Your turn in Sealed bids (test game)"
        body = msg.get_content()
        assert f"http://meeple.test/table/{tid}" in body and "Hello Ann" in body
        assert "It is your turn in Sealed bids (test game) with Bob." in body
        assert msg.get_content_type() == "text/plain" and not msg.is_multipart()  # no markup
        link = next(w for w in body.split() if "/api/unsubscribe?token=" in w)
        assert msg["List-Unsubscribe"] == f"<{link}>"
        # another turn soon after mails nobody (at most one e-mail an hour)
        assert len(inbox.messages) == 1
        u = urlsplit(link)
        token = unquote(u.query.split("=", 1)[1])
        body_part, signature = token.rsplit(".", 1)
        # a changed signature (its first character carries only signature bits) and a
        # signature of another person's id are both refused
        forged = body_part + "." + ("B" if signature[0] != "B" else "C") + signature[1:]
        other = mailer.unsubscribe_token(p.user("Bob").id).rsplit(".", 1)[0] + "." + signature
        for bad_token in (forged, other, "nonsense"):
            bad = p.be(None).get(u.path, params={"token": bad_token})
            assert bad.status_code == 403, bad_token
        page = p.be(None).get(f"{u.path}?{u.query}")
        assert page.status_code == 200 and "no more turn e-mails" in page.text
        assert p.be("Ann").get("/api/my/notifications").json()["turn_mail"] is False
        # unsubscribed: a new turn far later mails nobody
        lt = client.app.state.services.tables.tables[tid]
        app.state.community.store.set_notify(p.user("Ann").id, last_mailed=1.0)
        assert client.portal.call(mailer.mail_turn, lt, p.user("Ann").id) is False
        app.state.community.store.set_notify(p.user("Ann").id, turn_mail=True)
        assert client.portal.call(mailer.mail_turn, lt, p.user("Ann").id) is True
        with p.be("Ann").websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "ping"})
            while ws.receive_json()["type"] != "pong":
                pass
            app.state.community.store.set_notify(p.user("Ann").id, last_mailed=1.0)
            # at the table: no e-mail
            assert client.portal.call(mailer.mail_turn, lt, p.user("Ann").id) is False
    assert len(inbox.messages) == 2


def test_no_smtp_means_no_mail_and_no_unsubscribe(app):
    with TestClient(app) as client:
        assert app.state.community.mailer is None
        p = People(client)
        p.add("Ann", "correct horse")
        assert p.be("Ann").get("/api/my/notifications").json()["mail_offered"] is False
        assert client.get("/api/unsubscribe?token=x").status_code == 404


def test_a_bad_smtp_url_is_refused_at_start(sqlite_url):
    with pytest.raises(ValueError, match="smtp://"):
        create_app(sqlite_url, smtp_url="http://mail.example.org")


def test_the_memory_store_has_a_community_too():
    from meeple.server.store import MemoryStore

    with TestClient(create_app(store=MemoryStore())) as client:
        People(client).add("Ann")
        assert client.post("/api/lobby/chat", json={"text": "hi"}).status_code == 200
        assert client.get("/api/lobby/chat").json()["lines"][0]["text"] == "hi"



@pytest.mark.postgres
def test_two_servers_share_chat_lines_through_redis(pg_url, redis_url):
    app1, app2 = create_app(pg_url, redis_url), create_app(pg_url, redis_url)
    with TestClient(app1) as c1, TestClient(app2) as c2:
        ann, bob = People(c1), People(c2)
        ann.add("Ann")
        bob.add("Bob")
        r = ann.be("Ann").post("/api/tables", json={
            "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "open"}]})
        tid = r.json()["table"]["id"]
        assert bob.be("Bob").post(f"/api/tables/{tid}/join", json={"seat": 1}).status_code == 200
        with ann.be("Ann").websocket_connect(f"/ws/tables/{tid}") as ann_ws, \
                ann.be("Ann").websocket_connect("/ws/lobby/chat") as ann_lobby, \
                bob.be("Bob").websocket_connect(f"/ws/tables/{tid}") as bob_ws:
            assert ann_lobby.receive_json()["type"] == "chat_history"
            _drain_until_pong(ann_ws)
            bob_ws.send_json({"type": "chat", "text": "from the other server"})
            line = _chat_lines(ann_ws, "from the other server")[-1]
            assert line["name"] == "Bob"
            assert bob.be("Bob").post("/api/lobby/chat", json={"text": "lobby, elsewhere"}) \
                .status_code == 200
            assert ann_lobby.receive_json()["text"] == "lobby, elsewhere"


def test_meeple_serve_takes_the_smtp_url(monkeypatch):
    from typer.testing import CliRunner

    import meeple.server
    from meeple.cli import app as cli

    seen = {}
    monkeypatch.setattr(meeple.server, "serve", lambda **kw: seen.update(kw))
    url = "smtp://mail.example.org:2525?from=turns@example.org&site=https://play.example.org"
    result = CliRunner().invoke(cli, ["serve", "--smtp", url])
    assert result.exit_code == 0, result.output
    assert seen["smtp"] == url
    CliRunner().invoke(cli, ["serve"])
    assert seen["smtp"] is None  # no e-mail unless asked for
