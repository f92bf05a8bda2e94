"""Kontor's log in full: the tax, the players withdrawn for not paying it, the cards that go
back to a hand (no place to go, or the field complete) and a player left with only water
cards, each said in the rules' words, exact sentences from the worked examples (K9, K10,
K16 and the customs house) and a few more positions."""

from __future__ import annotations

import random
import re

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS
from meeple.games.kontor.components import CARD_ID
from meeple.games.kontor.notation import card_words

from .helpers import _take_out, act_with, choosing, do, fresh, lay

RED15 = "chooses the red harbour card 15 with wine and a coin symbol; all the chosen cards are "


def _said(s, text, player):
    """The sentence of ``text`` by ``player``, checked to be a plain sentence, then played."""
    action = s.string_to_action(text, player)
    sentence = s.describe(player, action)
    assert sentence[0].isupper() if player == CHANCE else sentence[0].islower(), sentence
    assert sentence.endswith(".") and ". " not in sentence and "  " not in sentence, sentence
    assert not re.search(r"[a-z]+-\d|\bPlayer \d|[\[\]{}<>]", sentence), sentence
    s.apply(action, player)
    return sentence


def _k9(red_coins: int):
    s = choosing(fresh(), {0: ["red-15", "red-17", "red-19", "water-60", "water-61"],
                           1: ["water-48", "black-18", "black-20", "water-62", "water-64"]})
    s.coins = [red_coins, 3]
    assert _said(s, "choose water-48", 1) == "chooses the water card 48 with a coin symbol."
    return s


def test_k9_a_player_who_cannot_pay_is_withdrawn():
    s = _k9(0)
    assert _said(s, "choose red-15", 0) == (
        RED15 + "revealed; they cannot pay 1 coin of tax and are withdrawn: the red harbour card "
        "15 goes back to their hand; the black player pays 1 coin of tax.")
    assert s.coins == [0, 2] and CARD_ID["red-15"] in s.hands[0]


def test_k9_said_by_the_other_player():
    s = choosing(fresh(), {0: ["red-15", "red-17"], 1: ["water-48", "black-18"]})
    s.coins = [0, 3]
    do(s, "choose red-15", 0)
    assert _said(s, "choose water-48", 1) == (
        "chooses the water card 48 with a coin symbol; all the chosen cards are revealed; the red "
        "player cannot pay 1 coin of tax and is withdrawn: the red harbour card 15 goes back "
        "to the red player's hand; they pay 1 coin of tax.")


def test_k9_both_pay():
    s = _k9(1)
    assert _said(s, "choose red-15", 0) == (
        RED15 + "revealed; they and the black player each pay 1 coin of tax.")
    assert s.coins == [0, 2] and s.order == [1, 0]


def test_k10_every_player_pays_the_tax_to_the_right():
    cards = ["red-15", "black-16", "green-15", "purple-16"]
    s = choosing(fresh(4, mode="expansion"), {p: [c] for p, c in enumerate(cards)})
    s.coins = [4, 4, 4, 4]
    for p, c in enumerate(cards[:3]):
        do(s, f"choose {c}", p)
    assert _said(s, "choose purple-16", 3) == (
        "chooses the purple harbour card 16 with wine and a coin symbol; all the chosen cards "
        "are revealed; every player pays 1 coin of tax.")
    assert s.coins == [3, 3, 3, 3]


def test_k10_with_one_player_short_of_a_coin():
    cards = ["red-15", "black-16", "green-15", "purple-16"]
    s = choosing(fresh(4, mode="expansion"), {p: [c, "water-70"] for p, c in enumerate(cards)})
    s.coins = [4, 0, 4, 4]
    for p, c in enumerate(cards[:3]):
        do(s, f"choose {c}", p)
    assert _said(s, "choose purple-16", 3) == (
        "chooses the purple harbour card 16 with wine and a coin symbol; all the chosen cards "
        "are revealed; the black player cannot pay 1 coin of tax and is withdrawn: the black "
        "harbour card 16 goes back to the black player's hand; they, the red player and the "
        "green player each pay 1 coin of tax.")
    assert s.coins == [3, 0, 3, 3] and s.order == [3, 2, 0]


