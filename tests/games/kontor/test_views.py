"""Kontor's final breakdown as score lines, and its pictures: names, colours, the result table."""

from __future__ import annotations

import random
import re

import pytest
from rich.text import Text

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS
from meeple.engine import svg as draw
from meeple.engine.look import PALETTE, seat_names
from meeple.engine.scores import ScoreLine, score_lines, score_table_text
from meeple.games.kontor import Kontor, render, views
from meeple.games.kontor.components import CARD_ID, COLOURS

from .helpers import fresh

CONFIGS = Kontor.configurations()
NAMES = ["Ada", "Bertrand", "Chiara", "Dmitri"]
OLD_FILLS = ("#c0392b", "#2c2c2c", "#2e8b57", "#7d3c98")
"""The per-player fills of the pictures before they took the game's colours."""


def played(players: int, options: dict, seed: int, stop: int | None = None):
    """A random game from ``seed``: played out, or stopped after ``stop`` actions at a player's
    turn."""
    s = meeple.load("kontor", players=players, **options).new_initial_state()
    rng = random.Random(seed)
    k = 0
    while not s.is_terminal():
        if stop is not None and k >= stop and s.current_player >= 0:
            break
        cp = s.current_player
        p = CHANCE if cp == CHANCE else (s.pending_players()[0] if cp == SIMULTANEOUS else cp)
        s.apply(rng.choice(s.legal_actions(p)), p)
        k += 1
    return s


def expected_labels(game) -> list[str]:
    labels = ["Scored areas"]
    if game.export:
        labels.append("Chit majorities")
    if game.expansion:
        labels += ["No-chit penalty", "Most coins"]
    return labels


@pytest.mark.parametrize("players,options", CONFIGS)
def test_the_final_breakdown_is_score_lines_that_add_up_to_the_scores(players, options):
    for seed in range(3):
        s = played(players, options, seed)
        obs = s.observation(None)
        fb = obs["final_breakdown"]
        lines = score_lines(obs)
        assert [line.to_json() for line in lines] == fb
        assert [line.player for line in lines] == list(range(players))
        rules = s.breakdown()["players"]
        for line in lines:
            p = line.player
            parts = dict(line.parts)
            assert [label for label, _ in line.parts] == expected_labels(s.game)
            assert "Total" not in parts and "total" not in parts
            assert line.total == s.scores()[p] == obs["scores"][p]
            assert sum(parts.values()) == line.total  # rules 6.3: the VP are these parts
            assert parts["Scored areas"] == rules[p]["areas"]
            if "Chit majorities" in parts:
                assert parts["Chit majorities"] == sum(rules[p]["chit_majorities"].values())
            if "Most coins" in parts:
                assert parts["No-chit penalty"] == rules[p]["no_chit_penalty"]
                assert parts["Most coins"] == rules[p]["money_majority"]
            level = [q for q in range(players) if q != p and lines[q].total == line.total]
            assert bool(line.note) == bool(level)


def k12_level(won: list[int]):
    """Rules K12: both players on 3 points, with the given areas won in all."""
    s = fresh(mode="advanced", scored_areas="largest_5")
    s.closed = [(1 << k, owner, size, ()) for k, (size, owner) in enumerate(
        [(8, 0), (6, 1), (5, 1), (4, 0), (3, -1), (3, 1), (3, 0), (2, 0), (1, 1)])]
    s.won = won
    s.hands = [[CARD_ID[c] for c in ("red-41", "red-17", "water-60")],
               [CARD_ID[c] for c in ("black-44", "black-20", "water-58")]]
    return s


def test_the_note_says_what_breaks_a_tie_on_points():
    s = k12_level([4, 4])
    lines = [ScoreLine.from_json(d) for d in views.final_breakdown(s)]
    assert [line.total for line in lines] == [3, 3]
    assert lines[0].note == ("Level on points: 4 areas won in all, and the highest harbour card "
                             "in hand is the red harbour card 41")
    assert lines[1].note.endswith("the highest harbour card in hand is the black harbour card 44")
    s = k12_level([4, 3])
    lines = [ScoreLine.from_json(d) for d in views.final_breakdown(s)]
    assert [line.note for line in lines] == ["Level on points: 4 areas won in all",
                                             "Level on points: 3 areas won in all"]
    s.hands[0] = [CARD_ID["water-60"]]
    s.won = [3, 3]
    assert ScoreLine.from_json(views.final_breakdown(s)[0]).note.endswith(
        "no harbour card in hand")


