"""The server in four languages: each request and socket speaks its person's language (the
``lang`` cookie, else Accept-Language, else English), a player's chosen language follows them
to every browser and into their e-mails, and one table is read in several languages at once."""

from __future__ import annotations

import random
import time

import pytest
from fastapi.testclient import TestClient

import meeple
from meeple.engine import CHANCE, i18n
from meeple.server import create_app, views
from meeple.server.views import seat_names
from tests.server.test_community import People, smtp  # noqa: F401 (the SMTP fixture)
from tests.server.util import frames_until, new_guest

NO_TABLE = {"en": "no such table", "de": "diesen Tisch gibt es nicht",
            "es": "esa mesa no existe", "nl": "die tafel bestaat niet"}


@pytest.fixture
def client(sqlite_url):
    with TestClient(create_app(sqlite_url)) as c:
        yield c


def _missing_table(client: TestClient, **kw) -> str:
    r = client.get("/api/tables/nosuchtable/chat", **kw)
    assert r.status_code == 404
    return r.json()["detail"]


def test_accept_language_picks_german_and_the_cookie_beats_it(client):
    assert _missing_table(client) == NO_TABLE["en"]
    german = {"Accept-Language": "fr-FR,fr;q=0.9,de-AT;q=0.8,en;q=0.5"}
    assert _missing_table(client, headers=german) == NO_TABLE["de"]
    assert client.get("/api/me", headers=german).json()["lang"] == "de"
    client.cookies.set("lang", "es")
    assert _missing_table(client, headers=german) == NO_TABLE["es"]
    assert client.get("/api/me", headers=german).json()["lang"] == "es"
    r = client.put("/api/language", json={"lang": "nl"})
    assert r.status_code == 200 and r.cookies.get("lang") == "nl"
    client.cookies.set("lang", "nl")
    assert _missing_table(client, headers=german) == NO_TABLE["nl"]


def test_a_players_language_comes_back_when_they_sign_in_elsewhere(sqlite_url):
    app = create_app(sqlite_url)
    with TestClient(app) as first:
        assert first.post("/api/signup", json={"name": "Ann", "password": "correct horse"}
                          ).status_code == 200
        assert first.put("/api/language", json={"lang": "nl"}).status_code == 200
        user = app.state.services.store.user_by_key("ann")
        assert user.lang == "nl"
    with TestClient(app) as other:  # another browser, which asks for German
        headers = {"Accept-Language": "de"}
        assert _missing_table(other, headers=headers) == NO_TABLE["de"]
        r = other.post("/api/login", json={"name": "Ann", "password": "correct horse"},
                       headers=headers)
        assert r.status_code == 200 and r.json()["lang"] == "nl"
        assert r.cookies.get("lang") == "nl"
        assert other.get("/api/me", headers=headers).json() == {
            "name": "Ann", "guest": False, "lang": "nl"}
        assert _missing_table(other, headers=headers) == NO_TABLE["nl"]


def test_a_browsers_choice_is_kept_for_a_player_who_had_none(sqlite_url):
    app = create_app(sqlite_url)
    with TestClient(app) as c:
        c.cookies.set("lang", "es")
        assert c.post("/api/signup", json={"name": "Bea", "password": "correct horse"}
                      ).json()["lang"] == "es"
        assert app.state.services.store.user_by_key("bea").lang == "es"


def test_errors_and_validation_problems_in_spanish(client):
    es = {"Accept-Language": "es-ES"}
    r = client.post("/api/signup", json={"name": "Ann"}, headers=es)
    assert r.status_code == 422
    assert r.json()["detail"][0]["msg"] == "body.password: esto es obligatorio"
    r = client.post("/api/login", json={"name": "Ann", "password": "wrong password"},
                    headers=es)
    assert r.status_code == 401 and r.json()["detail"] == "nombre o contraseña incorrectos"
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "nosuchgame"}, headers=es)
    assert r.status_code == 404
    assert r.json()["detail"].startswith("ningún juego llamado 'nosuchgame'; conocidos: ")


