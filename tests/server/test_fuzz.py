"""Fuzzing (hypothesis, bounded): every HTTP route with odd paths, queries, headers and bodies,
and every WebSocket message type with odd fields. No answer is a 5xx, nothing is logged with
a traceback, a refusal changes nothing, and the socket stays open."""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.server import create_app
from meeple.server.store import MemoryStore

from .util import frames_until, hello

ODD_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "\x00", "\ud800", "%00", "../..", "9" * 5000, "NaN", "-1",
                     "largest_" + "9" * 4400, "mcts:99", "kozo", "sealed_bids"]),
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**40), 10**40)
    | st.floats(allow_nan=True, allow_infinity=True) | ODD_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ODD_TEXT, inner, max_size=4),
    max_leaves=12,
)
FIELDS = ["name", "password", "game", "players", "options", "seats", "visibility", "clock",
          "start", "seat", "code", "token", "action", "move_number", "kind", "bot", "rated",
          "request_id", "to_bot", "reason", "line", "confirm"]
BODIES = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=6),
    JSON_VALUES,
)


def _raw(value: Any) -> bytes:
    """JSON text as a careless client writes it: NaN and lone surrogates included."""
    return json.dumps(value, allow_nan=True).encode("utf-8", "surrogatepass")


RAW_BODIES = st.one_of(
    BODIES.map(_raw),
    st.binary(max_size=40),
    st.just(b"[" * 3000),
)


