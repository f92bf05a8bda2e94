"""What an attacker tries with accounts and tables: farming a rating off throw-away guests who
resign at once, signing up (or asking for hints, replays, reviews, tutorial steps) in a loop,
reviews of games that ended by resignation, private tables found out by their refusals or
through a profile, invitations from a muted person, a guest's lobby lines shown under a name
someone registered later, and unsubscribe links that work for ever."""

from __future__ import annotations

import time
from urllib.parse import unquote, urlsplit

import pytest
import redis
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner, URLSafeSerializer, URLSafeTimedSerializer

from meeple.server import create_app
from meeple.server.community.mail import LINK_DAYS, SALT
from meeple.server.community.ratings import PAIR_GAMES, RATED_AFTER, Ratings
from meeple.server.community.store import CommunityStore
from meeple.server.deps import RATES, Rate
from meeple.server.domain import Seat, SeatKind
from meeple.server.reviews import Reviews, ReviewStore
from meeple.server.store import MemoryStore, SqlStore

from .conftest import free_port
from .test_community import Inbox
from .util import People, play

PASSWORD = "correct horse"
GERMAN = {"Accept-Language": "de"}


@pytest.fixture
def people():
    with TestClient(create_app(store=MemoryStore())) as client:
        p = People(client)
        for name in ("Ann", "Bob", "Cy"):
            p.add(name, PASSWORD)
        yield p


