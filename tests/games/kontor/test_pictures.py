"""Kontor's pictures as a player reads them: on a phone (fonts and targets big enough), in the
terminal (80 columns, a legend of the symbols used), free of internal codes, with the player to
act, the last move and the client's targets marked the shared way."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest
from rich.text import Text

import meeple
from meeple.engine import CHANCE
from meeple.games.kontor import Kontor, render
from meeple.games.kontor.components import CARD_NAME, COLOURS, SEAT_COLOURS

CONFIGS = Kontor.configurations()
NAMES = ["Ada", "Bertrand", "Chiara", "Dmitri"]
NS = "{http://www.w3.org/2000/svg}"
PHONE = 360
"""The CSS px a phone gives the board (a 390 px wide screen)."""
MIN_FONT_PX = 12
MIN_TARGET_PX = 28
CODES = {
    "a card id such as red-35": re.compile(
        r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in sorted(
            (n for n in CARD_NAME if any(ch.isdigit() for ch in n)), key=len, reverse=True))
        + r")(?![\w-])"),
    "a seat number such as P0": re.compile(r"\bP\d+\b"),
    "an identifier with underscores": re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b"),
    "a Python dict, list or None": re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b"),
    "a rules code such as E1 or R7": re.compile(r"\b[ERK]\d+\b"),
    "an option name": re.compile(r"\b(?:largest_\d+|restriction_of_camp|special_cards|"
                                 r"export_warehouse|open_draw_piles)\b"),
}


def _ids(c: tuple[int, dict]) -> str:
    players, options = c
    return f"{players}p-" + "-".join(f"{k}={v}" for k, v in options.items())


@cache
def positions(players: int, options_key: tuple) -> list:
    """A few positions of two random games (start, middle, end, and the turns between)."""
    options = dict(options_key)
    game = meeple.load("kontor", players=players, **options)
    kept = []
    for seed in range(2):
        rng = random.Random(100 + seed)
        picks = set(rng.sample(range(20, 400), 6)) | {1, 3}
        count = [0]

        def keep(state, player, action, picks=picks, count=count) -> None:
            count[0] += 1
            if count[0] in picks and state.current_player != CHANCE:
                kept.append(state.clone())

        kept.append(meeple.play_out(game.new_initial_state(), rng, on_move=keep))
    return kept


def views(players: int, options: dict):
    """Every kept position seen by each player and by a spectator, named and unnamed."""
    for state in positions(players, tuple(sorted(options.items()))):
        for viewer in [None, *range(players)]:
            names = None if viewer is None else NAMES[:players]
            yield state, viewer, names, state.observation(viewer)


def tree(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def box(root: ET.Element) -> tuple[float, float]:
    _, _, w, h = (float(v) for v in root.get("viewBox", "").split())
    return w, h


def visible(root: ET.Element) -> list[str]:
    return [" ".join("".join(el.itertext()).split()) for el in root.iter()
            if el.tag in (f"{NS}text", f"{NS}title")]


@pytest.mark.parametrize("players,options", CONFIGS, ids=map(_ids, CONFIGS))
def test_every_text_is_readable_on_a_phone(players, options):
    for _, viewer, names, obs in views(players, options):
        root = tree(render.svg(obs, names))
        width, _ = box(root)
        assert not any(el.get("transform") for el in root.iter())  # sizes are what they say
        small = []
        for el in root.iter(f"{NS}text"):
            size = float(el.get("font-size", "0"))
            if size * PHONE / width < MIN_FONT_PX:
                small.append(("".join(el.itertext()), size))
        assert not small, f"viewer {viewer}: text under {MIN_FONT_PX} px on a phone: {small[:5]}"


@pytest.mark.parametrize("players,options", CONFIGS, ids=map(_ids, CONFIGS))
def test_every_target_is_big_enough_to_touch_and_shows_the_clients_mark(players, options):
    for state, viewer, names, obs in views(players, options):
        if viewer is None or state.is_terminal():
            continue
        picture = render.svg(obs, names)
        root = tree(picture)
        width, _ = box(root)
        by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
        acting = [viewer] if viewer in state.pending_players() or \
            state.current_player == viewer else []
        for p in acting:
            for a in state.legal_actions(p):
                d = state.describe_action(a, p)
                if d.get("target") is None:
                    continue
                for cid in [d["target"], *d["cells"]]:
                    el = by_id[cid]
                    card = el.find(f"{NS}rect[@class='card']")
                    assert card is not None, cid
                    assert float(card.get("width", 0)) * PHONE / width >= MIN_TARGET_PX, cid
                    # the frame on top that the client's .target style rings
                    assert el.findall(f"{NS}rect")[-1].get("class", "").startswith("slot")
        for x, y in obs["legal_cells"]:
            el = by_id[render._cell_id(obs, x, y)]
            assert "legal" in el.get("class", "").split()


@pytest.mark.parametrize("players,options", CONFIGS, ids=map(_ids, CONFIGS))
def test_no_internal_code_is_visible(players, options):
    for _, viewer, names, obs in views(players, options):
        seen = visible(tree(render.svg(obs, names)))
        seen += Text.from_markup(render.text(obs, names)).plain.splitlines()
        for line in seen:
            for what, pattern in CODES.items():
                m = pattern.search(line)
                assert m is None, f"viewer {viewer}: {what} {m.group(0)!r} in {line!r}"


@pytest.mark.parametrize("players,options", CONFIGS, ids=map(_ids, CONFIGS))
def test_the_terminal_picture_fits_80_columns_and_its_legend_names_only_what_it_shows(
        players, options):
    for _, viewer, names, obs in views(players, options):
        plain = Text.from_markup(render.text(obs, names)).plain
        lines = plain.splitlines()
        long = [line for line in lines if len(line) > 80]
        assert not long, f"viewer {viewer}: {len(long[0])} columns: {long[0]!r}"
        at = next(k for k, line in enumerate(lines) if line.startswith("Legend: "))
        parts = [lines[at].removeprefix("Legend: ")]
        for line in lines[at + 1:]:  # its wrapped lines, indented by two
            if not (line.startswith("  ") and not line.startswith("   ")):
                break
            parts.append(line.strip())
        legend = " ".join(parts)
        entries = [e.split(" ", 1) for e in legend.split(", ")]
        assert entries and all(len(e) == 2 for e in entries)
        explained = dict(entries)
        used = set()
        for line in lines[:at]:
            if re.match(r"^ *-?\d+ ", line) and len(line) > 4 and not line.startswith("    "):
                for k in range(4, len(line), render.CELL_W):
                    token = line[k:k + render.CELL_W].strip()
                    if token.startswith("<") and ">" in token:
                        used.add("<>")
                        token = token.replace("<", "").replace(">", "")
                    used.update(ch for ch in token if not ch.isdigit()
                                and ch not in "▲●■◆")
        assert used, "no field drawn"
        assert set(explained) == used, f"explained {set(explained)}, used {used}"
        for symbol, meaning in explained.items():
            assert render.LEGEND[symbol] == meaning


@pytest.mark.parametrize("players,options", CONFIGS, ids=map(_ids, CONFIGS))
def test_the_terminal_field_uses_the_players_symbols(players, options):
    for _, _, names, obs in views(players, options):
        plain = Text.from_markup(render.text(obs, names)).plain
        for c in obs["field"]:
            if c["owner"] is not None:
                assert re.search(re.escape(SEAT_COLOURS[c["owner"]].symbol) + str(c["number"])
                                 + r"(?!\d)", plain)
        for p in range(players):
            assert f" {SEAT_COLOURS[p].symbol}  " in plain  # beside the name


@pytest.mark.parametrize("players,options", CONFIGS, ids=map(_ids, CONFIGS))
def test_the_player_to_act_and_the_last_move_are_marked_the_shared_way(players, options):
    marked = 0
    for _, _, names, obs in views(players, options):
        picture = render.svg(obs, names)
        acting = obs.get("acting")
        rings = re.findall(r'<g class="player to-act" data-seat="(\d)">', picture)
        assert rings == ([str(acting)] if acting is not None else [])
        placed = [line for line in obs["log"] if re.match(
            r"^(?:" + "|".join(COLOURS) + r"): (?:place|ship|remove)\b", line)]
        last = re.findall(r'<rect[^>]*class="last-move" data-cell="(cell-\d+-\d+)"', picture)
        if placed:
            x, y = (int(v) for v in re.findall(r"\((-?\d+),(-?\d+)\)", placed[-1])[-1])
            assert last == [render._cell_id(obs, x, y)]
            marked += 1
        else:
            assert last == []
        if obs.get("terminal"):
            assert "Game over" in picture and 'class="score-table"' not in picture
    assert marked  # the log's moves were read, not only passed over


@pytest.mark.parametrize("players,options", CONFIGS[3:5], ids=map(_ids, CONFIGS[3:5]))
def test_the_pieces_are_drawn_in_the_players_colours(players, options):
    state = positions(players, tuple(sorted(options.items())))[-1]
    obs = state.observation(None)
    picture = render.svg(obs)
    keepers = re.findall(r'<g class="keeper"[^>]*><g><path d="[^"]*" fill="([^"]+)"', picture)
    owners = [a["owner"] for a in obs["areas"] if a["closed"] and a["owner"] is not None]
    assert sorted(keepers) == sorted(SEAT_COLOURS[p].fill for p in owners)
    assert ('class="ship"' in picture) == (obs["ship"] is not None)
    assert picture.count('class="area closed"') == sum(a["closed"] for a in obs["areas"])


def test_a_big_hand_stays_on_one_row_of_cards_big_enough_to_touch():
    state = positions(4, (("mode", "expansion"),))[2]
    obs = state.observation(0)
    normal = box(tree(render.svg(obs)))[1]
    obs["hand"] = ["water-45", "water-46", "water-47", "red-1", "red-5", "red-7", "red-9",
                   "flood-88", "bridge-90", "customs-92"]
    root = tree(render.svg(obs))
    width, height = box(root)
    cards = [el for el in root.iter(f"{NS}g") if el.get("class") == "hand-card"]
    assert [el.get("id") for el in cards] == [f"hand-{c}" for c in obs["hand"]]
    tops = set()
    for el in cards:
        rect = el.find(f"{NS}rect[@class='card']")
        assert rect is not None
        assert float(rect.get("width", 0)) * PHONE / width >= MIN_TARGET_PX
        tops.add(rect.get("y"))
    assert len(tops) == 1 and height <= normal + 1
