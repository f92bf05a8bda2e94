"""Player names in any script, normalised and compared regardless of case, mixed-script
look-alikes refused; hot-seat seats carry their own players' names."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from meeple.server import create_app
from meeple.server.names import check_name, name_key

from .util import new_guest

PASSWORD = "correct horse"


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url)) as c:
        yield c


def signup(client, name: str):
    return client.post("/api/signup", json={"name": name, "password": PASSWORD})


@pytest.mark.parametrize("name", ["Émilie Müller", "Zoë", "Łukasz", "東京太郎", "Анна",
                                  "O'Brien", "Jean-Luc", "김민준", "Tomoko 山田", "राम"])
def test_names_of_any_script_sign_up_and_log_in(client, name):
    r = signup(client, name)
    assert r.status_code == 200, r.text
    assert r.json() == {"name": name, "guest": False, "lang": "en"}
    client.post("/api/logout")
    r = client.post("/api/login", json={"name": name.upper(), "password": PASSWORD})
    assert r.status_code == 200 and r.json()["name"] == name
    assert client.get(f"/api/users/{name.lower()}").json()["name"] == name


def test_names_are_normalised_before_they_are_kept_and_compared(client):
    decomposed = "Zoe\u0308"  # e + combining diaeresis
    r = signup(client, decomposed)
    assert r.status_code == 200 and r.json()["name"] == "Zoë"
    r = signup(client, "ZOË")
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    assert signup(client, "Ａｎｎ").json()["name"] == "Ann"  # full-width letters
    assert signup(client, "ann").status_code == 409
    assert signup(client, "  Mary   Ann ").json()["name"] == "Mary Ann"
    assert signup(client, "D\u2019Arcy").json()["name"] == "D'Arcy"
    assert name_key("STRASSE") == name_key("straße")


@pytest.mark.parametrize(("name", "reason"), [
    ("\u0397ana", "cannot mix Greek and Latin"),  # Greek capital Eta + Latin
    ("P\u0430ul", "cannot mix Cyrillic and Latin"),  # Cyrillic small a
    ("<script>", "cannot hold \u201c<\u201d"),
    ("Ann (guest)", "cannot hold \u201c(\u201d"),
    ("a\u200bb", "invisible"),
    ("-Ann", "between letters"),
    ("Ann--Lee", "between letters"),
    ("O''Brien", "between letters"),
    ("", "empty"),
    ("x" * 33, "at most 32"),
    ("\u0301a", "accent must sit on a letter"),
    ("e\u0301\u0302\u0303\u0304", "at most 2"),
])
def test_bad_names_are_refused_with_the_reason(client, name, reason):
    for route in ("/api/signup", "/api/guest"):
        body = {"name": name, "password": PASSWORD} if route == "/api/signup" else {"name": name}
        r = client.post(route, json=body)
        assert r.status_code == 422, (route, r.text)
        assert reason in r.json()["detail"], r.json()["detail"]


def test_one_name_in_one_script_passes_the_look_alike_rule():
    assert check_name("Paul") == "Paul" and check_name("Пауль") == "Пауль"
    assert check_name("さくら") == "さくら" and check_name("サクラ") == "サクラ"
    assert check_name("ラーメン") == "ラーメン"  # the long-vowel mark belongs to both kana
    with pytest.raises(ValueError, match="Greek and Latin"):
        check_name("\u03b1lice")


def test_a_guest_name_in_use_by_a_registered_player_is_refused_regardless_of_case(client):
    assert signup(client, "Émilie").status_code == 200
    client.post("/api/logout")
    r = client.post("/api/guest", json={"name": "ÉMILIE"})
    assert r.status_code == 409


def test_a_guest_is_told_the_number_their_name_will_get_before_signing_in(client):
    """A name another guest holds would get a number: the site says which before it is given,
    and the name it said is the one given; a free name, a registered one and an invalid one
    are said as signing in says them."""
    assert client.get("/api/guest/name", params={"name": "Bob"}).json() == {
        "name": "Bob", "numbered": False}
    for given in ("Bob", "bob (2)"):
        client.cookies.clear()
        assert new_guest(client, given[:3])["name"] == given
    client.cookies.clear()
    said = client.get("/api/guest/name", params={"name": "BOB"}).json()
    assert said == {"name": "BOB (3)", "numbered": True}
    assert new_guest(client, "BOB")["name"] == said["name"]
    assert signup(client, "Émilie").status_code == 200
    r = client.get("/api/guest/name", params={"name": "émilie"})
    assert r.status_code == 409 and "registered player's name" in r.json()["detail"]
    r = client.get("/api/guest/name", params={"name": "Ann (guest)"})
    assert r.status_code == 422 and "cannot hold" in r.json()["detail"]


def hot_seat(client, seats, **extra):
    return client.post("/api/tables", json={"game": "koplus", "players": len(seats),
                                            "seats": seats, **extra})


def test_a_hot_seat_table_shows_each_players_own_name(client):
    new_guest(client, "Hana")
    r = hot_seat(client, [{"kind": "me"}, {"kind": "me", "name": "Ben"}])
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert [s["name"] for s in table["seats"]] == ["Hana", "Ben"]
    assert [t["seat"] for t in r.json()["tokens"]] == [0, 1]
    frame = client.get(f"/api/tables/{table['id']}/frame").json()
    assert [p["name"] for p in frame["players"]] == ["Hana", "Ben"]
    r = hot_seat(client, [{"kind": "me", "name": "Émilie"}, {"kind": "me", "name": "Zoë"},
                          {"kind": "bot", "bot": "random"}])
    assert [s["name"] for s in r.json()["table"]["seats"]][:2] == ["Émilie", "Zoë"]


def test_without_names_one_seat_carries_the_creators_name_and_the_others_their_number(client):
    new_guest(client, "Hana")
    r = hot_seat(client, [{"kind": "me"}, {"kind": "me"}])
    assert r.status_code == 201, r.text
    assert [s["name"] for s in r.json()["table"]["seats"]] == ["Hana", "Player 2"]
    frame = client.get(f"/api/tables/{r.json()['table']['id']}/frame").json()
    assert [p["name"] for p in frame["players"]] == ["Hana", "Player 2"]
    r = hot_seat(client, [{"kind": "me"}, {"kind": "me", "name": "hana"},
                          {"kind": "bot", "bot": "random"}, {"kind": "me", "name": "Player 1"}])
    assert r.status_code == 201, r.text
    assert [s["name"] for s in r.json()["table"]["seats"]] == [
        "Player 5", "Hana", "Beginner bot", "Player 1"]


@pytest.mark.parametrize(("seats", "status", "reason"), [
    ([{"kind": "me"}, {"kind": "me", "name": "P\u0430ul"}], 422, "cannot mix Cyrillic"),
    ([{"kind": "me"}, {"kind": "me", "name": "<b>"}], 422, "cannot hold"),
    ([{"kind": "me"}, {"kind": "bot", "bot": "random", "name": "Ben"}], 422,
     "seat 2 is not yours"),
    ([{"kind": "me"}, {"kind": "open", "name": "Ben"}], 422, "seat 2 is not yours"),
    ([{"kind": "me", "name": "Ben"}, {"kind": "me", "name": "BEN"}], 409,
     "two seats cannot both be called"),
    ([{"kind": "me", "name": "Hana"}, {"kind": "me", "name": "HANA"}], 409,
     "two seats cannot both be called \u201cHana\u201d"),
    ([{"kind": "me"}, {"kind": "me", "name": "Reg"}], 409, "registered player's name"),
])
def test_hot_seat_names_are_checked_like_player_names(client, seats, status, reason):
    assert signup(client, "Reg").status_code == 200
    client.post("/api/logout")
    new_guest(client, "Hana")
    r = hot_seat(client, seats)
    assert r.status_code == status, r.text
    assert reason in r.json()["detail"]
    assert client.get("/api/my/tables").json()["tables"] == []  # nothing was made


def test_a_seat_given_the_creators_own_name_is_the_creators(client):
    new_guest(client, "Hana")
    r = hot_seat(client, [{"kind": "me", "name": "HANA"}, {"kind": "me", "name": "Ben"},
                          {"kind": "me"}])
    assert r.status_code == 201, r.text
    assert [s["name"] for s in r.json()["table"]["seats"]] == ["Hana", "Ben", "Player 3"]


def test_the_owner_may_name_a_seat_with_their_own_registered_name(client):
    assert signup(client, "Reg").status_code == 200
    r = hot_seat(client, [{"kind": "me", "name": "reg"}, {"kind": "me", "name": "Kim"}])
    assert r.status_code == 201 and [s["name"] for s in r.json()["table"]["seats"]] == [
        "Reg", "Kim"]


def test_a_seat_may_carry_the_creators_own_name_even_with_a_guest_number(client):
    new_guest(client, "Hana")
    assert new_guest(client, "Hana")["name"] == "Hana (2)"
    r = hot_seat(client, [{"kind": "me", "name": "hana (2)"}, {"kind": "me", "name": "Ben"}])
    assert r.status_code == 201, r.text
    assert [s["name"] for s in r.json()["table"]["seats"]] == ["Hana (2)", "Ben"]
    r = hot_seat(client, [{"kind": "me", "name": "Ben (2)"}, {"kind": "me"}])
    assert r.status_code == 422 and "cannot hold" in r.json()["detail"]


def test_a_guest_marked_when_their_name_is_registered_keeps_the_hot_seat_names(client):
    new_guest(client, "Hana")
    r = hot_seat(client, [{"kind": "me"}, {"kind": "me", "name": "Ben"}])
    assert r.status_code == 201, r.text
    other = TestClient(client.app)  # another person, on the same server
    assert signup(other, "Hana").status_code == 200
    stored = client.get("/api/my/tables").json()["tables"]  # read from storage
    assert [s["name"] for s in stored[0]["seats"]] == ["Hana (guest)", "Ben"]
    loaded = client.get(f"/api/tables/{r.json()['table']['id']}").json()["table"]
    assert [s["name"] for s in loaded["seats"]] == ["Hana (guest)", "Ben"]
