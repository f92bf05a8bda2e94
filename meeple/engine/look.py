"""How players look: one colour (with a symbol, so colour is never the only cue) and one name
per seat, the same on every board, panel, log and results table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Colour:
    """A player's colour: its name in player words, the fill, a symbol, the ink drawn on it."""

    name: str
    fill: str
    symbol: str
    ink: str = "#ffffff"

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "fill": self.fill, "symbol": self.symbol, "ink": self.ink}


PALETTE: tuple[Colour, ...] = (
    Colour("blue", "#0072b2", "●"),
    Colour("orange", "#e69f00", "▲", "#000000"),
    Colour("green", "#009e73", "■"),
    Colour("pink", "#cc79a7", "◆", "#000000"),
    Colour("red", "#d55e00", "★"),
    Colour("sky", "#56b4e9", "✚", "#000000"),
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


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """A seat's display name: the given name, else "Player N" (seats count from 1)."""
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"Player {seat + 1}"


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """Every seat's display name."""
    return [seat_name(p, names) for p in range(players)]
