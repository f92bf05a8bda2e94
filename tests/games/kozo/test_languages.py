"""Kozo in German, Spanish and Dutch: the move log, the tower picture and a refusal speak the
language in use; English stays the language of the code."""

from __future__ import annotations

import pytest

import meeple
from meeple.engine import IllegalAction, i18n
from meeple.games.kozo import render

WORDS = {
    # a sentence of the log, the picture's words, a refusal
    "de": ("legt den braunen V-Fünfling (L)", "Übrige Teile",
           "auf einem Balancewürfel auf (C4)"),
    "es": ("coloca el pentacubo V marrón (L)", "Piezas restantes",
           "se apoyaría en un cubo de equilibrio (C4)"),
    "nl": ("legt de bruine V-vijfling (L)", "Resterende blokken",
           "op een balansblokje rusten (C4)"),
}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_kozo_speaks_the_language_in_use(lang: str) -> None:
    log, picture_words, refusal = WORDS[lang]
    state = meeple.load("kozo", players=2).new_initial_state()
    v = state.string_to_action("P12.5@0,0")
    with i18n.speaking(lang):
        said = state.describe(0, v)
        assert said.startswith(log) and "places" not in said
        state.apply(v)
        state.apply(state.string_to_action("B@0,0"))
        picture = render.svg(state.observation(0))
        assert picture_words in picture and "Pieces left" not in picture
        with pytest.raises(IllegalAction) as err:
            state.apply(state.string_to_action("P1.2@0,0"))  # the bar on the balance cube
        assert refusal in err.value.reason
        assert "rest on a balance cube" not in err.value.reason
    fresh = meeple.load("kozo", players=2).new_initial_state()
    assert fresh.describe(0, v).startswith("places the brown V-pentacube (L)")
