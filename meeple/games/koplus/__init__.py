"""KoPlus (コプラス): lay plus- and U-shaped NET tiles on a board of sections to catch aliens."""

from meeple.engine import register

from . import heuristics, render
from .rules import KoPlus, KoPlusState

register(KoPlus, renderer=render, heuristics=heuristics)

__all__ = ["KoPlus", "KoPlusState"]
