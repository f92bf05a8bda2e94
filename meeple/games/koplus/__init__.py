"""KoPlus (コプラス): lay plus- and U-shaped NET tiles on a board of sections to catch aliens."""

from meeple.engine import register

from . import heuristics, learn, render
from .rules import KoPlus, KoPlusState

register(KoPlus, renderer=render, heuristics=heuristics, lessons=learn)

__all__ = ["KoPlus", "KoPlusState"]
