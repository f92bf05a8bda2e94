"""Kozo: a shared tower of 12 wooden polycubes on a ring around an open chimney."""

from meeple.engine import register

from . import heuristics, learn, physics, render
from .rules import Kozo, KozoState

register(Kozo, renderer=render, heuristics=heuristics, motion=physics, lessons=learn,
         views=("board", "tower-3d"))

__all__ = ["Kozo", "KozoState"]
