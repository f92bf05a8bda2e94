"""How players look: one colour (with a symbol, so colour is never the only cue) and one name
per seat, the same on every board, panel, log and results table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .i18n import N_, words, words_of

_, _n = words(__file__)


@dataclass(frozen=True)
class Colour:
    """A player's colour: its name in player words (English, as an id too; :func:`colour_name`
    says it in the language in use), the fill, a symbol, the ink drawn on it, and the module
    whose catalog says a game's own colour name (``__file__``; the shared palette's names are
    said by the engine's catalog)."""

    name: str
    fill: str
    symbol: str
    ink: str = "#ffffff"
    said_by: str = ""

    def to_json(self) -> dict[str, str]:
        """``name`` is the English id; ``label`` the name in the language in use."""
        return {"name": self.name, "label": colour_name(self), "fill": self.fill,
                "symbol": self.symbol, "ink": self.ink}


PALETTE: tuple[Colour, ...] = (
    Colour(N_("blue"), "#0072b2", "●"),
    Colour(N_("orange"), "#e69f00", "▲", "#000000"),
    Colour(N_("green"), "#009e73", "■"),
    Colour(N_("pink"), "#cc79a7", "◆", "#000000"),
    Colour(N_("red"), "#d55e00", "★"),
    # TRANSLATORS: a player's colour, light blue
    Colour(N_("sky"), "#56b4e9", "✚", "#000000"),
)
"""The default seat colours (Okabe-Ito, safe for colour-blind players), each with a symbol."""

INK = "#222222"
"""Text and outlines."""
PAPER = "#fffdf7"
"""The background of every picture."""
MUTED = "#8a8578"
"""Secondary text and empty places."""
HIGHLIGHT = "#f2b705"
"""The current player, the last move and legal places, in every game."""


def colour_name(colour: Colour) -> str:
    """The colour's name in the language in use ("Blau"), a game's own colour through the
    game's catalog."""
    return words_of(colour.said_by).say(colour.name) if colour.said_by else _(colour.name)


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """A seat's display name: the given name, else "Player N" (seats count from 1)."""
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    # TRANSLATORS: a seat without a name; seats count from 1
    return _("Player {number}", number=str(seat + 1))


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """Every seat's display name."""
    return [seat_name(p, names) for p in range(players)]