def _koplus_table(client: TestClient) -> str:
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "koplus", "seats": [
        {"kind": "me"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    return r.json()["table"]["id"]


def test_one_table_is_read_in_dutch_and_german_at_once(client):
    tid = _koplus_table(client)
    lt = client.app.state.services.tables.tables[tid]
    with client.websocket_connect(f"/ws/tables/{tid}") as ann:
        f = frames_until(ann, lambda m: 0 in m["to_move"])
        act = f["actions"][0]["action"]
        ann.send_json({"type": "act", "seat": 0, "action": act,
                       "move_number": f["move_number"]})
        frames_until(ann, lambda m: m["move_number"] > f["move_number"] and 0 in m["to_move"])
    client.cookies.clear()
    langs = {"nl": {"cookie": "lang=nl"}, "de": {"Accept-Language": "de-DE"}}
    with client.websocket_connect(f"/ws/tables/{tid}", headers=langs["nl"]) as nl, \
            client.websocket_connect(f"/ws/tables/{tid}", headers=langs["de"]) as de:
        frames = {"nl": frames_until(nl, lambda m: True), "de": frames_until(de, lambda m: True)}
    moves = [(e.player, e.action) for e in lt.log]
    assert frames["nl"]["move_number"] == frames["de"]["move_number"] == len(moves)
    state = meeple.load("koplus", 2).new_initial_state()
    setup = next(i for i, (player, _a) in enumerate(moves) if player != CHANCE)
    assert setup >= 2  # the board's set-up: one line stands for it
    expected: dict[str, list[str]] = {"nl": [], "de": []}
    for n, (player, action) in enumerate(moves):
        for lang in expected:
            with i18n.speaking(lang):
                if n >= setup:
                    expected[lang].append(state.describe(player, action))
                elif n == setup - 1:
                    after = state.clone()
                    after.apply(action, player)
                    expected[lang].append(after.describe_setup())
        state.apply(action, player)
    for lang, frame in frames.items():
        assert [e["sentence"] for e in frame["log"]] == expected[lang], lang
        with i18n.speaking(lang):
            picture = lt.game.renderer.svg(state.observation(None), seat_names(lt.seats))
            assert frame["players"][1]["name"] == seat_names(lt.seats)[1]
        assert frame["svg"] == picture, lang
    assert frames["nl"]["log"][0]["sentence"] != frames["de"]["log"][0]["sentence"]
    assert frames["nl"]["svg"] != frames["de"]["svg"]
    assert frames["nl"]["players"][1]["name"] != frames["de"]["players"][1]["name"]
    # the table worked out the sentences of the languages read there, and no others
    assert {lang for e in lt.log for lang in e.said} <= {"en", "nl", "de"}
    assert all({"nl", "de"} <= set(e.said) for e in lt.log)


def test_a_new_language_is_worked_out_by_replaying_the_moves(client):
    tid = _koplus_table(client)
    lt = client.app.state.services.tables.tables[tid]
    lt.langs = set()  # as if nobody had read it yet: no words were worked out
    with client.websocket_connect(f"/ws/tables/{tid}") as ann:
        f = frames_until(ann, lambda m: 0 in m["to_move"])
        ann.send_json({"type": "act", "seat": 0, "action": f["actions"][0]["action"],
                       "move_number": f["move_number"]})
        frames_until(ann, lambda m: m["move_number"] > f["move_number"])
    assert all("es" not in e.said for e in lt.log)
    r = client.get(f"/api/tables/{tid}/frame", headers={"Accept-Language": "es"})
    assert r.status_code == 200
    assert all("es" in e.said for e in lt.log)
    setup = next(i for i, e in enumerate(lt.log) if e.player != CHANCE)
    with i18n.speaking("es"):
        said = [lt.log[setup - 1].setup] + [e.sentence for e in lt.log[setup:]]
        assert [e["sentence"] for e in r.json()["log"]] == said
        assert said[0].startswith("El tablero")


def test_a_system_chat_line_is_read_in_each_readers_language(sqlite_url):
    with TestClient(create_app(sqlite_url)) as c:
        p = People(c)
        p.add("Ann")
        p.add("Bob")
        r = p.be("Ann").post("/api/tables", json={
            "game": "sealed_bids", "seats": [{"kind": "me"}, {"kind": "open"}]})
        tid = r.json()["table"]["id"]
        assert p.be("Bob").post(f"/api/tables/{tid}/join", json={"seat": 1}).status_code == 200
        texts = {}
        for lang in ("en", "de", "es", "nl"):
            lines = p.be("Ann").get(f"/api/tables/{tid}/chat",
                                    headers={"Accept-Language": lang}).json()["lines"]
            texts[lang] = [x["text"] for x in lines if x["system"]]
        assert "Bob sat down." in texts["en"]
        assert "Bob hat sich hingesetzt." in texts["de"]
        assert "Bob se ha sentado." in texts["es"]
        assert "Bob is aan tafel gaan zitten." in texts["nl"]
        stored = c.app.state.community.store.chat(f"table:{tid}", 10)
        assert all("sat down" not in x.text for x in stored)  # stored without words


def test_a_turn_email_is_written_in_the_recipients_language(sqlite_url, smtp):  # noqa: F811
    inbox, url = smtp
    app = create_app(sqlite_url, smtp_url=url)
    app.state.community.mailer.away_after = 0.3
    with TestClient(app) as c:
        p = People(c)
        p.add("Ann", "correct horse")
        p.add("Bob", "battery staple")
        assert p.be("Ann").put("/api/language", json={"lang": "de"}).status_code == 200
        assert p.be("Ann").put("/api/my/notifications", json={
            "email": "ann@example.org", "turn_mail": True}).status_code == 200
        r = p.be("Bob").post("/api/tables", json={
            "game": "sealed_bids", "seats": [{"kind": "open"}, {"kind": "me"}]},
            headers={"Accept-Language": "es"})
        tid = r.json()["table"]["id"]
        assert p.be("Ann").post(f"/api/tables/{tid}/join", json={"seat": 0}).status_code == 200
        deadline = time.monotonic() + 120
        while not inbox.messages and time.monotonic() < deadline:
            time.sleep(0.05)
    assert len(inbox.messages) == 1
    msg = inbox.messages[0]
    assert msg["To"] == "ann@example.org"
    assert msg["Subject"] == "Du bist dran bei Sealed bids (test game)"
    body = msg.get_content()
    assert "Hallo Ann," in body and "Du bist dran bei Sealed bids (test game) mit Bob." in body
    assert "Your turn" not in body and "It is your turn" not in body, body
    assert msg["Content-Language"] == "de"


ODD = ["", "*", "de;q=x", "xx-YY", "de" * 600, "de;q=0,es;q=0", ";;;,,,", "DE-de",
       "\u00e9", "es;q=1e999", "nl-BE;q=0.9;;q=2", "q=1", "en-US,en;q=0.9," * 50]


def test_odd_language_choices_and_headers_never_break_the_server(client):
    rnd = random.Random(7)
    bodies = [{"lang": "klingon"}, {"lang": None}, {"lang": 3}, {"lang": ["de"]}, {}, [],
              "de", {"lang": "de" * 1000}, {"lang": "de", "x": 1}, {"lang": "DE"}]
    for body in bodies:
        r = client.put("/api/language", json=body)
        assert r.status_code in (200, 422), body
    assert client.put("/api/language", content=b"\xff\xfe",
                      headers={"content-type": "application/json"}).status_code < 500
    for _ in range(60):
        header = rnd.choice(ODD) + rnd.choice(["", ",de", ";q=0.5"])
        cookie = rnd.choice(ODD + ["lang=de", "lang=\"es\"", "lang=;", "lang"]).encode(
            "utf-8", "replace").decode("latin-1")
        headers = {"Accept-Language": header.encode("utf-8"),
                   "cookie": (cookie if cookie.startswith("lang") else f"lang={cookie}"
                              ).encode("latin-1")}
        for path in ("/api/me", "/api/tables/nosuchtable/chat", "/api/words/de"):
            r = client.get(path, headers=headers)
            assert r.status_code < 500, (path, headers)
            assert r.status_code != 200 or path != "/api/me" or r.json()["lang"] in i18n.LANGUAGES


def test_heavy_work_runs_in_the_language_of_the_request():
    from meeple.server.pool import BotPool, WorkPool
    from tests.server.util import run_async

    async def asked() -> tuple[str, str]:
        with i18n.speaking("nl"):
            thread = await WorkPool(1).run(i18n.language)
        with i18n.speaking("es"):
            process = await BotPool(1).run(i18n.language)
        return thread, process

    assert run_async(asked()) == ("nl", "es")


def test_seat_names_of_bots_and_hot_seats_are_said_in_the_readers_language(client):
    new_guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "sealed_bids", "start": False, "seats": [
        {"kind": "me"}, {"kind": "me"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    names = {lang: [s["name"] for s in client.get(
        f"/api/tables/{tid}", headers={"Accept-Language": lang}).json()["table"]["seats"]]
        for lang in ("en", "de", "es")}
    assert names == {"en": ["Ann", "Player 2"], "de": ["Ann", "Spieler 2"],
                     "es": ["Ann", "Jugador 2"]}
    lt = client.app.state.services.tables.tables[tid]
    assert [s.name for s in lt.seats] == ["Ann", "Player 2"]  # stored in English
    r = client.post(f"/api/tables/{tid}/seats/1", json={"kind": "bot", "bot": "random"},
                    headers={"Accept-Language": "de"})
    assert r.status_code == 200, r.text
    assert lt.seats[1].name.endswith(" bot")  # stored in English
    with i18n.speaking("de"):
        german = views.shown_name(lt.seats[1], lt.seats)
    assert r.json()["table"]["seats"][1]["name"] == german != lt.seats[1].name
