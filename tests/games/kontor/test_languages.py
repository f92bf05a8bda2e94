"""Kontor in German, Spanish and Dutch: the log, the labels, the pictures and the refusals are
said in the language in use (case and word order of each), the records stay as they are."""

from __future__ import annotations

import pytest

import meeple
from meeple.engine import i18n
from meeple.games.kontor import learn
from meeple.games.kontor.components import CARD_ID

from .helpers import act_with, choosing, fresh, lay


def _tax():
    """K9: black has chosen the water card 48 with its coin symbol; red, who cannot pay, is
    about to choose."""
    s = choosing(fresh(), {0: ["red-15", "red-17", "red-19", "water-60", "water-61"],
                           1: ["water-48", "black-18", "black-20", "water-62", "water-64"]})
    s.coins = [0, 3]
    s.apply(s.string_to_action("choose water-48", 1), 1)
    return s


@pytest.mark.parametrize(("lang", "said"), [
    ("de", "wählt die rote Hafenkarte 15 mit Wein und einem Münzsymbol; alle gewählten Karten "
           "werden aufgedeckt; der Spieler am Zug kann 1 Münze Steuer nicht zahlen und setzt die "
           "Runde aus: die rote Hafenkarte 15 geht zurück auf die eigene Hand; Schwarz zahlt 1 "
           "Münze Steuer."),
    ("es", "elige la carta de puerto roja 15 con vino y un símbolo de moneda; se revelan todas "
           "las cartas elegidas; no puede pagar 1 moneda de impuesto y se salta la ronda: la "
           "carta de puerto roja 15 vuelve a su mano; el jugador negro paga 1 moneda de impuesto."),
    ("nl", "kiest de rode havenkaart 15 met wijn en een muntsymbool; alle gekozen kaarten worden "
           "onthuld; hij kan 1 munt belasting niet betalen en slaat de ronde over: de rode "
           "havenkaart 15 gaat terug naar zijn hand; de zwarte speler betaalt 1 munt "
           "belasting."),
])
def test_the_log_says_the_tax_in_the_language_in_use(lang: str, said: str) -> None:
    s = _tax()
    a = s.string_to_action("choose red-15", 0)
    with i18n.speaking(lang):
        assert s.describe(0, a) == said
    assert s.action_to_string(a, 0) == "choose red-15"  # the notation never changes
    assert "they cannot pay" in s.describe(0, a)  # and English is the default


@pytest.mark.parametrize(("lang", "label", "said"), [
    ("de", "Lege die rote Hafenkarte 21 mit Wein, ein Feld rechts und zwei Felder oberhalb "
           "des Ankers", "legt ein Feld rechts und zwei Felder oberhalb des Ankers die rote "
                         "Hafenkarte 21 mit Wein"),
    ("es", "Coloca la carta de puerto roja 21 con vino, una casilla a la derecha y dos "
           "casillas por encima del ancla", "coloca la carta de puerto roja 21 con vino, "
                                            "una casilla a la derecha y dos casillas por encima "
                                            "del ancla"),
    ("nl", "Leg de rode havenkaart 21 met wijn, één vak rechts en twee vakken boven het "
           "anker", "legt de rode havenkaart 21 met wijn, één vak rechts en twee vakken "
                    "boven het anker"),
])
def test_a_placement_says_the_card_and_the_place(lang: str, label: str, said: str) -> None:
    s = learn.game(learn.ROUND_1[:2])
    a = s.string_to_action("place red-21 (1,-2)", 0)
    with i18n.speaking(lang):
        assert s.describe_action(a, 0)["label"] == label
        assert s.describe(0, a).startswith(said)


@pytest.mark.parametrize(("lang", "said"), [
    ("de", "legt ein Feld rechts und zwei Felder unterhalb des Ankers die schwarze Hafenkarte 8 "
           "mit Tee und Wein sowie einem Schiffssymbol und exportiert dabei einmal Tee."),
    ("nl", "legt de zwarte havenkaart 8 met thee en wijn, en een scheepssymbool, één vak rechts "
           "en twee vakken onder het anker, en exporteert daarbij één keer thee."),
])
def test_an_export_is_joined_to_the_placement_in_each_language(lang: str, said: str) -> None:
    s = act_with(lay(fresh(mode="advanced", export_warehouse=True), {}), 1, "black-8")
    a = s.string_to_action("place black-8 (1,2) export=tea", 1)
    with i18n.speaking(lang):
        assert s.describe(1, a) == said
    assert s.describe(1, a).endswith("one to the right and two below the anchor, exporting "
                                     "one tea.")


def test_german_closes_the_place_before_what_the_player_does_besides() -> None:
    s = lay(fresh(), {})
    act_with(s, 0, "water-50")
    s.hands[1] = [CARD_ID["water-60"], CARD_ID["water-71"]]
    s.unseen[1], s.top[1], s.queue[1] = [], -1, []
    a = s.string_to_action("place water-50 (1,1)", 0)
    with i18n.speaking("de"):
        assert s.describe(0, a) == (
            "legt ein Feld rechts und ein Feld unterhalb des Ankers die Wasserkarte 50 mit einem "
            "Schiffssymbol, nimmt eine Münze und zieht die Wasserkarte 57.")


@pytest.mark.parametrize(("lang", "words", "english"), [
    ("de", ("Kontor · Runde", "Deine Hand", "Nachziehstapel", "Vorrat"),
     ("Your hand", "Draw piles", "Warehouses left", "Kontor · round")),
    ("es", ("Kontor · ronda", "Tu mano", "Mazos de robo", "Almacenes restantes"),
     ("Your hand", "Draw piles", "Warehouses left", "Kontor · round")),
    ("nl", ("Kontor · ronde", "Je hand", "Trekstapels", "Pakhuizen over"),
     ("Your hand", "Draw piles", "Warehouses left", "Kontor · round")),
])
def test_the_picture_speaks_the_language(lang: str, words: tuple[str, ...],
                                         english: tuple[str, ...]) -> None:
    s = _tax()
    with i18n.speaking(lang):
        picture = s.game.renderer.svg(s.observation(0))
        board = s.game.renderer.text(s.observation(0))
    for w in words:
        assert w in picture
    for w in english:
        assert w not in picture and w not in board


@pytest.mark.parametrize(("lang", "refusal"), [
    ("de", "ist nicht auf deiner Hand"), ("es", "no está en tu mano"),
    ("nl", "zit niet in je hand")])
def test_a_card_not_in_hand_is_refused_in_the_language(lang: str, refusal: str) -> None:
    s = _tax()
    with i18n.speaking(lang), pytest.raises(meeple.IllegalAction) as e:
        s.apply(s.string_to_action("choose red-21", 0), 0)
    assert refusal in str(e.value) and "is not in your hand" not in str(e.value)


@pytest.mark.parametrize(("lang", "refusal"), [
    ("de", "ist kein Kontor-Zug"),
    ("es", "no es una jugada de Kontor"), ("nl", "is geen Kontor-zet")])
def test_a_move_that_cannot_be_read_is_refused_in_the_language(lang: str, refusal: str) -> None:
    s = _tax()
    with i18n.speaking(lang), pytest.raises(meeple.NotationError) as e:
        s.string_to_action("fly away", 0)
    assert refusal in str(e.value)