def test_the_customs_house_taxes_every_other_player():
    s = choosing(fresh(3, mode="expansion"), {0: ["customs-92", "red-19"],
                                              1: ["black-18", "water-45"],
                                              2: ["green-17", "water-47"]})
    s.coins = [4, 4, 1]
    do(s, "choose customs-92", 0)
    do(s, "choose black-18", 1)
    assert _said(s, "choose green-17", 2) == (
        "chooses the green harbour card 17 with spice and a ship symbol; all the chosen cards "
        "are revealed; they and the black player each pay 1 coin of tax.")
    assert s.coins == [4, 3, 0]


def test_a_customs_house_and_a_coin_symbol_make_two_coins_of_tax():
    s = choosing(fresh(3, mode="expansion"), {0: ["customs-92", "red-19"],
                                              1: ["black-18", "water-45"],
                                              2: ["water-48", "green-17"]})
    s.coins = [4, 1, 4]
    do(s, "choose customs-92", 0)
    do(s, "choose black-18", 1)
    assert _said(s, "choose water-48", 2) == (
        "chooses the water card 48 with a coin symbol; all the chosen cards are revealed; the "
        "black player cannot pay 2 coins of tax and is withdrawn: the black harbour card 18 "
        "goes back to the black player's hand; they pay 1 coin of tax.")
    assert s.coins == [4, 1, 3] and CARD_ID["black-18"] in s.hands[1]


def test_a_card_with_nowhere_to_go_goes_back_to_its_owners_hand():
    def start():
        return choosing(lay(fresh(mode="advanced", special_cards=True), {}),
                        {0: ["flood-88", "red-19"], 1: ["black-18", "black-20"]})

    s = start()
    do(s, "choose black-18", 1)
    assert _said(s, "choose flood-88", 0) == (
        "chooses the flood card 88; all the chosen cards are revealed; the flood card 88 has "
        "nowhere to go and goes back to their hand.")
    assert CARD_ID["flood-88"] in s.hands[0] and s.current_player == 1
    s = start()
    do(s, "choose flood-88", 0)
    assert _said(s, "choose black-18", 1) == (
        "chooses the black harbour card 18 with spice and a ship symbol; all the chosen cards "
        "are revealed; the flood card 88 has nowhere to go and goes back to the red player's "
        "hand.")
    s = choosing(lay(fresh(3, mode="expansion", special_cards=True), {}),
                 {0: ["flood-88", "red-19"], 1: ["black-18", "black-20"],
                  2: ["green-17", "water-47"]})
    do(s, "choose flood-88", 0)
    do(s, "choose black-18", 1)
    assert _said(s, "choose green-17", 2) == (
        "chooses the green harbour card 17 with spice and a ship symbol; all the chosen cards "
        "are revealed; the flood card 88 has nowhere to go and goes back to the red player's "
        "hand.")


def test_k16b_the_card_not_played_goes_back_when_the_field_is_complete():
    layout = {(x, y): "~" for y in range(-2, 4) for x in range(-2, 4)
              if (x, y) not in ((0, 0), (3, 3))}
    s = choosing(lay(fresh(), layout), {0: ["water-84", "red-19"], 1: ["black-26", "black-30"]})
    do(s, "choose water-84", 0)
    do(s, "choose black-26", 1)
    assert _said(s, "place water-84 (3,3)", 0) == (
        "places the water card 84, three to the right and three below the anchor and takes a "
        "coin; the field is complete, so the black harbour card 26 goes back to the "
        "black player's hand; the game is over.")
    assert s.ended == "E1" and CARD_ID["black-26"] in s.hands[1]


