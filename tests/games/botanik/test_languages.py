"""Botanik in German, Spanish and Dutch: the move log, the board picture and a refusal speak
the language in use; English stays the language of the code."""

from __future__ import annotations

import pytest

from meeple.engine import IllegalAction, i18n
from meeple.games.botanik import learn, render

WORDS = {
    # a sentence of the log, the picture's words, a refusal
    "de": ("legt die rote Kurve mit einer Blume auf das erste eigene Feld", "Deine Seite",
           "weder in Farbe noch in Art (O2)"),
    "es": ("coloca el codo rojo con una flor en su primera casilla", "Tu lado",
           "ni en color ni en tipo (O2)"),
    "nl": ("legt de rode bocht met een bloem op het eerste eigen vak", "Jouw kant",
           "niet in kleur en niet in vorm (O2)"),
}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_botanik_speaks_the_language_in_use(lang: str) -> None:
    log, picture_words, refusal = WORDS[lang]
    step = learn.LESSON.steps[0]
    state = learn.LESSON.position(step.position or "start").build()
    move = state.string_to_action(step.expect[0])
    with i18n.speaking(lang):
        said = state.describe(0, move)
        assert said.startswith(log) and "puts" not in said
        picture = render.svg(state.observation(0))
        assert picture_words in picture and "Your side" not in picture
        wrong = next(iter(step.wrong))
        with pytest.raises(IllegalAction) as err:
            state.apply(state.string_to_action(wrong))
        assert refusal in err.value.reason
        assert "neither colour nor type" not in err.value.reason
    assert state.describe(0, move).startswith("puts the red elbow with a flower on their first")
