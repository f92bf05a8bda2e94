"""Mops Royal in German, Spanish and Dutch: the log, the labels, the pictures and the refusals
are said in the language in use, the records stay as they are."""

from __future__ import annotations

import pytest

import meeple
from meeple.engine import i18n
from meeple.games.mops_royal import learn
from tests.games.mops_royal.helpers import enter_placement, make_state
from tests.games.mops_royal.test_play import M2

SCORE = "score V3 (-1,-1) (0,-1) (0,0) flip (0,-1)"


def _corner():
    """The lesson's position with the blue corner ready to score (the pillow with its crown,
    the bone, the bowl)."""
    return learn.game(learn.ROUNDS)


@pytest.mark.parametrize(("lang", "said"), [
    ("de", "wertet eine kleine Ecke aus blauen Plättchen für 3 Punkte und dreht den blauen "
           "Knochen direkt oberhalb des eigenen Startplättchens um."),
    ("es", "puntúa una esquina pequeña de losetas azules por 3 puntos y pone boca abajo el "
           "hueso azul justo encima de su loseta inicial."),
    ("nl", "scoort een kleine hoek van blauwe tegels voor 3 punten en draait het blauwe bot "
           "direct boven de eigen starttegel dicht."),
    ("en", "scores a small corner of blue tiles for 3 points, turning face down the blue bone "
           "just above their start tile."),
])
def test_the_log_says_a_scoring_in_the_language_in_use(lang: str, said: str) -> None:
    s = _corner()
    a = s.string_to_action(SCORE, 0)
    with i18n.speaking(lang):
        assert s.describe(0, a) == said
    assert s.action_to_string(a, 0) == SCORE  # the notation never changes


@pytest.mark.parametrize(("lang", "label", "english"), [
    ("de", "Lege das blaue Kissen mit Krone ein Feld links und ein Feld oberhalb deines "
           "Startplättchens", "Place the blue pillow"),
    ("es", "Coloca el cojín azul con corona una casilla a la izquierda y una casilla por encima "
           "de tu loseta inicial", "Place the blue pillow"),
    ("nl", "Leg het blauwe kussen met een kroon één vak links en één vak boven je starttegel",
     "Place the blue pillow"),
])
def test_a_placement_label_has_its_own_word_order(lang: str, label: str, english: str) -> None:
    s = learn.game(learn.ROUNDS[:3])
    a = s.string_to_action("place (-1,-1)", 0)
    with i18n.speaking(lang):
        said = s.describe_action(a, 0)["label"]
    assert said == label and english not in said


@pytest.mark.parametrize(("lang", "words", "english"), [
    ("de", ("Kombinationen", "Noch im Spiel", "Mops Royal · Runde"),
     ("Combinations", "Still to come", "Mops Royal · round")),
    ("es", ("Combinaciones", "Aún por salir", "Mops Royal · ronda"),
     ("Combinations", "Still to come", "The caller")),
    ("nl", ("Combinaties", "Nog te komen", "Mops Royal · ronde"),
     ("Combinations", "Still to come", "The caller")),
])
def test_the_picture_speaks_the_language(lang: str, words: tuple[str, ...],
                                         english: tuple[str, ...]) -> None:
    s = _corner()
    game = s.game
    with i18n.speaking(lang):
        picture = game.renderer.svg(s.observation(0))
        board = game.renderer.text(s.observation(0))
    for w in words:
        assert w in picture
    for w in english:
        assert w not in picture
    assert "Combinations" not in board and "Colours" not in board


@pytest.mark.parametrize(("lang", "refusal"), [
    ("de", "Kante"), ("es", "por un lado"), ("nl", "langs een zijde")])
def test_an_illegal_placement_is_refused_in_the_language(lang: str, refusal: str) -> None:
    s = enter_placement(make_state([M2, {(0, 0): "Gl"}]), "Yp")
    with i18n.speaking(lang), pytest.raises(meeple.IllegalAction) as e:
        s.apply(s.string_to_action("place (2,2)", 0), 0)
    assert refusal in str(e.value) and "edge" not in str(e.value)


@pytest.mark.parametrize(("lang", "yours", "theirs"), [
    ("en", "your start tile", "their start tile"),
    ("de", "deines Startplättchens", "des eigenen Startplättchens"),
    ("nl", "je starttegel", "de eigen starttegel"),
])
def test_a_label_said_of_the_mover_names_their_start_tile(lang: str, yours: str,
                                                          theirs: str) -> None:
    from meeple.engine.words import of_them

    s = learn.game(learn.ROUNDS[:3])
    a = s.string_to_action("place (-1,-1)", 0)
    with i18n.speaking(lang):
        to_them = s.describe_action(a, 0)["label"]
        with of_them():
            of_the_mover = s.describe_action(a, 0)["label"]
    assert to_them.endswith(yours) and of_the_mover.endswith(theirs)
