"""The labels of ``describe_action``: what a person reads in the move list, the buttons and the
preview line. On random positions of every configuration of every game, every legal action's
label (chance outcomes too) is a sentence in the game's words: it starts with a capital letter
and shows none of the game's internal codes (tile, card and piece ids, seat codes, raw
coordinates, the text notation). A few exact labels per game come from the worked examples."""

from __future__ import annotations

import random
import re
import zlib

import pytest

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS
from meeple.games.botanik.components import tile_set
from meeple.games.kontor.components import CARD_NAME
from meeple.games.mops_royal.components import CODES, SHAPE_IDS, TILES

COMMON = [
    r"-?\d+\s*,\s*-?\d+",  # raw coordinates: 0,0 (-1,-3) 2, -1
    r"[()\[\]{}]\s*-?\d",  # a bracketed number: (2 [0 {1
    r"\bP\d+\b",  # seat and piece codes: P0 P12
    r"@",  # the text notation's anchor sign
    r"=",  # crane=wine
    r"\b(?:None|True|False)\b",  # Python values
    r"_",  # option ids and names of the code
]
"""Patterns no label of any game may contain."""


def _words(codes: list[str]) -> str:
    """A pattern for any of ``codes`` as a whole word."""
    return r"(?<![\w-])(?:" + "|".join(re.escape(c) for c in sorted(codes, key=len,
                                                                      reverse=True)) + r")(?![\w-])"


CODES_OF = {
    "koplus": [r"\bU[0-3]\b", r"\bX\b", r"\bS\d\d\b", r"\bdeal\b", r"\bpass\b"],
    "kozo": [r"\bB\s*@", r"turned \d", r"\d\.\d+@", r"\btremor -?\d", r"\bdraw \d",
             r"\bpiece P"],
    "mops_royal": [_words(list(TILES)), r"(?<![\w-])(?:" + "|".join(CODES) + r")(?![\w-])",
                   _words(list(SHAPE_IDS)), r"\bflip\b", r"\bnoscore\b"],
    "botanik": [_words(tile_set().ids), r"\b(?:ST|EL|TE)[1-3]\b", r"\b(?:CR|PL|VE|MB|SRC)\b",
                r"\b[NESW](?: [NESW])+\b", r"\bown\b", r"\bspace \d", r"\bpile \d"],
    "kontor": [_words([n for n in CARD_NAME if "-" in n]), r"\b(?:crane|export)=",
               r"[a-z]+-\d+"],
}
"""Each game's own codes: its component ids and the words of its text notation."""

CONFIGS = [
    pytest.param(name, players, options, id=f"{name}-{players}p-" + "-".join(
        f"{k}={v}" for k, v in options.items()) if options else f"{name}-{players}p")
    for name in meeple.games()
    for players, options in meeple.engine.game_class(name).configurations()
]


def label_problems(name: str, label: object) -> list[str]:
    """What is wrong with ``label`` as a sentence for a player of ``name`` (empty: nothing)."""
    if not isinstance(label, str) or not label:
        return [f"not a text: {label!r}"]
    out = []
    if not label[0].isupper():
        out.append("does not start with a capital letter")
    if label != label.strip() or "  " in label:
        out.append("has stray spaces")
    for pattern in COMMON + CODES_OF[name]:
        m = re.search(pattern, label)
        if m:
            out.append(f"shows the code {m.group(0)!r} ({pattern})")
    return out


def test_every_game_has_its_codes_listed():
    assert set(CODES_OF) == set(meeple.games())


@pytest.mark.parametrize("bad", ["Place U opening up at 0,0: catches 6 points",
                                 "Place X at 0,1: catches 4 points",
                                 "Deal section S05 turned 1 quarter(s) clockwise at position 4"])
def test_the_old_koplus_labels_would_fail(bad):
    assert label_problems("koplus", bad)