def test_a_player_left_with_only_water_cards_ends_the_game():
    s = lay(fresh(), {})
    act_with(s, 0, "water-50")
    s.hands[1] = [CARD_ID["water-60"], CARD_ID["water-71"]]
    s.unseen[1], s.top[1], s.queue[1] = [], -1, []
    assert _said(s, "place water-50 (1,1)", 0) == (
        "places the water card 50 with a ship symbol, one to the right and one below the "
        "anchor, takes a coin and draws the water card 57.")
    assert s.current_player == CHANCE
    turned = s.legal_actions(CHANCE)[0]
    assert _said(s, s.action_to_string(turned, CHANCE), CHANCE) == (
        f"The water card {s.game.new_initial_state().action_to_string(turned, CHANCE)[-2:]} is "
        "turned up on its pile; the black player has only water cards left; the game is over.")
    assert s.ended == "E2" and s.is_terminal()


def test_the_tax_is_said_in_random_play_whenever_it_is_paid():
    """Over whole games every tax, withdrawal and returned card the game logs is in the
    sentence of the move that brought it about (random players seldom run out of coins:
    the withdrawals are the exact examples above)."""
    said = {"tax": 0, "withdraw": 0, "return": 0}
    for seed in range(40):
        s = meeple.load("kontor", players=3, mode="expansion").new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            cp = s.current_player
            actor = rng.choice(s.pending_players()) if cp == SIMULTANEOUS else cp
            action = (meeple.sample_chance(s, rng) if actor == CHANCE
                      else rng.choice(s.legal_actions(actor)))
            sentence = s.describe(actor, action)
            before = len(s.log)
            s.apply(action, actor)
            lines = s.log[before:]
            taxed = [line for line in lines if line.startswith("tax ")]
            if taxed:
                assert "of tax" in sentence, (lines, sentence)
                said["tax"] += len(taxed)
            for line in lines:
                if line.startswith("withdraw "):
                    assert re.search(r"cannot pay \d coins? of tax and (is|are) withdrawn",
                                     sentence), (lines, sentence)
                    said["withdraw"] += 1
                if line.startswith("return "):
                    name = card_words(CARD_ID[line.split()[1]]).split(" with ")[0]
                    assert f"{name} has nowhere to go" in sentence or \
                        f"so {name} goes back" in sentence, (lines, sentence)
                    said["return"] += 1
        if said["tax"] and said["return"]:
            break
    assert said["tax"] and said["return"], said  # withdrawals: the exact examples above


def test_a_card_goes_back_after_the_player_before_it_has_acted():
    s = choosing(lay(fresh(mode="advanced", special_cards=True), {}),
                 {0: ["flood-88", "red-21"], 1: ["bridge-90", "black-20"]})
    s.coins = [4, 4]
    do(s, "choose flood-88", 0)
    do(s, "choose bridge-90", 1)  # the bridge acts first; then the flood has nowhere to go
    assert s.current_player == 1
    assert _said(s, "place bridge-90 (0,-2)", 1) == (
        "places the bridge card 90, two above the anchor; the flood card 88 has nowhere to go "
        "and goes back to the red player's hand.")
    assert CARD_ID["flood-88"] in s.hands[0]


def test_a_card_drawn_face_down_and_the_card_that_then_goes_back():
    """Closed draw piles: the acting player's draw is a secret to the others, but the card
    that then has nowhere to go is said to everyone, in both sentences."""
    s = lay(fresh(mode="advanced", special_cards=True, open_draw_piles=False), {})
    act_with(s, 0, "water-50")
    flood = CARD_ID["flood-88"]
    _take_out(s, flood)
    s.order, s.revealed[1] = [0, 1], flood  # black acts next, with a flood and no target
    do(s, "place water-50 (1,1)", 0)
    do(s, "skip", 0)
    assert s.current_player == CHANCE
    draw = s.legal_actions(CHANCE)[0]
    back = "; the flood card 88 has nowhere to go and goes back to the black player's hand."
    assert s.describe_unseen(CHANCE) == "A water card is drawn into a hand, face down" + back
    words = card_words(draw)
    assert _said(s, s.action_to_string(draw, CHANCE), CHANCE) == (
        f"{words[0].upper()}{words[1:]} is drawn into a hand" + back)
    assert s.visible_history(1)[-1] == (CHANCE, None) and flood in s.hands[1]