def _q(text: str) -> str:
    """A path part as an attacker sends it: every byte percent-encoded."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def _snapshot(store: MemoryStore) -> str:
    """Everything the store holds, as text (a refusal must leave it the same)."""
    return repr((store._users, store._tables, store._seats, store._moves, store._keys))


def _routes(app) -> list[tuple[str, str]]:
    """Every documented route (the OpenAPI schema lists them all) and the pages."""
    out = [(method.upper(), path) for path, item in app.openapi()["paths"].items()
           for method in item]
    return out + [("GET", "/"), ("GET", "/table/{rest:path}"), ("GET", "/static/{rest:path}")]


def _setup(client: TestClient) -> dict[str, Any]:
    """Ann, an operator (so that the operators' routes are fuzzed past their door), with a
    running table of two of her seats and a private waiting one."""
    client.post("/api/signup", json={"name": "Ann", "password": "correct horse"})
    store = client.app.state.services.store
    store.set_operator(store.user_by_key("ann").id, True)
    r = client.post("/api/tables", json={"game": "sealed_bids",
                                         "seats": [{"kind": "me"}, {"kind": "me"}]})
    table = r.json()
    r = client.post("/api/tables", json={"game": "sealed_bids", "visibility": "private",
                                         "start": False})
    return {"tid": table["table"]["id"], "tokens": [t["token"] for t in table["tokens"]],
            "private": r.json()["table"]["id"]}


def test_no_http_route_answers_5xx_and_refusals_change_nothing(caplog):
    store = MemoryStore()
    app = create_app(store=store)
    with TestClient(app) as client:
        known = _setup(client)
        routes = _routes(app)
        assert len(routes) > 20
        ids = st.sampled_from([known["tid"], known["private"], "nothere"]) | ODD_TEXT

        @settings(max_examples=1000, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(route=st.sampled_from(routes), table_id=ids, part=ODD_TEXT,
               query=st.dictionaries(st.sampled_from(["seat", "move", "token", "status",
                                                      "game"]), ODD_TEXT, max_size=3),
               body=RAW_BODIES,
               header=st.sampled_from([{}, {"X-Seat-Token": "x"}, {"X-Invite-Code": "\x7f"},
                                       {"X-Forwarded-For": "1.2.3.4, nonsense"},
                                       {"Idempotency-Key": "\x7f" * 101}]))
        def one(route, table_id, part, query, body, header):
            method, path = route
            url = (path.replace("{table_id}", _q(table_id)).replace("{name}", _q(part))
                   .replace("{seat}", _q(part)).replace("{rest:path}", _q(part))
                   .replace("{line_id}", _q(part)).replace("{report_id}", _q(part)))
            before = _snapshot(store)
            headers = {"content-type": "application/json", **header}
            try:
                r = client.request(method, url, params=query, content=body, headers=headers)
            except UnicodeEncodeError:
                return  # the client itself cannot send such an address
            assert r.status_code < 500, (method, url, query, body[:80], r.text[:200])
            if r.status_code >= 400:
                assert _snapshot(store) == before, (method, url, r.status_code)

        with caplog.at_level(logging.WARNING):
            one()
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.exc_info]


MESSAGE_TYPES = ["hello", "act", "view", "chat", "chat_history", "ping", "nonsense", None, 1,
                 ["act"]]


def test_no_websocket_message_drops_the_socket_or_changes_a_refused_table(caplog):
    store = MemoryStore()
    with TestClient(create_app(store=store)) as client:
        known = _setup(client)
        tid = known["tid"]

        messages = st.one_of(
            st.fixed_dictionaries({"type": st.sampled_from(MESSAGE_TYPES)},
                                  optional={k: JSON_VALUES for k in
                                            ("seat", "action", "move_number", "tokens",
                                             "token", "code", "text")}).map(_raw),
            RAW_BODIES,
        )

        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            frames_until(hello(ws, *known["tokens"]), lambda f: f["seats"] == [0, 1])

            @settings(max_examples=500, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow,
                                             HealthCheck.data_too_large])
            @given(msg=messages, binary=st.booleans())
            def one(msg: bytes, binary: bool):
                before = _snapshot(store)
                if binary:
                    ws.send_bytes(msg)
                else:
                    ws.send_text(msg.decode("utf-8", "replace"))
                ws.send_text('{"type": "ping"}')
                errors = 0
                while True:
                    reply = ws.receive_json()
                    if reply["type"] == "pong":
                        break
                    errors += reply["type"] == "error"
                if errors:
                    assert _snapshot(store) == before

            with caplog.at_level(logging.WARNING):
                one()
            ws.send_json({"type": "ping"})
            while ws.receive_json()["type"] != "pong":
                pass
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.exc_info]


def test_no_message_drops_the_turn_count_socket(caplog):
    """``/ws/me`` answers every message (a pong or an error) and keeps counting."""
    store = MemoryStore()
    with TestClient(create_app(store=store)) as client:
        _setup(client)
        with client.websocket_connect("/ws/me") as ws:
            first = ws.receive_json()
            assert first == {"type": "turns", "count": 1}

            @settings(max_examples=200, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow,
                                             HealthCheck.data_too_large])
            @given(msg=st.fixed_dictionaries(
                {"type": st.sampled_from(MESSAGE_TYPES)},
                optional={k: JSON_VALUES for k in ("seat", "count")}).map(_raw) | RAW_BODIES,
                binary=st.booleans())
            def one(msg: bytes, binary: bool):
                if binary:
                    ws.send_bytes(msg)
                else:
                    ws.send_text(msg.decode("utf-8", "replace"))
                reply = ws.receive_json()
                assert reply["type"] in ("pong", "error")

            with caplog.at_level(logging.WARNING):
                one()
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.exc_info]


def test_no_message_drops_the_lobby_chat_socket(caplog):
    """``/ws/lobby/chat`` answers every message with one reply (a pong, a refusal, or the line
    said) and keeps its history; nothing it is sent makes it fail."""
    store = MemoryStore()
    with TestClient(create_app(store=store)) as client:
        _setup(client)
        with client.websocket_connect("/ws/lobby/chat") as ws:
            assert ws.receive_json()["type"] == "chat_history"

            @settings(max_examples=200, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow,
                                             HealthCheck.data_too_large])
            @given(msg=st.fixed_dictionaries(
                {"type": st.sampled_from(["chat", "ping", "chat_history", "nonsense", None, 1])},
                optional={k: JSON_VALUES for k in ("text", "to")}).map(_raw) | RAW_BODIES,
                binary=st.booleans())
            def one(msg: bytes, binary: bool):
                if binary:
                    ws.send_bytes(msg)
                else:
                    ws.send_text(msg.decode("utf-8", "replace"))
                reply = ws.receive_json()
                assert reply["type"] in ("pong", "chat_error", "chat"), reply
                if reply["type"] == "chat_error":
                    assert reply["reason"]

            with caplog.at_level(logging.WARNING):
                one()
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.exc_info]