@pytest.mark.parametrize("name,bad", [
    ("kozo", "Place P1 (dicube) turned 0 at 0,0: it rests at height 0"),
    ("kozo", "Put a balance cube on column 0,0 (height 2)"),
    ("kozo", "tremor -1,1"),
    ("mops_royal", "Place blue-bone at (-1,-3)"),
    ("mops_royal", "Score V3 for 3 points, turning the tile face down"),
    ("mops_royal", "caller P1"),
    ("botanik", "Add G-TE3 at -1,0 (pipes N E S)"),
    ("botanik", "Put R-EL1 on your space 0"),
    ("botanik", "Swap with pile 2 and take K-MB"),
    ("kontor", "Choose black-14 (crane)"),
    ("kontor", "Place black-22 at (-1,-2)"),
    ("kontor", "Card drawn: water-63"),
])
def test_the_old_labels_would_fail(name, bad):
    assert label_problems(name, bad)


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_every_label_is_a_sentence_without_codes(name, players, options):
    game = meeple.load(name, players=players, **options)
    rng = random.Random(zlib.crc32(f"labels/{name}/{players}/{options}".encode()))
    kinds: set[str] = set()
    checked = 0
    for _ in range(2):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            cp = state.current_player
            actors = state.pending_players() if cp == SIMULTANEOUS else [cp]
            actor = rng.choice(actors)
            legal = state.legal_actions(actor)
            if cp == CHANCE or steps % 4 == 0 or len(legal) <= 3:
                for a in legal:
                    d = state.describe_action(a, actor)
                    problems = label_problems(name, d["label"])
                    assert not problems, (d["label"], state.action_to_string(a, actor),
                                          problems)
                    kinds.add(str(d.get("kind")))
                    checked += 1
            state.apply(rng.choice(legal), actor)
            steps += 1
    assert checked and len(kinds) >= 2, kinds


# ------------------------------------------------------------------ exact labels, per game

def test_koplus_labels_of_the_worked_example_f2():
    from tests.games.koplus.test_examples import f2, play

    state = f2()
    assert state.describe_action(state.string_to_action("U2@6,5"))["label"] == (
        "Lay a U opening down, the middle of its top side on row 7, column 7: catches 9 points")
    assert state.describe_action(state.string_to_action("U0@4,4"))["label"] == (
        "Lay a U opening up, the middle of its bottom side on row 6, column 6: "
        "catches 3 points")
    play(state, "U2@6,5")
    assert state.describe_action(state.string_to_action("X@3,4"))["label"].startswith(
        "Lay a plus centred on row 5, column 6: catches ")
    fresh = meeple.load("koplus", players=2).new_initial_state()
    assert fresh.describe_action(fresh.string_to_action("deal S05/1 @0", CHANCE), CHANCE)[
        "label"] == "Board section 5 is laid in place 1, turned a quarter to the right"


def test_kozo_labels_of_the_rules_example():
    s = meeple.load("kozo", players=2).new_initial_state()
    first = s.describe_action(s.string_to_action("P12.5@0,0"))
    assert first["label"].startswith("Place the brown V-pentacube (L) ")
    assert first["label"].endswith(": it rests on the board")
    s.apply(s.string_to_action("P12.5@0,0"))
    assert s.describe_action(s.string_to_action("B@0,0"))["label"] == (
        "Put a balance cube on top of the south-west column, at height 1")
    s.apply(s.string_to_action("B@0,0"))
    assert s.describe_action(s.string_to_action("P3.10@0,0"))["label"] == (
        "Place the yellow L-tricube (C) across the south-west and south columns, two cubes "
        "high on the south: it rests at height 1")
    chooser = meeple.load("kozo", players=2, opponent_choice=True).new_initial_state()
    sizes = [a for a in chooser.legal_actions() if chooser.describe_action(a)["kind"] == "size"]
    assert "Make them play a piece of two cubes" in {
        chooser.describe_action(a)["label"] for a in sizes}


