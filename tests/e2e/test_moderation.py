"""Moderation and accounts in the browser: a person blocks another from a line of the lobby
chat, then deletes their own account from their profile page."""

from __future__ import annotations

import json
import secrets
import string
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from .people import sign_up

pytestmark = pytest.mark.e2e
PASSWORD = "correct horse"


class Client:
    """A person talking to the server without a browser (their own cookies)."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")


def _name(first: str) -> str:
    """A name no other test of this server's session takes."""
    return first + "".join(secrets.choice(string.ascii_lowercase) for _ in range(6))


def test_block_a_player_from_the_chat_then_delete_ones_account(new_context, server):
    page = new_context().new_page()
    page.on("dialog", lambda d: d.accept())  # the confirmations are answered yes
    ann, bob = _name("Ann"), _name("Bob")
    other = Client(server)
    assert other.call("POST", "/api/signup", {"name": bob, "password": PASSWORD})[0] == 200
    assert other.call("POST", "/api/lobby/chat", {"text": "hello from Bob"})[0] == 200
    sign_up(page, ann, PASSWORD)

    # the lobby chat: Ann blocks Bob from his line, which goes from her page
    line = page.locator(f"#lobby-chat li[data-name='{bob}']")
    expect(line.first).to_contain_text("hello from Bob")
    line.first.locator("button.chat-block").click()
    expect(line).to_have_count(0)
    blocks = page.evaluate("fetch('/api/my/blocks').then((r) => r.json())")
    assert blocks == {"blocked": [bob]}

    # her profile: the account is deleted, with her password, after a confirmation
    page.goto("/profile/" + quote(ann, safe=""))
    card = page.locator("#your-account")
    expect(card.locator("#download-data")).to_have_attribute("href", "/api/my/data")
    card.locator("#delete-password").fill(PASSWORD)
    card.get_by_role("button", name="Delete my account").click()
    expect(page.locator("#who")).to_contain_text("Sign in")
    assert other.call("GET", "/api/people/" + quote(ann, safe=""))[0] == 404
    assert other.call("POST", "/api/login", {"name": ann, "password": PASSWORD})[0] == 401
