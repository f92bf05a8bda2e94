"""The web client's words: ``/api/words/{lang}`` and the page shell filled in the person's
language."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from meeple.engine import i18n
from meeple.engine.catalogs import extract
from meeple.server import create_app


@pytest.fixture
def client(sqlite_url):
    with TestClient(create_app(sqlite_url)) as c:
        yield c


def test_the_words_of_each_language_cover_every_text_of_the_client(client):
    english = {t.id if isinstance(t.id, str) else t.id[0]
               for t in extract(i18n.ROOT / "web" / "locale")}
    for lang, forms in (("de", 2), ("es", 3), ("nl", 2)):
        r = client.get(f"/api/words/{lang}")
        assert r.status_code == 200
        body = r.json()
        assert body["lang"] == lang
        assert body["languages"]["de"] == "Deutsch" and body["languages"]["nl"] == "Nederlands"
        assert len(body["plural"]) == forms
        texts = body["texts"]
        assert english <= set(texts), sorted(english - set(texts))[:5]
        assert texts["Sign in"] != "Sign in"
        assert isinstance(texts["{n} player"], list) and len(texts["{n} player"]) == forms
    assert client.get("/api/words/de").json()["texts"]["New table"] == "Neuer Tisch"
    assert client.get("/api/words/xx").status_code == 404


@pytest.mark.parametrize("path", ["/", "/rules/koplus", "/no/such/page"])
def test_the_page_is_served_in_the_language_of_the_request(client, path):
    r = client.get(path, headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert r.status_code == (404 if path.startswith("/no/") else 200)
    assert '<html lang="de">' in r.text
    assert "{{" not in r.text and "}}" not in r.text
    assert ">Zum Inhalt springen<" in r.text and ">Regeln<" in r.text
    assert 'aria-label="Hauptmenü"' in r.text
    # the cookie beats the browser's header, and each language has its own page
    client.cookies.set("lang", "es")
    es = client.get(path, headers={"Accept-Language": "de"})
    assert '<html lang="es">' in es.text and ">Reglas<" in es.text
    client.cookies.clear()
    en = client.get(path)
    assert '<html lang="en">' in en.text and ">Skip to content<" in en.text
    assert not re.search(r"\{\{|\}\}", en.text)