def test_mops_royal_labels_of_a_worked_layout():
    from tests.games.mops_royal.helpers import enter_placement, enter_scoring, make_state
    from tests.games.mops_royal.test_play import M2

    s = enter_scoring(make_state([M2, {(0, 0): "Gl"}]))
    a = s.string_to_action("score V3 (0,0) (1,0) (1,1) flip (1,0)", 0)
    assert s.describe_action(a, 0)["label"] == (
        "Score a small corner of bowls for 3 points, turning face down the green bowl next to "
        "your start tile, on the right")
    enter_placement(s, "Yp")
    assert s.describe_action(s.string_to_action("place (-1,-2)", 0), 0)["label"] == (
        "Place the yellow poop with a crown one to the left and two above your start tile")
    assert s.describe_action(s.string_to_action("place (0,-2)", 0), 0)["label"] == (
        "Place the yellow poop with a crown two above your start tile")


def test_botanik_labels_of_a_released_tile_and_a_registry():
    from tests.games.botanik.helpers import fresh, set_registry
    from tests.games.botanik.test_dict_form import releasing

    s = releasing(fresh(), 0, "G-TE1")
    labels = {s.action_to_string(a, 0): s.describe_action(a, 0)["label"]
              for a in s.legal_actions(0)}
    assert labels["add G-TE1@0,1/1"] == (
        "Add the green tee with a flower next to your Source, on the right, turned a quarter "
        "to the right, pipes at the right, bottom and left")
    assert labels["add G-TE1@-1,0/0"] == (
        "Add the green tee with a flower just above your Source, pipes at the top, right and "
        "bottom")
    s = set_registry(fresh(), tops=["R-ST1", "Y-EL1", "G-TE1", "B-CR", "K-PL"],
                     rows={1: {0: "B-ST2"}}, arrival=["R-EL2", "G-ST2", "B-TE2"])
    labels = {s.action_to_string(a, 0): s.describe_action(a, 0)["label"]
              for a in s.legal_actions(0)}
    assert labels["own R-EL2@1"] == "Put the red elbow on your second space"
    assert labels["pile R-EL2@0"] == (
        "Put the red elbow on the first central pile, releasing the blue straight pipe on your "
        "opponent's side")
    assert labels["pile B-TE2@4"] == "Put the blue tee on the fifth central pile"


def test_botanik_labels_of_the_meca_swap_b7():
    from tests.games.botanik.test_examples import b7

    s = b7()
    assert s.describe_action(s.string_to_action("swap 1", 0), 0)["label"] == (
        "Swap the Meca-Botanist with the top of the second central pile and take the yellow "
        "elbow")
    assert s.describe_action(s.string_to_action("swap 3", 0), 0)["label"] == (
        "Swap the Meca-Botanist with the top of the fourth central pile and take the black "
        "straight pipe with a flower")


def test_kontor_labels_of_the_worked_cards():
    from meeple.games.kontor.components import CARD_ID
    from meeple.games.kontor.notation import card_words
    from tests.games.kontor.helpers import act_with, fresh, lay
    from tests.games.kontor.test_dict_form import choosing

    assert card_words(CARD_ID["black-14"]) == "the black harbour card 14 with a crane"
    assert card_words(CARD_ID["red-3"]) == (
        "the red harbour card 3 with tea, wine and spice, and a ship symbol")
    assert card_words(CARD_ID["water-48"]) == "the water card 48 with a coin symbol"
    assert card_words(CARD_ID["customs-92"]) == "the customs house card 92"
    s = choosing(fresh(), {0: ["red-15", "water-48"], 1: ["black-16", "water-50"]})
    assert s.describe_action(CARD_ID["red-15"], 0)["label"] == (
        "Choose the red harbour card 15 with wine and a coin symbol")
    s = act_with(lay(fresh(), {}), 0, "red-15")
    assert s.describe_action(s.string_to_action("place red-15 (2,-1)"), 0)["label"] == (
        "Place the red harbour card 15 with wine and a coin symbol, two to the right and one "
        "above the anchor")
