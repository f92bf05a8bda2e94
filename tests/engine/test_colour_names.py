"""The players' colours are named in the language in use: the tooltip on a player's mark says
"Schwarz", not "black", for the shared palette and a game's own colours alike."""

from __future__ import annotations

import pytest

from meeple.engine import i18n, registry

GAMES = sorted(p.parent.name for p in (i18n.ROOT / "games").glob("*/locale"))


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_colour_has_its_name_in_every_language(game: str) -> None:
    colours = registry.game_class(game).colours
    for lang in i18n.TRANSLATED:
        with i18n.speaking(lang):
            untranslated = [c.name for c in colours if c.to_json()["label"] == c.name]
        assert not untranslated, f"{game} in {lang}: {untranslated}"