def two_at_a_table(p: People, game: str = "sealed_bids", **extra) -> str:
    """A started table of Ann (seat 0) and Bob (seat 1)."""
    r = p.be("Ann").post("/api/tables", json={"game": game, "players": 2, **extra,
                                              "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    code = r.json()["table"].get("invite", "").rsplit("/", 1)[-1] or None
    r = p.be("Bob").post(f"/api/tables/{tid}/join", json={"seat": 1, "code": code})
    assert r.status_code == 200, r.text
    assert r.json()["table"]["status"] == "running"
    return tid




# ---------------------------------------------------------------------- rating farming
def test_guests_sit_at_no_rated_table(people):
    people.add("Gus")  # a guest
    r = people.be("Gus").post("/api/tables", json={
        "game": "sealed_bids", "rated": True, "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert r.status_code == 403 and "registered players" in r.json()["detail"]
    german = people.be("Gus").post("/api/tables", headers=GERMAN, json={
        "game": "sealed_bids", "rated": True, "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert german.status_code == 403 and german.json()["detail"] != r.json()["detail"]
    r = people.be("Ann").post("/api/tables", json={
        "game": "sealed_bids", "rated": True, "seats": [{"kind": "me"}, {"kind": "open"}]})
    tid = r.json()["table"]["id"]
    r = people.be("Gus").post(f"/api/tables/{tid}/join", json={"seat": 1})
    assert r.status_code == 403 and "registered players" in r.json()["detail"]
    table = people.be("Ann").get(f"/api/tables/{tid}").json()["table"]
    assert table["status"] == "waiting" and table["seats"][1]["kind"] == "open"


def test_a_rated_game_resigned_in_its_first_moves_rates_nobody(people):
    for _k in range(3):  # the farm: one player, opponents who resign at once
        tid = two_at_a_table(people, rated=True)
        r = people.be("Bob").post(f"/api/tables/{tid}/resign")
        assert r.status_code == 200 and r.json()["table"]["status"] == "finished"
    chat = [x["text"] for x in people.be("Ann").get(f"/api/tables/{tid}/chat").json()["lines"]]
    assert "This game changes no rating: it was given up in its first moves." in chat
    ann = people.be("Cy").get("/api/people/Ann").json()
    assert all(g["rated_games"] == 0 and g["rating"] == 0 for g in ann["games"])
    assert ann["history"] == {} and not any(g["rated"] for g in ann["recent"])
    board = people.be(None).get("/api/leaderboard/sealed_bids").json()["rows"]
    assert [row["name"] for row in board if not row["bot"]] == []
    # given up after enough moves, a game is rated
    tid = two_at_a_table(people, game="koplus", rated=True)
    assert play(people, tid, {0: "Ann", 1: "Bob"}, moves=RATED_AFTER)["status"] == "running"
    r = people.be("Bob").post(f"/api/tables/{tid}/resign")
    assert r.status_code == 200 and r.json()["table"]["status"] == "finished"
    ann = people.be("Cy").get("/api/people/Ann").json()
    koplus = next(g for g in ann["games"] if g["game"] == "koplus")
    assert koplus["rated_games"] == 1 and koplus["rating"] > 0
    assert [h["table"] for h in ann["history"]["koplus"]] == [tid]


def test_repeated_games_between_the_same_two_people_stop_moving_their_ratings(db_url):
    """Ratings and their store as the server has them, on SQLite and PostgreSQL."""
    store = SqlStore(db_url)
    try:
        ann = store.add_user("Ann", "ann", None, guest=False)
        bob = store.add_user("Bob", "bob", None, guest=False)
        cy = store.add_user("Cy", "cy", None, guest=False)
        assert ann and bob and cy
        ratings = Ratings(CommunityStore(store.engine), ladder={})
        seats = [Seat(0, SeatKind.HUMAN, ann.id, "Ann"), Seat(1, SeatKind.HUMAN, bob.id, "Bob")]
        moved = []
        for k in range(PAIR_GAMES + 2):
            before = ratings.rating_of(ann.id, "koplus").mu
            assert ratings.rate_table(f"t{k}", "koplus", seats, [1, 2]) is not None
            moved.append(ratings.rating_of(ann.id, "koplus").mu - before)
        assert all(m > 0 for m in moved[:PAIR_GAMES]) and moved[PAIR_GAMES:] == [0.0, 0.0]
        assert ratings.rating_of(ann.id, "koplus").played == PAIR_GAMES + 2
        # against someone else the games count again; at a table of three, Ann's change is
        # scaled by the share of opponents she has not played that often (Cy, not Bob)
        three = [*seats, Seat(2, SeatKind.HUMAN, cy.id, "Cy")]
        weights = ratings.weights("koplus", three, time.time())
        assert weights == {ann.id: 0.5, bob.id: 0.5, cy.id: 1.0}
        before = ratings.rating_of(cy.id, "koplus").mu
        assert ratings.rate_table("t-three", "koplus", three, [2, 3, 1]) is not None
        assert ratings.rating_of(cy.id, "koplus").mu > before
    finally:
        store.close()


# ---------------------------------------------------------------------- rate limits
COSTLY = [
    ("post", "/api/signup", {"json": {"name": "Zed", "password": PASSWORD}}, "signup"),
    ("post", "/api/login", {"json": {"name": "Ann", "password": PASSWORD}}, "login"),
    ("post", "/api/guest", {"json": {"name": "Gus"}}, "guest"),
    ("post", "/api/tables", {"json": {"game": "sealed_bids"}}, "table"),
    ("post", "/api/tables/nowhere/rematch", {}, "table"),
    ("get", "/api/learn/koplus/steps/0", {}, "learn"),
    ("post", "/api/learn/koplus/steps/0/check", {"json": {"move": 0}}, "learn"),
    ("get", "/api/tables/nowhere/hint?seat=0", {}, "hint"),
    ("get", "/api/tables/nowhere/replay", {}, "replay"),
    ("post", "/api/tables/nowhere/review", {}, "review"),
]


@pytest.mark.parametrize(("method", "path", "kw", "kind"), COSTLY,
                         ids=[f"{m} {p}" for m, p, _, _ in COSTLY])
def test_every_costly_route_is_limited_per_address(method, path, kw, kind):
    once = {k: Rate("1000/minute", "2/minute") for k in RATES}
    with TestClient(create_app(store=MemoryStore(), rates=once)) as c:
        People(c).add("Ann", PASSWORD)  # signed up and signed in (one sign-up of two)
        if kind != "signup":
            assert getattr(c, method)(path, **kw).status_code != 429
        assert getattr(c, method)(path, **kw).status_code != 429
        r = getattr(c, method)(path, **kw)
        assert r.status_code == 429, r.text
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert r.json()["detail"].endswith(f"try again in {r.headers['Retry-After']} s")
        german = getattr(c, method)(path, headers=GERMAN, **kw)
        assert german.status_code == 429 and german.json()["detail"] != r.json()["detail"]


def test_sign_ups_are_limited_and_the_refusal_says_when_to_try_again():
    with TestClient(create_app(store=MemoryStore(),
                               rates={"signup": Rate("10/minute", "3/minute")})) as c:
        for k in range(3):
            c.cookies.clear()
            r = c.post("/api/signup", json={"name": f"Farmer{k}", "password": PASSWORD})
            assert r.status_code == 200, r.text
        c.cookies.clear()
        r = c.post("/api/signup", json={"name": "Farmer9", "password": PASSWORD})
        assert r.status_code == 429
        wait = int(r.headers["Retry-After"])
        assert 1 <= wait <= 60 and r.json()["detail"] == (
            f"too many new accounts from here; try again in {wait} s")
        german = c.post("/api/signup", headers=GERMAN,
                        json={"name": "Farmer9", "password": PASSWORD})
        assert german.status_code == 429 and german.json()["detail"] != r.json()["detail"]
        assert c.app.state.services.store.user_by_key("farmer9") is None  # nothing made
        # guests are another kind: the address may still play as a guest
        assert c.post("/api/guest", json={"name": "Gus"}).status_code == 200


def test_tables_are_limited_per_person_too():
    with TestClient(create_app(store=MemoryStore(),
                               rates={"table": Rate("2/minute", "100/minute")})) as c:
        p = People(c)
        p.add("Ann", PASSWORD)
        p.add("Bob", PASSWORD)
        new = {"game": "sealed_bids", "start": False}
        for _ in range(2):
            assert p.be("Ann").post("/api/tables", json=new).status_code == 201
        r = p.be("Ann").post("/api/tables", json=new)
        assert r.status_code == 429 and "too fast" in r.json()["detail"]
        # Bob, from the same address, is not held up by Ann's limit
        assert p.be("Bob").post("/api/tables", json=new).status_code == 201


def test_with_redis_every_process_shares_the_counts(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/7"  # a database of its own, emptied first
    redis.Redis.from_url(url).flushdb()
    rates = {"guest": Rate("100/minute", "3/minute")}
    with TestClient(create_app(store=MemoryStore(), redis_url=url, rates=rates)) as one, \
            TestClient(create_app(store=MemoryStore(), redis_url=url, rates=rates)) as two:
        assert one.post("/api/guest", json={"name": "A"}).status_code == 200
        assert two.post("/api/guest", json={"name": "B"}).status_code == 200
        assert one.post("/api/guest", json={"name": "C"}).status_code == 200
        assert two.post("/api/guest", json={"name": "D"}).status_code == 429
    redis.Redis.from_url(url).flushdb()


def test_the_chat_limit_is_counted_by_the_same_limits():
    with TestClient(create_app(store=MemoryStore(),
                               rates={"chat": Rate("2/minute", "100/minute")})) as c:
        People(c).add("Ann", PASSWORD)
        for _ in range(2):
            assert c.post("/api/lobby/chat", json={"text": "hello"}).status_code == 200
        r = c.post("/api/lobby/chat", json={"text": "hello"})
        assert r.status_code == 429 and "too fast" in r.json()["detail"]
        assert 1 <= int(r.headers["Retry-After"]) <= 60


# ---------------------------------------------------------------------- reviews
def test_a_resigned_game_has_its_review_up_to_its_last_move(people):
    app = people.client.app
    s = app.state.services
    app.state.reviews = Reviews(s.tables, ReviewStore(None), iterations=20)
    tid = two_at_a_table(people, game="koplus")
    play(people, tid, {0: "Ann", 1: "Bob"}, moves=4)
    assert people.be("Bob").post(f"/api/tables/{tid}/resign").status_code == 200
    ann = people.be("Ann")
    r = ann.post(f"/api/tables/{tid}/review")
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 300
    body = r.json()
    while body["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
        body = ann.get(f"/api/tables/{tid}/review").json()
    assert body["status"] == "done", body
    review = body["review"]
    lt = app.state.services.tables.get(tid)
    assert lt is not None and not lt.state.is_terminal()
    # the chart ends at the last move, numbered as the log and the ending number it
    assert review["points"][-1]["move"] == 4
    assert review["ending"] == "Bob resigned after 4 moves."
    german = ann.get(f"/api/tables/{tid}/review", headers=GERMAN).json()["review"]
    assert german["ending"] != review["ending"]


# ---------------------------------------------------------------------- privacy
HIDDEN_ROUTES = [("join", {"seat": 1}), ("leave", {"seat": 0}), ("resign", {}), ("abort", {}),
                 ("act", {"seat": 0, "action": 0, "move_number": 0}), ("start", None),
                 ("rematch", None), ("undo", {}), ("claim", {"seat": 0}),
                 ("seats/1", {"kind": "open"})]


@pytest.mark.parametrize("status", ["waiting", "running", "finished"])
def test_a_private_table_answers_outsiders_as_an_unknown_one(people, status):
    new = {"game": "sealed_bids", "visibility": "private", "start": status != "waiting",
           "seats": [{"kind": "me"}, {"kind": "open"}]}
    r = people.be("Ann").post("/api/tables", json=new)
    tid = r.json()["table"]["id"]
    if status != "waiting":
        code = r.json()["table"]["invite"].rsplit("/", 1)[-1]
        assert people.be("Bob").post(f"/api/tables/{tid}/join",
                                     json={"code": code}).status_code == 200
        if status == "finished":
            play(people, tid, {0: "Ann", 1: "Bob"})
    cy = people.be("Cy")
    for route, body in HIDDEN_ROUTES:
        kw = {"json": body} if body is not None else {}
        private = cy.post(f"/api/tables/{tid}/{route}", **kw)
        unknown = cy.post(f"/api/tables/nowhere1/{route}", **kw)
        assert (private.status_code, private.json()) == (unknown.status_code, unknown.json()), \
            route
        assert private.status_code == 404
    # those who sit there still get the table's own answers
    assert people.be("Ann").post(f"/api/tables/{tid}/start").status_code != 404


def test_a_private_rated_game_is_left_out_of_others_views_of_a_profile(people):
    tid = two_at_a_table(people, rated=True, visibility="private")
    assert play(people, tid, {0: "Ann", 1: "Bob"})["status"] == "finished"
    public = two_at_a_table(people, rated=True)
    assert play(people, public, {0: "Ann", 1: "Bob"})["status"] == "finished"

    def seen_by(viewer: str | None) -> tuple[set[str], set[str], int]:
        ann = people.be(viewer).get("/api/people/Ann").json()
        history = {h["table"] for points in ann["history"].values() for h in points}
        recent = {g["id"] for g in ann["recent"]}
        played = sum(g["played"] for g in ann["games"])
        return history, recent, played

    for outsider in ("Cy", None):
        history, recent, _played = seen_by(outsider)
        assert tid not in history and tid not in recent, outsider
        assert public in history and public in recent
    for insider in ("Ann", "Bob"):
        history, recent, played = seen_by(insider)
        assert {tid, public} <= history and {tid, public} <= recent and played == 2


# ---------------------------------------------------------------------- smaller holes
def test_a_mute_silences_invitations_too(people):
    def waiting_table(owner: str) -> str:
        r = people.be(owner).post("/api/tables", json={
            "game": "sealed_bids", "start": False, "seats": [{"kind": "me"}, {"kind": "open"}]})
        return r.json()["table"]["id"]

    anns, cys = waiting_table("Ann"), waiting_table("Cy")
    assert people.be("Bob").post("/api/my/mutes", json={"name": "Ann"}).status_code == 200
    with people.be("Bob").websocket_connect("/ws/lobby/chat") as ws:
        assert ws.receive_json()["type"] == "chat_history"
        r = people.be("Ann").post("/api/people/Bob/invite", json={"table_id": anns})
        assert r.status_code == 200  # Ann is not told she is muted
        assert people.be("Cy").post("/api/people/Bob/invite",
                                    json={"table_id": cys}).status_code == 200
        told = ws.receive_json()  # Cy's is the first invitation Bob hears of
        assert told["type"] == "invitation" and told["from"] == "Cy"
    invitations = people.be("Bob").get("/api/people/Bob").json()["invitations"]
    assert [i["from"] for i in invitations] == ["Cy"]


def test_a_guests_lobby_lines_stay_theirs_when_someone_registers_the_name():
    with TestClient(create_app(store=MemoryStore())) as c:
        p = People(c)
        p.add("Ann")  # a guest
        assert p.be("Ann").post("/api/lobby/chat", json={"text": "I am a guest"}).status_code \
            == 200
        p.cookies["guest"] = p.cookies.pop("Ann")
        p.add("Ann", PASSWORD)  # someone else registers the name
        assert p.be("Ann").post("/api/lobby/chat", json={"text": "I registered"}).status_code \
            == 200
        lines = [(x["name"], x["text"]) for x in p.be(None).get("/api/lobby/chat").json()["lines"]
                 if not x["system"]]
        assert lines == [("Ann (guest)", "I am a guest"), ("Ann", "I registered")]


@pytest.fixture
def mail_server():
    """A local SMTP server that keeps what it is sent."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield inbox, (f"smtp://127.0.0.1:{controller.port}?from=turns@meeple.test"
                      "&site=http://meeple.test")
    finally:
        controller.stop()


def test_an_unsubscribe_link_works_once_for_its_subscription_and_not_for_ever(db_url,
                                                                              mail_server):
    inbox, url = mail_server
    app = create_app(db_url, smtp_url=url)
    mailer = app.state.community.mailer
    with TestClient(app) as c:
        p = People(c)
        p.add("Ann", PASSWORD)
        p.add("Bob", PASSWORD)
        ann = p.user("Ann").id
        tid = two_at_a_table(p)
        lt = app.state.services.tables.get(tid)
        assert lt is not None and 0 in lt.state.pending_players()  # Ann's turn

        def subscribe() -> None:
            r = p.be("Ann").put("/api/my/notifications",
                                json={"email": "ann@example.org", "turn_mail": True})
            assert r.status_code == 200 and r.json()["turn_mail"] is True

        def mailed_link() -> str:
            """The unsubscribe link of a turn e-mail sent to Ann now."""
            app.state.community.store.set_notify(ann, last_mailed=1.0)  # long ago
            assert c.portal.call(mailer.mail_turn, lt, ann) is True
            body = inbox.messages[-1].get_content()
            return next(w for w in body.split() if "/api/unsubscribe?token=" in w)

        def follow(link: str, **kw):
            u = urlsplit(link)
            return p.be(None).get(u.path, params={"token": unquote(u.query.split("=", 1)[1])},
                                  **kw)

        def turn_mail() -> bool:
            return p.be("Ann").get("/api/my/notifications").json()["turn_mail"]

        subscribe()
        link = mailed_link()
        done = follow(link)
        assert done.status_code == 200 and "no more turn e-mails" in done.text
        assert turn_mail() is False
        again = follow(link)  # used already: a page that says so
        assert again.status_code == 410 and "used already" in again.text
        assert again.headers["content-type"].startswith("text/html")
        german = follow(link, headers=GERMAN)
        assert german.status_code == 410 and "used already" not in german.text
        subscribe()
        assert follow(link).status_code == 410 and turn_mail() is True  # the old link is void
        # a link of the old kind (signed here, for ever, for anything) does nothing
        forever = URLSafeSerializer(c.app.state.services.store.secret(), salt=SALT)
        old = follow("http://meeple.test/api/unsubscribe?token=" + forever.dumps({"u": ann}))
        assert old.status_code == 403 and "not valid" in old.text and turn_mail() is True
        # a link older than its days has expired
        fresh = mailed_link()
        token = unquote(urlsplit(fresh).query.split("=", 1)[1])
        payload = URLSafeTimedSerializer(c.app.state.services.store.secret(),
                                         salt=SALT).loads(token)

        class Dated(TimestampSigner):  # signs as if it were a month and a day ago
            def get_timestamp(self) -> int:
                return int(time.time()) - (LINK_DAYS + 1) * 24 * 3600

        stale = URLSafeTimedSerializer(c.app.state.services.store.secret(), salt=SALT,
                                       signer=Dated).dumps(payload)
        expired = follow("http://meeple.test/api/unsubscribe?token=" + stale)
        assert expired.status_code == 410 and "expired" in expired.text and turn_mail() is True
        assert follow(fresh).status_code == 200 and turn_mail() is False
