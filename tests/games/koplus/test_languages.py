"""KoPlus in German, Spanish and Dutch: the move log, the board picture and a refusal speak
the language in use; English stays the language of the code."""

from __future__ import annotations

import pytest

from meeple.engine import IllegalAction, i18n
from meeple.games.koplus import learn, render

WORDS = {
    # a sentence of the log, the picture's title, a refusal
    "de": ("legt ein nach unten offenes U", "KoPlus-Spielplan",
           "mit einer Kante an ein schon gelegtes Plättchen grenzen"),
    "es": ("coloca una U abierta hacia abajo", "Tablero de KoPlus",
           "compartir un lado con una ficha ya colocada"),
    "nl": ("legt een U met de opening naar beneden", "KoPlus-bord",
           "met een zijde grenzen aan een tegel die er al ligt"),
}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_koplus_speaks_the_language_in_use(lang: str) -> None:
    log, title, refusal = WORDS[lang]
    state = learn.f2()
    first = state.string_to_action("U2@6,5")
    with i18n.speaking(lang):
        said = state.describe(0, first)
        assert said.startswith(log) and "places" not in said
        assert "9" in said
        state.apply(first)
        picture = render.svg(state.observation(0))
        assert title in picture and "KoPlus board" not in picture
        assert "Board section" not in picture
        with pytest.raises(IllegalAction) as err:
            state.apply(state.string_to_action("X@0,0"))
        assert refusal in err.value.reason
        assert "share an edge" not in err.value.reason
    assert "places a U opening down" in learn.f2().describe(0, first)
