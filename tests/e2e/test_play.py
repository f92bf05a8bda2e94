"""Whole games through the web page, as people play them."""

from __future__ import annotations

import json
import random
import urllib.request

import pytest

import meeple
from meeple.engine import game_class

from .people import SHORT_GAMES, create_table, final_scores, play_to_end, sign_in_as_guest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("game", meeple.games())
def test_a_person_plays_a_whole_game_against_bots(game, new_context, server, artifacts):
    players = min(game_class(game).player_counts)
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Ann")
    seats = ["me"] + ["bot:random"] * (players - 1)
    table = create_table(page, game, seats, options=SHORT_GAMES.get(game))
    counts = play_to_end([page], random.Random(game))
    assert sum(counts.values()) > 0
    page.screenshot(path=str(artifacts / f"e2e-{game}-final.png"), full_page=True)
    with urllib.request.urlopen(f"{server}/api/tables/{table}") as r:
        t = json.load(r)["table"]
    assert t["status"] == "finished"
    shown = final_scores(page)
    ranks = t["result"]["ranks"]
    order = sorted(range(players), key=lambda s: ranks[s])
    assert [float(x) for x in shown] == [float(t["result"]["scores"][s]) for s in order]
    assert not errors, errors
