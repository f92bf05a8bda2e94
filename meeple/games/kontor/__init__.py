"""Kontor (Michael Schacht, 1999): build a harbour, win areas by the largest lead in goods.

Modes ``basic`` and ``advanced`` for 2 players and ``expansion`` for 3 or 4.
"""

from meeple.engine import register

from . import heuristics, learn, render
from .rules import Kontor, KontorState, area_winner

register(Kontor, renderer=render, heuristics=heuristics, lessons=learn)

__all__ = ["Kontor", "KontorState", "area_winner"]