def fills_of(picture: str) -> set[str]:
    return {f.lower() for f in re.findall(r'(?:fill|stroke)="(#[0-9a-fA-F]{6})"', picture)}


@pytest.mark.parametrize("players,options", [(2, {"mode": "advanced"}),
                                             (4, {"mode": "expansion"})])
@pytest.mark.parametrize("stop", [60, None], ids=["mid-game", "final"])
def test_the_svg_names_the_players_and_draws_them_in_their_own_colours(players, options, stop):
    s = played(players, options, 4, stop)
    colours = Kontor.colours
    assert [c.name for c in colours] == list(COLOURS)
    assert len({c.symbol for c in colours}) == len({c.fill for c in colours}) == 4
    names = NAMES[:players]
    viewer = 1
    obs = s.observation(viewer)
    picture = render.svg(obs, names)
    for name in names:
        assert name in picture
    assert "Player 1" not in picture and ">P0" not in picture and "Seat" not in picture
    assert f"{names[viewer]} (you)" in picture
    for c in obs["field"]:
        if not c["water"] and c["owner"] is not None:
            fill = re.search(rf'<g id="{c["dom"]}" class="cell land"><rect[^>]*'
                             rf'fill="([^"]+)"[^>]*class="card"', picture)
            assert fill is not None and fill.group(1) == colours[c["owner"]].fill
    for p in range(players):
        mark = re.search(rf'data-seat="{p}">(?:<circle[^>]*/>)?<g class="player-mark">'
                         rf'<circle[^>]*fill="([^"]+)"[^>]*/><text[^>]*>([^<]*)</text>', picture)
        assert mark is not None and mark.groups() == (colours[p].fill, colours[p].symbol)
    for card in obs["hand"]:
        owner = card.split("-")[0]
        if owner in COLOURS:
            rect = re.search(rf'<g id="hand-{card}" class="hand-card"><rect[^>]*>', picture)
            assert rect is not None and 'class="card"' in rect.group(0)
            assert f'fill="{colours[COLOURS.index(owner)].fill}"' in rect.group(0)
    used = fills_of(picture)
    seated = {c.fill.lower() for c in colours[:players]}
    others = {c.fill.lower() for c in (*colours[players:], *PALETTE)} - seated
    assert seated <= used
    assert not used & others
    assert not used & set(OLD_FILLS)
    texts = re.findall(r">([^<>]*)</text>", picture)
    assert 'class="score-table"' not in picture and "Final result" not in picture
    assert "Total" not in texts
    for p in range(players):  # each player's points once, beside their name
        line = re.search(rf'<g class="player-line" data-seat="{p}">.*?class="score">([^<]*)<',
                         picture)
        assert line is not None and line.group(1) == draw.points(s.scores()[p])
    if stop is None:
        assert f"Game over: {names[s.winners()[0]]}" in picture
        for line in score_lines(obs):
            assert not line.note or line.note not in picture
    assert "Player 1" in render.svg(obs)


@pytest.mark.parametrize("players,options", [(2, {"mode": "basic"}),
                                             (3, {"mode": "expansion"})])
def test_the_text_of_a_finished_game_has_no_table_and_the_state_text_one(players, options):
    s = played(players, options, 2)
    names = NAMES[:players]
    obs = s.observation(0)
    plain = Text.from_markup(render.text(obs, names)).plain
    assert "{" not in plain and "[" not in plain and "}" not in plain
    assert "Total" not in plain and "Rank" not in plain and "Final result" not in plain
    for line in score_lines(obs):
        assert not line.note or line.note not in plain
    for name in names:
        assert name in plain
    assert "Player 1" not in plain and "P0" not in plain
    whole = Text.from_markup(str(s)).plain
    table = score_table_text(score_lines(obs), seat_names(players), obs["ranks"])
    assert whole.count(table) == 1 and whole.count("Total") == 1
    assert whole.endswith("\n\n" + table)
    for line in score_lines(obs):
        row = [r for r in table.splitlines() if f" Player {line.player + 1} " in r]
        assert len(row) == 1 and row[0].split()[-1] == str(line.total)
    assert not re.search(r"\b(red|black|green|purple)\b(?!-)", plain.split("Legend:")[1])
